// Simulated time in GPU clock cycles. Configuration and models speak cycles; GpuClock is the one place where
// cycles become sc_time and back (docs/architecture.md, "Time and cost"). Each simulated machine has its own
// clock, in its SimContext (common/sim_context.hpp); the conversions are inline because every hop of every
// request uses them.
//
// Two units meet here. The model's own arithmetic (bandwidth pipes, busy intervals, the delivery queue) is
// in picoseconds at every SystemC time resolution, so that its roundings, and so its results, do not depend
// on the host's choice. An sc_time counts ticks of the resolution (sc_get_time_resolution(): 1 fs, 1 ps,
// 1 ns, ...). GpuClock converts between them: at 1 ps and finer exactly; at coarser resolutions a time in
// picoseconds that is not a whole tick is waited for until the next tick (never earlier than the model says),
// and the clock period itself must be a whole number of ticks (period_error(), docs/embedding.md "Time
// resolution").
//
// The model's "now" is exact too. Several picosecond instants can share one coarse tick: the delivery
// scheduler hands each item over at the tick, but tells the clock the item's own instant first
// (enter_instant), and now_ps()/now() answer that instant until the tick is left or another is entered. So a
// delay computed during a delivery starts from the exact instant, and results do not depend on the
// resolution. Absolute instants are rounded to ticks once, where SystemC must wait (until()).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "common/cycles.hpp"

namespace numagpu {

// The current simulation time, the same as sc_core::sc_time_stamp(). That is an out-of-line library call
// (and the context lookup a second one), asked on every hop: 5 % of the default run's instructions
// (docs/performance.md). The time is a member of the current kernel's sc_simcontext, read here inline;
// following sc_curr_simcontext keeps it right when FreshSystemCKernel switches kernels.
inline const sc_core::sc_time& sim_now() {
  const sc_core::sc_simcontext* kernel = sc_core::sc_curr_simcontext;
  return kernel ? kernel->time_stamp() : sc_core::sc_time_stamp();
}

class GpuClock {
 public:
  // The period is the nearest whole picosecond (period_ps_of_mhz); only frequencies whose period is a whole
  // number of ticks of the current SystemC time resolution are accepted (the System reports system.clock_mhz
  // by name, period_error(); this guard is for programmatic users). The resolution is read here: set it
  // before building the machine.
  explicit GpuClock(std::uint64_t mhz = 1000);

  // Why `mhz` cannot be a clock at the current SystemC time resolution, or empty.
  static std::string period_error(std::uint64_t mhz);

  std::uint64_t period_ps() const { return period_ps_; }
  std::uint64_t mhz() const { return mhz_; }

  // A run-time clock change (docs/embedding.md, "Changing the clock during the run"): the period becomes that
  // of `mhz` from the first cycle boundary not before now, the clock's epoch. Cycle counts go on from there:
  // cycle = epoch cycle + (t - epoch time) / new period. Returns the epoch cycle. Delays asked from now on
  // (cycles(), cycles_ps(), cycles_fraction()) are in the new period; what a component computed from the
  // period when it was built (a bandwidth pipe's bytes per picosecond) stays as it was.
  Cycles retime(std::uint64_t mhz);
  // The same from now, which becomes a cycle boundary: a cycle in progress ends now, shortened (a host
  // clock's edge came early or late: System::follow_clock_edge). Returns the cycle that starts now.
  Cycles retime_at_now(std::uint64_t mhz);
  // Whether retime() has been called: the period has not been the same since time 0.
  bool retimed() const { return steps_.size() > 1 || mhz_ != first_mhz_; }
  // The clocks of the run so far: from cycle `cycle` (which starts at `start_ps`) on, `mhz`. One step
  // without a change; a change is a step from its epoch. Power integrates over them (docs/power.md).
  struct Step {
    Cycles cycle;
    std::uint64_t start_ps;
    std::uint64_t mhz;
  };
  const std::vector<Step>& steps() const { return steps_; }
  // The time, in picoseconds, at which cycle `c` starts: c x period without a change; a cycle before the
  // last change in the period that was in force then.
  std::uint64_t cycle_start_ps(Cycles c) const {
    if (c >= epoch_cycle_) return epoch_ps_ + (c - epoch_cycle_) * period_ps_;
    const Step& s = step_of_cycle(c);
    return s.start_ps + (c - s.cycle) * period_ps_of_mhz(s.mhz);
  }
  // Cycle `c`'s length in picoseconds.
  std::uint64_t cycle_length_ps(Cycles c) const {
    if (c >= epoch_cycle_) return period_ps_;
    return cycle_start_ps(c + 1) - cycle_start_ps(c);  // the last before a change may have been cut short
  }
  // The first cycle that starts at or after `ps` (a busy interval's first whole cycle, BusyTracker).
  Cycles first_cycle_from_ps(std::uint64_t ps) const {
    if (ps >= epoch_ps_) return epoch_cycle_ + (ps - epoch_ps_ + period_ps_ - 1) / period_ps_;
    std::size_t k = steps_.size() - 1;
    while (k > 0 && steps_[k].start_ps > ps)
      --k;
    const std::uint64_t period = period_ps_of_mhz(steps_[k].mhz);
    return steps_[k].cycle + (ps - steps_[k].start_ps + period - 1) / period;
  }

