// cuda-samples/cudaTensorCoreGemm: cold-cache traffic, barriers and tensor instructions, by hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// 256 x 256 x 128 (16 x 16 x 8 tiles) on 2 SMs: 4 block tiles of 128 x 128, 2 per CTA (8 warps each).
// A: 256 rows x 128 halves = 64 KiB = 512 lines; B the same; C 256 x 256 floats = 256 KiB = 2,048 lines:
// 3,072 lines loaded, D's 2,048 stored. Per tile a warp streams 16 rows of C (512 B, 4 lines each) and, for
// each of the 2 chunks of 4 K-tiles, makes 8 copies of 4 rows x 128 B (row = 256 B, chunk offsets 0 and
// 128 B: 4 lines): 16 + 16 = 32 load steps of 4 lines; 2 CTAs x 8 warps x 2 tiles x 32 = 1,024 load steps,
// 4,096 line visits. Barriers per tile: 2 around the C fragments, 2 per chunk, 2 around D: 8; 16 per warp.
// Tensor: 2 x 4 mma_sync x 16 HMMA per k-step, 4 k-steps a chunk: 512 per chunk per warp: 2 chunks x 2
// tiles x 16 warps x 512 = 32,768 = (256 x 256 x 128 / 16^3) x 16. Shared accesses modelled with
// addresses: per tile per warp 16 C stores + 16 chunk copies + 16 D loads: 48 x 2 x 16 = 1,536, each of
// 512 B: 4 passes at best, and 4 here (the 160 B row pitch puts a copy's 4 rows on banks 8 r + 4 l + j:
// 4 words per bank): 6,144.
TEST(TensorCoreGemm, SmallGemmTraffic) {
  const testing::Traffic t = walk("cuda-samples/cudaTensorCoreGemm", "m_tiles=16 n_tiles=16 k_tiles=8 sms=2");
  EXPECT_EQ(t.ctas, 2u);
  EXPECT_EQ(t.warps_per_cta, 8u);
  EXPECT_EQ(t.in(t.loaded, "A"), 512u);
  EXPECT_EQ(t.in(t.loaded, "B"), 512u);
  EXPECT_EQ(t.in(t.loaded, "C"), 2048u);
  EXPECT_EQ(t.loaded.size(), 3072u);
  EXPECT_EQ(t.stored.size(), 2048u);
  EXPECT_EQ(t.in(t.stored, "D"), 2048u);
  EXPECT_EQ(t.load_steps, 1024u);
  EXPECT_EQ(t.load_line_visits, 4096u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{16}));
  EXPECT_EQ(t.of(InstrClass::kTensor), 32768u);
  EXPECT_EQ(t.shared_accesses, 1536u);
  EXPECT_EQ(t.shared_wavefronts, 6144u);
}

// The reference (4,096^3 on 80 SMs), too slow for every run (--gtest_also_run_disabled_tests): A and B
// 32 MiB each (262,144 lines), C 64 MiB (524,288): 1,048,576 lines loaded, D's 524,288 stored; 1,024 tiles,
// 13 for CTAs 0..63 and 12 for 64..79, 4 + 64 x 2 = 132 barriers each: 1,716 or 1,584 per warp; 256^3 mma
// x 16 = 268,435,456 HMMA.
TEST(TensorCoreGemm, DISABLED_ReferenceSize) {
  const testing::Traffic t = walk("cuda-samples/cudaTensorCoreGemm", "");
  EXPECT_EQ(t.ctas, 80u);
  EXPECT_EQ(t.loaded.size(), 1048576u);
  EXPECT_EQ(t.stored.size(), 524288u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{1584, 1716}));
  EXPECT_EQ(t.of(InstrClass::kTensor), 268435456u);
}

}  // namespace
}  // namespace numagpu::kernels
