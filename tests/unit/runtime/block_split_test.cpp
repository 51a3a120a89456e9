// BlockSplit: the balanced contiguous split every chunked policy uses. Expected values by hand.
#include "runtime/block_split.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace numagpu::runtime {
namespace {

std::vector<std::uint64_t> parts_of_all(const BlockSplit& p) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t u = 0; u < p.units(); ++u)
    out.push_back(p.part_of(u));
  return out;
}

// 10 units into 4 parts: floor(10/4) = 2, 10 % 4 = 2 parts get one more -> sizes 3, 3, 2, 2 starting at
// 0, 3, 6, 8.
TEST(BlockSplit, RemainderGoesToTheFirstParts) {
  const BlockSplit p(10, 4);
  EXPECT_EQ(parts_of_all(p), (std::vector<std::uint64_t>{0, 0, 0, 1, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(p.size(0), 3u);
  EXPECT_EQ(p.size(1), 3u);
  EXPECT_EQ(p.size(2), 2u);
  EXPECT_EQ(p.size(3), 2u);
  EXPECT_EQ(p.begin(0), 0u);
  EXPECT_EQ(p.begin(1), 3u);
  EXPECT_EQ(p.begin(2), 6u);
  EXPECT_EQ(p.begin(3), 8u);
}

// 8 units into 4 parts: 2 each, no remainder.
TEST(BlockSplit, EvenSplit) {
  EXPECT_EQ(parts_of_all(BlockSplit(8, 4)), (std::vector<std::uint64_t>{0, 0, 1, 1, 2, 2, 3, 3}));
}

// 2 units into 4 parts: floor = 0, remainder 2 -> unit u is part u, parts 2 and 3 are empty.
TEST(BlockSplit, FewerUnitsThanParts) {
  const BlockSplit p(2, 4);
  EXPECT_EQ(parts_of_all(p), (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(p.size(0), 1u);
  EXPECT_EQ(p.size(1), 1u);
  EXPECT_EQ(p.size(2), 0u);
  EXPECT_EQ(p.size(3), 0u);
  EXPECT_EQ(p.begin(2), 2u);
  EXPECT_EQ(p.begin(3), 2u);
}

TEST(BlockSplit, OnePart) {
  EXPECT_EQ(parts_of_all(BlockSplit(5, 1)), (std::vector<std::uint64_t>{0, 0, 0, 0, 0}));
}

// 7 into 3: floor 2, remainder 1 -> sizes 3, 2, 2.
TEST(BlockSplit, SevenIntoThree) {
  EXPECT_EQ(parts_of_all(BlockSplit(7, 3)), (std::vector<std::uint64_t>{0, 0, 0, 1, 1, 2, 2}));
}

}  // namespace
}  // namespace numagpu::runtime
