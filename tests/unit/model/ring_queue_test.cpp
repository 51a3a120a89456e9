// RingQueue (common/ring_queue.hpp): the port groups' FIFO. It must hand items out in push order however
// pushes and pops interleave, across growth and across the wrap of its indices.
#include "common/ring_queue.hpp"

#include <cstdint>
#include <deque>
#include <random>

#include <gtest/gtest.h>

namespace numagpu {
namespace {

TEST(RingQueue, StartsEmptyAndGivesItemsInPushOrder) {
  RingQueue<int> q;
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0u);
  for (int i = 0; i < 20; ++i)  // past the first capacity (8) and the next (16): two growths
    q.push_back(i);
  EXPECT_EQ(q.size(), 20u);
  for (int i = 0; i < 20; ++i) {
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.front(), i);
    q.pop_front();
  }
  EXPECT_TRUE(q.empty());
}

TEST(RingQueue, GrowsWhileWrappedAroundAndKeepsOrder) {
  // Capacity 8: push 6, pop 5 (head at 5), push 7 (the items now wrap past the end of the storage), then
  // push 3 more, which needs a growth while wrapped. Expected order: 5, then 6 .. 15.
  RingQueue<int> q;
  for (int i = 0; i < 6; ++i)
    q.push_back(i);
  for (int i = 0; i < 5; ++i)
    q.pop_front();
  for (int i = 6; i < 16; ++i)
    q.push_back(i);
  EXPECT_EQ(q.size(), 11u);
  for (int i = 5; i < 16; ++i) {
    EXPECT_EQ(q.front(), i);
    q.pop_front();
  }
  EXPECT_TRUE(q.empty());
}

TEST(RingQueue, MatchesADequeUnderRandomPushesAndPops) {
  RingQueue<std::uint64_t> q;
  std::deque<std::uint64_t> reference;
  std::mt19937_64 rng(12345);
  std::uint64_t next = 0;
  for (int step = 0; step < 200000; ++step) {
    // Pushes slightly more likely than pops: the queue fills, drains and wraps many times.
    if (reference.empty() || rng() % 100 < 52) {
      q.push_back(next);
      reference.push_back(next++);
    } else {
      ASSERT_EQ(q.front(), reference.front()) << "step " << step;
      q.pop_front();
      reference.pop_front();
    }
    ASSERT_EQ(q.size(), reference.size());
  }
}

}  // namespace
}  // namespace numagpu
