// CalendarQueue: time order, FIFO among equal times, items far beyond the ring, pushes into the bucket being
// read, and agreement with a plain ordered reference on a pseudo-random schedule.
#include "common/calendar_queue.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace numagpu {
namespace {

// Items carry their label in `what` (an integer smuggled through the pointer).
void* tag(std::uintptr_t n) {
  return reinterpret_cast<void*>(n);
}
std::uintptr_t label(const CalendarQueue::Item& i) {
  return reinterpret_cast<std::uintptr_t>(i.what);
}

// The queue under test beside an ordered reference keyed by (time, push number), fed the same items, and a
// fixed pseudo-random sequence (a 64-bit LCG) to drive them.
struct Checked {
  Checked(std::uint64_t width, std::size_t buckets, std::uint64_t seed) : q(width, buckets), state(seed) {}
  std::uint64_t next_random() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  }
  void push(std::uint64_t at) {
    q.push(at, nullptr, tag(pushes));
    ref.emplace(std::make_pair(at, pushes), pushes);
    ++pushes;
  }
  CalendarQueue q;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uintptr_t> ref;
  std::uint64_t state;
  std::uint64_t pushes = 0;
};

std::vector<std::uintptr_t> drain(CalendarQueue& q) {
  std::vector<std::uintptr_t> out;
  while (!q.empty()) {
    out.push_back(label(q.top()));
    q.pop();
  }
  return out;
}

TEST(CalendarQueue, OrdersByTimeThenByPushOrder) {
  CalendarQueue q(1000, 8);  // 1000-unit buckets, 8 of them
  q.push(2250, nullptr, tag(1));
  q.push(1000, nullptr, tag(2));
  q.push(2250, nullptr, tag(3));  // same time as 1: after it
  q.push(2000, nullptr, tag(4));  // same bucket as 1 and 3, earlier time
  q.push(0, nullptr, tag(5));
  EXPECT_EQ(drain(q), (std::vector<std::uintptr_t>{5, 2, 4, 1, 3}));
}

TEST(CalendarQueue, ItemsBeyondTheRingComeInOrder) {
  // Ring of 4 buckets of 10: from bucket 0 it covers times [0, 40). 1000 and 45 wait outside it.
  CalendarQueue q(10, 4);
  q.push(1000, nullptr, tag(1));
  q.push(45, nullptr, tag(2));
  q.push(5, nullptr, tag(3));
  q.push(39, nullptr, tag(4));
  EXPECT_EQ(drain(q), (std::vector<std::uintptr_t>{3, 4, 2, 1}));
}

TEST(CalendarQueue, PushesIntoTheBucketBeingReadKeepOrder) {
  CalendarQueue q(100, 16);
  q.push(110, nullptr, tag(1));
  q.push(150, nullptr, tag(2));
  ASSERT_EQ(label(q.top()), 1u);  // bucket 1 is now current
  q.pop();                        // time 110
  q.push(110, nullptr, tag(3));   // due now: next, before 150
  q.push(150, nullptr, tag(4));   // equal to 2's time, pushed later: after it
  q.push(120, nullptr, tag(5));   // between
  EXPECT_EQ(drain(q), (std::vector<std::uintptr_t>{3, 5, 2, 4}));
}

TEST(CalendarQueue, LookingAheadLeavesRoomForEarlierItems) {
  // A simulator asks when the next item is due (to sleep until then), and something else then schedules an
  // earlier one: next_time() must not have moved the queue past it.
  CalendarQueue q(100, 16);
  q.push(100, nullptr, tag(1));
  q.push(950, nullptr, tag(2));
  ASSERT_EQ(label(q.top()), 1u);
  q.pop();  // now 100
  EXPECT_EQ(q.next_time(), 950u);
  q.push(420, nullptr, tag(3));  // between now and the next item
  EXPECT_EQ(q.next_time(), 420u);
  EXPECT_EQ(drain(q), (std::vector<std::uintptr_t>{3, 2}));
}

