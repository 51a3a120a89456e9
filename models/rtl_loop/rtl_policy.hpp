// A Verilated policy block behind policy::PolicyImpl: one adapter for every block and build, told apart by
// the block's port traits (rtl_ports.hpp) and the Verilated class of the build (models/CMakeLists.txt makes
// one per row of its build table). Each step is one clock edge with the C++ class's inputs on the ports.
#pragma once

#include <verilated.h>

#include <cstdint>

#include "policy/policy_impl.hpp"
#include "rtl_loop/fast_forward.hpp"

namespace numagpu {

template <class Ports, class Top>
class RtlPolicy final : public policy::PolicyImpl<typename Ports::Block> {
 public:
  using Block = typename Ports::Block;
  using typename policy::PolicyImpl<Block>::Inputs;
  using typename policy::PolicyImpl<Block>::Outputs;

  // Starts with one reset edge (quiet inputs), as the C++ class starts in its reset state.
  explicit RtlPolicy(const typename Ports::Build& build)
      : build_(build), window_(Ports::params(build).sample_cycles) {
    top_.rst_ni = 0;
    Ports::drive(top_, Inputs{});
    edge();
    top_.rst_ni = 1;
  }
  ~RtlPolicy() override { top_.final(); }
  RtlPolicy(const RtlPolicy&) = delete;
  RtlPolicy& operator=(const RtlPolicy&) = delete;

  Outputs step(const Inputs& in) override {
    Ports::drive(top_, Ports::fit(in, build_));
    edge();
    decisions_ += top_.decision_valid_o;
    return outputs();
  }
  Outputs outputs() const override { return Ports::outputs(top_); }
  std::uint64_t decisions() const override { return decisions_; }
  std::uint64_t window_cycles() const override { return window_; }
  // In the quiet fixed point the RTL's registers are what they will be after `windows` more quiet windows
  // (the reference's contract, which the lockstep tests hold the RTL to; tests/unit/model/quiet_skip_test.cpp
  // and program_idle_skip_changes_nothing check it against stepping): only the decision pulses are counted.
  void skip_quiet_windows(std::uint64_t windows) override { decisions_ += windows; }
  void skip_quiet_cycles(std::uint64_t cycles) override {
    rtl_ports::fast_forward_window(top_, Ports::window_counter(top_), cycles, window_,
                                   Block::quiet_cycles_skippable(outputs()), Ports::kTop);
  }

 private:
  void edge() {
    top_.clk_i = 0;
    top_.eval();
    top_.clk_i = 1;
    top_.eval();
  }

  typename Ports::Build build_;
  VerilatedContext context_;
  Top top_{&context_, Ports::kTop};
  std::uint64_t decisions_ = 0;  // decision_valid_o pulses
  std::uint64_t window_;
};

}  // namespace numagpu
