// Dynamic lane control: the link balancer reference policy (models/policy/link_balancer.hpp) driving a link.
// Direction 0 of the link is the balancer's A, direction 1 its B.
#pragma once

#include "fabric/lane_control.hpp"
#include "policy/link_balancer.hpp"

namespace numagpu {

class BalancerLanes : public LaneControl {
 public:
  explicit BalancerLanes(const policy::LinkBalancer::Params& params) : balancer_(params) {}

  LaneOutputs step(const LaneInputs& in) override {
    policy::LinkBalancer::Inputs p;
    p.kernel_launch = in.kernel_launch;
    p.busy_a = in.busy[0];
    p.busy_b = in.busy[1];
    p.drained = in.drained;
    balancer_.step(p);
    return outputs();
  }

  LaneOutputs outputs() const override {
    const policy::LinkBalancer::Outputs o = balancer_.outputs();
    LaneOutputs out;
    out.lanes[0] = o.lanes_a;
    out.lanes[1] = o.lanes_b;
    out.quiescing = o.lane_quiesce != 0;
    out.switching = o.lane_switch != 0;
    out.from = balancer_.turn_to_b() ? 0 : 1;  // a lane turning toward B leaves A (direction 0)
    return out;
  }

  bool dynamic() const override { return true; }
  std::uint64_t decisions() const override { return balancer_.counters().windows; }
  const policy::LinkBalancer& balancer() const { return balancer_; }

 private:
  policy::LinkBalancer balancer_;
};

}  // namespace numagpu
