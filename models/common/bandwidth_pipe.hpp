// A resource that moves bytes at a fixed rate (a DRAM channel, a crossbar port). Time is kept exactly as a
// rational number so that rates such as 96 B/cycle or 25 GB/s at 1 GHz never drift through rounding.
#pragma once

#include <algorithm>
#include <cstdint>

#include <systemc>

#include "common/time.hpp"

namespace numagpu {

class BandwidthPipe {
 public:
  // Rate: bytes_num bytes every den cycles of `clock`.
  BandwidthPipe(const GpuClock& clock, std::uint64_t bytes_num, std::uint64_t den);

  // Occupies the pipe for `bytes`, starting no earlier than `arrival` and after everything reserved before.
  // Returns the time the last byte leaves (rounded up to the picosecond, then to the SystemC tick).
  sc_core::sc_time reserve(const sc_core::sc_time& arrival, std::uint64_t bytes);
  // reserve() from `now_ps` for a caller that wants a delay: from now until the last byte leaves, plus
  // `extra_ps` (a latency after the pipe), in picoseconds (exact at every SystemC time resolution:
  // RequestOutputs::send_ps).
  std::uint64_t reserve_delay_ps(std::uint64_t now_ps, std::uint64_t bytes, std::uint64_t extra_ps) {
    free_at_scaled_ = std::max(free_at_scaled_, now_ps * num_) + bytes * ps_per_byte_scaled_;
    bytes_moved_ += bytes;
    return free_at_ps() - now_ps + extra_ps;
  }
  // Occupies the pipe for `duration_ps` without moving bytes (a DRAM refresh), starting no earlier than
  // `from_ps` and after everything reserved before.
  void hold(std::uint64_t from_ps, std::uint64_t duration_ps) {
    free_at_scaled_ = std::max(free_at_scaled_, from_ps * num_) + duration_ps * num_;
  }
  // When the pipe is next free (rounded up to the picosecond, then to the SystemC tick).
  sc_core::sc_time free_at() const;
  std::uint64_t free_at_ps() const { return (free_at_scaled_ + num_ - 1) / num_; }  // the same, in ps
  std::uint64_t bytes_moved() const { return bytes_moved_; }
  // A run-time clock change (GpuClock::retime) for a pipe whose rate is per cycle of the core clock: from now
  // on `den` cycles are of `period_ps`. What is already booked stays as booked.
  void follow_period(std::uint64_t period_ps) { ps_per_byte_scaled_ = period_ps * den_; }

 private:
  const GpuClock* clock_;
  std::uint64_t num_;
  std::uint64_t den_;
  std::uint64_t ps_per_byte_scaled_;  // period_ps * den: time of one byte, in units of 1/num_ ps
  std::uint64_t free_at_scaled_ = 0;  // ps * num_
  std::uint64_t bytes_moved_ = 0;
};

}  // namespace numagpu
