// Delivers transactions to their component at their annotated arrival time, in time order (FIFO among equal
// times). The waiting is done by the system's DeliveryScheduler (common/delivery_scheduler.hpp), shared by
// every component, which defines the order of arrivals at equal times across the whole system; a component
// built outside a system gets a scheduler of its own.
#pragma once

#include <cstdint>
#include <memory>

#include <systemc>
#include <tlm>

#include "common/delivery_scheduler.hpp"

namespace numagpu {

// A subclass says what an arrival does (deliver()); a virtual call, where a std::function added a second
// indirect call per hop. How many arrivals wait is the scheduler's to count (DeliveryScheduler::pending):
// a count here would be a write to the component at every arrival.
class ArrivalQueue : public Deliverable {
 public:
  // `name`: for the private scheduler of a component built outside a system.
  explicit ArrivalQueue(const char* name);

  void push(tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay) {
    scheduler_->schedule_in(delay, *this, &gp);
  }

 private:
  std::unique_ptr<DeliveryScheduler> own_;  // only outside a system
  DeliveryScheduler* scheduler_;
};

}  // namespace numagpu
