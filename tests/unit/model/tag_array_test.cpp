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

// A unified L1 gives ways to shared memory (sm.shared_carveouts): 1 set x 4 ways limited to 2 holds two
// lines, the third evicts the least recently used; the ways taken drop their lines.
TEST(TagArray, UsableWaysBoundWhatASetHolds) {
  TagArray t(1, 4);
  for (std::uint64_t line : {10, 11, 12, 13})
    t.insert(line, false);
  EXPECT_EQ(t.set_usable_ways(2), 2u);  // 12 and 13 were in ways 2 and 3
  EXPECT_TRUE(t.contains(10));
  EXPECT_TRUE(t.contains(11));
  EXPECT_FALSE(t.contains(12));
  EXPECT_TRUE(t.access(10));                // 10 becomes the most recently used
  const auto victim = t.insert(14, false);  // the set is full at 2 ways: the LRU of {10, 11} is 11
  ASSERT_TRUE(victim.has_value());
  EXPECT_EQ(victim->line, 11u);
  EXPECT_EQ(t.usable_ways(), 2u);
  EXPECT_EQ(t.ways(), 4u);
  // Back to all 4: the freed ways fill before anything is evicted.
  EXPECT_EQ(t.set_usable_ways(4), 0u);
  EXPECT_FALSE(t.insert(15, false).has_value());
  EXPECT_FALSE(t.insert(16, false).has_value());
  EXPECT_THROW(t.set_usable_ways(0), std::invalid_argument);
  EXPECT_THROW(t.set_usable_ways(5), std::invalid_argument);
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

// Replacement policies on one set of 4 ways. ref() is what a cache does with a read: a hit, or a miss that
// inserts the line. A working set {A, B} is used twice, then scanned over by lines used once.
bool ref(TagArray& t, std::uint64_t line) {
  if (t.access(line)) return true;
  t.insert(line, false);
  return false;
}

constexpr std::uint64_t kA = 100, kB = 101;

// LRU (timestamps in brackets). A, B miss into ways 0, 1 [1, 2]; A, B hit [3, 4]. S1, S2 take the free ways
// 2, 3 [5, 6]. S3 evicts the least recent line, A [3]; S4 evicts B [4]. A and B then miss (A evicts S1 [5],
// B evicts S2 [6]): the scan of 4 thrashed the working set. Hits: 2 of 10.
TEST(TagArrayReplacement, LruLosesTheWorkingSetToAScanOfFour) {
  TagArray t(1, 4, ReplacementKind::kLru);
  const std::vector<std::uint64_t> refs{kA, kB, kA, kB, 1, 2, 3, 4, kA, kB};
  const std::vector<bool> want{false, false, true, true, false, false, false, false, false, false};
  for (std::size_t i = 0; i < refs.size(); ++i)
    EXPECT_EQ(ref(t, refs[i]), want[i]) << "reference " << i;
  EXPECT_FALSE(t.contains(1));
  EXPECT_FALSE(t.contains(2));
}

// SRRIP (RRPVs of ways 0-3 in brackets, - invalid). A, B insert at 2 [2 2 - -]; their hits promote to 0
// [0 0 - -]. S1, S2 take the free ways at 2 [0 0 2 2]. S3: no way at 3, age all [1 1 3 3], evict the first at
// 3, way 2 (S1), S3 inserted at 2 [1 1 2 3]. S4: way 3 (S2) is at 3, evicted, S4 at 2 [1 1 2 2]. A, B hit
// [0 0 2 2]: the working set survived the scan. Hits: 4 of 10.
TEST(TagArrayReplacement, SrripKeepsTheWorkingSetThroughAScanOfFour) {
  TagArray t(1, 4, ReplacementKind::kSrrip);
  const std::vector<std::uint64_t> refs{kA, kB, kA, kB, 1, 2, 3, 4, kA, kB};
  const std::vector<bool> want{false, false, true, true, false, false, false, false, true, true};
  for (std::size_t i = 0; i < refs.size(); ++i)
    EXPECT_EQ(ref(t, refs[i]), want[i]) << "reference " << i;
  EXPECT_EQ(t.rrpv(kA), 0);
  EXPECT_EQ(t.rrpv(kB), 0);
  EXPECT_EQ(t.rrpv(3), 2);
  EXPECT_EQ(t.rrpv(4), 2);
  EXPECT_FALSE(t.contains(1));
  EXPECT_FALSE(t.contains(2));
  EXPECT_EQ(t.rrpv(1), TagArray::kNoRrpv);  // absent
}

// A longer scan outlives the prediction: after S1..S4 as above [1 1 2 2] (A, B, S3, S4), S5 ages all
// [2 2 3 3] and evicts way 2 (S3) [2 2 2 3]; S6 evicts way 3 (S4) [2 2 2 2]; S7 ages all [3 3 3 3] and evicts
// way 0 (A) [2 3 3 3]; S8 evicts way 1 (B) [2 2 3 3]. A then misses and evicts way 2 (S5), B way 3 (S6).
// So SRRIP keeps this working set through a scan of up to 6 lines (S1..S6 evict only scan lines: the hits'
// RRPV 0 needs three agings to reach 3), not through 8 (S7 and S8 evict A and B).
TEST(TagArrayReplacement, SrripLosesTheWorkingSetToAScanOfEight) {
  TagArray t(1, 4, ReplacementKind::kSrrip);
  const std::vector<std::uint64_t> refs{kA, kB, kA, kB, 1, 2, 3, 4, 5, 6, 7, 8, kA, kB};
  std::vector<bool> want(refs.size(), false);
  want[2] = want[3] = true;
  for (std::size_t i = 0; i < refs.size(); ++i)
    EXPECT_EQ(ref(t, refs[i]), want[i]) << "reference " << i;
  EXPECT_TRUE(t.contains(7));
  EXPECT_TRUE(t.contains(8));
  EXPECT_FALSE(t.contains(5));
  EXPECT_FALSE(t.contains(6));
}

// The partition's candidates bound the policy: only candidates age, and the victim is one of them. One set
// of 4 ways, local quota 3, remote quota 1; L* local lines, R* remote. Both policies see:
//   1-3. L0, L1, R0 take ways 0, 1, 2.                      SRRIP [2 2 2 -]   LRU stamps [1 2 3 -]
//   4.   L0 hits.                                           SRRIP [0 2 2 -]   LRU [4 2 3 -]
//   5.   R1: remote at its quota (1): candidates {2} only, though way 3 is free. SRRIP ages way 2 alone to 3
//        and evicts R0 (L0 stays 0, L1 2); LRU evicts R0.   SRRIP [0 2 2 -]   LRU [4 2 5 -]
//   6.   L2: local under its quota with a free way: way 3.  SRRIP [0 2 2 2]   LRU [4 2 5 6]
//   7.   L3: local at its quota (3): candidates {0, 1, 3}. SRRIP: none at 3, ages them [1 3 2 3] (R1 in way 2
//        not aged), evicts way 1 (L1), L3 at 2 [1 2 2 3]. LRU: oldest of 4, 2, 6 is way 1 (L1) [4 7 5 6].
//   8.   L4: candidates {0, 1, 3} again. SRRIP: way 3 (L2) is at 3: evicted. LRU: oldest of 4, 7, 6 is way 0
//        (L0). The policies part here.
TEST(TagArrayReplacement, BothPoliciesChooseOnlyAmongThePartitionsCandidates) {
  const std::uint64_t L0 = 0, L1 = 1, L2 = 2, L3 = 3, L4 = 4, R0 = 10, R1 = 11;
  for (const auto kind : {ReplacementKind::kLru, ReplacementKind::kSrrip}) {
    SCOPED_TRACE(to_string(kind));
    TagArray t(1, 4, kind);
    EXPECT_FALSE(t.insert(L0, false, Cls::kLocal, 3).has_value());
    EXPECT_FALSE(t.insert(L1, false, Cls::kLocal, 3).has_value());
    EXPECT_FALSE(t.insert(R0, false, Cls::kRemote, 1).has_value());
    EXPECT_TRUE(t.access(L0));
    auto v = t.insert(R1, false, Cls::kRemote, 1);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->line, R0);
    if (kind == ReplacementKind::kSrrip) {
      EXPECT_EQ(t.rrpv(L0), 0);
      EXPECT_EQ(t.rrpv(L1), 2);
    }
    EXPECT_FALSE(t.insert(L2, false, Cls::kLocal, 3).has_value());
    v = t.insert(L3, false, Cls::kLocal, 3);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->line, L1);
    if (kind == ReplacementKind::kSrrip) {
      EXPECT_EQ(t.rrpv(L0), 1);
      EXPECT_EQ(t.rrpv(R1), 2);  // not a candidate: not aged
      EXPECT_EQ(t.rrpv(L2), 3);
    }
    v = t.insert(L4, false, Cls::kLocal, 3);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->line, kind == ReplacementKind::kSrrip ? L2 : L0);
    EXPECT_TRUE(t.contains(R1));
  }
}

