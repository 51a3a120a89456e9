#include "common/time.hpp"

#include <stdexcept>

namespace numagpu {

void GpuClock::set_frequency_mhz(std::uint64_t mhz) {
  // Only frequencies with a whole-picosecond period are accepted by the config (validated there); this guard
  // protects programmatic users.
  if (mhz == 0 || 1000000 % mhz != 0)
    throw std::invalid_argument("clock period must be a whole number of ps");
  period_ps_ = 1000000 / mhz;
}

sc_core::sc_time GpuClock::cycles_fraction(std::uint64_t num, std::uint64_t den) {
  const std::uint64_t ps = (num * period_ps_ + den - 1) / den;  // round up: never faster than configured
  return sc_core::sc_time::from_value(ps);
}

Cycles GpuClock::now() {
  return to_cycles(sc_core::sc_time_stamp());
}

Cycles GpuClock::to_cycles(const sc_core::sc_time& t) {
  return t.value() / period_ps_;
}

Cycles GpuClock::to_cycles_ceil(const sc_core::sc_time& t) {
  return (t.value() + period_ps_ - 1) / period_ps_;
}

}  // namespace numagpu
