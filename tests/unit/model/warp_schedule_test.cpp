#include "sm/warp_schedule.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace numagpu {
namespace {

// A stand-in for the SM's warp table: each warp has an age, a ready cycle and an eligible flag (resident,
// not finished, not at a barrier). The schedule asks it whether its entries are still current.
struct Warps {
  std::vector<std::uint64_t> age;
  std::vector<std::uint64_t> ready_at;
  std::vector<bool> eligible;
  std::uint64_t now = 0;
  bool ready(unsigned w) const { return eligible[w] && ready_at[w] <= now; }
  auto is_ready() {
    return [this](unsigned w, std::uint64_t a) { return age[w] == a && ready(w); };
  }
  auto current() {
    return [this](unsigned w, std::uint64_t t) { return eligible[w] && ready_at[w] == t; };
  }
};

Warps four_warps() {
  // Ages as after two CTA launches into reused slots: warp 0 is the youngest.
  return Warps{{40, 10, 20, 30}, {0, 0, 0, 0}, {true, true, true, true}, 0};
}

TEST(WarpSchedule, OldestReadyWarpFirst) {
  Warps ws = four_warps();
  WarpSchedule s;
  s.reset(4);
  for (unsigned w : {0u, 3u, 2u, 1u})
    s.make_ready(w, ws.age[w]);  // insertion order must not matter
  // Ages 40, 10, 20, 30: oldest is warp 1 (age 10).
  EXPECT_EQ(s.oldest_ready(ws.is_ready()), 1);
  // Warp 1 issues and waits (ready at 5): next oldest is warp 2 (age 20); warp 1's entry is dropped.
  ws.ready_at[1] = 5;
  EXPECT_EQ(s.oldest_ready(ws.is_ready()), 2);
  EXPECT_EQ(s.queued(), 3u);
  // Warp 2 reaches a barrier (not eligible): warp 3 (age 30), then warp 0 (age 40).
  ws.eligible[2] = false;
  EXPECT_EQ(s.oldest_ready(ws.is_ready()), 3);
  ws.eligible[3] = false;
  EXPECT_EQ(s.oldest_ready(ws.is_ready()), 0);
  ws.eligible[0] = false;
  EXPECT_EQ(s.oldest_ready(ws.is_ready()), -1);
  EXPECT_EQ(s.queued(), 0u);
}

TEST(WarpSchedule, MakeReadyTwiceQueuesOnce) {
  Warps ws = four_warps();
  WarpSchedule s;
  s.reset(4);
  s.make_ready(2, ws.age[2]);
  s.make_ready(2, ws.age[2]);
  EXPECT_EQ(s.queued(), 1u);
  // A warp that left (not ready) and comes back while its entry is still queued needs no second entry.
  EXPECT_EQ(s.oldest_ready(ws.is_ready()), 2);
  s.make_ready(2, ws.age[2]);
  EXPECT_EQ(s.queued(), 1u);
}

TEST(WarpSchedule, ASlotRelaunchedWithANewAgeIsOrderedByItsNewAge) {
  Warps ws = four_warps();
  WarpSchedule s;
  s.reset(4);
  s.make_ready(1, 10);
  s.make_ready(2, 20);
  // Warp 1's CTA ends and a new CTA takes its slot: age 50, the youngest. Its old entry (age 10) is stale.
  ws.age[1] = 50;
  s.make_ready(1, 50);
  EXPECT_EQ(s.oldest_ready(ws.is_ready()), 2);  // age 20 before age 50; the age-10 entry was dropped
  ws.eligible[2] = false;
  EXPECT_EQ(s.oldest_ready(ws.is_ready()), 1);
  EXPECT_EQ(s.queued(), 1u);
}

TEST(WarpSchedule, TimersPromoteWarpsWhenTheirCycleComes) {
  Warps ws = four_warps();
  WarpSchedule s;
  s.reset(4);
  ws.ready_at = {12, 10, 10, 0};
  ws.eligible[3] = false;
  s.ready_at(0, 12);
  s.ready_at(1, 10);
  s.ready_at(2, 10);
  s.ready_at(2, 10);  // the same cycle again: one entry
  EXPECT_EQ(s.queued(), 3u);
  EXPECT_EQ(s.next_ready_cycle(ws.current()), 10u);
  // At cycle 10 warps 1 and 2 become ready; warp 0 is not due (12).
  ws.now = 10;
  std::vector<unsigned> promoted;
  s.advance(ws.now, [&](unsigned w) {
    promoted.push_back(w);
    if (ws.ready(w)) s.make_ready(w, ws.age[w]);
  });
  EXPECT_EQ(promoted, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(s.oldest_ready(ws.is_ready()), 1);  // age 10 before age 20
  EXPECT_EQ(s.next_ready_cycle(ws.current()), 12u);
}

TEST(WarpSchedule, AStaleTimerDoesNotGiveTheNextCycle) {
  Warps ws = four_warps();
  WarpSchedule s;
  s.reset(4);
  ws.ready_at = {12, 0, 0, 0};
  s.ready_at(0, 12);
  // Warp 0 arrives at a barrier and is released later, ready at 15: the entry for 12 is stale.
  ws.ready_at[0] = 15;
  s.ready_at(0, 15);
  EXPECT_EQ(s.next_ready_cycle(ws.current()), 15u);
  EXPECT_EQ(s.queued(), 1u);  // the stale entry for 12 was dropped on the way
  // A warp that is not eligible gives no wake-up at all.
  ws.eligible[0] = false;
  EXPECT_EQ(s.next_ready_cycle(ws.current()), WarpSchedule::kNever);
}

}  // namespace
}  // namespace numagpu