// A class under its quota in a full set takes the other class's line: the candidates are the other class's
// lines only. Remote quota 3: R0, R1, R2 in ways 0-2 [2 2 2 -]; L0 (local quota 1) in way 3 [2 2 2 2]; R0
// hits [0 2 2 2]. With the split moved to local 2, L1 is under its quota: candidates {0, 1, 2}. SRRIP: none
// at 3, ages the remote ways only [1 3 3 2], evicts way 1 (R1); L0 keeps 2. LRU: stamps R0 5, R1 2, R2 3:
// evicts R1 too.
TEST(TagArrayReplacement, UnderItsQuotaAClassEvictsOnlyTheOtherClass) {
  for (const auto kind : {ReplacementKind::kLru, ReplacementKind::kSrrip}) {
    SCOPED_TRACE(to_string(kind));
    TagArray t(1, 4, kind);
    t.insert(10, false, Cls::kRemote, 3);
    t.insert(11, false, Cls::kRemote, 3);
    t.insert(12, false, Cls::kRemote, 3);
    t.insert(0, false, Cls::kLocal, 1);
    EXPECT_TRUE(t.access(10));
    const auto v = t.insert(1, false, Cls::kLocal, 2);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->line, 11u);
    EXPECT_EQ(v->cls, Cls::kRemote);
    if (kind == ReplacementKind::kSrrip) {
      EXPECT_EQ(t.rrpv(0), 2);  // the local line was not a candidate
      EXPECT_EQ(t.rrpv(10), 1);
      EXPECT_EQ(t.rrpv(12), 3);
    }
  }
}

