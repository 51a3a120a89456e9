// cuda-samples/quasirandomGenerator_*: cold-cache traffic and the point-steered branches, by hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// quasirandomGenerator, N = 1,048,576: 128 CTAs of 128 x 3 threads (12 warps). Nothing is loaded; the
// output, 3 x 1 Mi floats = 12 MiB, is written once: 98,304 lines. The grid covers 16,384 positions per
// round: 64 rounds for every thread, each a store of 32 consecutive floats of one dimension (one line) per
// warp: 128 x 12 x 64 = 98,304 single-line store steps. No barrier.
TEST(QuasirandomGenerator, WritesEachOutputLineOnce) {
  const testing::Traffic t = walk("cuda-samples/quasirandomGenerator_quasirandomGenerator", "");
  EXPECT_EQ(t.ctas, 128u);
  EXPECT_EQ(t.warps_per_cta, 12u);
  EXPECT_EQ(t.loaded.size(), 0u);
  EXPECT_EQ(t.stored.size(), 98304u);
  EXPECT_EQ(t.store_steps, 98304u);
  EXPECT_EQ(t.store_line_visits, 98304u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{0}));
}

// inverseCND, pathN = 3,145,728: 128 CTAs of 128 threads (4 warps), 3,145,728 / 16,384 = 192 rounds;
// 12 MiB written once: 98,304 lines in 98,304 single-line store steps.
// The tail branch: distance = floor((2^32 - 1) / 3,145,729) = 1,365; a point is in the tail when its
// reflected x <= 0.08 x 2^32 = 343,597,383.7: below, pos + 1 <= 343,597,383 / 1,365 = 251,719.7, positions
// 0..251,718 (warps 0..7,866: 7,867 warp rounds); above, 2^32 - 1 - 1,365 (pos + 1) <= 343,597,383, i.e.
// pos + 1 >= 2,894,776.5, positions 2,894,776..3,145,727 (warps 90,461..98,303: 7,843). Each of those
// 15,710 warp rounds runs the tail's two __logf: 31,420 SFU instructions, and the other 98,304 - 15,710 +
// 2 (the two boundary warps run both paths) = 82,596 rounds one reciprocal each. Every round also converts
// its integer point to float (I2F, on the XU with the SFU's instructions): 98,304 more. Float rounding at
// the boundary may move a lane, not a warp.
TEST(QuasirandomGenerator, InverseCndTailFollowsThePoints) {
  CppKernelProgram p("icnd",
                     make_kernel("cuda-samples/quasirandomGenerator_inverseCND", "", testing::kTrafficBase),
                     testing::kTrafficLine);
  const testing::Traffic t = walk("cuda-samples/quasirandomGenerator_inverseCND", "");
  EXPECT_EQ(t.ctas, 128u);
  EXPECT_EQ(t.stored.size(), 98304u);
  EXPECT_EQ(t.store_steps, 98304u);
  EXPECT_EQ(t.loaded.size(), 0u);
  EXPECT_EQ(t.of(InstrClass::kSfu), 2u * 15710 + 82596 + 98304);
}

}  // namespace
}  // namespace numagpu::kernels
