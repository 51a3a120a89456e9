#include "cache/partition_driver.hpp"

#include <algorithm>

#include "cache/cache.hpp"
#include "mem/dram.hpp"

namespace numagpu {

PartitionDriver::PartitionDriver(const sc_core::sc_module_name& name, SimContext& ctx,
                                 std::unique_ptr<Controller> control, unsigned ways,
                                 unsigned max_read_reqs_per_cycle, Dram& dram, std::vector<Cache*> banks,
                                 std::vector<Cache*> l1s, unsigned l1_ways, Cycles sample_cycles,
                                 stats::Registry& stats)
    : sc_module(name),
      clock_(ctx.clock),
      control_(std::move(control)),
      ways_(ways),
      max_reqs_(max_read_reqs_per_cycle),
      dram_(dram),
      banks_(std::move(banks)),
      l1s_(std::move(l1s)),
      l1_ways_(l1_ways),
      changes_(stats.counter(std::string(this->name()) + ".changes", "events", "Changes of the way split")) {
  if (sample_cycles) {
    split_ = &stats.series(std::string(this->name()) + ".remote_ways", "ways",
                           "L2 ways remote data may allocate into, at the end of each sample window",
                           sample_cycles, stats::TimeSeries::Merge::kLast);
  }
  for (Cache* bank : banks_)
    bank->set_partition(this);
  for (Cache* l1 : l1s_)
    l1->set_partition(this);
  apply(control_.impl().outputs().remote_ways);
}

void PartitionDriver::apply(unsigned remote_ways) {
  remote_ways_ = remote_ways;
  for (Cache* bank : banks_)
    bank->set_quotas(ways_ - remote_ways, remote_ways);
  if (l1_ways_ >= 2) {
    // Same share of the ways, rounded to the nearest, keeping one way per class.
    const unsigned scaled = (remote_ways * l1_ways_ + ways_ / 2) / ways_;
    const unsigned l1_remote = std::clamp(scaled, 1u, l1_ways_ - 1);
    for (Cache* l1 : l1s_)
      l1->set_quotas(l1_ways_ - l1_remote, l1_remote);
  }
}

void PartitionDriver::catch_up() {
  control_.catch_up(clock_.now(), *this);
}

void PartitionDriver::kernel_launch() {
  control_.kernel_launch(clock_.now(), *this);
}

Cycles PartitionDriver::quiet_until(Cycles c, Cycles until) const {
  // Requests held back from earlier cycles are reported from cycle c on: nothing is quiet.
  if (unreported_reads_ != 0) return c;
  Cycles quiet_end = dram_.first_busy_cycle(c, until);
  if (!reads_.empty()) quiet_end = std::min(quiet_end, reads_.front());
  return quiet_end;
}

policy::PartitionController::Inputs PartitionDriver::inputs_of(Cycles c) {
  policy::PartitionController::Inputs in;
  in.dram_busy = dram_.busy_in_cycle(c);
  while (!reads_.empty() && reads_.front() <= c) {
    ++unreported_reads_;
    reads_.pop_front();
  }
  // The controller's input counts at most max_reqs_ per cycle (its width): a burst wider than that is
  // reported over the following cycles, as a small counter in front of the controller would, rather than
  // lost (both implementations see the same values).
  const unsigned reported = std::min(unreported_reads_, max_reqs_);
  unreported_reads_ -= reported;
  in.read_reqs = static_cast<std::uint16_t>(reported);
  return in;
}

void PartitionDriver::take_outputs(Cycles, const policy::PartitionController::Outputs& out) {
  if (out.remote_ways == remote_ways_) return;
  changes_.add();
  apply(out.remote_ways);
}

void PartitionDriver::read_request_sent() {
  reads_.push_back(clock_.now());
}

void PartitionDriver::sample_window() {
  if (!split_) return;
  catch_up();
  split_->push(remote_ways());
}

void PartitionDriver::finish() {
  catch_up();
}

}  // namespace numagpu
