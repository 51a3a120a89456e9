// The address space kernels and applications place their arrays in (kernels/address_space.hpp): bases,
// alignment, empty arrays and the 1 TiB cap, derived by hand.
#include <gtest/gtest.h>

#include "kernels/library.hpp"

namespace numagpu::kernels {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;

// From 256 MiB: 10 floats (40 B) take the boundary at 256 MiB and end it at 258; 2^18 doubles (exactly 2 MiB)
// fill 258..260; 2 MiB + 1 bytes spill into a second granule, 260..264; an empty array still takes one,
// 264..266, so the next starts at 266 MiB.
TEST(AddressSpace, PlacesArraysAtTwoMiBBoundariesOneAfterAnother) {
  AddressSpace space(256 * kMiB);
  EXPECT_EQ(space.place<float>("a", 10).base, 256 * kMiB);
  EXPECT_EQ(space.end(), 258 * kMiB);
  EXPECT_EQ(space.place<double>("b", std::uint64_t(1) << 18).base, 258 * kMiB);
  EXPECT_EQ(space.end(), 260 * kMiB);
  EXPECT_EQ(space.place<std::uint8_t>("c", 2 * kMiB + 1).base, 260 * kMiB);
  EXPECT_EQ(space.end(), 264 * kMiB);
  const Array<std::int32_t> empty = space.place<std::int32_t>("d", 0);
  EXPECT_EQ(empty.base, 264 * kMiB);
  EXPECT_EQ(space.end(), 266 * kMiB);
  EXPECT_EQ(space.place<float>("e", 1).base, 266 * kMiB);

  // Each array is recorded as an allocation of its exact bytes (40, 2 MiB, 2 MiB + 1, 0, 4).
  const std::vector<runtime::Allocation>& al = space.allocations();
  ASSERT_EQ(al.size(), 5u);
  EXPECT_EQ(al[0].name, "a");
  EXPECT_EQ(al[0].bytes, 40u);
  EXPECT_EQ(al[0].element_bytes, 4u);
  EXPECT_EQ(al[1].bytes, 2 * kMiB);
  EXPECT_EQ(al[1].element_bytes, 8u);
  EXPECT_EQ(al[2].bytes, 2 * kMiB + 1);
  EXPECT_EQ(al[3].base, 264 * kMiB);
  EXPECT_EQ(al[3].bytes, 0u);
  EXPECT_EQ(al[4].base, 266 * kMiB);
  EXPECT_FALSE(al[0].shape.has_value());
}

// A shape is given to LADM's placements as rows x cols; the values given are what contents() answers, for
// a type of their element's size only.
TEST(AddressSpace, RecordsShapesAndValues) {
  AddressSpace space(0);
  std::vector<float> values(6, 1.5f);
  const Array<float> grid = space.place<float>("grid", 6, 2, 3, &values);
  EXPECT_EQ(grid.data, &values);
  ASSERT_TRUE(space.allocations()[0].shape.has_value());
  EXPECT_EQ(space.allocations()[0].shape->rows, 2u);
  EXPECT_EQ(space.allocations()[0].shape->cols, 3u);
  EXPECT_EQ(space.contents<float>("grid"), &values);
  EXPECT_EQ(space.contents<double>("grid"), nullptr);
  space.place<float>("addresses_only", 6);
  EXPECT_EQ(space.contents<float>("addresses_only"), nullptr);
}

// 1 TiB together is the most: 2^38 floats take exactly 2^40 B and are placed; one more byte is refused, and
// so is a count whose byte size would wrap 64 bits (2^61 doubles are 2^64 B, which wraps to 0), with nothing
// recorded for either.
TEST(AddressSpace, RefusesArraysBeyondOneTiBTogether) {
  AddressSpace space(0);
  EXPECT_NO_THROW(space.place<float>("all", std::uint64_t(1) << 38));
  try {
    space.place<std::uint8_t>("one_more", 1);
    FAIL() << "placed a byte beyond 1 TiB";
  } catch (const KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("array 'one_more'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("more than 1099511627776 B (1 TiB)"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(space.place<std::uint8_t>("empty", 0));  // no bytes: still fits

  AddressSpace fresh(0);
  EXPECT_THROW(fresh.place<double>("wraps", std::uint64_t(1) << 61), KernelError);
  EXPECT_TRUE(fresh.allocations().empty());
  EXPECT_EQ(fresh.end(), 0u);
}

}  // namespace
}  // namespace numagpu::kernels
