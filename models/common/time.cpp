#include "common/time.hpp"

#include <stdexcept>

namespace numagpu {

GpuClock::GpuClock(std::uint64_t mhz) {
  if (mhz == 0 || 1000000 % mhz != 0)
    throw std::invalid_argument("clock period must be a whole number of ps");
  period_ps_ = 1000000 / mhz;
}

}  // namespace numagpu
