// cuda-samples/dct8x8_CUDAkernel1DCT and _CUDAkernel2DCT: global traffic on a cold cache, barriers and
// shared-memory passes, derived by hand from the kernels.
#include <gtest/gtest.h>

#include <algorithm>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

bool all_equal(const std::vector<unsigned>& v, unsigned n) {
  return std::all_of(v.begin(), v.end(), [n](unsigned x) { return x == n; });
}

// The hand counts of one launch on the 512 x 512 image: 8,192 lines of `src` read, 8,192 of `dst` written
// (1 MiB each), and per kernel the CTAs, the load line requests, the memory steps of every warp, 3 barriers
// per warp, the shared accesses (all without conflict) and the fp32 instructions.
struct Expected {
  std::uint32_t ctas;
  std::uint64_t load_requests;
  unsigned memory_steps;
  std::uint64_t shared_accesses, fp32;
};

void expect_whole_image(const std::string& kernel, const char* src, const char* dst, const Expected& e) {
  const testing::Traffic t = testing::walk(kernel, "");
  ASSERT_EQ(t.ctas, e.ctas);
  ASSERT_EQ(t.warps_per_cta, 2u);
  EXPECT_EQ(t.in(t.loaded, src), 8192u);
  EXPECT_EQ(t.loaded.size(), 8192u);
  EXPECT_EQ(t.in(t.stored, dst), 8192u);
  EXPECT_EQ(t.stored.size(), 8192u);
  EXPECT_EQ(t.load_line_visits, e.load_requests);
  EXPECT_TRUE(all_equal(t.memory_steps, e.memory_steps));
  EXPECT_TRUE(all_equal(t.barriers, 3));
  EXPECT_EQ(t.shared_accesses, e.shared_accesses);
  EXPECT_EQ(t.shared_wavefronts, e.shared_accesses);
  EXPECT_EQ(t.of(InstrClass::kFp32), e.fp32);
}

// CUDAkernel1DCT on the sample's 512 x 512 image: 64 x 64 = 4,096 CTAs of 8 x 8 threads (2 warps, each
// four rows of eight pixels). The source image (512 x 512 floats, 1 MiB) is read whole, 8,192 lines; Dst
// (pitch 2,048 B, no padding) written whole, 8,192 lines. Per warp: one load of 4 rows x 32 B, each inside
// one line (8 bx floats are 32 B-aligned): 4 line requests, 4,096 x 2 x 4 = 32,768 in all; one store; 3
// barriers. Shared per warp: the pixel's store, 8 reads of tile 1 ([i][tx]: 8 words, shared by the four
// rows), tile 2's store, its row [ty][0..7] as two 16-byte reads (LDS.128: 4 groups of 4 words each, the
// first at words 8 ty .. 8 ty + 3, the second + 4, in banks (8 ty mod 32) + 0..3 or 4..7 for the warp's 4
// rows: distinct), tile 1's store and its read for the
// output: 14 accesses, none conflicting; 4,096 x 2 x 14 = 114,688 (the GV100's SHRD_ACC for this kernel
// and launch, docs/correlation.md). fp32 per warp: the texture
// coordinates' two + 0.5 (their two conversions run on the XU) and 2 x 8 FMAs: 18; 147,456 in all.
TEST(CudaSamplesDct8x8, Kernel1ReadsTheImageOnceAndWritesTheCoefficients) {
  expect_whole_image("cuda-samples/dct8x8_CUDAkernel1DCT", "Src", "Dst", {4096, 32768, 2, 114688, 147456});
}

