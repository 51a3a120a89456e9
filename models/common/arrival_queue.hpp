// Delivers transactions to their component at their annotated arrival time, in time order (FIFO among equal
// times). The waiting is done by the machine's DeliveryScheduler (common/delivery_scheduler.hpp, in the
// SimContext every component receives), shared by every component of the machine, which defines the order of
// arrivals at equal times across the whole machine.
#pragma once

#include <systemc>
#include <tlm>

#include "common/delivery_scheduler.hpp"

namespace numagpu {

// A subclass says what an arrival does (deliver()); a virtual call, where a std::function added a second
// indirect call per hop. How many arrivals wait is the scheduler's to count (DeliveryScheduler::pending):
// a count here would be a write to the component at every arrival.
class ArrivalQueue : public Deliverable {
 public:
  explicit ArrivalQueue(DeliveryScheduler& scheduler) : scheduler_(scheduler) {}

  // At absolute time `at_ps` (exact, not rounded to the SystemC resolution).
  void push_at(tlm::tlm_generic_payload& gp, std::uint64_t at_ps) { scheduler_.schedule(at_ps, *this, &gp); }

 private:
  DeliveryScheduler& scheduler_;
};

}  // namespace numagpu
