// Delivers transactions to their component at their annotated arrival time, in time order (FIFO among equal
// times). The waiting is done by the system's DeliveryScheduler (common/delivery_scheduler.hpp), shared by
// every component, which defines the order of arrivals at equal times across the whole system; a component
// built outside a system gets a scheduler of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include <systemc>
#include <tlm>

#include "common/delivery_scheduler.hpp"

namespace numagpu {

class ArrivalQueue : public Deliverable {
 public:
  using Deliver = std::function<void(tlm::tlm_generic_payload&)>;
  // `name`: for the private scheduler of a component built outside a system.
  ArrivalQueue(const char* name, Deliver deliver);

  void push(tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay) {
    ++pending_;
    scheduler_->schedule_in(delay, *this, &gp);
  }
  std::size_t pending() const { return pending_; }
  void deliver(tlm::tlm_generic_payload* gp) override {
    --pending_;
    deliver_(*gp);
  }

 private:
  Deliver deliver_;
  std::unique_ptr<DeliveryScheduler> own_;  // only outside a system
  DeliveryScheduler* scheduler_;
  std::size_t pending_ = 0;
};

}  // namespace numagpu
