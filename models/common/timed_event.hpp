// An sc_event for a model time in picoseconds. At a SystemC time resolution coarser than 1 ps the event can
// only fire at the tick after its time; the process it wakes resumes the model's clock at the time itself
// (GpuClock::resume_at), so what it does next is timed as at 1 ps (docs/embedding.md, "Time resolution").
// At 1 ps and finer it is the plain event.
#pragma once

#include <cstdint>

#include <systemc>

#include "common/time.hpp"

namespace numagpu {

class TimedEvent {
 public:
  explicit TimedEvent(const GpuClock& clock, const char* name = nullptr)
      : clock_(clock), event_(name ? sc_core::sc_event(name) : sc_core::sc_event()) {}
  TimedEvent(const TimedEvent&) = delete;
  TimedEvent& operator=(const TimedEvent&) = delete;

  // Fires `delay_ps` after now (the exact now). As sc_event::notify: an earlier pending time wins.
  void notify_in_ps(std::uint64_t delay_ps) { notify_at_ps(clock_.now_ps() + delay_ps); }
  void notify_at_ps(std::uint64_t at_ps) {
    if (pending_ && at_ps >= at_ps_) return;
    pending_ = true;
    at_ps_ = at_ps;
    event_.notify(clock_.until(at_ps));
  }
  void cancel() {
    pending_ = false;
    event_.cancel();
  }

  // For `sensitive <<`.
  const sc_core::sc_event& event() const { return event_; }

  // Called first by the process it woke: the clock is at the event's time until the guard ends.
  class Resumed {
   public:
    explicit Resumed(const GpuClock& clock) : clock_(clock) {}
    ~Resumed() { clock_.leave_instant(); }
    Resumed(const Resumed&) = delete;
    Resumed& operator=(const Resumed&) = delete;

   private:
    const GpuClock& clock_;
  };
  [[nodiscard]] Resumed resume() {
    if (pending_) clock_.resume_at(at_ps_);
    pending_ = false;
    return Resumed(clock_);
  }

 private:
  const GpuClock& clock_;
  sc_core::sc_event event_;
  std::uint64_t at_ps_ = 0;
  bool pending_ = false;
};

}  // namespace numagpu
