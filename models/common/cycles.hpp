// The unit of simulated time everywhere outside GpuClock: cycles of the GPU clock, and the clock's period.
// Its own header so that parameter headers (the *_spec.hpp files) need no SystemC.
#pragma once

#include <cstdint>

namespace numagpu {

using Cycles = std::uint64_t;

// A clock's period: the whole picosecond nearest 1/f. Times in the model are whole picoseconds, so a
// frequency whose period is not one (1400 MHz: 714.29 ps) runs at the nearest (714 ps, 1400.56 MHz): at most
// 0.5 ps a cycle, 0.1 % at 2 GHz and less below. Such a run's stats.json gives the period
// (summary.clock_period_ps), its activity.json the simulated time (duration_ps), which power integrates over:
// both follow the period run. Rates given in GB/s and ns become bytes and cycles at the nominal frequency.
inline std::uint64_t period_ps_of_mhz(std::uint64_t mhz) {
  return mhz == 0 ? 0 : (1000000 + mhz / 2) / mhz;
}
// The whole-MHz frequency nearest 1/`ps` if its period (above) is `ps` (714 ps: 1401 MHz, 1e6 / 714 =
// 1400.56; 1400 MHz also runs at 714 ps), or 0 when none has it (periods over about 1 ns are not all reached:
// 2001 ps lies between 500 MHz's 2000 and 499 MHz's 2004).
inline std::uint64_t mhz_of_period_ps(std::uint64_t ps) {
  if (ps == 0) return 0;
  const std::uint64_t mhz = (1000000 + ps / 2) / ps;
  return mhz != 0 && period_ps_of_mhz(mhz) == ps ? mhz : 0;
}

}  // namespace numagpu
