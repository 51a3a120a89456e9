// Steps a policy block (either implementation, behind PolicyImpl) lazily through simulated cycles for the
// component that feeds it (a link, a partition driver): the catch-up loop, the kernel launch strobe and the
// skipping of quiet time (QuietWindows, docs/performance.md "Idle time") are written here once, so that every
// driver of a policy block steps it the same way and a new block needs no new loop. Plain C++: no SystemC.
//
// The owner knows what its block sees and does with the outputs; the stepper asks it through three member
// functions (a template parameter, so the calls inline; make them private and befriend the stepper):
//
//   std::uint64_t quiet_until(std::uint64_t c, std::uint64_t until)
//       The first cycle in [c, until] whose inputs may not be quiet (Block::quiet_inputs), or `until`. A
//       lower bound is enough (c itself when unsure): it only limits how far the stepper skips. The launch
//       strobe is the stepper's own business and need not be considered.
//   typename Block::Inputs inputs_of(std::uint64_t c)
//       The inputs of cycle c, kernel_launch aside (the stepper sets it). Called once per stepped cycle, in
//       increasing order, so the owner may consume per-cycle state here.
//   void take_outputs(std::uint64_t c, const typename Block::Outputs& out)
//       The outputs after stepping cycle c, in force from cycle c + 1.
//
// Skipped cycles are never shown to the owner: skipping leaves the outputs as they are (PolicyImpl's
// contract), so an owner that reacts to changes of the outputs sees what stepping would show, with one
// exception: the one-cycle decision pulses of skipped whole windows (each a decision of "none" that changes
// nothing) do not show. Owners act on what the decisions hold (lanes, way split), not on the pulse.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

#include "policy/policy_impl.hpp"
#include "policy/quiet_windows.hpp"

namespace numagpu::policy {

template <class Block>
class PolicyStepper {
 public:
  using Impl = PolicyImpl<Block>;
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;

  explicit PolicyStepper(std::unique_ptr<Impl> impl)
      : impl_(std::move(impl)), quiet_(impl_->window_cycles()) {}

  // Steps every cycle before `until` that has not been stepped yet, skipping quiet time where the block
  // allows it. A quiet stretch that reaches `until` from a window start in the fixed point is left unstepped
  // (stepped() stays at that window start): its outputs hold until the next window end, and the cycles are
  // stepped, or skipped, once a later call knows what follows them.
  template <class Owner>
  void catch_up(std::uint64_t until, Owner& owner) {
    std::uint64_t c = stepped_;
    for (; c < until; ++c) {
      if (skip_quiet_) {
        std::uint64_t quiet_end = owner.quiet_until(c, until);
        if (launch_pending_) quiet_end = std::min(quiet_end, launch_cycle_);
        if (quiet_.at_fixed_point()) {
          c = quiet_.skip(c, quiet_end, *impl_);
          if (quiet_end == until) break;
        }
        c = quiet_.skip_cycles(c, quiet_end, *impl_);
        if (c == until) break;
      }
      Inputs in = owner.inputs_of(c);
      in.kernel_launch = launch_pending_ && c == launch_cycle_;
      if (in.kernel_launch) launch_pending_ = false;
      const Outputs out = impl_->step(in);
      quiet_.stepped(c, Block::quiet_inputs(in), in.kernel_launch, out);
      owner.take_outputs(c, out);
    }
    stepped_ = std::max(stepped_, c);
  }

  // A kernel launch in cycle `now`: steps the cycles before it, and cycle `now`, when it is stepped, carries
  // the launch strobe.
  template <class Owner>
  void kernel_launch(std::uint64_t now, Owner& owner) {
    catch_up(now, owner);
    launch_pending_ = true;
    launch_cycle_ = now;
  }

  // Never skip quiet time (debug.step_idle_windows): for checking that skipping changes nothing.
  void step_every_cycle() { skip_quiet_ = false; }

  // Cycles before this one have been stepped or skipped.
  std::uint64_t stepped() const { return stepped_; }
  const Impl& impl() const { return *impl_; }
  // Whole quiet windows and in-window quiet cycles skipped so far (numagpu run --bench).
  std::uint64_t quiet_windows_skipped() const { return quiet_.skipped(); }
  std::uint64_t quiet_cycles_skipped() const { return quiet_.cycles_skipped(); }

 private:
  std::unique_ptr<Impl> impl_;
  QuietWindows<Block> quiet_;
  bool skip_quiet_ = true;
  std::uint64_t stepped_ = 0;
  std::uint64_t launch_cycle_ = 0;
  bool launch_pending_ = false;
};

}  // namespace numagpu::policy
