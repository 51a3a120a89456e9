#include "rtl_loop/rtl_ways.hpp"

#include <verilated.h>

#include "Vloop_partition_ctrl.h"

namespace numagpu {

struct RtlWays::Model {
  VerilatedContext context;
  Vloop_partition_ctrl top{&context, "cache_partition_ctrl"};

  void edge() {
    top.clk_i = 0;
    top.eval();
    top.clk_i = 1;
    top.eval();
  }
};

RtlWays::RtlWays() : model_(std::make_unique<Model>()) {
  Vloop_partition_ctrl& t = model_->top;
  t.rst_ni = 0;
  t.kernel_launch_i = 0;
  t.dram_busy_i = 0;
  t.read_reqs_i = 0;
  model_->edge();
  t.rst_ni = 1;
}

RtlWays::~RtlWays() {
  model_->top.final();
}

unsigned RtlWays::step(const WayInputs& in) {
  Vloop_partition_ctrl& t = model_->top;
  t.kernel_launch_i = in.kernel_launch;
  t.dram_busy_i = in.dram_busy;
  t.read_reqs_i = in.read_reqs & 3u;  // ReqW = 2; the driver clamps to 3 already
  model_->edge();
  decisions_ += t.decision_valid_o;
  return remote_ways();
}

unsigned RtlWays::remote_ways() const {
  return model_->top.remote_ways_o;
}

}  // namespace numagpu
