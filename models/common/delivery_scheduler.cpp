#include "common/delivery_scheduler.hpp"

#include <algorithm>
#include <stdexcept>

namespace numagpu {

DeliveryScheduler::DeliveryScheduler(const sc_core::sc_module_name& name, const GpuClock& clock)
    : sc_module(name), clock_(clock), queue_(clock.period_ps()) {
  SC_HAS_PROCESS(DeliveryScheduler);
  SC_METHOD(fire);
  sensitive << wake_;
  dont_initialize();
}

void DeliveryScheduler::schedule(std::uint64_t at_ps, Deliverable& to, tlm::tlm_generic_payload* gp) {
  queue_.push(at_ps, &to, gp);
  // A pending later notification is replaced by an earlier one; an earlier pending one is kept. One that is
  // due now is delivered by the loop in fire() when it is running, else in the next delta cycle.
  if (at_ps < wake_at_ps_) {
    const std::uint64_t now = clock_.now_ps();
    if (at_ps < now) throw std::logic_error("a delivery scheduled in the past");
    wake_at_ps_ = at_ps;
    wake_in(at_ps - now);
  }
}

void DeliveryScheduler::wake_in(std::uint64_t delay_ps) {
  // The next instant is mostly the same distance away (a cycle, a latency): the last delay is kept, since
  // sc_time::from_value is an out-of-line call.
  if (delay_ps != last_wake_delay_ps_) {
    last_wake_delay_ps_ = delay_ps;
    last_wake_delay_ = clock_.ps_time(delay_ps);
  }
  wake_.notify(last_wake_delay_);
}

void DeliveryScheduler::fire() {
  const std::uint64_t now = clock_.now_ps();
  ++fired_;
  // Items scheduled for now from inside a delivery join this loop; later ones may not move the wake-up.
  wake_at_ps_ = now;
  CalendarQueue::Item item;
  while (queue_.pop_due(now, item)) {
    ++delivered_;
    // The simulation waits on memory more than it computes: thousands of payloads and hundreds of
    // components are touched in no particular order. Fetching the next delivery's payload (with its
    // attributes, which follow it) and receiver while this one runs hides part of that wait.
    if (const CalendarQueue::Item* next = queue_.peek_following()) {
      const char* gp = static_cast<const char*>(next->what);
      if (gp) {
        __builtin_prefetch(gp);
        __builtin_prefetch(gp + 64);
        __builtin_prefetch(gp + 128);
        __builtin_prefetch(gp + 192);
      }
      __builtin_prefetch(next->to);
    }
    static_cast<Deliverable*>(item.to)->deliver(static_cast<tlm::tlm_generic_payload*>(item.what));
  }
  wake_at_ps_ = ~std::uint64_t(0);
  if (!queue_.empty()) {
    wake_at_ps_ = queue_.next_time();
    wake_in(wake_at_ps_ - now);
  }
}

}  // namespace numagpu
