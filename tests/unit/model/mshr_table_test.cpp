#include "cache/mshr_table.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <stdexcept>
#include <vector>

namespace numagpu {
namespace {

struct Req {
  int id;
};

std::vector<int> close_ids(MshrTable<Req>& t, std::uint64_t line) {
  std::vector<int> ids;
  t.close(line, [&](Req* r) { ids.push_back(r->id); });
  return ids;
}

TEST(MshrTable, MergedRequestsComeBackInArrivalOrder) {
  MshrTable<Req> t(8);
  Req r[6] = {{0}, {1}, {2}, {3}, {4}, {5}};
  EXPECT_FALSE(t.merge_or_open(100, &r[0]));  // first miss to 100: opened, r0 goes on to memory
  EXPECT_FALSE(t.merge_or_open(200, &r[1]));  // first miss to 200
  EXPECT_TRUE(t.merge_or_open(100, &r[2]));   // merged behind 100
  EXPECT_TRUE(t.merge_or_open(200, &r[3]));
  EXPECT_TRUE(t.merge_or_open(100, &r[4]));
  EXPECT_TRUE(t.merge_or_open(100, &r[5]));
  EXPECT_EQ(t.lines(), 2u);
  EXPECT_EQ(t.merged(), 4u);
  // 100's merged requests in arrival order: r2, r4, r5 (r0 is the miss itself, answered by the caller).
  EXPECT_EQ(close_ids(t, 100), (std::vector<int>{2, 4, 5}));
  EXPECT_FALSE(t.contains(100));
  EXPECT_TRUE(t.contains(200));
  EXPECT_EQ(close_ids(t, 200), (std::vector<int>{3}));
  EXPECT_EQ(t.lines(), 0u);
  EXPECT_EQ(t.merged(), 0u);
  EXPECT_FALSE(t.close(200, [](Req*) {}));  // nothing outstanding any more
}

TEST(MshrTable, AMissWithNothingMergedClosesEmpty) {
  MshrTable<Req> t(2);
  Req r{7};
  EXPECT_FALSE(t.merge_or_open(5, &r));
  EXPECT_TRUE(close_ids(t, 5).empty());
  EXPECT_FALSE(t.contains(5));
}

TEST(MshrTable, AFullTableRefusesLoudly) {
  MshrTable<Req> t(2);  // 2 lines, 2 merged requests
  Req r[5] = {{0}, {1}, {2}, {3}, {4}};
  t.merge_or_open(1, &r[0]);
  t.merge_or_open(2, &r[1]);
  EXPECT_THROW(t.merge_or_open(3, &r[2]), std::length_error);  // a third line
  t.merge_or_open(1, &r[2]);
  t.merge_or_open(2, &r[3]);
  EXPECT_THROW(t.merge_or_open(1, &r[4]), std::length_error);  // a third merged request
}

TEST(MshrTable, SlotsAndNodesAreReusedAfterClose) {
  // Capacity 2, used many times over: freed lines and merge nodes must come back.
  MshrTable<Req> t(2);
  Req r[4] = {{0}, {1}, {2}, {3}};
  for (std::uint64_t round = 0; round < 100; ++round) {
    const std::uint64_t a = round * 2, b = round * 2 + 1;
    EXPECT_FALSE(t.merge_or_open(a, &r[0]));
    EXPECT_FALSE(t.merge_or_open(b, &r[1]));
    EXPECT_TRUE(t.merge_or_open(a, &r[2]));
    EXPECT_TRUE(t.merge_or_open(b, &r[3]));
    EXPECT_EQ(close_ids(t, b), (std::vector<int>{3}));
    EXPECT_EQ(close_ids(t, a), (std::vector<int>{2}));
  }
  EXPECT_EQ(t.lines(), 0u);
}

TEST(MshrTable, ReopeningTheSameLineFromTheCloseCallbackIsANewMiss) {
  MshrTable<Req> t(4);
  Req r[3] = {{0}, {1}, {2}};
  t.merge_or_open(9, &r[0]);
  t.merge_or_open(9, &r[1]);
  bool reopened = false;
  t.close(9, [&](Req*) { reopened = !t.merge_or_open(9, &r[2]); });
  EXPECT_TRUE(reopened);  // the entry was gone before the callback ran
  EXPECT_TRUE(t.contains(9));
  EXPECT_EQ(t.merged(), 0u);
}

// Many lines whose hashes collide into long probe runs, closed in an order that makes deletion move entries
// back: every remaining line must stay findable with its own merged request.
TEST(MshrTable, DeletionKeepsProbeRunsIntact) {
  constexpr unsigned kCap = 64;
  MshrTable<Req> t(kCap);
  std::vector<Req> reqs(kCap);
  for (unsigned i = 0; i < kCap; ++i) {
    reqs[i].id = int(i);
    // Lines of one L2 bank: the same low bits, different high bits.
    EXPECT_FALSE(t.merge_or_open(std::uint64_t(i) << 4 | 3, &reqs[i]));
  }
  for (unsigned i = 0; i < kCap; ++i)
    EXPECT_TRUE(t.merge_or_open(std::uint64_t(i) << 4 | 3, &reqs[i]));
  std::vector<bool> closed(kCap, false);
  for (unsigned k = 0; k < kCap; ++k) {
    const unsigned i = (k * 37) % kCap;  // a scrambled order (37 is prime to 64: each i once)
    EXPECT_EQ(close_ids(t, std::uint64_t(i) << 4 | 3), (std::vector<int>{int(i)}));
    closed[i] = true;
    for (unsigned m = 0; m < kCap; ++m)
      EXPECT_EQ(t.contains(std::uint64_t(m) << 4 | 3), !closed[m]);
  }
  EXPECT_EQ(t.lines(), 0u);
  EXPECT_EQ(t.merged(), 0u);
}

// Against a plain map of vectors (the structure it replaces) over random opens, merges and closes of lines
// from a small range, so that probe runs collide, wrap around the table and shrink.
TEST(MshrTable, MatchesAMapOfVectorsOnRandomTraffic) {
  constexpr unsigned kCap = 16;
  MshrTable<Req> t(kCap);
  std::map<std::uint64_t, std::vector<int>> ref;
  std::size_t ref_merged = 0;
  std::vector<Req> reqs(100000);
  std::mt19937_64 rng(5);
  for (int step = 0; step < 100000; ++step) {
    reqs[step].id = step;
    const std::uint64_t line = (rng() % 40) * 1024 + 7;
    if (rng() % 2 == 0) {
      const bool full = ref.count(line) ? ref_merged == kCap : ref.size() == kCap;
      if (full) continue;
      const bool merged = t.merge_or_open(line, &reqs[step]);
      ASSERT_EQ(merged, ref.count(line) == 1);
      if (merged) {
        ref[line].push_back(step);
        ++ref_merged;
      } else {
        ref[line];
      }
    } else {
      const auto it = ref.find(line);
      std::vector<int> got;
      ASSERT_EQ(t.close(line, [&](Req* r) { got.push_back(r->id); }), it != ref.end());
      if (it == ref.end()) continue;
      ASSERT_EQ(got, it->second);
      ref_merged -= it->second.size();
      ref.erase(it);
    }
    ASSERT_EQ(t.lines(), ref.size());
    ASSERT_EQ(t.merged(), ref_merged);
  }
}

}  // namespace
}  // namespace numagpu
