// parboil/sgemm_mysgemmNT: global traffic on a cold cache, derived by hand from the algorithm.
#include <gtest/gtest.h>

#include <algorithm>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

testing::Traffic walk(const std::string& args, const std::function<void(const Kernel&)>& after = {}) {
  return testing::walk("parboil/sgemm_mysgemmNT", args, after);
}

// m = 256, n = 32, k = 16: a grid of 256 / 128 x 32 / 16 = 2 x 2 CTAs of 16 x 8 threads (4 warps; warp w
// holds threadIdx.y = 2w and 2w + 1), 16 / 8 = 2 steps along k.
// Lines, each array read whole exactly as stored: A 256 x 16 floats = 16 KiB = 128 lines, B 16 x 32 floats
// = 2 KiB = 16 lines, C 256 x 32 floats = 32 KiB = 256 lines, read and written.
// Per warp and step: one B load of two half-lines (threadIdx.y rows of 16 floats at column n = 16 blockIdx.y:
// 64 B-aligned, so one line each: 2 line requests), 8 A loads of 32 consecutive floats of column i + j
// starting at m = 128 blockIdx.x + 32 w (one line each). Then 16 C loads and 16 C stores of 32 consecutive
// floats (one line each). Memory steps per warp: 2 x (1 + 8) + 16 + 16 = 50; load line requests per warp:
// 2 x (2 + 8) + 16 = 36, all 16 warps: 576. Barriers per warp: two per step, 4.
// Shared memory per warp and step: one store (32 consecutive floats: one pass) and 8 rows x 4 broadcast
// 128-bit loads (one pass each): 33 accesses; all warps: 33 x 2 x 16 = 1,056, as many wavefronts.
TEST(ParboilSgemm, SmallGridReadsEachMatrixOnceWithTheTilesSteps) {
  const testing::Traffic t = walk("m=256 n=32 k=16");
  ASSERT_EQ(t.ctas, 4u);
  ASSERT_EQ(t.warps_per_cta, 4u);
  EXPECT_EQ(t.in(t.loaded, "A"), 128u);
  EXPECT_EQ(t.in(t.loaded, "B"), 16u);
  EXPECT_EQ(t.in(t.loaded, "C"), 256u);
  EXPECT_EQ(t.loaded.size(), 400u);
  EXPECT_EQ(t.stored.size(), 256u);
  EXPECT_EQ(t.in(t.stored, "C"), 256u);
  EXPECT_EQ(t.load_line_visits, 576u);
  for (unsigned w = 0; w < t.barriers.size(); ++w) {
    EXPECT_EQ(t.barriers[w], 4u) << w;
    EXPECT_EQ(t.memory_steps[w], 50u) << w;
  }
  EXPECT_EQ(t.shared_accesses, 1056u);
  EXPECT_EQ(t.shared_wavefronts, 1056u);
}

// The study's size (dataset medium): m = 1024, k = 992, n = 1056; 8 x 66 = 528 CTAs, 124 steps along k.
// Lines: A 1024 x 992 x 4 B / 128 B = 31,744; B 992 x 1056 x 4 / 128 = 32,736; C 1024 x 1056 x 4 / 128 =
// 33,792 read and written. Loaded 31,744 + 32,736 + 33,792 = 98,272 lines; stored 33,792.
// Per warp: 124 x (1 + 8) + 32 = 1,148 memory steps and 2 x 124 = 248 barriers.
TEST(ParboilSgemm, MediumDatasetTraffic) {
  const testing::Traffic t = walk("");
  ASSERT_EQ(t.ctas, 528u);
  EXPECT_EQ(t.loaded.size(), 98272u);
  EXPECT_EQ(t.stored.size(), 33792u);
  EXPECT_TRUE(std::all_of(t.barriers.begin(), t.barriers.end(), [](unsigned n) { return n == 248; }));
  EXPECT_TRUE(
      std::all_of(t.memory_steps.begin(), t.memory_steps.end(), [](unsigned n) { return n == 1148; }));
}

}  // namespace
}  // namespace numagpu::kernels
