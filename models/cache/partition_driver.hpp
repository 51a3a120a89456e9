// Drives a socket's way partition (organization numa_aware): feeds the partition controller (its C++
// reference or its Verilated RTL, behind one interface) each cycle with the
// socket's DRAM activity and the remote read requests it sent, and applies its split to the socket's L2
// banks. Stepped lazily, like a dynamic link: every cycle up to now whenever a bank is about to allocate, at
// each sample, and at the end; an idle socket costs nothing until then.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "common/host_activity.hpp"
#include "common/sim_context.hpp"
#include "policy/partition_controller.hpp"
#include "policy/policy_impl.hpp"
#include "policy/policy_stepper.hpp"
#include "stats/registry.hpp"

namespace numagpu {

class Cache;
class Dram;

class PartitionDriver : public sc_core::sc_module, public HostActivitySource {
 public:
  // `banks` (the L2, `ways` ways) take the split as it is; `l1s` (`l1_ways` ways) take it scaled to their
  // associativity, at least one way per class.
  using Controller = policy::PolicyImpl<policy::PartitionController>;
  PartitionDriver(const sc_core::sc_module_name& name, SimContext& ctx, std::unique_ptr<Controller> control,
                  unsigned ways, unsigned max_read_reqs_per_cycle, Dram& dram, std::vector<Cache*> banks,
                  std::vector<Cache*> l1s, unsigned l1_ways, Cycles sample_cycles, stats::Registry& stats);

  void catch_up();           // steps every cycle before now
  void kernel_launch();      // the next stepped cycle carries the launch strobe
  void read_request_sent();  // a remote read left the socket in the current cycle
  // The end of a statistics window (common/window_sampler.hpp): the split in force.
  void sample_window();
  void finish();
  // Never skip quiet windows (debug.step_idle_windows): for checking that skipping changes nothing.
  void step_every_idle_cycle() { control_.step_every_cycle(); }
  void add_host_activity(HostActivity& total) const override {
    total.quiet_windows_skipped += control_.quiet_windows_skipped();
    total.quiet_cycles_skipped += control_.quiet_cycles_skipped();
  }
  unsigned remote_ways() const { return remote_ways_; }
  std::uint64_t decisions() const { return control_.impl().decisions(); }

  // The counters other parts of the model read (the activity recorder), by reference: a statistic renamed
  // or removed then breaks the build, not a run. The registered names are in partition_driver.cpp.
  struct Counters {
    const stats::Counter& changes;  // of the way split
  };
  Counters counters() const { return {changes_}; }

 private:
  void apply(unsigned remote_ways);
  // What the controller sees and what it changes (policy/policy_stepper.hpp).
  friend class policy::PolicyStepper<policy::PartitionController>;
  Cycles quiet_until(Cycles c, Cycles until) const;
  policy::PartitionController::Inputs inputs_of(Cycles c);
  void take_outputs(Cycles c, const policy::PartitionController::Outputs& out);

  const GpuClock& clock_;
  policy::PolicyStepper<policy::PartitionController> control_;
  unsigned remote_ways_ = 0;  // the split the caches hold (the controller's output)
  unsigned ways_;
  unsigned max_reqs_;
  Dram& dram_;
  std::vector<Cache*> banks_;
  std::vector<Cache*> l1s_;
  unsigned l1_ways_;
  std::deque<Cycles> reads_;       // cycles of remote read requests not yet stepped, in order
  unsigned unreported_reads_ = 0;  // sent, not yet passed to the controller (bursts wider than its input)
  stats::Counter& changes_;
  stats::TimeSeries* split_ = nullptr;
};

}  // namespace numagpu
