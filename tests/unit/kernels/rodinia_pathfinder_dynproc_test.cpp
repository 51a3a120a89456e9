// rodinia/pathfinder_dynproc: cold-cache traffic counted by hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// Reference size, first launch: cols 100,000, pyramid 20: small blocks of 256 - 40 = 216 columns,
// ceil(100000 / 216) = 463 CTAs of 256 threads (8 warps). Every column of the source row is loaded:
// 100,000 ints x 4 B = 400,000 B = 3,125 lines exactly. In step i the threads tx in [i+1, 254-i] of CTA b
// read the wall at columns 216 b - 20 + tx, i.e. [216 b - 19 + i, 216 b + 234 - i]: for every i <= 19
// consecutive CTAs' ranges meet or overlap, so all 100,000 columns of each of the 20 rows 0..19 are read;
// a row is 400,000 B, a whole number of lines, so the wall contributes 20 x 3,125 = 62,500 lines. The
// store after the last step (i = 19, tx in [20, 235]) writes columns [216 b, 216 b + 215]: every column
// once, 3,125 lines. Barriers per warp: 1 after the load, then 20 after the steps' compute and 19 after
// their copy back (the last step breaks before it) = 40.
TEST(Pathfinder, ReferenceFirstLaunchReadsTwentyWallRowsAndWritesOneRow) {
  const testing::Traffic t = walk("rodinia/pathfinder_dynproc", "");
  EXPECT_EQ(t.ctas, 463u);
  EXPECT_EQ(t.warps_per_cta, 8u);
  EXPECT_EQ(t.in(t.loaded, "src"), 3125u);
  EXPECT_EQ(t.in(t.loaded, "wall"), 62500u);
  EXPECT_EQ(t.loaded.size(), 3125u + 62500u);
  EXPECT_EQ(t.stored.size(), 3125u);
  EXPECT_EQ(t.in(t.stored, "dst"), 3125u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{40}));
}

// The last launch of the reference run: step 80 advances min(20, 100 - 80 - 1) = 19 rows. The grid is the
// host's (463 CTAs), the kernel's small block 256 - 38 = 218, the border still 20: in step i CTA b reads
// columns [218 b - 19 + i, 218 b + 234 - i], which at i = 18 are [218 b - 1, 218 b + 216] and meet the next
// CTA's; rows 80..98 are read whole: 19 x 3,125 = 59,375 wall lines, the wall's rows 80..98 only (lines
// 80 x 3,125 .. 99 x 3,125 of it). The store of step 18 (tx in [19, 236]) writes each column once: 3,125.
// CTAs 460..462 start beyond the last column (218 x 460 - 20 > 99,999) and touch nothing. Barriers:
// 1 + 19 + 18 = 38.
TEST(Pathfinder, LastLaunchAdvancesNineteenRows) {
  const testing::Traffic t = walk("rodinia/pathfinder_dynproc", "step=80");
  EXPECT_EQ(t.ctas, 463u);
  EXPECT_EQ(t.in(t.loaded, "wall"), 59375u);
  const std::uint64_t wall = t.arrays.at("wall").first;
  EXPECT_EQ(*t.loaded.begin(), wall + 80u * 400000u);
  EXPECT_EQ(t.in(t.loaded, "src"), 3125u);
  EXPECT_EQ(t.stored.size(), 3125u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{38}));
}

// A small grid, pyramid 2: cols 3,200 (12,800 B = 100 lines per row), small blocks 252, ceil(3200 / 252) =
// 13 CTAs. Source 100 lines, wall rows 0..1 = 200 lines, stores 100 lines; barriers 1 + 2 + 1 = 4.
TEST(Pathfinder, SmallGridPyramidTwo) {
  const testing::Traffic t = walk("rodinia/pathfinder_dynproc", "cols=3200 rows=10 pyramid=2");
  EXPECT_EQ(t.ctas, 13u);
  EXPECT_EQ(t.in(t.loaded, "src"), 100u);
  EXPECT_EQ(t.in(t.loaded, "wall"), 200u);
  EXPECT_EQ(t.stored.size(), 100u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{4}));
}

}  // namespace
}  // namespace numagpu::kernels
