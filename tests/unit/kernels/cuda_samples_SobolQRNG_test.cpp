// cuda-samples/SobolQRNG: cold-cache traffic by hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// 100,000 vectors x 100 dimensions, 80 SMs: gridDim.x = 4 x 80 = 320 rounded up to 512, x 100 = 51,200
// CTAs of 64 threads (2 warps), stride 512 x 64 = 32,768. Loads: each CTA's first warp reads its
// dimension's 32 direction numbers, one 128 B line: 100 distinct lines. Stores: every output once, a
// dimension's 100,000 floats = 400,000 B = 3,125 lines exactly: 312,500 lines. A thread stores i0 (< 32,768
// < 100,000), i0 + 32,768, i0 + 65,536, and i0 + 98,304 when i0 < 1,696 = 53 x 32 (whole warps): per
// dimension 1,024 warps x 3 + 53 = 3,125 store steps of one line, 312,500 in all. One barrier per warp.
// Shared: the stepping loop's index is the lowest zero bit of i - 32,768 above bit 14: bit 15 for
// i - 32,768 < 32,768, bit 16 above; the same for a warp's 32 consecutive i: every access is 1 pass.
TEST(Sobol, WritesEachOutputLineOnce) {
  const testing::Traffic t = walk("cuda-samples/SobolQRNG", "");
  EXPECT_EQ(t.ctas, 51200u);
  EXPECT_EQ(t.warps_per_cta, 2u);
  EXPECT_EQ(t.loaded.size(), 100u);
  EXPECT_EQ(t.stored.size(), 312500u);
  EXPECT_EQ(t.store_steps, 312500u);
  EXPECT_EQ(t.store_line_visits, 312500u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{1}));
  EXPECT_EQ(t.shared_wavefronts, t.shared_accesses);
}

}  // namespace
}  // namespace numagpu::kernels