TEST(CalendarQueue, MatchesTheReferenceWhenTimeMovesOnWithoutIt) {
  // How the delivery scheduler uses it: look at next_time() to sleep until then; meanwhile other processes
  // run at times of their own, in between, and push items (some beyond the ring) before the queue is read.
  Checked t(1000, 16, 99);
  CalendarQueue& q = t.q;
  auto& ref = t.ref;
  std::uint64_t now = 0;
  auto next_random = [&t] { return t.next_random(); };
  auto push = [&t](std::uint64_t at) { t.push(at); };
  push(0);
  for (int step = 0; step < 20000; ++step) {
    if (ref.empty()) push(now + next_random() % 40000);
    ASSERT_EQ(q.next_time(), ref.begin()->first.first) << "step " << step;
    if (next_random() % 4 == 0) {
      // Another process runs before the next item is due and schedules something.
      now += (ref.begin()->first.first - now) * (next_random() % 100) / 100;
      push(now + next_random() % 30000);
      continue;
    }
    now = ref.begin()->first.first;
    ASSERT_EQ(label(q.top()), ref.begin()->second) << "step " << step;
    q.pop();
    ref.erase(ref.begin());
    if (next_random() % 2) push(now + next_random() % 30000);
  }
}

TEST(CalendarQueue, DrainsABucketTimeByTimeKeepingPushOrder) {
  // One bucket (0..999) holding three distinct times, pushed out of time order.
  CalendarQueue q(1000, 8);
  q.push(700, nullptr, tag(1));
  q.push(300, nullptr, tag(2));
  q.push(700, nullptr, tag(3));
  q.push(300, nullptr, tag(4));
  q.push(500, nullptr, tag(5));
  ASSERT_EQ(label(q.top()), 2u);  // the earliest time, first pushed
  q.pop();                        // now 300
  q.push(300, nullptr, tag(6));   // due now: after 4, which was pushed before it
  q.push(600, nullptr, tag(7));   // between 500 and 700
  EXPECT_EQ(drain(q), (std::vector<std::uintptr_t>{4, 6, 5, 7, 1, 3}));
}

TEST(CalendarQueue, AnEarlierTimeInTheBucketBeingDrainedComesFirst) {
  // After next_time() looked ahead to 900 inside the same bucket, items for 400 arrive: they go first, in
  // push order, and the item pushed for 900 goes after the one already there.
  CalendarQueue q(1000, 8);
  q.push(100, nullptr, tag(1));
  q.push(900, nullptr, tag(2));
  ASSERT_EQ(label(q.top()), 1u);
  q.pop();  // now 100
  EXPECT_EQ(q.next_time(), 900u);
  q.push(400, nullptr, tag(3));
  q.push(900, nullptr, tag(4));
  q.push(400, nullptr, tag(5));
  EXPECT_EQ(q.next_time(), 400u);
  EXPECT_EQ(drain(q), (std::vector<std::uintptr_t>{3, 5, 2, 4}));
}

TEST(CalendarQueue, PopDueHandsOutOnlyWhatIsDue) {
  CalendarQueue q(100, 16);
  q.push(110, nullptr, tag(1));
  q.push(150, nullptr, tag(2));
  q.push(110, nullptr, tag(3));
  q.push(320, nullptr, tag(4));
  CalendarQueue::Item item{};
  EXPECT_FALSE(q.pop_due(100, item));  // nothing before 110
  ASSERT_TRUE(q.pop_due(110, item));
  EXPECT_EQ(label(item), 1u);
  q.push(110, nullptr, tag(5));  // pushed while 110 is delivered: after 3
  ASSERT_TRUE(q.pop_due(110, item));
  EXPECT_EQ(label(item), 3u);
  ASSERT_TRUE(q.pop_due(110, item));
  EXPECT_EQ(label(item), 5u);
  EXPECT_FALSE(q.pop_due(110, item));  // 150 is not due yet
  ASSERT_TRUE(q.pop_due(150, item));
  EXPECT_EQ(label(item), 2u);
  // At 200 nothing is due, and asking must not move the queue to 320's bucket: 250 can still be pushed.
  EXPECT_FALSE(q.pop_due(200, item));
  q.push(250, nullptr, tag(6));
  EXPECT_EQ(q.size(), 2u);
  ASSERT_TRUE(q.pop_due(320, item));
  EXPECT_EQ(label(item), 6u);
  ASSERT_TRUE(q.pop_due(320, item));
  EXPECT_EQ(label(item), 4u);
  EXPECT_TRUE(q.empty());
  EXPECT_FALSE(q.pop_due(1000, item));
}

