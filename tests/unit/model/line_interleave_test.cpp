// LineInterleave (common/line_interleave.hpp): plain keeps the line number; ipoly is the line number's
// remainder modulo a primitive polynomial over GF(2). Each expectation is derived by hand in its comment.
#include "common/line_interleave.hpp"

#include <cstdint>
#include <set>

#include <gtest/gtest.h>

namespace numagpu {
namespace {

TEST(LineInterleave, PlainIsTheLineNumber) {
  const LineInterleave plain;
  EXPECT_FALSE(plain.hashed());
  EXPECT_EQ(plain.index(0), 0u);
  EXPECT_EQ(plain.index(5120), 5120u);  // slice 5120 mod 64 = 0, channel 5120 mod 32 = 0
  // Tag line 80 of bank 3 of 64: 80 x 64 + 3 = 5123.
  EXPECT_EQ(plain.line_of(80, 3, 6), 5123u);
}

// 64 partitions, P(x) = x^6 + x + 1. Below the degree a line is its own remainder. x^6 = x + 1 (mod P): line
// 64 -> 0b11 = 3. x^7 = x^2 + x: line 128 -> 0b110 = 6. Line 64 + 5 = x^6 + x^2 + 1 -> (x + 1) + x^2 + 1 =
// x^2
// + x = 6. x^12 = (x + 1)^2 = x^2 + 1: line 4096 -> 0b101 = 5.
TEST(LineInterleave, IpolyOf64IsTheRemainderModuloX6PlusXPlus1) {
  const LineInterleave h = LineInterleave::ipoly(6);
  EXPECT_TRUE(h.hashed());
  EXPECT_EQ(h.index(5), 5u);
  EXPECT_EQ(h.index(63), 63u);
  EXPECT_EQ(h.index(64), 3u);
  EXPECT_EQ(h.index(128), 6u);
  EXPECT_EQ(h.index(64 + 5), 6u);
  EXPECT_EQ(h.index(4096), 5u);
}

// 32 partitions, P(x) = x^5 + x^2 + 1: x^5 = x^2 + 1, line 32 -> 0b101 = 5; x^6 = x^3 + x, line 64 -> 0b1010
// = 10; line 96 = x^6 + x^5 -> 10 ^ 5 = 15.
TEST(LineInterleave, IpolyOf32IsTheRemainderModuloX5PlusX2Plus1) {
  const LineInterleave h = LineInterleave::ipoly(5);
  EXPECT_EQ(h.index(32), 5u);
  EXPECT_EQ(h.index(64), 10u);
  EXPECT_EQ(h.index(96), 15u);
}

// The property the hash is chosen for: P(x) irreducible, so x^s has an inverse modulo P and the 2^bits
// lines i x 2^s (i < 2^bits, whose polynomials i(x) x^s differ) have 2^bits different remainders, for every
// stride 2^s. A plain interleave puts all of them on one partition once 2^s >= 2^bits. Checked for every
// degree of the table (which also checks each polynomial is irreducible there).
TEST(LineInterleave, EveryPowerOfTwoStrideReachesEveryPartition) {
  for (unsigned bits = 1; bits <= LineInterleave::kMaxBits; ++bits) {
    const LineInterleave h = LineInterleave::ipoly(bits);
    const std::uint64_t n = std::uint64_t(1) << bits;
    for (unsigned s : {0u, 1u, 5u, 7u, 12u, 20u, 40u}) {
      std::set<std::uint64_t> seen;
      for (std::uint64_t i = 0; i < n; ++i)
        seen.insert(h.index(i << s));
      EXPECT_EQ(seen.size(), n) << "bits " << bits << ", stride 2^" << s;
    }
  }
}

// The stream of docs/microbenchmarks.md ("Gaps"): warp 7 of ubench/stream reads lines 7, 7 + 5120, ... (5120
// = 160 CTAs x 32 warps). Plain: 5120 = 80 x 64, so every one of them is on slice 7 (channel 7). ipoly over
// 64: line 7 stays 7; line 5127 = x^12 + x^10 + x^2 + x + 1 with x^12 = x^2 + 1 and x^10 = x^4 x^6 =
// x^5 + x^4 gives x^5 + x^4 + x = 50.
TEST(LineInterleave, AStreamStridingByAMultipleOfTheSlicesIsSpread) {
  const LineInterleave plain, h = LineInterleave::ipoly(6);
  EXPECT_EQ(plain.index(7) % 64, 7u);
  EXPECT_EQ(plain.index(7 + 5120) % 64, 7u);
  EXPECT_EQ(h.index(7), 7u);
  EXPECT_EQ(h.index(7 + 5120), 50u);
}

// A bank of 2^m keeps a line as line >> m: with the bank's number that gives the line back, for each m up
// to the hash's bits (a cache bank of 64 under a hash over 64, or of 16 under a hash over 32 channels).
TEST(LineInterleave, ABanksNumberAndTagLineGiveTheLineBack) {
  const LineInterleave h = LineInterleave::ipoly(6);
  for (unsigned m : {0u, 4u, 6u}) {
    const std::uint64_t banks = std::uint64_t(1) << m;
    for (std::uint64_t line : {0ull, 1ull, 63ull, 64ull, 69ull, 5127ull, 123456789ull, (1ull << 40) + 77}) {
      const std::uint64_t bank = h.index(line) % banks;
      EXPECT_EQ(h.line_of(line >> m, bank, m), line) << "line " << line << ", " << banks << " banks";
    }
  }
}

TEST(LineInterleave, RefusesMoreBitsThanItsTable) {
  EXPECT_THROW(LineInterleave::ipoly(LineInterleave::kMaxBits + 1), std::invalid_argument);
  EXPECT_FALSE(LineInterleave::ipoly(0).hashed());
}

}  // namespace
}  // namespace numagpu
