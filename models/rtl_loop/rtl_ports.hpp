// The policy blocks' ports, mapped once between a Verilated model and the C++ policy's Inputs/Outputs: used
// by the in-loop RTL (rtl_lanes.cpp, rtl_ways.cpp) and by the lockstep testbenches (tb/), so that both read
// and drive the RTL the same way. Templates over the Verilated class: every parameter build has the same
// ports.
#pragma once

#include "policy/link_balancer.hpp"
#include "policy/partition_controller.hpp"

namespace numagpu::rtl_ports {

template <class Top>
void drive(Top& m, const policy::LinkBalancer::Inputs& in) {
  m.kernel_launch_i = in.kernel_launch;
  m.busy_a_i = in.busy_a;
  m.busy_b_i = in.busy_b;
  m.drained_i = in.drained;
}

template <class Top>
policy::LinkBalancer::Outputs balancer_outputs(const Top& m) {
  policy::LinkBalancer::Outputs o;
  o.lanes_a = m.lanes_a_o;
  o.lanes_b = m.lanes_b_o;
  o.lane_dir = m.lane_dir_o;
  o.lane_quiesce = m.lane_quiesce_o;
  o.lane_switch = m.lane_switch_o;
  o.decision_valid = m.decision_valid_o != 0;
  o.decision = static_cast<policy::LinkBalancer::Decision>(m.decision_o);
  return o;
}

// read_reqs is driven as given: the caller keeps it within the RTL's ReqW bits.
template <class Top>
void drive(Top& m, const policy::PartitionController::Inputs& in) {
  m.kernel_launch_i = in.kernel_launch;
  m.dram_busy_i = in.dram_busy;
  m.read_reqs_i = in.read_reqs;
}

template <class Top>
policy::PartitionController::Outputs partition_ctrl_outputs(const Top& m) {
  policy::PartitionController::Outputs o;
  o.remote_ways = m.remote_ways_o;
  o.local_ways = m.local_ways_o;
  o.remote_mask = m.remote_mask_o;
  o.decision_valid = m.decision_valid_o != 0;
  o.decision = static_cast<policy::PartitionController::Decision>(m.decision_o);
  return o;
}

}  // namespace numagpu::rtl_ports
