// Simulated time in GPU clock cycles. Configuration and models speak cycles; GpuClock is the one place where
// cycles become sc_time and back (docs/architecture.md, "Time and cost"). Each simulated machine has its own
// clock, in its SimContext (common/sim_context.hpp); the conversions are inline because every hop of every
// request uses them.
#pragma once

#include <cstdint>

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
  // Only frequencies with a whole-picosecond period are accepted (the configuration validates
  // system.clock_mhz; this guard is for programmatic users).
  explicit GpuClock(std::uint64_t mhz = 1000);

  std::uint64_t period_ps() const { return period_ps_; }

  sc_core::sc_time cycles(Cycles n) const { return sc_core::sc_time::from_value(n * period_ps_); }
  // The same in picoseconds, without making an sc_time (sc_time::from_value is an out-of-line call).
  std::uint64_t cycles_ps(Cycles n) const { return n * period_ps_; }
  // Exact picosecond delay for a fractional number of cycles expressed as num/den (bandwidth models), rounded
  // up: never faster than configured.
  sc_core::sc_time cycles_fraction(std::uint64_t num, std::uint64_t den) const {
    return sc_core::sc_time::from_value((num * period_ps_ + den - 1) / den);
  }
  // The current cycle, rounded down. Asked several times per hop at the same time: the last answer is kept,
  // since a 64-bit division by the period costs tens of cycles each time.
  Cycles now() const {
    const std::uint64_t ps = sim_now().value();
    if (ps != now_ps_) {
      now_ps_ = ps;
      now_cycle_ = ps / period_ps_;
    }
    return now_cycle_;
  }
  Cycles to_cycles(const sc_core::sc_time& t) const { return t.value() / period_ps_; }  // rounded down
  Cycles to_cycles_ceil(const sc_core::sc_time& t) const { return (t.value() + period_ps_ - 1) / period_ps_; }

 private:
  std::uint64_t period_ps_;
  mutable std::uint64_t now_ps_ = 0;  // now(): the time last asked about, and its cycle
  mutable Cycles now_cycle_ = 0;
};

}  // namespace numagpu
