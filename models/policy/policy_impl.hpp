// One interface for both implementations of a policy block: the C++ reference (models/policy/) and its
// Verilated RTL (models/rtl_loop/). Both are stepped with the block's own Inputs and answer with its own
// Outputs, cycle by cycle, so the component that drives a block (a link, a partition driver) is written once
// and cannot tell which implementation it runs. Plain C++: no SystemC.
#pragma once

#include <cstdint>

namespace numagpu::policy {

template <class Block>
class PolicyImpl {
 public:
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;

  virtual ~PolicyImpl() = default;
  // One rising edge: consumes this cycle's inputs; the returned outputs hold from the next cycle on.
  virtual Outputs step(const Inputs& in) = 0;
  // The outputs of the current cycle.
  virtual Outputs outputs() const = 0;
  // Window decisions taken so far (activity.json).
  virtual std::uint64_t decisions() const = 0;
  // Cycles of one decision window (the block's sample_cycles).
  virtual std::uint64_t window_cycles() const = 0;
  // Idle time for free (docs/performance.md). Call only in the block's quiet fixed point (QuietWindows, in
  // policy/quiet_windows.hpp, tells when): at the first cycle of a window, after a whole window of quiet
  // inputs that ended with no decision. Then `windows` more windows of quiet inputs leave every register as
  // it is and only count as decisions of "none", so both implementations skip them in closed form.
  virtual void skip_quiet_windows(std::uint64_t windows) = 0;
  // Quiet cycles inside a window (Block::skip_quiet_cycles says when): only the window position advances.
  // QuietWindows::skip_cycles tells when a driver may call it.
  virtual void skip_quiet_cycles(std::uint64_t cycles) = 0;
};

// The C++ reference policy behind the interface.
template <class Block>
class ReferenceImpl final : public PolicyImpl<Block> {
 public:
  using typename PolicyImpl<Block>::Inputs;
  using typename PolicyImpl<Block>::Outputs;

  explicit ReferenceImpl(const typename Block::Params& params) : block_(params) {}
  Outputs step(const Inputs& in) override { return block_.step(in); }
  Outputs outputs() const override { return block_.outputs(); }
  std::uint64_t decisions() const override { return block_.counters().windows; }
  std::uint64_t window_cycles() const override { return block_.params().sample_cycles; }
  void skip_quiet_windows(std::uint64_t windows) override { block_.skip_quiet_windows(windows); }
  void skip_quiet_cycles(std::uint64_t cycles) override { block_.skip_quiet_cycles(cycles); }
  const Block& block() const { return block_; }

 private:
  Block block_;
};

}  // namespace numagpu::policy
