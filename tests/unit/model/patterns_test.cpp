// Synthetic patterns: each emits the documented requests over the documented footprint (docs/workloads.md).
#include <gtest/gtest.h>

#include <set>

#include "workload/kernel.hpp"

namespace numagpu {
namespace {

struct Counts {
  std::uint64_t loads = 0, stores = 0, atomics = 0, computes = 0;
  std::set<std::uint64_t> lines;
};

Counts run(const KernelSpec& k) {
  WarpProgram p(k, 128);
  Counts c;
  for (std::uint32_t cta = 0; cta < k.ctas; ++cta) {
    for (std::uint32_t w = 0; w < k.warps_per_cta; ++w) {
      for (std::uint32_t i = 0; i < p.steps(); ++i) {
        const WarpStep s = p.step(cta, w, i);
        switch (s.kind) {
          case WarpStep::Kind::kCompute:
            ++c.computes;
            continue;
          case WarpStep::Kind::kLoad:
            ++c.loads;
            break;
          case WarpStep::Kind::kStore:
            ++c.stores;
            break;
          case WarpStep::Kind::kAtomic:
            ++c.atomics;
            break;
        }
        c.lines.insert(s.address / 128);
      }
    }
  }
  return c;
}

KernelSpec kernel(const char* pattern, std::uint32_t ctas, std::uint32_t warps, std::uint32_t accesses) {
  KernelSpec k;
  k.pattern = pattern;
  k.ctas = ctas;
  k.warps_per_cta = warps;
  k.accesses_per_warp = accesses;
  return k;
}

// 2 CTAs x 2 warps x 4 accesses: 16 elements, each read from a and b and written to c: 32 loads, 16 stores,
// over 3 arrays of 16 lines (48 lines).
TEST(Patterns, StreamTriadReadsTwoArraysAndWritesAThird) {
  const Counts c = run(kernel("stream_triad", 2, 2, 4));
  EXPECT_EQ(c.loads, 32u);
  EXPECT_EQ(c.stores, 16u);
  EXPECT_EQ(c.computes, 16u);
  EXPECT_EQ(c.lines.size(), 48u);
  EXPECT_EQ(*c.lines.rbegin(), 47u);
}

// 4 warps x 4 accesses, stride_x 2 lines, stride_y 8 lines: warp g touches lines 8g, 8g+2, 8g+4, 8g+6:
// 16 loads over 16 distinct even lines 0..30 (footprint 64 lines).
TEST(Patterns, StridedWalksXAndYStrides) {
  KernelSpec k = kernel("strided", 1, 4, 4);
  k.stride_x = 2;
  k.stride_y = 8;
  k.footprint_bytes = 64 * 128;
  const Counts c = run(k);
  EXPECT_EQ(c.loads, 16u);
  EXPECT_EQ(c.lines.size(), 16u);
  for (std::uint64_t l : c.lines)
    EXPECT_EQ(l % 2, 0u);
  EXPECT_EQ(*c.lines.rbegin(), 30u);
}

// 4 CTAs x 1 warp x 2 accesses: 8 input loads (lines 0..7) and 8 stores into the output region at the first
// GiB boundary after the input (1 GiB): CTA c writes output line c, so 4 distinct output lines, all in the
// region's first page.
TEST(Patterns, ReductionToOneWritesOneSmallRegion) {
  const Counts c = run(kernel("reduction_to_one", 4, 1, 2));
  EXPECT_EQ(c.loads, 8u);
  EXPECT_EQ(c.stores, 8u);
  std::uint64_t outputs = 0;
  for (std::uint64_t l : c.lines) {
    if (l * 128 >= (std::uint64_t(1) << 30)) {
      ++outputs;
      EXPECT_LT(l * 128, (std::uint64_t(1) << 30) + 4096);
    }
  }
  EXPECT_EQ(outputs, 4u);
  EXPECT_EQ(c.lines.size(), 12u);
}

// 16 atomics into 4096 B of bins (32 lines): every address inside the bins.
TEST(Patterns, HistogramAtomicallyUpdatesBins) {
  const Counts c = run(kernel("histogram", 2, 2, 4));
  EXPECT_EQ(c.atomics, 16u);
  EXPECT_EQ(c.loads + c.stores, 0u);
  EXPECT_LE(c.lines.size(), 16u);
  EXPECT_LT(*c.lines.rbegin(), 32u);
}

}  // namespace
}  // namespace numagpu
