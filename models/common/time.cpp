#include "common/time.hpp"

#include <stdexcept>

namespace numagpu {

namespace {

// The SystemC time resolution, in femtoseconds (1 for 1 fs, 1000 for 1 ps, 1000000 for 1 ns, ...): always a
// power of ten of femtoseconds (sc_set_time_resolution refuses anything else).
std::uint64_t resolution_fs() {
  return static_cast<std::uint64_t>(sc_core::sc_get_time_resolution().to_seconds() * 1e15 + 0.5);
}

}  // namespace

std::string GpuClock::period_error(std::uint64_t mhz) {
  const std::uint64_t period_ps = period_ps_of_mhz(mhz);
  if (period_ps == 0)
    return std::to_string(mhz) + " MHz has no period of a picosecond or more (expected 1 to 1999999 MHz)";
  const std::uint64_t res_fs = resolution_fs();
  if (res_fs > 1000 && (period_ps * 1000) % res_fs != 0)
    return std::to_string(mhz) + " MHz has a period of " + std::to_string(period_ps) +
           " ps, not a whole number of ticks of the SystemC time resolution (" +
           sc_core::sc_get_time_resolution().to_string() +
           "): choose a clock whose period it divides, or a finer resolution";
  return {};
}

GpuClock::GpuClock(std::uint64_t mhz) : first_mhz_(mhz) {
  const std::uint64_t res_fs = resolution_fs();
  if (res_fs < 1000)
    ticks_per_ps_ = 1000 / res_fs;
  else
    ps_per_tick_ = res_fs / 1000;
  set_period(mhz);
  steps_.push_back(Step{0, 0, mhz});
}

void GpuClock::set_period(std::uint64_t mhz) {
  const std::string error = period_error(mhz);
  if (!error.empty()) throw std::invalid_argument("clock: " + error);
  mhz_ = mhz;
  period_ps_ = period_ps_of_mhz(mhz);
  period_ticks_ = period_ps_ * ticks_per_ps_ / ps_per_tick_;
}

Cycles GpuClock::retime_at_now(std::uint64_t mhz) {
  const std::string error = period_error(mhz);
  if (!error.empty()) throw std::invalid_argument("clock: " + error);
  const std::uint64_t now = now_ps();
  if (now <= epoch_ps_ || cycle_start_ps(cycle_of_ps(now)) == now) return retime(mhz);  // on a boundary
  const Cycles boundary = cycle_of_ps(now) + 1;
  epoch_cycle_ = boundary;
  epoch_ps_ = now;
  epoch_ticks_ = ticks_of_ps(now);
  set_period(mhz);
  steps_.push_back(Step{boundary, now, mhz});
  now_ps_asked_ = ~std::uint64_t(0);
  return boundary;
}

Cycles GpuClock::retime(std::uint64_t mhz) {
  const std::string error = period_error(mhz);
  if (!error.empty()) throw std::invalid_argument("clock: " + error);
  // The first boundary not before now (the exact now: within a delivery at a coarse resolution, the item's
  // instant), in the old period. Every boundary is a whole tick: periods are.
  const std::uint64_t now = now_ps();
  const Cycles boundary = now <= epoch_ps_ ? epoch_cycle_ : first_cycle_from_ps(now);
  const std::uint64_t boundary_ps = cycle_start_ps(boundary);
  epoch_cycle_ = boundary;
  epoch_ps_ = boundary_ps;
  epoch_ticks_ = ticks_of_ps(boundary_ps);
  set_period(mhz);
  // Two changes before the same boundary: the later one is the clock from there.
  if (steps_.back().cycle == boundary)
    steps_.back().mhz = mhz;
  else
    steps_.push_back(Step{boundary, boundary_ps, mhz});
  now_ps_asked_ = ~std::uint64_t(0);  // now()'s kept answer was in the old period
  return boundary;
}

}  // namespace numagpu
