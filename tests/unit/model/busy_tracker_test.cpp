// BusyTracker's per-cycle view when the clock's period changed during the run (docs/power.md, "A clock that
// changes"): cycles are asked in their own period, as GpuClock keeps them.
#include "common/busy_tracker.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace numagpu {
namespace {

// Cycles 0-9 of 1000 ps, then 2000 ps from cycle 10 (10000 ps) on: the two questions GpuClock answers.
struct TwoPeriods {
  std::uint64_t cycle_start_ps(std::uint64_t c) const { return c < 10 ? c * 1000 : 10000 + (c - 10) * 2000; }
  std::uint64_t first_cycle_from_ps(std::uint64_t ps) const {
    return ps <= 10000 ? (ps + 999) / 1000 : 10 + (ps - 10000 + 1999) / 2000;
  }
};

// Busy over [12000, 16000): cycles 11 ([12000, 14000)) and 12 ([14000, 16000)) are busy as a whole. Counted
// in the first period (1000 ps) the answer would be cycle 12, and cycle 11's [11000, 12000) idle.
TEST(BusyTracker, TheFirstBusyCycleIsFoundInEachCyclesOwnPeriod) {
  BusyTracker b(true);
  b.book(12000, 16000);
  const TwoPeriods clock;
  EXPECT_EQ(b.first_busy_cycle(0, 100, clock), 11u);
  EXPECT_EQ(b.first_busy_cycle(12, 100, clock), 12u);
  EXPECT_EQ(b.first_busy_cycle(13, 100, clock), 100u);  // nothing busy from cycle 13 ([16000, 18000)) on
  EXPECT_FALSE(b.busy_in_cycle(clock.cycle_start_ps(10), 2000));
  EXPECT_TRUE(b.busy_in_cycle(clock.cycle_start_ps(11), 2000));
  EXPECT_TRUE(b.busy_in_cycle(clock.cycle_start_ps(12), 2000));
  EXPECT_FALSE(b.busy_in_cycle(clock.cycle_start_ps(13), 2000));
}

// A busy span across the change: [9000, 12000) covers cycle 9 ([9000, 10000)) and cycle 10 ([10000, 12000)).
TEST(BusyTracker, ABusySpanAcrossTheChangeCoversACycleOfEachPeriod) {
  BusyTracker b(true);
  b.book(9000, 12000);
  const TwoPeriods clock;
  EXPECT_EQ(b.first_busy_cycle(0, 100, clock), 9u);
  EXPECT_EQ(b.first_busy_cycle(10, 100, clock), 10u);
  EXPECT_EQ(b.first_busy_cycle(11, 100, clock), 100u);
}

}  // namespace
}  // namespace numagpu
