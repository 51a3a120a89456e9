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
// The source texture (arguments `block_linear` and `linear_filter`): the sample reads a cudaArray
// (cudaMallocArray) through a texture object with cudaFilterModeLinear and cudaAddressModeWrap (dct8x8.cu,
// WrapperCUDA1). The array's layout is block-linear (kernels/block_linear.hpp: 64 B x 8-row GOBs, 32 B
// sectors of 16 B x 2 rows), so a warp's 8 x 4 texels are 4 sectors of one line, not 4 lines; and a linear
// filter reads the 2 x 2 texels around the coordinate (CUDA C Programming Guide, "Linear Filtering": at
// (x + 0.5, y + 0.5) they are (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1), wrapped at the edges, with
// weights 1, 0, 0, 0). block_linear=1 lays the array out so (block height 16 GOBs: no public figure for
// the CUDA driver's choice; it moves which slices a line maps to, not which sectors a warp reads), and
// linear_filter=1 fetches the 4 taps (one TEX, Cta::texture_load_taps). The defaults, 0 and 0, keep a
// row-major array and one texel a thread (configurations that do not opt in are unchanged); the GV100
// correlation runs both at 1 (configs/correlate/gv100_kernels.yaml). Whether the texture unit skips the
// taps of weight 0 is not published; the GV100's L2 counters show that it reads beyond the point texels
// (docs/kernels.md, "kmeans and dct8x8 against their SASS").
//
// Simplifications: the source image is a cudaArray read through tex2D, the texture path of the real GPU:
// it is modelled as texture fetches (the texture pipeline's latency, sm.texture_latency, then the L1). Dst is
// pitched as cudaMallocPitch makes it (rows rounded up to 512 bytes, which leaves a 512-float row unpadded).
// Each constant-memory read of the DCT matrix is a Cta::constant_load (one integer instruction, no global
// traffic; with dependent latencies its issue takes a pass per distinct address of the warp: 4 for
// DCTv8matrix[i * 8 + ty], whose warp spans 4 rows, 8 for [i * 8 + tx]). The two 8-step accumulations
// (`curelem += DCTv8matrix[..] * CurBlockLocal[..]`) are computed with values, a chain of 8 FMAs each whose
// operands are the constant and shared reads, and their results are what the threads store to tile 2 and back
// to tile 1 (the image carries no data: the values are zeros; only the dataflow matters). Tile 2's row in the
// second product, CurBlockLocal2[(ty << 3) + i] for i = 0..7, is eight consecutive floats at a 32-byte
// boundary with constant offsets, which nvcc reads as two LDS.128, as it does sgemm's b_s rows: the GV100's
// shared-memory instruction count for this kernel (SHRD_ACC, 114,688 = 4,096 CTAs x 2 warps x 14) is 1 store
// + 8 loads + 1 store + 2 wide loads + 1 store + 1 load per warp, 6 fewer than scalar reads (20). The
// unrolled loops' constant offsets (i * 8 into tile 1, + 4 into tile 2's row) are immediates of the shared
// loads' addresses, no instruction of their own. The texel coordinates' conversions and + 0.5 stay charged (2
// sfu, the conversions on the XU, and 2 fp32: the texture fetch is modelled as a load of an integer index,
// which does not wait for them).
#include <array>
#include <cmath>
#include <vector>

#include "kernels/block_linear.hpp"
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
        block_linear_(a["block_linear"] != 0),
        linear_filter_(a["linear_filter"] != 0),
        layout_{std::uint64_t(width_) * 4},
        src_(array<float>(
            "Src",
            block_linear_ ? layout_.bytes(std::uint64_t(height_)) / 4 : std::uint64_t(width_ * height_),
            height_, width_)),
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
    tile1.store(cell, fetch(c, x, y));
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

  // tex2D(TexSrc, x + 0.5, y + 0.5): the texel (x, y), or with the linear filter its 2 x 2 taps. The texture
  // unit finds the taps and their places from the coordinates: no instruction of the SM's (the row-major
  // default keeps its index's integer instructions, as before).
  V<float> fetch(Cta& c, const V<std::int64_t>& x, const V<std::int64_t>& y) {
    if (!block_linear_ && !linear_filter_) return c.texture_load(src_, y * width_ + x);
    // The element of texel (x + dx, y + dy), wrapped at the edges (cudaAddressModeWrap).
    const auto tap = [&](std::int64_t dx, std::int64_t dy) {
      V<std::int64_t> e = x;  // x's lanes and readiness
      for (unsigned t = 0; t < e.size(); ++t) {
        const auto tx = std::uint64_t((x[t] + dx) % width_), ty = std::uint64_t((y[t] + dy) % height_);
        e[t] = block_linear_ ? std::int64_t(layout_.offset(tx * 4, ty) / 4) : std::int64_t(ty * width_ + tx);
      }
      return e;
    };
    if (!linear_filter_) return c.texture_load(src_, tap(0, 0));
    return c.texture_load_taps(src_, {tap(0, 0), tap(1, 0), tap(0, 1), tap(1, 1)});
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
  bool block_linear_, linear_filter_;
  BlockLinear layout_;
  Array<float> src_, dst_;
  std::vector<float> dct_ = dct_matrix();
};

}  // namespace

LibraryEntry cuda_samples_dct8x8_CUDAkernel1DCT() {
  return {"cuda-samples/dct8x8_CUDAkernel1DCT",
          "CUDA samples 11.1 dct8x8, kernel CUDAkernel1DCT; GV100 study input: the sample's 512 x 512 image",
          {{"width", 512, 8, 1 << 15, "image width in pixels (a multiple of 8)"},
           {"height", 512, 8, 1 << 15, "image height in pixels (a multiple of 8)"},
           {"block_linear", 0, 0, 1, "1: the source cudaArray's block-linear layout; 0: row-major"},
           {"linear_filter", 0, 0, 1,
            "1: the sample's linear filter, 4 texels a fetch; 0: the one texel at the coordinate"}},
          [](const Args& a) { return std::make_unique<Dct1>(a); }};
}

}  // namespace numagpu::kernels