  sc_core::sc_time cycles(Cycles n) const { return sc_core::sc_time::from_value(n * period_ticks_); }
  // The same in picoseconds, without making an sc_time (sc_time::from_value is an out-of-line call).
  std::uint64_t cycles_ps(Cycles n) const { return n * period_ps_; }
  // Exact picosecond delay for a fractional number of cycles expressed as num/den (bandwidth models), rounded
  // up: never faster than configured.
  sc_core::sc_time cycles_fraction(std::uint64_t num, std::uint64_t den) const {
    return ps_time((num * period_ps_ + den - 1) / den);
  }

  // Picoseconds <-> sc_time. An absolute time in picoseconds becomes the first tick not before it.
  sc_core::sc_time ps_time(std::uint64_t ps) const { return sc_core::sc_time::from_value(ticks_of_ps(ps)); }
  std::uint64_t ps_of(const sc_core::sc_time& t) const { return ps_of_ticks(t.value()); }
  // The SystemC delay from now until the tick of absolute time `at_ps` (not before now_ps()). Not the
  // difference from now_ps() rounded up: now may lie inside the current tick (enter_instant).
  sc_core::sc_time until(std::uint64_t at_ps) const {
    return sc_core::sc_time::from_value(ticks_of_ps(at_ps) - sim_now().value());
  }
  // The tick (SystemC time value) that absolute time `at_ps` is waited for until.
  std::uint64_t tick_of_ps(std::uint64_t at_ps) const { return ticks_of_ps(at_ps); }
  // The current time in picoseconds: the instant entered within the current tick, else the tick's.
  std::uint64_t now_ps() const {
    const std::uint64_t ticks = sim_now().value();
    return ticks == instant_tick_ ? instant_ps_ : ps_of_ticks(ticks);
  }
  // The model is at `at_ps`, which lies in the current tick (a delivery due then, handed over at the tick;
  // a wake-up whose event could only fire at the tick). A no-op at 1 ps and finer, where a tick is exact.
  // The clock is shared by the machine's components as const: the instant is a view of SystemC's time,
  // like now()'s kept answer.
  void enter_instant(std::uint64_t at_ps) const {
    if (ps_per_tick_ == 1) return;
    instant_tick_ = latest_tick_ = sim_now().value();
    instant_ps_ = latest_ps_ = at_ps;
  }
  // The same for a process woken by an sc_event meant for `at_ps` (TimedEvent), which runs after some of the
  // tick's deliveries may have: it resumes no earlier than the latest instant entered in the tick, so that
  // nothing is scheduled before what was already delivered (times never go back, CalendarQueue).
  void resume_at(std::uint64_t at_ps) const {
    if (ps_per_tick_ == 1) return;
    const std::uint64_t tick = sim_now().value();
    if (latest_tick_ == tick && at_ps < latest_ps_) at_ps = latest_ps_;
    enter_instant(std::min(at_ps, ps_of_ticks(tick)));
  }
  // Back to the tick's own time (the end of a delivery, of a wake-up).
  void leave_instant() const { instant_tick_ = ~std::uint64_t(0); }

