// Synthetic patterns: each emits the documented requests over the documented footprint (docs/workloads.md).
#include <gtest/gtest.h>

#include <map>
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
  k.compute_cycles = 0;
  return k;
}

// stream: 2 CTAs x 2 warps x 4 accesses read 16 distinct lines (the natural footprint), each once; random:
// 16 reads, all inside a 64-line footprint.
TEST(Patterns, StreamAndRandomEmitOneAccessEach) {
  const Counts s = run(kernel("stream", 2, 2, 4));
  EXPECT_EQ(s.loads, 16u);
  EXPECT_EQ(s.lines.size(), 16u);
  EXPECT_EQ(*s.lines.rbegin(), 15u);
  KernelSpec r = kernel("random", 2, 2, 4);
  r.footprint_bytes = 64 * 128;
  const Counts c = run(r);
  EXPECT_EQ(c.loads, 16u);
  EXPECT_LT(*c.lines.rbegin(), 64u);
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

// 1 CTA x 2 warps x 4 accesses (8 elements; arrays of 8 lines): each reads idx (lines 0-7), a random table
// line (8-15) and writes out (16-23): 16 loads, 8 stores.
TEST(Patterns, RandomGatherReadsIndexAndTableWritesOutput) {
  const Counts c = run(kernel("random_gather", 1, 2, 4));
  EXPECT_EQ(c.loads, 16u);
  EXPECT_EQ(c.stores, 8u);
  for (std::uint64_t l : c.lines)
    EXPECT_LT(l, 24u);
  for (std::uint64_t l = 0; l < 8; ++l)
    EXPECT_TRUE(c.lines.count(l)) << l;  // every index line
  for (std::uint64_t l = 16; l < 24; ++l)
    EXPECT_TRUE(c.lines.count(l)) << l;  // every output line
}

// A 4 x 4 matrix (width 4, 16 elements by 1 CTA x 4 warps x 4 accesses): element e = 4r + c is read at
// line e and written at 16 + 4c + r: element 1 (r 0, c 1) goes to line 20, element 6 (r 1, c 2) to 25.
TEST(Patterns, TransposeWritesTheTransposedElement) {
  KernelSpec k = kernel("transpose", 1, 4, 4);
  k.width_lines = 4;
  WarpProgram p(k, 128);
  // warp w, access a reads element a*4 + w; step index 3a+1 is the load, 3a+2 the store.
  EXPECT_EQ(p.step(0, 1, 2).address / 128, 20u);  // warp 1, access 0: element 1
  EXPECT_EQ(p.step(0, 2, 5).address / 128, 25u);  // warp 2, access 1: element 6
  const Counts c = run(k);
  EXPECT_EQ(c.loads, 16u);
  EXPECT_EQ(c.stores, 16u);
  EXPECT_EQ(c.lines.size(), 32u);
}

// A 4 x 4 grid: each point reads itself and its 4 neighbours (an off-grid neighbour reads the point itself)
// and writes one output line: 5 x 16 = 80 loads, 16 stores. Point 0 (a corner) reads 0, 0, 1, 0, 4.
TEST(Patterns, Stencil2dReadsTheFivePointNeighbourhood) {
  KernelSpec k = kernel("stencil2d", 1, 4, 4);
  k.width_lines = 4;
  WarpProgram p(k, 128);
  const std::uint64_t expected[5] = {0, 0, 1, 0, 4};
  for (unsigned op = 0; op < 5; ++op)
    EXPECT_EQ(p.step(0, 0, 1 + op).address / 128, expected[op]) << op;
  EXPECT_EQ(p.step(0, 0, 6).address / 128, 16u);  // the store, into the output grid
  const Counts c = run(k);
  EXPECT_EQ(c.loads, 80u);
  EXPECT_EQ(c.stores, 16u);
}

// 2 x 2 x 2 grid (8 points): 7 loads and 1 store each: 56 loads, 8 stores. Point 7 (the far corner) reads
// 7, 6, 7 (off-grid +1), 5, 7 (off-grid +2), 3, 7 (off-grid +4).
TEST(Patterns, Stencil3dReadsTheSevenPointNeighbourhood) {
  KernelSpec k = kernel("stencil3d", 1, 8, 1);
  k.width_lines = 2;
  k.height_lines = 2;
  WarpProgram p(k, 128);
  const std::uint64_t expected[7] = {7, 6, 7, 5, 7, 3, 7};
  for (unsigned op = 0; op < 7; ++op)
    EXPECT_EQ(p.step(0, 7, 1 + op).address / 128, expected[op]) << op;
  const Counts c = run(k);
  EXPECT_EQ(c.loads, 56u);
  EXPECT_EQ(c.stores, 8u);
}

// 2 x 2 tiles (grid_x 2), 1 warp, 2 accesses: CTA (i, j) reads A lines 2i, 2i+1 and B lines j, 2+j (B at
// line 8): A rows are shared by the CTAs of a grid row, B columns by a grid column: every A and B line is
// read by exactly 2 CTAs. C: one line per CTA (lines 16-19).
TEST(Patterns, GemmTilesShareRowsAndColumns) {
  KernelSpec k = kernel("gemm_tiled", 4, 1, 2);
  k.grid_x = 2;
  WarpProgram p(k, 128);
  std::map<std::uint64_t, int> reads;
  for (std::uint32_t cta = 0; cta < 4; ++cta) {
    for (std::uint32_t i = 0; i < p.steps(); ++i) {
      const WarpStep s = p.step(cta, 0, i);
      if (s.kind == WarpStep::Kind::kLoad) ++reads[s.address / 128];
    }
  }
  const std::map<std::uint64_t, int> expected = {{0, 2}, {1, 2}, {2, 2},  {3, 2},
                                                 {8, 2}, {9, 2}, {10, 2}, {11, 2}};
  EXPECT_EQ(reads, expected);
  const Counts c = run(k);
  EXPECT_EQ(c.stores, 8u);
  for (std::uint64_t l = 16; l < 20; ++l)
    EXPECT_TRUE(c.lines.count(l)) << l;
}

// SpMV and BFS draw columns / neighbours with a power law: line = floor(N u^3), u uniform, so a line in the
// lowest eighth is drawn when u < 1/2: half the draws. 1024 draws: well above a third land there.
TEST(Patterns, SpmvAndBfsFavourPopularLines) {
  const KernelSpec spmv = kernel("spmv_csr", 8, 8, 16);  // 1024 rows, arrays of 1024 lines
  const Counts c = run(spmv);
  EXPECT_EQ(c.loads, 3u * 1024u);
  EXPECT_EQ(c.stores, 1024u);
  WarpProgram p(spmv, 128);
  int low = 0;
  for (std::uint32_t cta = 0; cta < 8; ++cta) {
    for (std::uint32_t w = 0; w < 8; ++w) {
      for (std::uint32_t a = 0; a < 16; ++a) {
        const std::uint64_t x = p.step(cta, w, a * 5 + 3).address / 128 - 2 * 1024;  // op 2: x[c]
        low += x < 1024 / 8 ? 1 : 0;
      }
    }
  }
  EXPECT_GT(low, 1024 / 3);
  const Counts b = run(kernel("bfs_frontier", 8, 8, 16));
  EXPECT_EQ(b.loads, 2u * 1024u);
  EXPECT_EQ(b.atomics, 1024u);
}

}  // namespace
}  // namespace numagpu
