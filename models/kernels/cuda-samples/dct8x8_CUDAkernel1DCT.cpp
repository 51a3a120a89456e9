// cuda-samples/dct8x8_CUDAkernel1DCT: CUDAkernel1DCT of the CUDA samples' dct8x8 (Samples/dct8x8/
// dct8x8_kernel1.cuh, launched from dct8x8.cu's WrapperCUDA1; CUDA samples 11.1; learned from them, written
// here anew). The forward 8 x 8 DCT of an image as two matrix products, one CTA of 8 x 8 threads per block
// of 8 x 8 pixels: each thread reads its pixel (a 2-D texture fetch at the texel's centre) into shared tile
// 1; barrier; thread (tx, ty) forms row ty of D^T A (8 products of a DCT-matrix element from constant
// memory, DCTv8matrix[i * 8 + ty], and tile 1's element [i][tx]) into tile 2; barrier; then the product with
// D (tile 2's row ty, [ty][i], times DCTv8matrix[i * 8 + tx]) back into tile 1; barrier; and it writes its
// coefficient to Dst[(8 by + ty) * stride + 8 bx + tx]. Grid (width / 8, height / 8), block (8, 8): two
// warps, each four rows of eight pixels.
//
// Reference run of the GV100 study: the sample's default, its image barbara.bmp of 512 x 512 pixels: 64 x 64
// CTAs. The sample launches the kernel BENCHMARK_SIZE times; this is one launch.
// Input generation: the pixel values steer no address and no branch, so the arrays carry no data; only the
// image's size matters.
//
// Simplifications: the source image is a cudaArray read through tex2D, the texture path of the real GPU
// (with the cudaArray's own, block-linear layout): it is modelled as texture fetches (Cta::texture_load: the
// texture pipeline's latency, sm.texture_latency, then the L1) from a row-major width x height float array. Dst is pitched as cudaMallocPitch makes it (rows rounded up to 512 bytes,
// which leaves a 512-float row unpadded). Each constant-memory read of the DCT matrix is a Cta::constant_load
// (one integer instruction, no global traffic; with dependent latencies its issue takes a pass per distinct
// address of the warp: 4 for DCTv8matrix[i * 8 + ty], whose warp spans 4 rows, 8 for [i * 8 + tx]). The two
// 8-step accumulations (`curelem += DCTv8matrix[..] * CurBlockLocal[..]`) are computed with values, a chain
// of 8 FMAs each whose operands are the constant and shared reads, and their results are what the threads
// store to tile 2 and back to tile 1 (the image carries no data: the values are zeros; only the dataflow
// matters). Tile 2's row in the second product, CurBlockLocal2[(ty << 3) + i] for i = 0..7, is eight
// consecutive floats at a 32-byte boundary with constant offsets, which nvcc reads as two LDS.128, as it
// does sgemm's b_s rows: the GV100's shared-memory instruction count for this kernel (SHRD_ACC, 114,688 =
// 4,096 CTAs x 2 warps x 14) is 1 store + 8 loads + 1 store + 2 wide loads + 1 store + 1 load per warp, 6
// fewer than scalar reads (20). The unrolled loops' constant offsets (i * 8 into tile 1, + 4 into tile 2's
// row) are immediates of the shared loads' addresses, no instruction of their own. The texel coordinates'
// conversions and + 0.5 stay charged (2 sfu, the conversions on the XU, and 2 fp32: the texture fetch is
// modelled as a load of an integer index, which does not wait for them).
#include <array>
#include <cmath>
#include <vector>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBlock = 8;  // BLOCK_SIZE
constexpr std::int64_t kLog2 = 3;   // BLOCK_SIZE_LOG2

