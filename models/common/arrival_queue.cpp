#include "common/arrival_queue.hpp"

namespace numagpu {

ArrivalQueue::ArrivalQueue(const sc_core::sc_module_name& name, Deliver deliver)
    : sc_module(name), deliver_(std::move(deliver)) {
  SC_HAS_PROCESS(ArrivalQueue);
  SC_METHOD(fire);
  sensitive << wake_;
  dont_initialize();
}

void ArrivalQueue::push(tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay) {
  const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
  const bool earliest = heap_.empty() || at < heap_.top().at;
  heap_.push(Item{at, next_seq_++, &gp});
  // A pending later notification is replaced by an earlier one; an earlier pending one is kept.
  if (earliest) wake_.notify(delay);
}

void ArrivalQueue::fire() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (!heap_.empty() && heap_.top().at <= now) {
    tlm::tlm_generic_payload* gp = heap_.top().gp;
    heap_.pop();
    deliver_(*gp);  // may push more arrivals, including ones due now
  }
  if (!heap_.empty()) wake_.notify(heap_.top().at - now);
}

}  // namespace numagpu