// The same launch with the sample's cudaArray: its block-linear layout (a warp's 8 x 4 texels, 32 B x 4 rows
// from a 32 B boundary, are one 128 B line: 4 sectors) and its linear filter (the taps (x, y), (x + 1, y),
// (x, y + 1), (x + 1, y + 1), wrapped). Per warp, with 8 bx .. 8 bx + 7 and rows 8 by + 4 w .. + 3:
// - the tile: 1 line, 4 sectors;
// - column 8 bx + 8, the same 4 rows: the next 32 B column (the GOB's other half or the next GOB), 1 line,
//   its first 16 B of 2 row pairs: 2 sectors;
// - row 8 by + 4 w + 4, columns 8 bx .. 8 bx + 7: the next 4-row line, 1 row pair x 32 B: 2 sectors;
// - texel (8 bx + 8, 8 by + 4 w + 4): a fourth line, 1 sector.
// 4 lines and 9 sectors a warp: 4,096 x 2 x 4 = 32,768 line requests and 73,728 sectors; the surface (1 MiB:
// 4 rows of 32 blocks of 8 KiB) is read whole, 8,192 lines. Without the filter (block_linear=1 alone) a warp
// reads its tile only: 8,192 requests of 4 sectors, 32,768; row-major without the filter (the default), 4
// lines of 1 sector (32 B of one row each), 32,768 requests and 32,768 sectors.
TEST(CudaSamplesDct8x8, Kernel1CudaArrayIsBlockLinearAndFilteredOverTwoByTwoTexels) {
  struct Case {
    const char* args;
    std::uint64_t requests, sectors;
  };
  for (const Case& c : {Case{"", 32768, 32768}, Case{"block_linear=1", 8192, 32768},
                        Case{"block_linear=1 linear_filter=1", 32768, 73728}}) {
    const testing::Traffic t = testing::walk("cuda-samples/dct8x8_CUDAkernel1DCT", c.args);
    EXPECT_EQ(t.in(t.loaded, "Src"), 8192u) << c.args;
    EXPECT_EQ(t.arrays.at("Src").second - t.arrays.at("Src").first, 1u << 20) << c.args;
    EXPECT_EQ(t.load_line_visits, c.requests) << c.args;
    EXPECT_EQ(t.load_sector_visits, c.sectors) << c.args;
    EXPECT_EQ(t.in(t.stored, "Dst"), 8192u) << c.args;
  }
}

// A 40 x 16 image: the source (row-major, 40 floats = 160 B a row) is 2,560 B, 20 lines; Dst's rows are
// pitched to 512 B, so each of its 16 rows covers 160 B from a line boundary: 2 lines, 32 in all.
TEST(CudaSamplesDct8x8, Kernel1PitchedDestination) {
  const testing::Traffic t = testing::walk("cuda-samples/dct8x8_CUDAkernel1DCT", "width=40 height=16");
  ASSERT_EQ(t.ctas, 5u * 2u);
  EXPECT_EQ(t.in(t.loaded, "Src"), 20u);
  EXPECT_EQ(t.in(t.stored, "Dst"), 32u);
  EXPECT_EQ(t.arrays.at("Dst").second - t.arrays.at("Dst").first, 16u * 512u);
}

// CUDAkernel2DCT on the 512 x 512 image: 16 x 32 = 512 CTAs of 8 x 4 x 2 threads (2 warps, one per
// threadIdx.z). src and dst (pitch 2,048 B) are read and written whole: 8,192 lines each. Per warp: 8 loads
// and 8 stores of rows of 32 consecutive floats from a 128 B boundary (32 blockIdx.x floats): one line each;
// 512 x 2 x 8 = 8,192 load requests, i.e. every line exactly once. 3 barriers.
// Shared per warp: 8 stores of the columns (32 consecutive words: one pass), the row pass (8 reads, 8
// writes; thread (tx, ty) at word (8 tz + tx) 33 + 8 ty + k, bank (tx + 8 ty + k + const) mod 32: 32
// distinct banks, one pass), the column pass (8 + 8, 32 consecutive words each), 8 reads for the output:
// 48 accesses without conflict (the point of the 33-word stride); 512 x 2 x 48 = 49,152. fp32: two
// 42-operation butterflies per warp, 512 x 2 x 84 = 86,016.
TEST(CudaSamplesDct8x8, Kernel2ReadsAndWritesEachLineOnceWithoutBankConflicts) {
  expect_whole_image("cuda-samples/dct8x8_CUDAkernel2DCT", "src", "dst", {512, 8192, 16, 49152, 86016});
}

}  // namespace
}  // namespace numagpu::kernels
