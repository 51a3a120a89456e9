// RTL in the loop: the Verilated rtl/link_balancer.sv driving a link's lanes in place of the C++ reference
// policy, stepped with the same per-cycle inputs (one clock cycle per simulated cycle the link steps). The
// model is compiled at the RTL's default parameters (docs/rtl.md); a configuration asking for others is
// rejected before the run (`policy.impl: rtl`).
#pragma once

#include <memory>

#include "fabric/lane_control.hpp"
#include "policy/link_balancer.hpp"

namespace numagpu {

class RtlLanes : public LaneControl {
 public:
  RtlLanes();  // the model after one reset cycle
  ~RtlLanes() override;
  RtlLanes(const RtlLanes&) = delete;
  RtlLanes& operator=(const RtlLanes&) = delete;

  LaneOutputs step(const LaneInputs& in) override;
  LaneOutputs outputs() const override;
  bool dynamic() const override { return true; }
  std::uint64_t decisions() const override { return decisions_; }

  // The parameters the Verilated model was built with.
  static policy::LinkBalancer::Params params();

 private:
  struct Model;
  std::unique_ptr<Model> model_;
  std::uint64_t decisions_ = 0;  // decision_valid_o pulses
};

}  // namespace numagpu
