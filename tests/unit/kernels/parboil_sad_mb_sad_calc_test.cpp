// parboil/sad_mb_sad_calc: cold-cache traffic, barriers and shared accesses, by hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// A 32 x 16 frame (2 x 1 macroblocks): 8 x 4 = 32 CTAs of 61 threads (2 warps). frame and ref are
// 32 x 16 shorts = 1 KiB = 8 lines each. Every CTA reads its 4 x 4 block of frame (together: all of it) and
// ref at x in [4 bx - 16, 4 bx + 19] (local_x = 0, 3, .., 30 plus dx = 0..5) and y in [4 by - 16,
// 4 by + 19], clamped: every pixel of ref: 16 lines loaded. The 4 x 4 SADs: 2 MBs x 16 blocks x 1,096 shorts
// = 70,144 B from byte 25 x 2 x 1,096 x 2 = 109,600 (line 856, at 32 B into it) to 179,743 (line 1,404):
// 549 lines stored. Load steps per CTA: 1 (frame, warp 0) + 2 warps x 6 iterations (thread 60's 3 end
// inside warp 1's 6) x 4 rows x 6 texels = 289: 9,248. Store steps: warp 0's 9 copy iterations (274 words,
// 32 a time): 288. Barriers: 2 per warp. Shared accesses per CTA: 1 frame_loc store + 2 warps x 6 x (4 rows
// x 4 broadcasts + 3 SAD stores) + 9 LDS.64 = 1 + 228 + 9 = 238: 7,616; passes: 1 each except the LDS.64
// (a warp's 32 x 8 B or 18 x 8 B: 2 words on some bank), 2: 7,616 + 32 x 9 = 7,904. The SAD stores of
// thread t fall on word 9 t + c: distinct banks for 32 consecutive threads (one pass).
TEST(SadMbSadCalc, SmallFrameTraffic) {
  const testing::Traffic t = walk("parboil/sad_mb_sad_calc", "width=32 height=16");
  EXPECT_EQ(t.ctas, 32u);
  EXPECT_EQ(t.warps_per_cta, 2u);
  EXPECT_EQ(t.in(t.loaded, "frame"), 8u);
  EXPECT_EQ(t.in(t.loaded, "ref"), 8u);
  EXPECT_EQ(t.loaded.size(), 16u);
  EXPECT_EQ(t.in(t.stored, "blk_sad"), 549u);
  EXPECT_EQ(t.stored.size(), 549u);
  EXPECT_EQ(t.load_steps, 9248u);
  EXPECT_EQ(t.store_steps, 288u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{2}));
  EXPECT_EQ(t.shared_accesses, 7616u);
  EXPECT_EQ(t.shared_wavefronts, 7904u);
}

// A 64 x 64 frame (4 x 4 macroblocks, 256 CTAs): the texture reads of all CTAs cover ref (64 rows of 128 B =
// 64 lines) and frame is read once (64 lines); 289 load steps per CTA as above. The SADs: 16 MBs x 16 x
// 2,192 B = 561,152 B from byte 25 x 16 x 2,192 = 876,800 (line 6,850 exactly): 4,384 lines.
TEST(SadMbSadCalc, LargerFrameCoversTheSadSection) {
  const testing::Traffic t = walk("parboil/sad_mb_sad_calc", "width=64 height=64");
  EXPECT_EQ(t.ctas, 256u);
  EXPECT_EQ(t.in(t.loaded, "frame"), 64u);
  EXPECT_EQ(t.in(t.loaded, "ref"), 64u);
  EXPECT_EQ(t.in(t.stored, "blk_sad"), 4384u);
  EXPECT_EQ(t.load_steps, 256u * 289u);
}

// The "default" dataset's frame (176 x 144): 44 x 36 = 1,584 CTAs; frame and ref 50,688 B = 396 lines each;
// the SADs 99 MBs x 16 x 2,192 B = 3,472,128 B from byte 25 x 99 x 2,192 = 5,425,200 (line 42,384) to
// 8,897,327 (line 69,510): 27,127 lines.
TEST(SadMbSadCalc, DefaultDatasetFrame) {
  const testing::Traffic t = walk("parboil/sad_mb_sad_calc", "width=176 height=144");
  EXPECT_EQ(t.ctas, 1584u);
  EXPECT_EQ(t.in(t.loaded, "frame"), 396u);
  EXPECT_EQ(t.in(t.loaded, "ref"), 396u);
  EXPECT_EQ(t.in(t.stored, "blk_sad"), 27127u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{2}));
}

// The reference (the "large" dataset, 1920 x 1072), too slow for every run (--gtest_also_run_disabled_tests):
// 480 x 268 = 128,640 CTAs; frame and ref 4,116,480 B = 32,160 lines each; 120 x 67 = 8,040 MBs: the SADs
// 8,040 x 16 x 2,192 = 281,978,880 B from byte 25 x 8,040 x 2,192 = 440,592,000 (line 3,442,125 exactly):
// 2,202,960 lines; 289 load steps per CTA: 37,176,960.
TEST(SadMbSadCalc, DISABLED_ReferenceSize) {
  const testing::Traffic t = walk("parboil/sad_mb_sad_calc", "");
  EXPECT_EQ(t.ctas, 128640u);
  EXPECT_EQ(t.in(t.loaded, "frame"), 32160u);
  EXPECT_EQ(t.in(t.loaded, "ref"), 32160u);
  EXPECT_EQ(t.in(t.stored, "blk_sad"), 2202960u);
  EXPECT_EQ(t.load_steps, 37176960u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{2}));
}

}  // namespace
}  // namespace numagpu::kernels
