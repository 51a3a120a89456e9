#include "cache/tag_array.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

namespace numagpu {
namespace {

// 2 sets x 2 ways. Lines map to set (line % 2): even lines to set 0, odd lines to set 1.
TEST(TagArray, LruEvictsLeastRecentlyUsedInTheSet) {
  TagArray t(2, 2);
  EXPECT_FALSE(t.access(0));
  EXPECT_FALSE(t.insert(0, false).has_value());  // set 0: {0}
  EXPECT_FALSE(t.insert(2, false).has_value());  // set 0: {0, 2}, 2 most recent
  EXPECT_FALSE(t.insert(1, false).has_value());  // set 1 is independent
  EXPECT_TRUE(t.access(0));                      // 0 becomes most recent: LRU order 2, 0
  const auto victim = t.insert(4, false);        // evicts 2
  ASSERT_TRUE(victim.has_value());
  EXPECT_EQ(victim->line, 2u);
  EXPECT_FALSE(victim->dirty);
  EXPECT_TRUE(t.contains(0));
  EXPECT_TRUE(t.contains(4));
  EXPECT_FALSE(t.contains(2));
  EXPECT_TRUE(t.contains(1));
}

TEST(TagArray, DirtyVictimIsReported) {
  TagArray t(1, 1);
  t.insert(7, false);
  EXPECT_TRUE(t.mark_dirty(7));
  EXPECT_FALSE(t.mark_dirty(8));  // absent
  const auto victim = t.insert(8, false);
  ASSERT_TRUE(victim.has_value());
  EXPECT_EQ(victim->line, 7u);
  EXPECT_TRUE(victim->dirty);
}

TEST(TagArray, InvalidateAllCountsValidLines) {
  TagArray t(4, 2);
  t.insert(0, false);
  t.insert(1, true);
  t.insert(5, false);
  EXPECT_EQ(t.invalidate_all(), 3u);
  EXPECT_FALSE(t.contains(0));
  EXPECT_EQ(t.invalidate_all(), 0u);
}

}  // namespace
}  // namespace numagpu

namespace numagpu {
namespace {

using Cls = TagArray::LineClass;

// One set of 4 ways, remote quota 1 (local 3). Lines are numbered so that all fall in set 0.
TEST(TagArrayPartition, RemoteClassIsCappedAtItsQuota) {
  TagArray t(1, 4);
  t.insert(10, false, Cls::kRemote, 1);
  t.insert(11, false, Cls::kRemote, 1);  // remote at its quota (1): replaces its own LRU line, 10
  EXPECT_FALSE(t.contains(10));
  EXPECT_TRUE(t.contains(11));
  EXPECT_EQ(t.count(Cls::kRemote), 1u);
  // Local (quota 3) fills the 3 free ways, then replaces its own LRU.
  t.insert(1, false, Cls::kLocal, 3);
  t.insert(2, false, Cls::kLocal, 3);
  t.insert(3, false, Cls::kLocal, 3);
  const auto v = t.insert(4, false, Cls::kLocal, 3);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->line, 1u);  // the local LRU, not the remote line 11
  EXPECT_TRUE(t.contains(11));
}

// The split moves from 3 local / 1 remote to 1 local / 3 remote: nothing is evicted at once (lazy), local
// lines leave only as remote lines need their ways; and each class always keeps its one-way floor.
TEST(TagArrayPartition, LazyEvictionAfterASplitChange) {
  TagArray t(1, 4);
  t.insert(1, false, Cls::kLocal, 3);
  t.insert(2, false, Cls::kLocal, 3);
  t.insert(3, false, Cls::kLocal, 3);
  t.insert(10, false, Cls::kRemote, 1);
  // New split: remote 3. The set is full; remote holds 1 < 3: takes the LRU local line (1).
  auto v = t.insert(11, true, Cls::kRemote, 3);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->line, 1u);
  EXPECT_EQ(v->cls, Cls::kLocal);
  v = t.insert(12, false, Cls::kRemote, 3);  // remote 2 < 3: takes local 2
  EXPECT_EQ(v->line, 2u);
  v = t.insert(13, false, Cls::kRemote, 3);  // remote at 3: replaces its own LRU (10); local 3 stays
  EXPECT_EQ(v->line, 10u);
  EXPECT_TRUE(t.contains(3));
  // Local is now over... at 1 line, its quota is 1: a new local line replaces local 3 (floor: one way).
  v = t.insert(4, false, Cls::kLocal, 1);
  EXPECT_EQ(v->line, 3u);
  EXPECT_EQ(t.count(Cls::kLocal), 1u);
  EXPECT_EQ(t.count(Cls::kRemote), 3u);
}

TEST(TagArrayPartition, UnpartitionedSetsUseOneLruOverBothClasses) {
  TagArray t(1, 2);
  t.insert(1, false, Cls::kLocal, 2);
  t.insert(10, false, Cls::kRemote, 2);
  t.access(1);  // LRU order: 10, 1
  const auto v = t.insert(2, false, Cls::kLocal, 2);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->line, 10u);
}