TEST(TagArrayReplacement, ConfigurationNamesRoundTrip) {
  for (const auto kind : {ReplacementKind::kLru, ReplacementKind::kSrrip})
    EXPECT_EQ(replacement_kind(to_string(kind)), kind);
  EXPECT_FALSE(replacement_kind("plru").has_value());
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

// The home lines of one socket under page interleaving, as an L2 bank of the LADM system sees them (32 sets
// of one way here): 4 KiB pages over 16 sockets fix address bits 12-15, which are bits 1-4 of the bank's tag
// line (128 B lines: line = address >> 7; 16 banks: tag line = line >> 4 = address >> 11). Socket 5's lines
// t(k) = (k << 5) | (5 << 1), k = 0..31 (address bits 16-20 vary). Linear: set = t mod 32 = 10 for every k,
// so one set holds them all and with one way only the last stays. xor: set = (t & 31) ^ ((t >> 5) & 31)
// = 10 ^ k (t >> 10 is 0), 32 different sets, so all 32 stay.
TEST(TagArrayLayout, HashedSetsSpreadLinesALinearIndexPutsInOneSet) {
  TagArray linear(32, 1);
  TagArray hashed(32, 1, ReplacementKind::kLru, 1, true);
  for (std::uint64_t k = 0; k < 32; ++k) {
    linear.insert((k << 5) | (5 << 1), false);
    hashed.insert((k << 5) | (5 << 1), false);
  }
  unsigned linear_kept = 0, hashed_kept = 0;
  for (std::uint64_t k = 0; k < 32; ++k) {
    linear_kept += linear.contains((k << 5) | (5 << 1));
    hashed_kept += hashed.contains((k << 5) | (5 << 1));
  }
  EXPECT_EQ(linear_kept, 1u);
  EXPECT_TRUE(linear.contains((31u << 5) | (5 << 1)));
  EXPECT_EQ(hashed_kept, 32u);
  // The third field counts too: t(3) ^ (1 << 10) = 1130 folds to 10 ^ 3 ^ 1 = 8, the set of t(2) (10 ^ 2),
  // which it evicts from its one way.
  const auto displaced = hashed.insert(((3u << 5) | (5 << 1)) ^ (1u << 10), false);
  ASSERT_TRUE(displaced.has_value());
  EXPECT_EQ(displaced->line, (2u << 5) | (5 << 1));
  // With 24 sets (not a power of two) the fold is 5 bits wide and taken mod 24: lines 0 and 24 fold to 0
  // and 24 mod 24 = 0, one set: with one way the second evicts the first.
  TagArray odd(24, 1, ReplacementKind::kLru, 1, true);
  odd.insert(0, false);
  const auto victim = odd.insert(24, false);
  ASSERT_TRUE(victim.has_value());
  EXPECT_EQ(victim->line, 0u);
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

}  // namespace
}  // namespace numagpu