  // The current cycle, rounded down. Asked several times per hop at the same time: the last answer is kept,
  // since a 64-bit division by the period costs tens of cycles each time.
  Cycles now() const {
    const std::uint64_t ps = now_ps();
    if (ps != now_ps_asked_) {
      now_ps_asked_ = ps;
      now_cycle_ = cycle_of_ps(ps);
    }
    return now_cycle_;
  }
  Cycles to_cycles(const sc_core::sc_time& t) const { return cycle_of_ticks(t.value()); }  // rounded down
  Cycles to_cycles_ceil(const sc_core::sc_time& t) const {
    const std::uint64_t ticks = t.value();
    if (ticks < epoch_ticks_) return epoch_cycle_;  // within the last cycle of the old period
    return epoch_cycle_ + (ticks - epoch_ticks_ + period_ticks_ - 1) / period_ticks_;
  }

 private:
  // Since the epoch, whole periods; before it (only within the last cycle of the old period: the epoch is the
  // first boundary after the change), that last cycle. Without a change the epoch is 0 and this is t /
  // period.
  Cycles cycle_of_ticks(std::uint64_t ticks) const {
    if (ticks < epoch_ticks_) return epoch_cycle_ - 1;
    return epoch_cycle_ + (ticks - epoch_ticks_) / period_ticks_;
  }
  Cycles cycle_of_ps(std::uint64_t ps) const {
    if (ps < epoch_ps_) return epoch_cycle_ - 1;
    return epoch_cycle_ + (ps - epoch_ps_) / period_ps_;
  }
  // The step cycle `c` (before the epoch) lies in.
  const Step& step_of_cycle(Cycles c) const {
    std::size_t k = steps_.size() - 1;
    while (k > 0 && steps_[k].cycle > c)
      --k;
    return steps_[k];
  }
  void set_period(std::uint64_t mhz);

  // One of the two is 1: at 1 ps both, and the conversions are a multiplication by 1 (no division on a hop).
  std::uint64_t ticks_of_ps(std::uint64_t ps) const {
    return ps_per_tick_ == 1 ? ps * ticks_per_ps_ : (ps + ps_per_tick_ - 1) / ps_per_tick_;
  }
  std::uint64_t ps_of_ticks(std::uint64_t ticks) const {
    return ticks_per_ps_ == 1 ? ticks * ps_per_tick_ : ticks / ticks_per_ps_;
  }

  std::uint64_t period_ps_;
  std::uint64_t mhz_;
  std::uint64_t first_mhz_;
  std::uint64_t epoch_ticks_ = 0;  // the last retime()'s first cycle boundary, in ticks and ps, and its cycle
  std::uint64_t epoch_ps_ = 0;
  Cycles epoch_cycle_ = 0;
  std::vector<Step> steps_;
  std::uint64_t ticks_per_ps_ = 1;  // resolution finer than 1 ps: 10, 100 or 1000 ticks per ps
  std::uint64_t ps_per_tick_ = 1;   // resolution coarser than 1 ps: 10, 100, 1000, ... ps per tick
  std::uint64_t period_ticks_;
  mutable std::uint64_t now_ps_asked_ = 0;  // now(): the time last asked about, and its cycle
  mutable Cycles now_cycle_ = 0;
  mutable std::uint64_t instant_tick_ = ~std::uint64_t(0);  // enter_instant(): the tick and the instant in it
  mutable std::uint64_t instant_ps_ = 0;
  mutable std::uint64_t latest_tick_ = ~std::uint64_t(0);  // the latest instant entered, and its tick
  mutable std::uint64_t latest_ps_ = 0;
};

}  // namespace numagpu
