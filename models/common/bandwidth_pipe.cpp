#include "common/bandwidth_pipe.hpp"

#include <algorithm>
#include <stdexcept>

namespace numagpu {

BandwidthPipe::BandwidthPipe(const GpuClock& clock, std::uint64_t bytes_num, std::uint64_t den)
    : clock_(&clock), num_(bytes_num), den_(den), ps_per_byte_scaled_(clock.period_ps() * den) {
  if (bytes_num == 0 || den == 0) throw std::invalid_argument("BandwidthPipe: rate must be positive");
}

sc_core::sc_time BandwidthPipe::reserve(const sc_core::sc_time& arrival, std::uint64_t bytes) {
  const std::uint64_t arrival_scaled = clock_->ps_of(arrival) * num_;
  free_at_scaled_ = std::max(free_at_scaled_, arrival_scaled) + bytes * ps_per_byte_scaled_;
  bytes_moved_ += bytes;
  return free_at();
}

sc_core::sc_time BandwidthPipe::free_at() const {
  return clock_->ps_time(free_at_ps());
}

}  // namespace numagpu