namespace numagpu {
namespace {

// One set of 2 ways, 4 sectors per line. Line 1 is inserted with sectors 0001 (clean), line 3 with 1000
// dirty. access_sectors(1) gives 0001; adding 0110 (0100 dirty) makes 0111 with 0100 dirty. A third line
// evicts the LRU one, line 3 (line 1 was touched last): its victim record carries the dirty sectors 1000.
// An unsectored array answers 1 for a present line and 0 for an absent one.
TEST(TagArraySectors, LinesKeepValidAndDirtySectors) {
  TagArray t(1, 2, ReplacementKind::kLru, 4);
  EXPECT_FALSE(t.insert(1, false, TagArray::LineClass::kLocal, ~0u, 0b0001));
  EXPECT_FALSE(t.insert(3, true, TagArray::LineClass::kLocal, ~0u, 0b1000));
  EXPECT_EQ(t.access_sectors(1), 0b0001u);
  EXPECT_TRUE(t.add_sectors(1, 0b0010, 0b0100));
  EXPECT_EQ(t.valid_sectors(1), 0b0111u);
  EXPECT_EQ(t.valid_sectors(2), 0u);
  const auto victim = t.insert(5, false, TagArray::LineClass::kLocal, ~0u, 0b1111);
  ASSERT_TRUE(victim);
  EXPECT_EQ(victim->line, 3u);
  EXPECT_TRUE(victim->dirty);
  EXPECT_EQ(victim->dirty_sectors, 0b1000u);
  std::vector<std::uint64_t> dirty;
  std::vector<std::uint32_t> dirty_sectors;
  t.invalidate_class(TagArray::LineClass::kLocal, dirty, &dirty_sectors);
  ASSERT_EQ(dirty.size(), 1u);
  EXPECT_EQ(dirty[0], 1u);
  EXPECT_EQ(dirty_sectors[0], 0b0100u);

  TagArray u(1, 2);
  u.insert(7, false);
  EXPECT_EQ(u.access_sectors(7), 1u);
  EXPECT_EQ(u.access_sectors(8), 0u);
}

}  // namespace
}  // namespace numagpu
