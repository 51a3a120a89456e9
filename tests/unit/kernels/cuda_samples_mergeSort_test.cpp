// cuda-samples/mergeSort_*: cold-cache traffic by hand, and the key-steered sort checked for real.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/cuda-samples/merge_sort_input.hpp"
#include "traffic.hpp"

namespace numagpu::kernels {

bool merge_sort_shared_result(const Kernel& k, std::vector<std::uint32_t>& src_keys,
                              std::vector<std::uint32_t>& dst_keys, std::vector<std::uint32_t>& dst_vals);

bool merge_elementary_intervals_result(const Kernel& k, std::vector<std::uint32_t>& src_vals,
                                       std::vector<std::uint32_t>& dst_keys,
                                       std::vector<std::uint32_t>& dst_vals);

bool generate_sample_ranks_result(const Kernel& k, std::vector<std::uint32_t>& keys,
                                  std::vector<std::uint32_t>& ranks_a, std::vector<std::uint32_t>& ranks_b);

std::int64_t merge_ranks_result(const Kernel& k, std::vector<std::uint32_t>& ranks,
                                std::vector<std::uint32_t>& limits);

namespace {

using testing::walk;

// mergeSortShared on 64 Ki pairs (the reference's 4 Mi has the same CTAs, 64 times more: 4,096 CTAs, 2 x
// 131,072 lines loaded and as many stored): 64 CTAs of 512 threads (16 warps), each sorting 1,024 pairs.
// Keys and values are read once and written once: 2 x 65,536 x 4 B / 128 B = 4,096 lines loaded (2,048
// per array) and 4,096 stored; each warp loads 32 consecutive uints (one line) 4 times. Barriers per warp:
// two per stride 1, 2, ..., 512 (10 strides) and one before the stores: 21. Shared accesses per warp: 4
// stores in; per stride 4 loads, the two searches' log2(stride) + 1 loads each and 4 stores; 4 loads out:
// 8 + sum over k = 0..9 of (8 + 2 (k + 1)) = 8 + 80 + 110 = 198; x 16 warps x 64 CTAs = 202,752.
TEST(MergeSort, SharedSortReadsAndWritesEachPairOnce) {
  std::vector<std::uint32_t> src, keys, vals;
  const testing::Traffic t = walk("cuda-samples/mergeSort_mergeSortShared", "n=65536", [&](const Kernel& k) {
    ASSERT_TRUE(merge_sort_shared_result(k, src, keys, vals));
  });
  EXPECT_EQ(t.ctas, 64u);
  EXPECT_EQ(t.warps_per_cta, 16u);
  EXPECT_EQ(t.loaded.size(), 4096u);
  EXPECT_EQ(t.in(t.loaded, "src_key"), 2048u);
  EXPECT_EQ(t.load_steps, 64u * 16 * 4);
  EXPECT_EQ(t.load_line_visits, 64u * 16 * 4);
  EXPECT_EQ(t.stored.size(), 4096u);
  EXPECT_EQ(t.in(t.stored, "dst_val"), 2048u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{21}));
  EXPECT_EQ(t.shared_accesses, 202752u);

