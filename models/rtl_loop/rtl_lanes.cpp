#include "rtl_loop/rtl_lanes.hpp"

#include <verilated.h>

#include "Vloop_link_balancer.h"

// Verilator's runtime expects this symbol when a model calls $time-dependent code; the models here are
// cycle-driven and never read it.
double sc_time_stamp() {
  return 0;
}

namespace numagpu {

struct RtlLanes::Model {
  VerilatedContext context;
  Vloop_link_balancer top{&context, "link_balancer"};

  void edge() {
    top.clk_i = 0;
    top.eval();
    top.clk_i = 1;
    top.eval();
  }
};

RtlLanes::RtlLanes() : model_(std::make_unique<Model>()) {
  Vloop_link_balancer& t = model_->top;
  t.rst_ni = 0;
  t.kernel_launch_i = 0;
  t.busy_a_i = 0;
  t.busy_b_i = 0;
  t.drained_i = 0;
  model_->edge();
  t.rst_ni = 1;
}

RtlLanes::~RtlLanes() {
  model_->top.final();
}

LaneOutputs RtlLanes::step(const LaneInputs& in) {
  Vloop_link_balancer& t = model_->top;
  t.kernel_launch_i = in.kernel_launch;
  t.busy_a_i = in.busy[0];
  t.busy_b_i = in.busy[1];
  t.drained_i = in.drained;
  model_->edge();
  decisions_ += t.decision_valid_o;
  return outputs();
}

LaneOutputs RtlLanes::outputs() const {
  const Vloop_link_balancer& t = model_->top;
  LaneOutputs out;
  out.lanes[0] = t.lanes_a_o;
  out.lanes[1] = t.lanes_b_o;
  out.quiescing = t.lane_quiesce_o != 0;
  out.switching = t.lane_switch_o != 0;
  // The turning lane sits at index lanes_a; its direction bit says where it goes (1: B), so it left A.
  const bool to_b = ((std::uint64_t(t.lane_dir_o) >> t.lanes_a_o) & 1) != 0;
  out.from = to_b ? 0 : 1;
  return out;
}

policy::LinkBalancer::Params RtlLanes::params() {
  return policy::LinkBalancer::Params{};
}

}  // namespace numagpu
