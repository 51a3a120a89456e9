#include "sm/warp_schedule.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace numagpu {
namespace {

// Eight warps in four CTA slots of two warps. After reset the order is by warp number (all launched
// together); relaunching a slot makes its warps the youngest.
TEST(WarpSchedule, OldestReadyWarpFirst) {
  WarpSchedule s;
  s.reset(8);
  EXPECT_EQ(s.oldest_ready(), -1);
  s.set_ready(5, true);
  s.set_ready(2, true);
  s.set_ready(7, true);
  EXPECT_EQ(s.oldest_ready(), 2);  // order 0..7: the lowest ready number
  s.set_ready(2, false);           // warp 2 issued and waits
  EXPECT_EQ(s.oldest_ready(), 5);
  s.set_ready(5, false);
  s.set_ready(5, false);  // reporting the same state twice changes nothing
  EXPECT_EQ(s.oldest_ready(), 7);
  s.set_ready(7, false);
  EXPECT_EQ(s.oldest_ready(), -1);
}

TEST(WarpSchedule, ARelaunchedSlotBecomesTheYoungest) {
  WarpSchedule s;
  s.reset(8);
  // Slot 0 (warps 0, 1) ends and a new CTA takes it: order 2 3 4 5 6 7 0 1.
  s.relaunched(0, 2);
  s.set_ready(1, true);
  s.set_ready(6, true);
  EXPECT_EQ(s.oldest_ready(), 6);  // 6 comes before 1 now
  // Slot 3 (warps 6, 7) is relaunched next: order 2 3 4 5 0 1 6 7. A ready bit moves with its warp.
  s.relaunched(6, 2);
  EXPECT_EQ(s.oldest_ready(), 1);
  s.set_ready(0, true);
  EXPECT_EQ(s.oldest_ready(), 0);  // within a slot, by warp number (launch order)
  s.set_ready(3, true);
  EXPECT_EQ(s.oldest_ready(), 3);  // never relaunched: the oldest
  EXPECT_TRUE(s.is_ready(6));
}

TEST(WarpSchedule, MoreThanOneWordOfWarps) {
  WarpSchedule s;
  s.reset(256);
  s.set_ready(255, true);
  s.set_ready(130, true);
  EXPECT_EQ(s.oldest_ready(), 130);
  s.relaunched(128, 4);  // warps 128..131 move behind 255
  EXPECT_EQ(s.oldest_ready(), 255);
  s.set_ready(255, false);
  EXPECT_EQ(s.oldest_ready(), 130);
}

// A stand-in for the SM's warps as far as timers go: the ready cycle and whether the warp is eligible.
struct Waits {
  std::vector<std::uint64_t> ready_at;
  std::vector<bool> eligible;
  auto current() {
    return [this](unsigned w, std::uint64_t t) { return eligible[w] && ready_at[w] == t; };
  }
};

TEST(WarpSchedule, TimersHandOverWarpsWhenTheirCycleComes) {
  WarpSchedule s;
  s.reset(4);
  Waits ws{{12, 10, 10, 0}, {true, true, true, false}};
  s.ready_at(0, 12);
  s.ready_at(1, 10);
  s.ready_at(2, 10);
  s.ready_at(2, 10);  // the same cycle again: one entry
  EXPECT_EQ(s.queued_timers(), 3u);
  EXPECT_EQ(s.next_ready_cycle(ws.current()), 10u);
  // At cycle 10, warps 1 and 2 are due (ties by warp number); warp 0 is not (12).
  std::vector<unsigned> due;
  s.advance(10, [&](unsigned w) {
    due.push_back(w);
    s.set_ready(w, true);
  });
  EXPECT_EQ(due, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(s.oldest_ready(), 1);
  EXPECT_EQ(s.next_ready_cycle(ws.current()), 12u);
}

TEST(WarpSchedule, AStaleTimerDoesNotGiveTheNextCycle) {
  WarpSchedule s;
  s.reset(4);
  Waits ws{{12, 0, 0, 0}, {true, true, true, true}};
  s.ready_at(0, 12);
  // Warp 0 arrives at a barrier and is released later, ready at 15: the entry for 12 is stale.
  ws.ready_at[0] = 15;
  s.ready_at(0, 15);
  EXPECT_EQ(s.next_ready_cycle(ws.current()), 15u);
  EXPECT_EQ(s.queued_timers(), 1u);  // the stale entry for 12 was dropped on the way
  // A warp that is not eligible gives no wake-up at all.
  ws.eligible[0] = false;
  EXPECT_EQ(s.next_ready_cycle(ws.current()), WarpSchedule::kNever);
}

// Processing blocks: warp w belongs to block w mod 4. Each block's pick sees only its own warps, in age
// order, and a relaunch moves the block's warps to the young end as before.
TEST(WarpSchedule, EachBlockPicksAmongItsOwnWarps) {
  WarpSchedule s;
  s.reset(8, 4);  // block 0: warps 0, 4; block 1: 1, 5; block 2: 2, 6; block 3: 3, 7
  s.set_ready(4, true);
  s.set_ready(5, true);
  s.set_ready(1, true);
  EXPECT_EQ(s.oldest_ready(0), 4);
  EXPECT_EQ(s.oldest_ready(1), 1);
  EXPECT_EQ(s.oldest_ready(2), -1);
  // Slot 0 of 2 warps (0, 1) relaunched: order 2 3 4 5 6 7 0 1; block 1's oldest ready is now 5.
  s.relaunched(0, 2);
  EXPECT_EQ(s.oldest_ready(1), 5);
  EXPECT_EQ(s.oldest_ready(0), 4);
}

// Loose round-robin: the first ready warp of the block numbered after the last one issued, wrapping around.
TEST(WarpSchedule, RoundRobinStartsAfterTheLastIssued) {
  WarpSchedule s;
  s.reset(200, 2, true);  // block 0: the even warps; beyond one word of 64
  for (unsigned w : {2u, 10u, 70u, 150u, 151u})
    s.set_ready(w, true);
  EXPECT_EQ(s.next_ready_after(0, WarpSchedule::kMaxWarps - 1), 2);  // none issued yet: the lowest
  EXPECT_EQ(s.next_ready_after(0, 2), 10);
  EXPECT_EQ(s.next_ready_after(0, 10), 70);    // into the second word
  EXPECT_EQ(s.next_ready_after(0, 70), 150);   // the third
  EXPECT_EQ(s.next_ready_after(0, 150), 2);    // wraps around
  EXPECT_EQ(s.next_ready_after(1, 0), 151);    // block 1 sees only warp 151
  EXPECT_EQ(s.next_ready_after(1, 151), 151);  // itself again when it is the only one
  s.set_ready(151, false);
  EXPECT_EQ(s.next_ready_after(1, 151), -1);
}

}  // namespace
}  // namespace numagpu