  // The keys steered the merge: every tile of 1,024 comes out ascending, and each value (the source index)
  // names a pair of the same tile with that key, each index once.
  ASSERT_EQ(keys.size(), 65536u);
  for (std::size_t tile = 0; tile < 64; ++tile) {
    std::vector<std::uint32_t> seen;
    for (std::size_t i = tile * 1024; i < (tile + 1) * 1024; ++i) {
      if (i > tile * 1024) {
        EXPECT_LE(keys[i - 1], keys[i]) << i;
      }
      ASSERT_EQ(vals[i] / 1024, tile) << i;
      EXPECT_EQ(src[vals[i]], keys[i]) << i;
      seen.push_back(vals[i]);
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << "tile " << tile;
  }
}

// mergeElementaryIntervals, first stage (stride 1,024) on 64 Ki pairs: 65,536 / 128 = 512 CTAs of 128
// threads (4 warps). The intervals of a segment partition its two runs, so every source pair is loaded
// once and every destination pair stored once: keys and values 2 x 2,048 lines each way; thread 0 reads the
// limits: LimitsA and LimitsB, 512 uints = 2,048 B = 16 lines each. Loaded 4,096 + 32 = 4,128 lines,
// stored 4,096. Barriers per warp: after the parameters, after the loads, inside the merge, before the
// stores: 4. The keys steer the merge: each segment of 2,048 comes out ordered by (key, source index)
// (stable: equal keys keep run A's, the earlier indices, first), holding the segment's values.
TEST(MergeSort, ElementaryIntervalsMergeRunsPairwise) {
  std::vector<std::uint32_t> src, keys, vals;
  const testing::Traffic t =
      walk("cuda-samples/mergeSort_mergeElementaryIntervals", "n=65536",
           [&](const Kernel& k) { ASSERT_TRUE(merge_elementary_intervals_result(k, src, keys, vals)); });
  EXPECT_EQ(t.ctas, 512u);
  EXPECT_EQ(t.warps_per_cta, 4u);
  EXPECT_EQ(t.in(t.loaded, "src_key"), 2048u);
  EXPECT_EQ(t.in(t.loaded, "src_val"), 2048u);
  EXPECT_EQ(t.in(t.loaded, "limits_a"), 16u);
  EXPECT_EQ(t.in(t.loaded, "limits_b"), 16u);
  EXPECT_EQ(t.loaded.size(), 4128u);
  EXPECT_EQ(t.stored.size(), 4096u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{4}));
  ASSERT_EQ(keys.size(), 65536u);
  for (std::size_t seg = 0; seg < 65536; seg += 2048) {
    for (std::size_t i = seg + 1; i < seg + 2048; ++i)
      ASSERT_TRUE(keys[i - 1] < keys[i] || (keys[i - 1] == keys[i] && vals[i - 1] < vals[i])) << i;
    std::vector<std::uint32_t> in(src.begin() + std::int64_t(seg), src.begin() + std::int64_t(seg + 2048));
    std::vector<std::uint32_t> out(vals.begin() + std::int64_t(seg), vals.begin() + std::int64_t(seg + 2048));
    std::sort(in.begin(), in.end());
    std::sort(out.begin(), out.end());
    EXPECT_EQ(in, out) << "segment " << seg;
  }
}

// A late stage: stride 2^14 on 64 Ki pairs merges two segments of 2 x 16,384; the same pairs are read and
// written (4,096 lines each way) and the limits the same 32 lines; the output is two sorted halves.
TEST(MergeSort, ElementaryIntervalsLateStage) {
  std::vector<std::uint32_t> src, keys, vals;
  const testing::Traffic t =
      walk("cuda-samples/mergeSort_mergeElementaryIntervals", "n=65536 stride=16384",
           [&](const Kernel& k) { ASSERT_TRUE(merge_elementary_intervals_result(k, src, keys, vals)); });
  EXPECT_EQ(t.loaded.size(), 4128u);
  EXPECT_EQ(t.stored.size(), 4096u);
  for (std::size_t seg = 0; seg < 65536; seg += 32768)
    for (std::size_t i = seg + 1; i < seg + 32768; ++i)
      ASSERT_LE(keys[i - 1], keys[i]) << i;
}

// generateSampleRanks, stride 1,024 on 64 Ki pairs: 65,536 / 256 = 256 threads, one CTA (8 warps). Each
// thread stores 4 ranks: RanksA and RanksB, 512 uints each = 2,048 B = 16 lines each, 32 lines stored. It
// loads its two samples (keys 128 apart: every 128th key of the array, 512 B apart, one line each: 512
// lines) and searches each in the other run, 11 steps (1,024, 512, ..., 1): 2 + 22 = 24 load steps per
// warp, 192 in all. The keys steer the searches: the ranks equal the host's lower and upper bounds.
TEST(MergeSort, SampleRanksSearchTheOtherRun) {
  std::vector<std::uint32_t> keys, ranks_a, ranks_b;
  const testing::Traffic t =
      walk("cuda-samples/mergeSort_generateSampleRanks", "n=65536",
           [&](const Kernel& k) { ASSERT_TRUE(generate_sample_ranks_result(k, keys, ranks_a, ranks_b)); });
  EXPECT_EQ(t.ctas, 1u);
  EXPECT_EQ(t.warps_per_cta, 8u);
  EXPECT_EQ(t.stored.size(), 32u);
  EXPECT_EQ(t.in(t.stored, "ranks_a"), 16u);
  EXPECT_EQ(t.load_steps, 192u);
  EXPECT_GE(t.in(t.loaded, "src_key"), 512u);
  EXPECT_LE(t.in(t.loaded, "src_key"), 2048u);
  std::vector<std::uint32_t> expect_a, expect_b;
  merge_sort::sample_ranks(keys, 1024, expect_a, expect_b);
  EXPECT_EQ(ranks_a, expect_a);
  EXPECT_EQ(ranks_b, expect_b);
}

// mergeRanksAndIndices (list B), stride 1,024 on 64 Ki pairs: 256 threads, one CTA (8 warps); 8 samples
// per run. Each thread reads its two entries (the search's value and the stored value are one load),
// searches 4 steps (8, 4, 2, 1) twice: 2 + 8 = 10 load steps per warp, 80 in all, within the 512 ranks (16
// lines, all read); it writes two limits, every entry of the 512: 16 lines. The ranks steer the stores: the
// limits equal the host's merge of the ranks.
TEST(MergeSort, RanksMergeIntoLimits) {
  std::vector<std::uint32_t> ranks, limits;
  std::int64_t stride = 0;
  const testing::Traffic t = walk("cuda-samples/mergeSort_mergeRanksAndIndices", "n=65536 list=1",
                                  [&](const Kernel& k) { stride = merge_ranks_result(k, ranks, limits); });
  ASSERT_EQ(stride, 1024);
  EXPECT_EQ(t.ctas, 1u);
  EXPECT_EQ(t.load_steps, 80u);
  EXPECT_EQ(t.loaded.size(), 16u);
  EXPECT_EQ(t.stored.size(), 16u);
  std::vector<std::uint32_t> expect;
  merge_sort::limits(ranks, 1024, expect);
  EXPECT_EQ(limits, expect);
}

// The reference size (4 Mi pairs), too slow for every run (run with --gtest_also_run_disabled_tests):
// 4,096 CTAs; 2 x 16 MiB / 128 B = 262,144 lines loaded and as many stored.
TEST(MergeSort, DISABLED_SharedSortReferenceSize) {
  const testing::Traffic t = walk("cuda-samples/mergeSort_mergeSortShared", "");
  EXPECT_EQ(t.ctas, 4096u);
  EXPECT_EQ(t.loaded.size(), 262144u);
  EXPECT_EQ(t.stored.size(), 262144u);
}

}  // namespace
}  // namespace numagpu::kernels
