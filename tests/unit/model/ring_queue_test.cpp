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
  for (int i = 0; i < 20; ++i)  // past the inline capacity (4) and the heap's 8 and 16: three growths
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
  // Inline capacity 4: push 0, 1, 2 and pop two (the head at slot 2), push 3, 4, 5 (4 and 5 wrap to slots 0
  // and 1: the ring is full), then 6, which needs a growth while wrapped, and 7 .. 15 (another growth from
  // the heap). Expected order: 2, then 3 .. 15.
  RingQueue<int> q;
  for (int i = 0; i < 3; ++i)
    q.push_back(i);
  q.pop_front();
  q.pop_front();
  for (int i = 3; i < 16; ++i)
    q.push_back(i);
  EXPECT_EQ(q.size(), 14u);
  for (int i = 2; i < 16; ++i) {
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
