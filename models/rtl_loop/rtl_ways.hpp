// RTL in the loop for the cache partition controller: the Verilated rtl/cache_partition_ctrl.sv, built at its
// default parameters (16 ways, 5000-cycle windows, 99 %, 144 B responses, 64 B/cycle ingress, ReqW 2),
// stepped one clock per simulated cycle with the inputs the C++ reference would get.
#pragma once

#include <memory>

#include "cache/way_control.hpp"

namespace numagpu {

class RtlWays : public WayControl {
 public:
  RtlWays();
  ~RtlWays() override;
  RtlWays(const RtlWays&) = delete;
  RtlWays& operator=(const RtlWays&) = delete;

  unsigned step(const WayInputs& in) override;
  unsigned remote_ways() const override;
  std::uint64_t decisions() const override { return decisions_; }

 private:
  struct Model;
  std::unique_ptr<Model> model_;
  std::uint64_t decisions_ = 0;  // decision_valid_o pulses
};

}  // namespace numagpu
