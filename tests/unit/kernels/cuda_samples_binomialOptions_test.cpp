// cuda-samples/binomialOptions: traffic, barriers and the shrinking tree's work, by hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// 16 options (the reference's 1,024 CTAs are the same CTA repeated; ~20 ms of host time each): 16 CTAs of
// 128 threads (4 warps). Nothing is loaded from global memory (the options are in constant memory); thread 0
// of each CTA stores one float: 16 x 4 B = 64 B, 1 line, 16 single-line steps. Barriers: two per step,
// 2 x 2,048 = 4,096 per warp.
TEST(BinomialOptions, OneValuePerOptionAndTwoBarriersPerStep) {
  const testing::Traffic t = walk("cuda-samples/binomialOptions", "options=16");
  EXPECT_EQ(t.ctas, 16u);
  EXPECT_EQ(t.warps_per_cta, 4u);
  EXPECT_EQ(t.loaded.size(), 0u);
  EXPECT_EQ(t.stored.size(), 1u);
  EXPECT_EQ(t.store_steps, 16u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{4096}));
}

// The work of one option: 16 leaves per thread (4 fp32 + 2 SFU each: the I2F of the leaf's index runs on
// the XU, as MUFU.EX2) and thread 0's extra leaf (warp 0); a warp updates while i > 16 x (its first tid) -
// 1: warps 0..3 for 2,048, 1,537, 1,025 and 513 of the steps, 32 fp32 each (16 multiplies and 16 FMAs).
// fp32 per CTA: 4 x 64 + 4 + 32 x (2,048 + 1,537 + 1,025 + 513) = 260 + 163,936 = 164,196; SFU: 4 x 32 +
// 2 = 130.
TEST(BinomialOptions, TheTreeShrinksWarpByWarp) {
  const testing::Traffic t = walk("cuda-samples/binomialOptions", "options=1");
  EXPECT_EQ(t.of(InstrClass::kFp32), 164196u);
  EXPECT_EQ(t.of(InstrClass::kSfu), 130u);
}

}  // namespace
}  // namespace numagpu::kernels
