// cutlass/wmma_gemm_nn: cold-cache traffic, barriers, tensor and shared instructions, by hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// m 256, n 16, k 128: grid 2 x 1 CTAs of 8 warps, 2 K-tiles of 64. A (256 x 128 halves, column-major) is
// 64 KiB = 512 lines, all read; B (128 x 16 halves, ldb 128) 16 columns of 256 B = 32 lines, read by both
// CTAs; D (256 x 16 floats) 16 KiB = 128 lines written. Loads: the prologue and the first iteration each
// load a tile (the last iteration loads none): per tile and warp 4 LDG.128 of A,
// each 2 columns x 256 B = 4 lines, and of B only i = 0 by threads 0..127 (column t/8 < 16): warps 0-3 one
// LDG each of 4 columns x 128 B = 4 lines. 2 CTAs x 2 tiles x (8 x 4 + 4) = 144 steps, 576 line visits.
// Stores: pass 0 only (columns 64 pass + w + 8 i < 16: i = 0, 1): 2 STG of 128 floats = 4 lines per warp:
// 32 steps, 128 line visits. Barriers per warp: 1 + 2 per K-tile + 2 per epilogue pass = 1 + 4 + 4 = 9.
// Tensor: 2 x 4 mma_sync x 4 k-steps x 2 tiles x 16 warps x 16 HMMA = 16,384 = (256 x 128 x 128 / 16^3)
// x 16. Shared accesses with addresses: 8 STS.128 in the prologue and in every iteration but the last:
// 8 x 2 x 16 warps = 256, each 4 passes (A: 2 rows of 256 B, pitch 272 B: 4 words per bank; B: 4 rows of
// 128 B, pitch 144 B: 4 words per bank): 1,024.
TEST(WmmaGemmNN, SmallGemmTraffic) {
  const testing::Traffic t = walk("cutlass/wmma_gemm_nn", "m=256 n=16 k=128");
  EXPECT_EQ(t.ctas, 2u);
  EXPECT_EQ(t.warps_per_cta, 8u);
  EXPECT_EQ(t.in(t.loaded, "A"), 512u);
  EXPECT_EQ(t.in(t.loaded, "B"), 32u);
  EXPECT_EQ(t.loaded.size(), 544u);
  EXPECT_EQ(t.stored.size(), 128u);
  EXPECT_EQ(t.in(t.stored, "D"), 128u);
  EXPECT_EQ(t.load_steps, 144u);
  EXPECT_EQ(t.load_line_visits, 576u);
  EXPECT_EQ(t.store_steps, 32u);
  EXPECT_EQ(t.store_line_visits, 128u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{9}));
  EXPECT_EQ(t.of(InstrClass::kTensor), 16384u);
  EXPECT_EQ(t.shared_accesses, 256u);
  EXPECT_EQ(t.shared_wavefronts, 1024u);
}

// A partial N tile: m 128, n 136, k 64: grid 1 x 2, one K-tile (only the prologue loads). A 128 x 64 halves
// = 16 KiB = 128 lines (read by both CTAs); B 136 columns of 128 B = 136 lines; D 136 columns of 512 B =
// 544 lines. Loads: A 2 CTAs x 8 warps x 4 = 64 steps; B CTA 0 8 warps x 4 = 32, CTA 1 columns 128 + t/8
// < 136 (i = 0, warps 0-1): 2; 98 steps of 4 lines = 392 visits. Stores: CTA 0 2 passes x 8 x 8 warps =
// 128, CTA 1 (pass 0, i = 0, every warp) 8: 136 steps of 4 lines. Barriers 1 + 2 + 4 = 7.
TEST(WmmaGemmNN, PartialTilesArePredicated) {
  const testing::Traffic t = walk("cutlass/wmma_gemm_nn", "m=128 n=136 k=64");
  EXPECT_EQ(t.ctas, 2u);
  EXPECT_EQ(t.in(t.loaded, "A"), 128u);
  EXPECT_EQ(t.in(t.loaded, "B"), 136u);
  EXPECT_EQ(t.in(t.stored, "D"), 544u);
  EXPECT_EQ(t.load_steps, 98u);
  EXPECT_EQ(t.load_line_visits, 392u);
  EXPECT_EQ(t.store_steps, 136u);
  EXPECT_EQ(t.store_line_visits, 544u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{7}));
}

// The default reference size (2560/16/2560): 20 CTAs, 40 K-tiles. A 2560 x 2560 halves = 12.5 MiB =
// 102,400 lines; B 16 columns x 5 KiB = 640 lines; D 16 columns x 10 KiB = 1,280 lines. Barriers 1 + 80 +
// 4 = 85. Tensor 20 x 8 warps x 40 tiles x 32 mma x 16 = 3,276,800 (2560 x 128 x 2560 / 16^3 x 16).
TEST(WmmaGemmNN, ReferenceSize) {
  const testing::Traffic t = walk("cutlass/wmma_gemm_nn", "");
  EXPECT_EQ(t.ctas, 20u);
  EXPECT_EQ(t.in(t.loaded, "A"), 102400u);
  EXPECT_EQ(t.in(t.loaded, "B"), 640u);
  EXPECT_EQ(t.stored.size(), 1280u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{85}));
  EXPECT_EQ(t.of(InstrClass::kTensor), 3276800u);
}

}  // namespace
}  // namespace numagpu::kernels
