// A Verilated RTL block with a clock: drives one cycle at a time and, when asked, writes a VCD.
//
// Time base (shared with RefVcd, so the RTL and reference waveforms line up): cycle n spans 10n .. 10n+9 in
// VCD time units; the inputs of cycle n are applied at 10n with clk_i low, the rising edge that ends the
// cycle is at 10n+5, and the registered outputs of cycle n+1 are visible from then on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "verilated.h"
#include "verilated_cov.h"
#include "verilated_vcd_c.h"

namespace numagpu::tb {

template <class Model>
class VerilatedDut {
 public:
  VerilatedDut() : ctx_(std::make_unique<VerilatedContext>()) {
    // Tracing must be enabled before the model is built; it costs nothing until a trace file is attached.
    ctx_->traceEverOn(true);
    top_ = std::make_unique<Model>(ctx_.get(), "dut");
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->eval();
  }

  ~VerilatedDut() {
    if (vcd_) vcd_->close();
    top_->final();
  }

  VerilatedDut(const VerilatedDut&) = delete;
  VerilatedDut& operator=(const VerilatedDut&) = delete;

  Model& top() { return *top_; }
  const Model& top() const { return *top_; }
  // The model's context: error handling (fatalOnError, gotError) for a host that must not exit on $error.
  VerilatedContext& context() { return *ctx_; }

  // Starts writing a VCD of every signal from the current cycle on.
  void open_vcd(const std::string& path) {
    vcd_ = std::make_unique<VerilatedVcdC>();
    top_->trace(vcd_.get(), 99);
    vcd_->open(path.c_str());
  }

  // Stops the VCD (the file is complete); a later open_vcd() starts a new one.
  void close_vcd() {
    if (vcd_) vcd_->close();
    vcd_.reset();
  }

  // Writes the model's `verilator --coverage` counters (a models built without --coverage has none, and the
  // file holds only its header). Call before the model is destroyed: the database points into it.
  void write_coverage(const std::string& path) { ctx_->coveragep()->write(path.c_str()); }

  // One cycle: the inputs already set on top() are evaluated with clk_i low, then the rising edge.
  void tick() {
    top_->clk_i = 0;
    top_->eval();
    if (vcd_) vcd_->dump(10 * cycle_);
    top_->clk_i = 1;
    top_->eval();
    if (vcd_) vcd_->dump(10 * cycle_ + 5);
    ++cycle_;
  }

  std::uint64_t cycle() const { return cycle_; }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> top_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  std::uint64_t cycle_ = 0;
};

}  // namespace numagpu::tb
