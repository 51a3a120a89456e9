// kernels/block_linear.hpp: where a 2-D CUDA array's texels lie, derived by hand from the GOB layout (64 B x
// 8 rows a GOB of 512 B, 32 B sectors of 16 B x 2 rows, blocks of block_height GOBs stacked vertically,
// blocks row by row).
#include "kernels/block_linear.hpp"

#include <gtest/gtest.h>

#include <set>

namespace numagpu::kernels {
namespace {

// A 512 x 512 float surface: rows of 2,048 B, 32 GOBs wide; blocks of 16 GOBs (128 rows, 8 KiB).
const BlockLinear kSurface{2048, 16};

TEST(BlockLinear, InsideAGobSectorsAre16BytesByTwoRows) {
  EXPECT_EQ(kSurface.offset(0, 0), 0u);
  EXPECT_EQ(kSurface.offset(15, 0), 15u);  // the first sector's first row: 16 B
  EXPECT_EQ(kSurface.offset(0, 1), 16u);   // its second row
  EXPECT_EQ(kSurface.offset(16, 0), 32u);  // the next 16 B of row 0: the second sector
  EXPECT_EQ(kSurface.offset(16, 1), 48u);
  EXPECT_EQ(kSurface.offset(0, 2), 64u);    // rows 2 and 3 follow the 64 B of rows 0 and 1
  EXPECT_EQ(kSurface.offset(0, 7), 208u);   // row pair 3 (192) + the pair's second row (16)
  EXPECT_EQ(kSurface.offset(32, 0), 256u);  // the GOB's right half after its left 32 B x 8 rows
  EXPECT_EQ(kSurface.offset(63, 7), 511u);  // the GOB's last byte
}

TEST(BlockLinear, GobsStackIntoBlocksAndBlocksFollowRowByRow) {
  EXPECT_EQ(kSurface.offset(0, 8), 512u);  // the second GOB of block 0
  EXPECT_EQ(kSurface.offset(0, 127), 15u * 512u + 208u);
  EXPECT_EQ(kSurface.offset(64, 0), 16u * 512u);          // block 1: one GOB to the right
  EXPECT_EQ(kSurface.offset(0, 128), 32u * 16u * 512u);   // the second row of blocks, after 32 blocks
  EXPECT_EQ(kSurface.bytes(512), 512u * 2048u);           // 4 rows of 32 blocks of 8 KiB: 1 MiB, no padding
  EXPECT_EQ(kSurface.bytes(129), 2u * 32u * 16u * 512u);  // whole blocks: 2 rows of them
  EXPECT_EQ((BlockLinear{100, 1}.bytes(9)), 2u * 2u * 512u);  // 100 B: 2 GOBs wide; 9 rows: 2 GOBs tall
}

// A warp reading an aligned tile of 8 floats x 4 rows (32 B x 4 rows) touches 4 sectors of one 128 B line,
// where a row-major surface puts each row in its own line.
TEST(BlockLinear, AnAlignedEightByFourFloatTileIsOneLine) {
  for (const std::uint64_t x0 : {0u, 32u, 64u, 992u}) {
    for (const std::uint64_t y0 : {0u, 4u, 8u, 124u, 128u}) {
      std::set<std::uint64_t> lines, sectors;
      for (std::uint64_t y = y0; y < y0 + 4; ++y)
        for (std::uint64_t x = x0; x < x0 + 32; x += 4) {
          lines.insert(kSurface.offset(x, y) / 128);
          sectors.insert(kSurface.offset(x, y) / 32);
        }
      EXPECT_EQ(lines.size(), 1u) << x0 << ", " << y0;
      EXPECT_EQ(sectors.size(), 4u) << x0 << ", " << y0;
    }
  }
}

}  // namespace
}  // namespace numagpu::kernels
