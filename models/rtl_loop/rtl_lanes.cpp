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

RtlLanes::Outputs RtlLanes::step(const Inputs& in) {
  Vloop_link_balancer& t = model_->top;
  t.kernel_launch_i = in.kernel_launch;
  t.busy_a_i = in.busy_a;
  t.busy_b_i = in.busy_b;
  t.drained_i = in.drained;
  model_->edge();
  decisions_ += t.decision_valid_o;
  return outputs();
}

RtlLanes::Outputs RtlLanes::outputs() const {
  const Vloop_link_balancer& t = model_->top;
  Outputs o;
  o.lanes_a = t.lanes_a_o;
  o.lanes_b = t.lanes_b_o;
  o.lane_dir = t.lane_dir_o;
  o.lane_quiesce = t.lane_quiesce_o;
  o.lane_switch = t.lane_switch_o;
  o.decision_valid = t.decision_valid_o != 0;
  o.decision = static_cast<policy::LinkBalancer::Decision>(t.decision_o);
  return o;
}

policy::LinkBalancer::Params RtlLanes::params() {
  return policy::LinkBalancer::Params{};
}

}  // namespace numagpu
