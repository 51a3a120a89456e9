// Simulated time in GPU clock cycles. Configuration and models speak cycles; this header is the one place
// where cycles become sc_time and back (DESIGN principle 4).
#pragma once

#include <cstdint>

#include <systemc>

namespace numagpu {

using Cycles = std::uint64_t;

class GpuClock {
 public:
  // Called once during elaboration from the configuration (system.clock_mhz).
  static void set_frequency_mhz(std::uint64_t mhz);
  static std::uint64_t period_ps() { return period_ps_; }

  static sc_core::sc_time cycles(Cycles n) { return sc_core::sc_time::from_value(n * period_ps_); }
  // Exact picosecond delay for a fractional number of cycles expressed as num/den (bandwidth models).
  static sc_core::sc_time cycles_fraction(std::uint64_t num, std::uint64_t den);
  static Cycles now();                                 // current cycle, rounded down
  static Cycles to_cycles(const sc_core::sc_time& t);  // rounded down
  static Cycles to_cycles_ceil(const sc_core::sc_time& t);

 private:
  static inline std::uint64_t period_ps_ = 1000;  // 1 GHz
};

}  // namespace numagpu
