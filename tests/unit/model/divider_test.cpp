// Divider (common/divider.hpp): quotient and remainder must be exactly x / d and x % d, by shift and mask
// for powers of two and by division otherwise.
#include "common/divider.hpp"

#include <cstdint>
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

namespace numagpu {
namespace {

TEST(Divider, PowerOfTwoByHand) {
  const Divider line(128);
  // 1000 = 7 x 128 + 104.
  EXPECT_EQ(line.quotient(1000), 7u);
  EXPECT_EQ(line.remainder(1000), 104u);
  EXPECT_EQ(line.quotient(127), 0u);
  EXPECT_EQ(line.quotient(128), 1u);
  const Divider one(1);
  EXPECT_EQ(one.quotient(12345), 12345u);
  EXPECT_EQ(one.remainder(12345), 0u);
}

TEST(Divider, OtherDivisorsByHand) {
  const Divider six(6);  // e.g. six DRAM channels
  // 1000 = 166 x 6 + 4.
  EXPECT_EQ(six.quotient(1000), 166u);
  EXPECT_EQ(six.remainder(1000), 4u);
}

TEST(Divider, AgreesWithTheOperatorsOnRandomValues) {
  std::mt19937_64 rng(7);
  for (std::uint64_t d : {1ull, 2ull, 3ull, 6ull, 8ull, 12ull, 64ull, 96ull, 128ull, 1000ull, 1ull << 40}) {
    const Divider div(d);
    for (int i = 0; i < 10000; ++i) {
      const std::uint64_t x = rng();
      ASSERT_EQ(div.quotient(x), x / d) << x << " / " << d;
      ASSERT_EQ(div.remainder(x), x % d) << x << " % " << d;
    }
  }
}

TEST(Divider, RefusesZero) {
  EXPECT_THROW(Divider(0), std::invalid_argument);
}

}  // namespace
}  // namespace numagpu
