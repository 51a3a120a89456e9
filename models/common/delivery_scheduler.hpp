// The one queue of timed deliveries of a system: every payload arriving at a component (ArrivalQueue) and
// every component wake-up (an SM's next issue, a DRAM channel's room) waits here, ordered by time and, at
// equal times, by when it was scheduled (first scheduled, first delivered). One SystemC event and one
// method serve them all: the kernel advances time once per instant that has work, instead of scheduling,
// sorting and triggering an event per hop (it was a quarter of the run time, docs/performance.md).
//
// The order at equal times is the model's own and it is defined: before, same-instant arrivals at different
// components ran in the order of the SystemC kernel's event heap, so adding any unrelated timed event (a
// statistics window, the interrupt poller) could move results (docs/architecture.md, "Tie order").
//
// A machine's scheduler lives in its SimContext (common/sim_context.hpp), which every component receives:
// the System's context makes it first, as the child `deliveries` of the System module; a component tested
// alone uses the one of the SimContext its test gives it. There is no other way to find one.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/calendar_queue.hpp"
#include "common/host_activity.hpp"
#include "common/time.hpp"

namespace numagpu {

// Something that can be handed a payload (or woken, with no payload) at a scheduled time.
class Deliverable {
 public:
  virtual ~Deliverable() = default;
  virtual void deliver(tlm::tlm_generic_payload* gp) = 0;
};

class DeliveryScheduler : public sc_core::sc_module, public HostActivitySource {
 public:
  static constexpr const char* kChildName = "deliveries";

  // `clock`: the machine's, which converts between the queue's picoseconds and SystemC time; its period is
  // the width of the queue's buckets (any positive value is correct; the period is the fast one: a power of
  // two of picoseconds near it, to divide by a shift, mixed the instants of two cycles in most buckets and
  // doubled the work of draining them, docs/performance.md).
  DeliveryScheduler(const sc_core::sc_module_name& name, const GpuClock& clock);

  // Delivers `gp` (null: a wake-up) to `to` at absolute time `at_ps` (not before now). At a SystemC time
  // resolution coarser than 1 ps, a time between two ticks is handed over at the later one, in picosecond
  // order, with the clock at the item's own instant (GpuClock::enter_instant).
  void schedule(std::uint64_t at_ps, Deliverable& to, tlm::tlm_generic_payload* gp);
  std::size_t pending() const { return queue_.size(); }
  void add_host_activity(HostActivity& total) const override {
    total.deliveries += delivered_;
    total.activations += fired_;
  }

 private:
  void fire();
  void wake_at(std::uint64_t tick);  // notifies wake_ at SystemC time value `tick` (not before now)

  const GpuClock& clock_;
  CalendarQueue queue_;                             // items: to = Deliverable*, what = payload (or null)
  std::uint64_t wake_at_tick_ = ~std::uint64_t(0);  // the tick wake_ is due at (none: all ones)
  std::uint64_t delivered_ = 0;
  std::uint64_t fired_ = 0;
  sc_core::sc_event wake_;
  std::uint64_t last_wake_delay_ticks_ = 0;  // wake_at()'s last delay, in ticks and as an sc_time
  sc_core::sc_time last_wake_delay_;
};

}  // namespace numagpu