TEST(CalendarQueue, PopDueMatchesTheReferenceLikeTheDeliveryScheduler) {
  // The scheduler's loop: wake at next_time(), pop everything due then (items pushed meanwhile for now
  // included), sleep again; other processes push in between, some beyond the ring.
  Checked t(1000, 16, 4242);
  CalendarQueue& q = t.q;
  auto& ref = t.ref;
  std::uint64_t now = 0;
  t.push(0);
  for (int step = 0; step < 5000; ++step) {
    if (ref.empty()) t.push(now + t.next_random() % 40000);
    ASSERT_EQ(q.next_time(), ref.begin()->first.first) << "step " << step;
    if (t.next_random() % 4 == 0) {
      now += (ref.begin()->first.first - now) * (t.next_random() % 100) / 100;
      t.push(now + t.next_random() % 30000);
      continue;
    }
    now = ref.begin()->first.first;
    CalendarQueue::Item item{};
    while (q.pop_due(now, item)) {
      ASSERT_FALSE(ref.empty());
      ASSERT_LE(ref.begin()->first.first, now);
      ASSERT_EQ(label(item), ref.begin()->second) << "step " << step;
      ref.erase(ref.begin());
      const std::uint64_t r = t.next_random() % 8;
      if (r < 2) t.push(now);  // a zero-delay hop
      if (r == 2) t.push(now + t.next_random() % 1000);
      if (r == 3) t.push(now + 20000 + t.next_random() % 100000);
    }
    ASSERT_TRUE(ref.empty() || ref.begin()->first.first > now) << "step " << step;
  }
  EXPECT_EQ(q.size(), ref.size());
}

TEST(CalendarQueue, RefusesAnItemBeforeTheCurrentBucket) {
  CalendarQueue q(100, 16);
  q.push(500, nullptr, tag(1));
  q.top();  // current bucket: 5
  EXPECT_THROW(q.push(420, nullptr, tag(2)), std::logic_error);
}

TEST(CalendarQueue, MatchesAnOrderedReferenceOnAPseudoRandomSchedule) {
  // A simulator's pattern: pop the earliest, push a few items a pseudo-random distance later (often 0, some
  // beyond the ring). The reference is a std::multimap keyed by (time, push number).
  Checked t(1000, 64, 12345);
  CalendarQueue& q = t.q;
  auto& ref = t.ref;
  auto next_random = [&t] { return t.next_random(); };
  auto push = [&t](std::uint64_t at) { t.push(at); };
  push(0);
  for (int step = 0; step < 20000 && !ref.empty(); ++step) {
    ASSERT_EQ(label(q.top()), ref.begin()->second) << "step " << step;
    const std::uint64_t now = ref.begin()->first.first;
    q.pop();
    ref.erase(ref.begin());
    const int n = static_cast<int>(next_random() % 3);  // 0, 1 or 2 new items: the queue breathes
    for (int k = 0; k < n || ref.empty(); ++k) {
      const std::uint64_t r = next_random() % 100;
      const std::uint64_t delay = r < 20 ? 0 : r < 95 ? next_random() % 5000 : 64000 + next_random() % 200000;
      push(now + delay);
      if (k > 4) break;
    }
  }
  EXPECT_EQ(q.size(), ref.size());
}

}  // namespace
}  // namespace numagpu
