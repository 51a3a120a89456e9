// What decides a socket's way split between local and remote data (organization numa_aware), stepped once
// per cycle with that cycle's activity: the partition controller's C++ reference, or its Verilated RTL.
#pragma once

#include <cstdint>

#include "policy/partition_controller.hpp"

namespace numagpu {

struct WayInputs {
  bool kernel_launch = false;
  bool dram_busy = false;       // every DRAM channel of the socket transferred data in this cycle
  std::uint16_t read_reqs = 0;  // remote read requests the socket sent in this cycle (clamped, see driver)
};

class WayControl {
 public:
  virtual ~WayControl() = default;
  virtual unsigned step(const WayInputs& in) = 0;  // returns remote ways from the next cycle on
  virtual unsigned remote_ways() const = 0;
  // Window decisions taken so far (activity.json).
  virtual std::uint64_t decisions() const { return 0; }
};

class ModelWays : public WayControl {
 public:
  explicit ModelWays(const policy::PartitionController::Params& p) : ctrl_(p) {}
  unsigned step(const WayInputs& in) override {
    policy::PartitionController::Inputs i;
    i.kernel_launch = in.kernel_launch;
    i.dram_busy = in.dram_busy;
    i.read_reqs = in.read_reqs;
    return ctrl_.step(i).remote_ways;
  }
  unsigned remote_ways() const override { return ctrl_.outputs().remote_ways; }
  std::uint64_t decisions() const override { return ctrl_.counters().windows; }

 private:
  policy::PartitionController ctrl_;
};

}  // namespace numagpu
