// cuda-samples/fastWalshTransform_fwtBatch1 and _fwtBatch2: cold-cache traffic and shared-memory passes, by
// hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// fwtBatch2, the reference's first pass: 2^23 floats, 2^23 / 1,024 = 8,192 CTAs of 256 threads (8 warps),
// stride 2^21. Each thread reads and writes 4 floats in place: every element once, 32 MiB / 128 B =
// 262,144 lines loaded and the same lines stored. A warp's 32 consecutive positions share lo's high part
// (stride >= 32): each of its 4 loads and 4 stores covers 32 consecutive floats of one line: 65,536 warps
// x 4 = 262,144 load steps of one line each, and as many stores. No barrier.
TEST(FastWalshTransform, Batch2FirstPassReadsAndWritesEachLineOnce) {
  const testing::Traffic t = walk("cuda-samples/fastWalshTransform_fwtBatch2", "");
  EXPECT_EQ(t.ctas, 8192u);
  EXPECT_EQ(t.warps_per_cta, 8u);
  EXPECT_EQ(t.loaded.size(), 262144u);
  EXPECT_EQ(t.stored, t.loaded);
  EXPECT_EQ(t.load_steps, 262144u);
  EXPECT_EQ(t.load_line_visits, 262144u);
  EXPECT_EQ(t.store_line_visits, 262144u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{0}));
}

// A stride below a warp (8, not one of the sample's, whose smallest is 2^11) spreads a warp's access: lo =
// pos & 7, i0 = 4 (pos - lo) + lo puts lanes 8k..8k+7 at 32 k + 0..7: four groups of 8 floats 128 B apart,
// 4 lines per access. 2^16 floats: 64 CTAs, 512 warps x 4 loads = 2,048 load steps x 4 lines = 8,192,
// the 2,048 lines of the array each loaded 4 times.
TEST(FastWalshTransform, Batch2SmallStrideSpreadsAWarpOverFourLines) {
  const testing::Traffic t = walk("cuda-samples/fastWalshTransform_fwtBatch2", "log2n=16 stride=8");
  EXPECT_EQ(t.ctas, 64u);
  EXPECT_EQ(t.loaded.size(), 2048u);
  EXPECT_EQ(t.load_steps, 2048u);
  EXPECT_EQ(t.load_line_visits, 8192u);
}

// fwtBatch1 after the passes of a 2^19 array (the reference's 2^23 has the same CTAs, 16 times more: 4,096
// CTAs, 262,144 lines loaded and stored, 3,670,016 shared accesses; ~4 s of host time to walk): 19 -
// 2 x 4 = 11, vectors of 2,048 floats, 2^8 = 256 CTAs of 512 threads (16 warps). Every element loaded and
// stored once: 2^19 x 4 B / 128 B = 16,384 lines each. Barriers: radix-4 stages with stride 512, 128, 32,
// 8, 2 (5), the radix-2 stage (log2 11 is odd) and the one before the copy out: 7.
// Shared passes per warp (32 consecutive t): copy in and out, 4 + 4 accesses of 32 consecutive words, 1
// pass each; stages 512, 128, 32: i0..i3 are 32 consecutive words, 8 accesses x 1; stage 8: lo = lane & 7,
// i0 = 32 (lane >> 3) + (lane & 7) + const: 4 words in each of 8 banks, 8 accesses x 4 passes; stage 2:
// i0 = 8 (lane >> 1) + (lane & 1) + const, 8 banks again, 8 x 4; radix-2: words 2p and 2p + 1, 16 banks of
// 2 words, 2 trips x 4 accesses x 2 passes. Accesses 8 + 40 + 8 = 56, passes 8 + 24 + 32 + 32 + 16 = 112;
// x 16 warps x 256 CTAs = 229,376 accesses, 458,752 passes.
TEST(FastWalshTransform, Batch1ElementaryTransformInSharedMemory) {
  const testing::Traffic t = walk("cuda-samples/fastWalshTransform_fwtBatch1", "log2n=19");
  EXPECT_EQ(t.ctas, 256u);
  EXPECT_EQ(t.warps_per_cta, 16u);
  EXPECT_EQ(t.loaded.size(), 16384u);
  EXPECT_EQ(t.stored, t.loaded);
  EXPECT_EQ(t.load_line_visits, 16384u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{7}));
  EXPECT_EQ(t.shared_accesses, 229376u);
  EXPECT_EQ(t.shared_wavefronts, 458752u);
}

// An even length: 2^12 leaves log2 10 (12 - 2), 4 CTAs of 256 threads (8 warps), stages 256, 64, 16, 4, 1
// and no radix-2 stage: 6 barriers. Passes per warp: copies 4 + 4; stages 256 and 64, 16 x 1; stage 16:
// i0 = 64 (lane >> 4) + (lane & 15), 2 words per bank, 8 x 2; stage 4: i0 = 16 (lane >> 2) + (lane & 3),
// banks 0..3 and 16..19, 4 words each, 8 x 4; stage 1: i0 = 4 lane, 8 banks of 4 words, 8 x 4. Accesses 8 +
// 40 = 48, passes 8 + 16 + 16 + 32 + 32 = 104; x 32 warps: 1,536 and 3,328.
TEST(FastWalshTransform, Batch1EvenLengthSkipsTheRadix2Stage) {
  const testing::Traffic t = walk("cuda-samples/fastWalshTransform_fwtBatch1", "log2n=12");
  EXPECT_EQ(t.ctas, 4u);
  EXPECT_EQ(t.warps_per_cta, 8u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{6}));
  EXPECT_EQ(t.shared_accesses, 1536u);
  EXPECT_EQ(t.shared_wavefronts, 3328u);
  EXPECT_EQ(t.loaded.size(), 128u);  // 2^12 x 4 B / 128 B
}

}  // namespace
}  // namespace numagpu::kernels
