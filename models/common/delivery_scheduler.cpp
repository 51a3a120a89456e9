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
  // due in the current tick is delivered by the loop in fire() when it is running, else in the next delta
  // cycle. Ticks, not picoseconds, are compared: at a coarse resolution two instants share a tick.
  const std::uint64_t tick = clock_.tick_of_ps(at_ps);
  if (tick < wake_at_tick_) {
    if (at_ps < clock_.now_ps()) throw std::logic_error("a delivery scheduled in the past");
    wake_at_tick_ = tick;
    wake_at(tick);
  }
}

void DeliveryScheduler::wake_at(std::uint64_t tick) {
  // The next instant is mostly the same distance away (a cycle, a latency): the last delay is kept, since
  // sc_time::from_value is an out-of-line call.
  const std::uint64_t delay = tick - sim_now().value();
  if (delay != last_wake_delay_ticks_) {
    last_wake_delay_ticks_ = delay;
    last_wake_delay_ = sc_core::sc_time::from_value(delay);
  }
  wake_.notify(last_wake_delay_);
}

void DeliveryScheduler::fire() {
  const std::uint64_t tick = sim_now().value();
  // Every item whose time rounds up to this tick is due: at 1 ps and finer, those at the tick's time; at a
  // coarser resolution, also those since the previous tick.
  const std::uint64_t due_ps = clock_.ps_of(sim_now());
  ++fired_;
  // Items scheduled for this tick from inside a delivery join this loop; later ones may not move the wake-up.
  wake_at_tick_ = tick;
  CalendarQueue::Item item;
  while (queue_.pop_due(due_ps, item)) {
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
    clock_.enter_instant(item.at);
    static_cast<Deliverable*>(item.to)->deliver(static_cast<tlm::tlm_generic_payload*>(item.what));
  }
  clock_.leave_instant();
  wake_at_tick_ = ~std::uint64_t(0);
  if (!queue_.empty()) {
    wake_at_tick_ = clock_.tick_of_ps(queue_.next_time());
    wake_at(wake_at_tick_);
  }
}

}  // namespace numagpu
