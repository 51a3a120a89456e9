#include "common/bandwidth_pipe.hpp"

#include <gtest/gtest.h>

#include "common/time.hpp"

namespace numagpu {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

// At 1 GHz (1000 ps per cycle). These tests build no SystemC module, so several may share a process.
const GpuClock k1GHz(1000);

TEST(BandwidthPipe, WholeRate) {
  BandwidthPipe pipe(k1GHz, 64, 1);  // 64 B/cycle
  // 128 B take 2 cycles; a second 128 B packet arriving at time 0 waits for the first: done at 4 cycles.
  EXPECT_EQ(pipe.reserve(sc_time(0, SC_NS), 128), sc_time(2, SC_NS));
  EXPECT_EQ(pipe.reserve(sc_time(0, SC_NS), 128), sc_time(4, SC_NS));
  // Arriving after the pipe went idle starts at the arrival: 10 ns + 1 cycle for 64 B.
  EXPECT_EQ(pipe.reserve(sc_time(10, SC_NS), 64), sc_time(11, SC_NS));
  EXPECT_EQ(pipe.bytes_moved(), 320u);
}

TEST(BandwidthPipe, ReserveDelayIsFromNowPlusTheExtra) {
  BandwidthPipe pipe(k1GHz, 64, 1);  // 64 B/cycle
  // At 5 ns, 128 B on an idle pipe: 2 cycles, plus a 3-cycle latency = 5000 ps from now.
  EXPECT_EQ(pipe.reserve_delay_ps(5000, 128, 3000), 5000u);
  // A second one at the same time waits for the first (free at 7 ns): done at 9 ns, + 3 = 7000 ps from now.
  EXPECT_EQ(pipe.reserve_delay_ps(5000, 128, 3000), 7000u);
  // Later, on an idle pipe again: the first answer once more.
  EXPECT_EQ(pipe.reserve_delay_ps(20000, 128, 3000), 5000u);
  EXPECT_EQ(pipe.free_at_ps(), 22000u);
  EXPECT_EQ(pipe.bytes_moved(), 384u);
}

// A pipe of the core clock after a change to 500 MHz (Crossbar follows GpuClock::retime): 64 B/cycle is now
// 64 B per 2000 ps. Booked at 1 GHz: 128 B from 0, free at 2000 ps. Then 128 B at 2000 ps: 2 cycles of 2 ns,
// free at 6000 ps; what was booked before is not moved.
TEST(BandwidthPipe, FollowingANewPeriodChangesOnlyWhatIsBookedAfter) {
  BandwidthPipe pipe(k1GHz, 64, 1);
  EXPECT_EQ(pipe.reserve_delay_ps(0, 128, 0), 2000u);
  pipe.follow_period(2000);
  EXPECT_EQ(pipe.free_at_ps(), 2000u);
  EXPECT_EQ(pipe.reserve_delay_ps(2000, 128, 0), 4000u);
  EXPECT_EQ(pipe.free_at_ps(), 6000u);
}

TEST(BandwidthPipe, FractionalRateDoesNotDrift) {
  // 768 B/cycle over 8 channels = 96 B/cycle per channel: one 128 B line takes 4/3 cycle = 1333.33 ps.
  BandwidthPipe pipe(k1GHz, 768, 8);
  EXPECT_EQ(pipe.reserve(sc_time(0, SC_NS), 128), sc_time(1334, sc_core::SC_PS));  // rounded up
  EXPECT_EQ(pipe.reserve(sc_time(0, SC_NS), 128), sc_time(2667, sc_core::SC_PS));  // 2666.67 rounded up
  // Three lines = 384 B = exactly 4 cycles: no accumulated rounding.
  EXPECT_EQ(pipe.reserve(sc_time(0, SC_NS), 128), sc_time(4, SC_NS));
  // 3000 lines back to back = 384000 B / 96 = 4000 cycles exactly.
  BandwidthPipe big(k1GHz, 768, 8);
  sc_time end;
  for (int i = 0; i < 3000; ++i)
    end = big.reserve(sc_time(0, SC_NS), 128);
  EXPECT_EQ(end, sc_time(4000, SC_NS));
}

TEST(GpuClock, ConvertsCyclesAndTime) {
  const GpuClock clock(500);  // 2000 ps per cycle
  EXPECT_EQ(clock.period_ps(), 2000u);
  EXPECT_EQ(clock.cycles(3), sc_time(6, SC_NS));
  EXPECT_EQ(clock.to_cycles(sc_time(5, SC_NS)), 2u);                      // 2.5 cycles, rounded down
  EXPECT_EQ(clock.to_cycles_ceil(sc_time(5, SC_NS)), 3u);                 // rounded up
  EXPECT_EQ(clock.cycles_fraction(4, 3), sc_time(2667, sc_core::SC_PS));  // 2666.67 ps, rounded up
  EXPECT_EQ(GpuClock(3).period_ps(), 333333u);  // 333333.3 ps: the nearest whole picosecond
  EXPECT_THROW(GpuClock(0), std::invalid_argument);
}

}  // namespace
}  // namespace numagpu