class Dct1 : public Kernel {
 public:
  explicit Dct1(const Args& a)
      : Kernel(a),
        width_(a["width"]),
        height_(a["height"]),
        stride_((width_ * 4 + 511) / 512 * 512 / 4),
        src_(array<float>("Src", std::uint64_t(width_ * height_), height_, width_)),
        dst_(array<float>("Dst", std::uint64_t(stride_ * height_), height_, stride_)) {
    if (width_ % kBlock || height_ % kBlock) throw KernelError("the image's sides must be multiples of 8");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(width_ / kBlock), static_cast<std::uint32_t>(height_ / kBlock), 1};
    l.block = {kBlock, kBlock, 1};
    l.regs_per_thread = 20;
    l.shared_bytes = 2 * kBlock * kBlock * 4;  // CurBlockLocal1 and CurBlockLocal2
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const std::int64_t bx = c.blockIdx.x, by = c.blockIdx.y;  // OffsetXBlocks = OffsetYBlocks = 0
    const V<std::int64_t> tx = c.threadIdx_x(), ty = c.threadIdx_y();
    // The texel (8 bx + tx, 8 by + ty); its float coordinates + 0.5 are two conversions and two adds.
    const V<std::int64_t> x = tx + (bx << kLog2), y = ty + (by << kLog2);
    c.charge(InstrClass::kSfu, 2);   // the two I2F (XU)
    c.charge(InstrClass::kFp32, 2);  // the two + 0.5
    Cta::Shared<float> tile1(c, kBlock * kBlock), tile2(c, kBlock * kBlock);
    const V<std::int64_t> cell = ty * kBlock + tx;  // (ty << 3) + tx
    // The texel, fetched with tex2D.
    tile1.store(cell, c.texture_load(src_, y * width_ + x));
    c.syncthreads();

    // Row ty of D^T A: unrolled, each step a constant read, a shared read and an FMA into the one
    // accumulator curelem (a dependent chain of 8 FMAs).
    V<float> acc(c, 0.0f);
    for (std::int64_t i = 0; i < kBlock; ++i) {
      const V<float> d = c.constant_load(dct_, ty, i * kBlock);  // DCTv8matrix[i * 8 + ty]
      acc = fma(d, tile1.load(tx, i * kBlock), acc);  // [i][tx]: the offset an immediate of the LDS
    }
    tile2.store(cell, acc);
    c.syncthreads();

    // (D^T A) D: tile 2's row ty times column tx of D, again one accumulator. The row is 8 consecutive
    // floats at a 32-byte boundary, read as two LDS.128 (see the top of the file).
    const V<std::int64_t> row = ty * kBlock;
    const std::array<V<float>, 4> low = tile2.load_wide<4>(row), high = tile2.load_wide<4>(row, 4);
    acc = 0.0f;
    for (std::int64_t i = 0; i < kBlock; ++i) {
      const V<float>& a = i < 4 ? low[std::size_t(i)] : high[std::size_t(i - 4)];
      acc = fma(a, c.constant_load(dct_, tx, i * kBlock), acc);  // DCTv8matrix[i * 8 + tx]
    }
    tile1.store(cell, acc);
    c.syncthreads();

    c.store(dst_, y * stride_ + x, tile1.load(cell));
  }

  // DCTv8matrix, the 8 x 8 orthonormal DCT-II matrix in constant memory: [k * 8 + n] =
  // c_n cos((2 k + 1) n pi / 16), c_0 = sqrt(1/8), c_n = sqrt(2/8) (its values reach no address).
  static std::vector<float> dct_matrix() {
    std::vector<float> m(kBlock * kBlock);
    const double pi = std::acos(-1.0);
    for (std::int64_t k = 0; k < kBlock; ++k)
      for (std::int64_t n = 0; n < kBlock; ++n)
        m[k * kBlock + n] = static_cast<float>((n == 0 ? std::sqrt(1.0 / 8) : std::sqrt(2.0 / 8)) *
                                               std::cos(double(2 * k + 1) * n * pi / 16));
    return m;
  }

  std::int64_t width_, height_, stride_;
  Array<float> src_, dst_;
  std::vector<float> dct_ = dct_matrix();
};

}  // namespace

LibraryEntry cuda_samples_dct8x8_CUDAkernel1DCT() {
  return {"cuda-samples/dct8x8_CUDAkernel1DCT",
          "CUDA samples 11.1 dct8x8, kernel CUDAkernel1DCT; GV100 study input: the sample's 512 x 512 image",
          {{"width", 512, 8, 1 << 15, "image width in pixels (a multiple of 8)"},
           {"height", 512, 8, 1 << 15, "image height in pixels (a multiple of 8)"}},
          [](const Args& a) { return std::make_unique<Dct1>(a); }};
}

}  // namespace numagpu::kernels
