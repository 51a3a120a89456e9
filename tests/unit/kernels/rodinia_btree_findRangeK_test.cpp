// rodinia/btree_findRangeK: the kernel's traffic against counts derived by hand from the tree's layout
// (the input itself is checked in rodinia_btree_findK_test.cpp).
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "btree_small_tree.hpp"
#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"
#include "kernels/rodinia/btree_common.hpp"

namespace numagpu::kernels {
namespace {

using testing::kTrafficBase;
using testing::kTrafficLine;

// The small tree of findK's test: 10,000 keys ascending, leaf i = knode 1 + i holding 128 i .. 128 i + 127
// (the last, knode 78, 9,856 .. 9,999), the root's keys[i] = 128 i; height 1. 1,000 range queries of 300
// keys (rand() drawn as the source does: start, end = start + 300, clamped to 9,700 .. 9,999 at the end).
// A bound b takes root slot j(b) = min(b / 128, 77), leaf 1 + j(b), leaf slot t(b) = b - 128 j(b) + 1.
// Per CTA, warp w makes these memory steps: each descent loads its node number, its bound and keys[thid]
// (3), keys[thid + 1] by the threads 0 .. j (1 if 32 w <= j), indices[j] and the store of the child by
// thread j (2 if w == j / 32); thread 0 loads offset and offset_2 and stores currKnode and lastKnode (4 if
// w == 0); the start leaf check loads currKnode, startD, keys[thid] (3) and thread t(start) loads indices
// and stores Recstart (2); after the barrier the end leaf check loads lastKnode, endD, keys[thid] (3) and
// thread t(end) loads indices and Recstart and stores Reclen (3). Barriers: 2 per level + 1 = 3.
// Lines: knodes: the root's keys (bytes 1,032 .. 2,055) and indices[j] (byte 4 + 4 j) for both bounds, each
// visited leaf's keys (bytes 2,068 n + 1,032 .. 2,068 n + 2,055) and indices[t] (byte 2,068 n + 4 + 4 t);
// per query 8 B of each of the four node-number arrays (1,000 longs = 8,000 B = 62.5: 63 lines each,
// loaded and stored), 4 B of startD, endD (loaded), ansDStart (stored and loaded), ansDLength (stored):
// 4,000 B = 31.25: 32 lines each.
TEST(RodiniaBtree, FindRangeKFollowsBothBoundsAndTouchesTheHandDerivedLines) {
  const std::int64_t n = 10000, count = 1000, range = 300;
  const std::string args = "size=10000 count=1000 range=300";
  CppKernelProgram p("findRangeK", make_kernel("rodinia/btree_findRangeK", args, kTrafficBase), kTrafficLine);
  const auto allocations = make_kernel("rodinia/btree_findRangeK", args, kTrafficBase)->allocations();
  ASSERT_EQ(p.ctas(), 1000u);
  ASSERT_EQ(p.warps_per_cta(), 8u);
  const btree::Queries q = btree::make_queries(n, count, range, 0);

  std::set<std::uint64_t> knodes;
  for (std::int64_t b = 0; b < count; ++b) {
    ASSERT_LE(q.start[b], q.end[b]);
    ASSERT_LT(q.end[b], n);
    std::int64_t j[2], t[2];
    for (int k = 0; k < 2; ++k) {
      std::tie(j[k], t[k]) = testing::small_tree_search(k ? q.end[b] : q.start[b], knodes);
    }
    for (std::uint32_t w = 0; w < 8; ++w) {
      Step s;
      unsigned memory = 0, barriers = 0;
      for (std::uint32_t i = 0; p.step(std::uint32_t(b), w, i, s); ++i) {
        if (s.kind == Step::Kind::kBarrier) ++barriers;
        if (s.kind == Step::Kind::kLoad || s.kind == Step::Kind::kStore) ++memory;
      }
      unsigned expected = (w == 0 ? 4 : 0) + 3 + (w == t[0] / 32 ? 2 : 0) + 3 + (w == t[1] / 32 ? 3 : 0);
      for (int k = 0; k < 2; ++k)
        expected += 3 + (32 * w <= j[k] ? 1 : 0) + (w == j[k] / 32 ? 2 : 0);
      ASSERT_EQ(memory, expected) << "query " << b << " [" << q.start[b] << ", " << q.end[b] << "] warp "
                                  << w;
      ASSERT_EQ(barriers, 3u);
    }
  }
  CppKernelProgram p2("findRangeK", make_kernel("rodinia/btree_findRangeK", args, kTrafficBase),
                      kTrafficLine);
  const testing::Traffic w = testing::walk(p2, allocations);
  EXPECT_EQ(w.in(w.loaded, "knodesD"), knodes.size());
  for (const char* a : {"currKnodeD", "offsetD", "lastKnodeD", "offset_2D"}) {
    EXPECT_EQ(w.in(w.loaded, a), 63u) << a;
    EXPECT_EQ(w.in(w.stored, a), 63u) << a;
  }
  for (const char* a : {"startD", "endD", "ansDStart"})
    EXPECT_EQ(w.in(w.loaded, a), 32u) << a;
  for (const char* a : {"ansDStart", "ansDLength"})
    EXPECT_EQ(w.in(w.stored, a), 32u) << a;
  EXPECT_EQ(w.loaded.size(), knodes.size() + 4 * 63 + 3 * 32);
  EXPECT_EQ(w.stored.size(), 4u * 63 + 2 * 32);
}

// The reference run (1,000,000 keys ascending, 6,000 ranges of 6,000 keys): height 2, so 2 x 2 + 1 = 5
// barriers per warp; the node numbers, 6,000 longs = 48,000 B = 375 lines each, loaded and stored; the
// ints, 24,000 B = 187.5: 188 lines (startD and endD loaded, ansDStart and ansDLength stored).
TEST(RodiniaBtree, FindRangeKAtTheReferenceSize) {
  const testing::Traffic w = testing::walk("rodinia/btree_findRangeK", "");
  ASSERT_EQ(w.ctas, 6000u);
  for (unsigned b : w.barriers)
    ASSERT_EQ(b, 5u);
  for (const char* a : {"currKnodeD", "offsetD", "lastKnodeD", "offset_2D"})
    EXPECT_EQ(w.in(w.stored, a), 375u) << a;
  EXPECT_EQ(w.in(w.loaded, "startD"), 188u);
  EXPECT_EQ(w.in(w.loaded, "endD"), 188u);
  EXPECT_EQ(w.in(w.stored, "ansDStart"), 188u);
  EXPECT_EQ(w.in(w.stored, "ansDLength"), 188u);
  std::printf("findRangeK reference size: generation %.2f s for %llu CTAs\n", w.generation_seconds,
              static_cast<unsigned long long>(w.ctas));
}

}  // namespace
}  // namespace numagpu::kernels
