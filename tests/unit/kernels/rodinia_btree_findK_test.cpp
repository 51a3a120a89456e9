// rodinia/btree_findK: the input (glibc's rand(), the tree of btree_common.hpp) and the kernel's traffic
// against counts derived by hand from the tree's layout.
#include <gtest/gtest.h>

#include <set>

#include "btree_small_tree.hpp"
#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"
#include "kernels/rodinia/btree_common.hpp"

namespace numagpu::kernels {
namespace {

using testing::kTrafficBase;
using testing::kTrafficLine;

// glibc's rand() of an unseeded program starts 1804289383, 846930886, 1681692777, 1714636915, 1957747793
// (the sequence every Linux C program prints).
TEST(RodiniaBtree, GlibcRandMatchesTheUnseededSequence) {
  btree::GlibcRand r;
  EXPECT_EQ(r(), 1804289383);
  EXPECT_EQ(r(), 846930886);
  EXPECT_EQ(r(), 1681692777);
  EXPECT_EQ(r(), 1714636915);
  EXPECT_EQ(r(), 1957747793);
}

// The reference tree, keys 0 .. 999,999 ascending. Leaves: a full leaf (255 keys) splits on its 256th key
// into 128 + 128 and the right one keeps growing, so every leaf but the last holds 128 keys and the last
// 128 .. 255: 999,872 / 128 = 7,811.5, so 7,811 leaves of 128 and a last one of 1,000,000 - 999,808 = 192
// keys: 7,812 leaves. Their parents split likewise at 257 children into 128 + 129, the right one growing:
// 7,812 = 60 x 128 + 132, so 61 internal nodes under one root. Knodes: 1 + 61 + 7,812 = 7,874; height 2.
// Records are numbered in walk order, so record r holds key r. The root's child c starts at leaf 128 c, so
// at key 128 x 128 c = 16,384 c: the root's keys[c] = 16,384 c for c = 1 .. 60.
TEST(RodiniaBtree, ReferenceTreeHasTheHandDerivedShape) {
  const auto t = btree::tree(1000000, false, 1);
  EXPECT_EQ(t->knodes_elem, 7874);
  EXPECT_EQ(t->height, 2);
  const std::int32_t* root = &t->knodes[0];
  EXPECT_EQ(root[btree::kKeys + 0], INT_MIN);
  EXPECT_EQ(root[btree::kKeys + 1], 16384);
  EXPECT_EQ(root[btree::kKeys + 60], 60 * 16384);
  EXPECT_EQ(root[btree::kKeys + 61], INT_MAX);
  EXPECT_EQ(root[btree::kIndices + 0], 1);
  EXPECT_EQ(root[btree::kIndices + 60], 61);
  EXPECT_EQ(t->records[123456], 123456);
  // The last leaf (knode 7,873) holds 999,808 .. 999,999 as records 999,808 .. 999,999.
  const std::int32_t* last = &t->knodes[7873 * btree::kKnodeInts];
  EXPECT_EQ(last[btree::kKeys + 1], 999808);
  EXPECT_EQ(last[btree::kKeys + 192], 999999);
  EXPECT_EQ(last[btree::kIndices + 192], 999999);
  // Shuffled, the leaves are fuller (between half and full), the height the same.
  const auto s = btree::tree(1000000, true, 1);
  EXPECT_EQ(s->height, 2);
  EXPECT_GT(s->knodes_elem, 1 + 1000000 / 255);
  EXPECT_LT(s->knodes_elem, 7874);
}

// The flattened tree answers every key as the kernels search it, inserted ascending or shuffled: from knode
// 0, `height` times the slot s with keys[s] <= key < keys[s + 1] leads to knode indices[s]; in the leaf the
// slot whose key equals the query names the record holding that key. Node numbers stay below knodes_elem.
TEST(RodiniaBtree, FlattenedTreeFindsEveryKey) {
  for (const bool shuffled : {false, true}) {
    const std::int64_t n = 200000;
    const auto t = btree::tree(n, shuffled, 7);
    for (std::int32_t key = 0; key < n; ++key) {
      std::int64_t node = 0;
      for (std::int64_t level = 0; level < t->height; ++level) {
        const std::int32_t* k = &t->knodes[std::size_t(node * btree::kKnodeInts)];
        std::int64_t next = -1;
        for (int slot = 0; slot < btree::kThreads; ++slot)
          if (k[btree::kKeys + slot] <= key && k[btree::kKeys + slot + 1] > key)
            next = k[btree::kIndices + slot];
        ASSERT_GE(next, 1) << key;
        ASSERT_LT(next, t->knodes_elem) << key;
        node = next;
      }
      const std::int32_t* leaf = &t->knodes[std::size_t(node * btree::kKnodeInts)];
      int found = 0;
      for (int slot = 0; slot < btree::kThreads; ++slot)
        if (leaf[btree::kKeys + slot] == key) {
          ++found;
          ASSERT_EQ(t->records[std::size_t(leaf[btree::kIndices + slot])], key);
        }
      ASSERT_EQ(found, 1) << (shuffled ? "shuffled " : "ascending ") << key;
    }
  }
}

// A small tree with the reference structure's rules, 10,000 keys ascending: 77 leaves of 128 keys (leaf i,
// knode 1 + i: keys 128 i .. 128 i + 127) and a last leaf of 144 (9,856 .. 9,999), under the root (77 keys,
// keys[i] = 128 i): height 1, 79 knodes of 2,068 B. Query key q (rand() drawn as the source does, after the
// 6,000 draws of the range queries) takes root slot j = min(q / 128, 77), i.e. knode 1 + j, and leaf slot
// t = q - 128 j + 1 holding record q (whose value q goes to ans).
// Per CTA, warp w (threads 32 w .. 32 w + 31) makes these memory steps: the level loop loads currKnode,
// keysD and keys[thid] (3); the threads 0 .. j (keys[thid] <= q) load keys[thid + 1] (1 if 32 w <= j); the
// thread j loads offset and indices[j] and stores offset (3 if w == j / 32); thread 0 loads offset and
// stores currKnode (2 if w == 0); the leaf check loads currKnode, keysD and keys[thid] (3) and thread t
// loads indices[t] and the record and stores ans (3 if w == t / 32). Barriers: 2 per level, 2 in all.
// Lines: knodes: the root's keys[0..255] (bytes 1,032 .. 2,055: lines 8 .. 16) and its indices[j] (byte 4 +
// 4 j), each visited leaf n's keys (bytes 2,068 n + 1,032 .. 2,068 n + 2,055) and indices[t] (byte 2,068 n
// + 4 + 4 t); records: byte 4 q; currKnode and offset: 8 bytes per query, keysD and ans 4 (all loaded; all
// stored but keysD).
TEST(RodiniaBtree, FindKFollowsTheTreeAndTouchesTheHandDerivedLines) {
  const std::int64_t n = 10000, count = 2000;
  const std::string args = "size=10000 count=2000";
  CppKernelProgram p("findK", make_kernel("rodinia/btree_findK", args, kTrafficBase), kTrafficLine);
  const auto allocations = make_kernel("rodinia/btree_findK", args, kTrafficBase)->allocations();
  ASSERT_EQ(p.ctas(), 2000u);
  ASSERT_EQ(p.warps_per_cta(), 8u);
  std::map<std::string, std::uint64_t> base;
  for (const auto& a : allocations)
    base[a.name] = a.base;
  const std::vector<std::int32_t> q = btree::make_queries(n, 6000, 6000, count).keys;

  std::set<std::uint64_t> knodes, records;  // expected lines, relative to their array
  for (std::int64_t b = 0; b < count; ++b) {
    ASSERT_LT(q[b], n);  // every drawn key is in the tree
    const auto [j, t] = testing::small_tree_search(q[b], knodes);
    records.insert(4 * q[b] / kTrafficLine);

    for (std::uint32_t w = 0; w < 8; ++w) {
      Step s;
      unsigned memory = 0, barriers = 0;
      std::vector<std::uint64_t> record_lines;
      for (std::uint32_t i = 0; p.step(std::uint32_t(b), w, i, s); ++i) {
        if (s.kind == Step::Kind::kBarrier) ++barriers;
        if (s.kind != Step::Kind::kLoad && s.kind != Step::Kind::kStore) continue;
        ++memory;
        for (unsigned l = 0; l < s.line_count; ++l)
          if (s.lines[l] >= base["recordsD"] && s.lines[l] < base["knodesD"])
            record_lines.push_back(s.lines[l]);
      }
      const unsigned expected =
          3 + (32 * w <= j ? 1 : 0) + (w == j / 32 ? 3 : 0) + (w == 0 ? 2 : 0) + 3 + (w == t / 32 ? 3 : 0);
      ASSERT_EQ(memory, expected) << "query " << b << " key " << q[b] << " warp " << w;
      ASSERT_EQ(barriers, 2u);
      // The record read is the key's own: the search ended where the key's value dictates.
      if (w == t / 32) {
        ASSERT_EQ(record_lines,
                  std::vector<std::uint64_t>{base["recordsD"] + 4 * q[b] / kTrafficLine * kTrafficLine});
      } else {
        ASSERT_TRUE(record_lines.empty());
      }
    }
  }
  // Second pass on a cold program: the distinct lines per array.
  CppKernelProgram p2("findK", make_kernel("rodinia/btree_findK", args, kTrafficBase), kTrafficLine);
  const testing::Traffic w = testing::walk(p2, allocations);
  EXPECT_EQ(w.in(w.loaded, "knodesD"), knodes.size());
  EXPECT_EQ(w.in(w.loaded, "recordsD"), records.size());
  // 2,000 longs = 16,000 B = 125 lines; 2,000 ints = 8,000 B = 62.5: 63 lines.
  EXPECT_EQ(w.in(w.loaded, "currKnodeD"), 125u);
  EXPECT_EQ(w.in(w.loaded, "offsetD"), 125u);
  EXPECT_EQ(w.in(w.loaded, "keysD"), 63u);
  EXPECT_EQ(w.in(w.stored, "currKnodeD"), 125u);
  EXPECT_EQ(w.in(w.stored, "offsetD"), 125u);
  EXPECT_EQ(w.in(w.stored, "ansD"), 63u);
  EXPECT_EQ(w.loaded.size(), knodes.size() + records.size() + 125 + 125 + 63);
  EXPECT_EQ(w.stored.size(), 125u + 125 + 63);
}

// The reference run (1,000,000 keys ascending, 10,000 queries): height 2, so 4 barriers per warp; the
// per-query words: currKnode and offset, 10,000 longs = 80,000 B = 625 lines each, loaded and stored;
// keysD and ans, 10,000 ints = 40,000 B = 312.5: 313 lines (keysD loaded, ans stored: every key is found).
TEST(RodiniaBtree, FindKAtTheReferenceSize) {
  const testing::Traffic w = testing::walk("rodinia/btree_findK", "");
  ASSERT_EQ(w.ctas, 10000u);
  for (unsigned b : w.barriers)
    ASSERT_EQ(b, 4u);
  EXPECT_EQ(w.in(w.loaded, "currKnodeD"), 625u);
  EXPECT_EQ(w.in(w.loaded, "keysD"), 313u);
  EXPECT_EQ(w.in(w.stored, "currKnodeD"), 625u);
  EXPECT_EQ(w.in(w.stored, "offsetD"), 625u);
  EXPECT_EQ(w.in(w.stored, "ansD"), 313u);
  std::printf("findK reference size: generation %.2f s for %llu CTAs\n", w.generation_seconds,
              static_cast<unsigned long long>(w.ctas));
}

}  // namespace
}  // namespace numagpu::kernels