TEST(TagArrayPartition, InvalidateOneClassReturnsItsDirtyLines) {
  TagArray t(2, 2);
  t.insert(0, false, Cls::kLocal, 2);
  t.insert(1, true, Cls::kRemote, 2);
  t.insert(2, false, Cls::kRemote, 2);
  t.insert(3, true, Cls::kLocal, 2);
  std::vector<std::uint64_t> dirty;
  EXPECT_EQ(t.invalidate_class(Cls::kRemote, dirty), 2u);
  EXPECT_EQ(dirty, (std::vector<std::uint64_t>{1}));
  EXPECT_TRUE(t.contains(0));
  EXPECT_TRUE(t.contains(3));
  EXPECT_FALSE(t.contains(1));
}

}  // namespace
}  // namespace numagpu

namespace numagpu {
namespace {

// The replacement policy is a plug-in: a policy that always evicts the highest candidate way replaces LRU.
class HighestWay : public ReplacementPolicy {
 public:
  void on_use(std::uint64_t, unsigned) override { ++uses; }
  unsigned pick(std::uint64_t, std::uint64_t candidates) const override {
    unsigned w = 0;
    for (unsigned i = 0; i < 64; ++i) {
      if ((candidates >> i) & 1) w = i;
    }
    return w;
  }
  int uses = 0;
};

TEST(TagArrayReplacement, APolicyBehindTheInterfaceChoosesTheVictim) {
  auto policy = std::make_unique<HighestWay>();
  HighestWay* p = policy.get();
  TagArray t(1, 2, std::move(policy));
  t.insert(1, false);  // way 0
  t.insert(2, false);  // way 1
  t.access(1);         // LRU would now evict line 2 (way 1); so does "highest way": both agree here
  t.access(2);         // LRU would evict line 1 (way 0) — "highest way" still evicts way 1 (line 2)
  const auto v = t.insert(3, false);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->line, 2u);
  EXPECT_EQ(p->uses, 5);  // 2 insertions + 2 hits + the insertion of line 3
}

}  // namespace
}  // namespace numagpu

namespace numagpu {
namespace {

// Set counts that are not a power of two index by modulo: 3 sets, lines 0, 3, 6 share set 0.
TEST(TagArrayLayout, NonPowerOfTwoSetCountsUseModulo) {
  TagArray t(3, 2);
  t.insert(0, false);
  t.insert(3, false);
  t.insert(1, false);                 // set 1: does not disturb set 0
  const auto v = t.insert(6, false);  // set 0 full: evicts its LRU line, 0
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->line, 0u);
  EXPECT_TRUE(t.contains(3));
  EXPECT_TRUE(t.contains(1));
}

// Line 0 is a valid line (the tag keeps line + 1, 0 meaning invalid), and line numbers above 2^32 work.
TEST(TagArrayLayout, LineZeroAndLargeLinesAreOrdinaryLines) {
  TagArray t(4, 1);
  EXPECT_FALSE(t.contains(0));
  t.insert(0, true);
  EXPECT_TRUE(t.contains(0));
  const std::uint64_t big = (std::uint64_t(1) << 40) + 4;  // set 0 as well
  const auto v = t.insert(big, false);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->line, 0u);
  EXPECT_TRUE(v->dirty);
  EXPECT_TRUE(t.contains(big));
  EXPECT_FALSE(t.contains(~std::uint64_t(0)));
  EXPECT_THROW(t.insert(~std::uint64_t(0), false), std::out_of_range);
}

// The built-in LRU (no virtual call) must choose exactly as LruReplacement behind the interface: random
// traffic with both classes and moving quotas, compared call by call.
TEST(TagArrayLayout, BuiltInLruMatchesTheLruPolicyObject) {
  constexpr std::uint64_t kSets = 8;
  constexpr unsigned kWays = 4;
  TagArray fast(kSets, kWays);
  TagArray slow(kSets, kWays, std::make_unique<LruReplacement>(kSets, kWays));
  std::uint64_t x = 88172645463325252ull;  // xorshift64
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t line = next() % 96;
    const auto cls = (line % 3 == 0) ? TagArray::LineClass::kRemote : TagArray::LineClass::kLocal;
    const unsigned quota = static_cast<unsigned>(next() % 6);  // 0..5: below, at and above the ways
    switch (next() % 6) {
      case 0:
      case 1:
        ASSERT_EQ(fast.access(line), slow.access(line));
        break;
      case 2:
        ASSERT_EQ(fast.mark_dirty(line), slow.mark_dirty(line));
        break;
      case 3:
        if (i % 5000 == 0) {
          std::vector<std::uint64_t> a, b;
          ASSERT_EQ(fast.invalidate_class(cls, a), slow.invalidate_class(cls, b));
          ASSERT_EQ(a, b);
        }
        break;
      default: {
        if (fast.contains(line)) break;
        const bool dirty = next() % 2 == 0;
        const auto va = fast.insert(line, dirty, cls, quota);
        const auto vb = slow.insert(line, dirty, cls, quota);
        ASSERT_EQ(va.has_value(), vb.has_value());
        if (va) {
          ASSERT_EQ(va->line, vb->line);
          ASSERT_EQ(va->dirty, vb->dirty);
          ASSERT_EQ(va->cls, vb->cls);
        }
        break;
      }
    }
  }
  for (auto c : {TagArray::LineClass::kLocal, TagArray::LineClass::kRemote})
    EXPECT_EQ(fast.count(c), slow.count(c));
}

}  // namespace
}  // namespace numagpu
