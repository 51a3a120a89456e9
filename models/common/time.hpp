// Simulated time in GPU clock cycles. Configuration and models speak cycles; GpuClock is the one place where
// cycles become sc_time and back (docs/architecture.md, "Time and cost"). Each simulated machine has its own
// clock, in its SimContext (common/sim_context.hpp); the conversions are inline because every hop of every
// request uses them.
//
// Two units meet here. The model's own arithmetic (bandwidth pipes, busy intervals, the delivery queue) is
// in picoseconds at every SystemC time resolution, so that its roundings, and so its results, do not depend
// on the host's choice. An sc_time counts ticks of the resolution (sc_get_time_resolution(): 1 fs, 1 ps,
// 1 ns, ...). GpuClock converts between them: at 1 ps and finer exactly; at coarser resolutions a time in
// picoseconds that is not a whole tick becomes the next tick (never earlier than the model says), and the
// clock period itself must be a whole number of ticks (period_error(), docs/embedding.md "Time resolution").
#pragma once

#include <cstdint>
#include <string>

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
  // Only frequencies whose period is a whole number of picoseconds and of ticks of the current SystemC
  // time resolution are accepted (the System reports system.clock_mhz by name, period_error(); this guard
  // is for programmatic users). The resolution is read here: set it before building the machine.
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
  // Whether retime() has been called: the period has not been the same since time 0.
  bool retimed() const { return epoch_ticks_ != 0 || epoch_cycle_ != 0 || mhz_ != first_mhz_; }
  // The time, in picoseconds, at which cycle `c` starts: c x period without a change. A cycle before the
  // epoch is counted back in the new period (callers ask it only to compare with now, sm.cpp).
  std::uint64_t cycle_start_ps(Cycles c) const {
    if (c >= epoch_cycle_) return epoch_ps_ + (c - epoch_cycle_) * period_ps_;
    const std::uint64_t back = (epoch_cycle_ - c) * period_ps_;
    return back < epoch_ps_ ? epoch_ps_ - back : 0;
  }

  sc_core::sc_time cycles(Cycles n) const { return sc_core::sc_time::from_value(n * period_ticks_); }
  // The same in picoseconds, without making an sc_time (sc_time::from_value is an out-of-line call).
  std::uint64_t cycles_ps(Cycles n) const { return n * period_ps_; }
  // Exact picosecond delay for a fractional number of cycles expressed as num/den (bandwidth models), rounded
  // up: never faster than configured.
  sc_core::sc_time cycles_fraction(std::uint64_t num, std::uint64_t den) const {
    return ps_time((num * period_ps_ + den - 1) / den);
  }

  // Picoseconds <-> sc_time. A time in picoseconds becomes the first tick not before it.
  sc_core::sc_time ps_time(std::uint64_t ps) const { return sc_core::sc_time::from_value(ticks_of_ps(ps)); }
  std::uint64_t ps_of(const sc_core::sc_time& t) const { return ps_of_ticks(t.value()); }
  // The current time in picoseconds.
  std::uint64_t now_ps() const { return ps_of(sim_now()); }

  // The current cycle, rounded down. Asked several times per hop at the same time: the last answer is kept,
  // since a 64-bit division by the period costs tens of cycles each time.
  Cycles now() const {
    const std::uint64_t ticks = sim_now().value();
    if (ticks != now_ticks_) {
      now_ticks_ = ticks;
      now_cycle_ = cycle_of_ticks(ticks);
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
  std::uint64_t ticks_per_ps_ = 1;  // resolution finer than 1 ps: 10, 100 or 1000 ticks per ps
  std::uint64_t ps_per_tick_ = 1;   // resolution coarser than 1 ps: 10, 100, 1000, ... ps per tick
  std::uint64_t period_ticks_;
  mutable std::uint64_t now_ticks_ = 0;  // now(): the time last asked about, and its cycle
  mutable Cycles now_cycle_ = 0;
};

}  // namespace numagpu
