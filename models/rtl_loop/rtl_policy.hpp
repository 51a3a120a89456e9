// A Verilated policy block behind policy::PolicyImpl: one adapter for every block and build, told apart by
// the block's port traits (rtl_ports.hpp) and the Verilated class of the build (models/CMakeLists.txt makes
// one per row of its build table). Each step is one clock edge with the C++ class's inputs on the ports.
//
// With waveforms on (rtl.waves, rtl_waves.hpp) the adapter dumps every signal of the block for the cycles of
// the window, at simulated time: cycle c's inputs with the clock low at c x period, its rising edge half a
// period later (lanes.vcd's time base). Quiet time that the stepper skips (PolicyImpl::skip_quiet_*) is
// stepped instead where it overlaps the window, with quiet inputs: by the skip's contract the registers end
// up the same, and the dump shows every cycle; outside the window the skips stay in closed form.
#pragma once

#include <verilated.h>
#include <verilated_vcd_c.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "policy/policy_impl.hpp"
#include "rtl_loop/fast_forward.hpp"
#include "rtl_loop/rtl_waves.hpp"

namespace numagpu {

template <class Ports, class Top>
class RtlPolicy final : public policy::PolicyImpl<typename Ports::Block> {
 public:
  using Block = typename Ports::Block;
  using typename policy::PolicyImpl<Block>::Inputs;
  using typename policy::PolicyImpl<Block>::Outputs;

  // Starts with one reset edge (quiet inputs), as the C++ class starts in its reset state. With `waves`
  // (null: none), dumps the window's cycles into waves->buffer(instance).
  RtlPolicy(const typename Ports::Build& build, RtlWaves* waves, const std::string& instance)
      : build_(build), window_(Ports::params(build).sample_cycles) {
    top_.rst_ni = 0;
    Ports::drive(top_, Inputs{});
    edge();
    top_.rst_ni = 1;
    if (waves != nullptr && waves->window().enabled) {
      wave_window_ = waves->window();
      half_period_ps_ = waves->period_ps() / 2;
      period_ps_ = waves->period_ps();
      trace_ = std::make_unique<Trace>(waves->buffer(instance));
      context_.traceEverOn(true);
      top_.trace(&trace_->vcd, 99);
      trace_->vcd.set_time_unit("1ps");
      trace_->vcd.set_time_resolution("1ps");
      trace_->vcd.open(instance.c_str());  // a name only: Trace's file writes into the buffer
    }
  }
  ~RtlPolicy() override {
    if (trace_) trace_->vcd.close();
    top_.final();
  }
  RtlPolicy(const RtlPolicy&) = delete;
  RtlPolicy& operator=(const RtlPolicy&) = delete;

  Outputs step(const Inputs& in) override {
    Ports::drive(top_, Ports::fit(in, build_));
    edge();
    decisions_ += top_.decision_valid_o;
    ++cycle_;
    return outputs();
  }
  Outputs outputs() const override { return Ports::outputs(top_); }
  std::uint64_t decisions() const override { return decisions_; }
  std::uint64_t window_cycles() const override { return window_; }
  // In the quiet fixed point the RTL's registers are what they will be after `windows` more quiet windows
  // (the reference's contract, which the lockstep tests hold the RTL to; tests/unit/model/quiet_skip_test.cpp
  // and program_idle_skip_changes_nothing check it against stepping): only the decision pulses are counted.
  void skip_quiet_windows(std::uint64_t windows) override {
    // Whole windows before the dump window and after it in closed form; those it overlaps stepped.
    while (windows != 0) {
      std::uint64_t closed = windows;
      if (wave_window_.overlaps(cycle_, windows * window_)) {
        closed = wave_window_.start > cycle_ ? (wave_window_.start - cycle_) / window_ : 0;
      }
      decisions_ += closed;
      cycle_ += closed * window_;
      windows -= closed;
      if (windows != 0) {  // this window overlaps the dump window: step it with quiet inputs
        for (std::uint64_t c = 0; c < window_; ++c)
          step(Inputs{});
        --windows;
      }
    }
  }
  void skip_quiet_cycles(std::uint64_t cycles) override {
    if (!wave_window_.overlaps(cycle_, cycles)) {
      fast_forward(cycles);
      return;
    }
    const std::uint64_t before = wave_window_.start > cycle_ ? wave_window_.start - cycle_ : 0;
    fast_forward(before);
    const std::uint64_t dumped = std::min(cycles - before, wave_window_.start + wave_window_.cycles - cycle_);
    for (std::uint64_t c = 0; c < dumped; ++c)
      step(Inputs{});
    fast_forward(cycles - before - dumped);
  }

 private:
  // VCD text into a string (RtlWaves' buffer) instead of a file: the run writes it with its other outputs.
  class BufferFile final : public VerilatedVcdFile {
   public:
    explicit BufferFile(std::string& text) : text_(text) {}
    bool open(const std::string&) override { return true; }
    void close() override {}
    ssize_t write(const char* bytes, ssize_t n) override {
      text_.append(bytes, static_cast<std::size_t>(n));
      return n;
    }

   private:
    std::string& text_;
  };
  struct Trace {
    explicit Trace(std::string& text) : file(text), vcd(&file) {}
    BufferFile file;
    VerilatedVcdC vcd;
  };

  void edge() {
    top_.clk_i = 0;
    top_.eval();
    dump(0);
    top_.clk_i = 1;
    top_.eval();
    dump(half_period_ps_);
  }
  // Flushed at every dump, so the buffer is complete whenever the run ends.
  void dump(std::uint64_t offset_ps) {
    if (!trace_ || !wave_window_.covers(cycle_)) return;
    trace_->vcd.dump(cycle_ * period_ps_ + offset_ps);
    trace_->vcd.flush();
  }
  void fast_forward(std::uint64_t cycles) {
    if (cycles == 0) return;
    rtl_ports::fast_forward_window(top_, Ports::window_counter(top_), cycles, window_,
                                   Block::quiet_cycles_skippable(outputs()), Ports::kTop);
    cycle_ += cycles;
  }

  typename Ports::Build build_;
  VerilatedContext context_;
  Top top_{&context_, Ports::kTop};
  std::uint64_t decisions_ = 0;  // decision_valid_o pulses
  std::uint64_t window_;
  std::uint64_t cycle_ = 0;    // the simulated cycle the next step consumes (stepped or skipped so far)
  RtlWaveWindow wave_window_;  // disabled unless dumping
  std::uint64_t period_ps_ = 0, half_period_ps_ = 0;
  std::unique_ptr<Trace> trace_;  // after top_: closed before the model goes
};

}  // namespace numagpu
