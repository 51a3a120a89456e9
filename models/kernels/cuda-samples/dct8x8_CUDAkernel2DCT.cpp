// cuda-samples/dct8x8_CUDAkernel2DCT: CUDAkernel2DCT of the CUDA samples' dct8x8 (Samples/dct8x8/
// dct8x8_kernel2.cuh, launched from dct8x8.cu's WrapperCUDA2; CUDA samples 11.1; learned from them, written
// here anew). The forward 8 x 8 DCT by the separable butterfly, 8 threads per block of 8 x 8 pixels: a CTA of
// 8 x 4 x 2 threads covers a 32 x 16 pixel region (4 x 2 blocks). Thread (tx, ty, tz) copies column
// 8 ty + tx of rows 8 tz .. 8 tz + 7 of the region into a shared 16 x 33 tile (stride 33 against bank
// conflicts); barrier; transforms the 8-element row 8 tz + tx of its block in place (8 shared reads, the
// butterfly, 8 shared writes); barrier; transforms its column (stride 33) in place; barrier; and writes its
// column of 8 coefficients back to dst. Per thread: src / dst at (16 blockIdx.y + 8 tz + i) * stride +
// 32 blockIdx.x + 8 ty + tx, i = 0 .. 7, so each warp (one tz) reads and writes rows of 32 consecutive
// floats. Grid (width / 32, height / 16).
//
// Reference run of the GV100 study: the sample's default, its image barbara.bmp of 512 x 512 pixels: 16 x 32
// CTAs. The sample launches the kernel 101 times (one warm-up, 100 timed); this is one launch.
// Input generation: the pixel values steer no address and no branch, so the arrays carry no data; only the
// image's size matters.
//
// Simplifications: src and dst are pitched as cudaMallocPitch makes them (rows rounded up to 512 bytes,
// which leaves a 512-float row unpadded). The butterfly is computed with values as the source writes it (42
// fp32 operations per 8-element vector: the sums and differences, then each output's products combined by
// FMAs and normalized by a separate multiply), so each output waits for the chain it comes from and each
// of the 8 stores for its output (the image carries no data: the values are zeros; only the dataflow
// matters).
#include <vector>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBlock = 8;                // BLOCK_SIZE
constexpr std::int64_t kWidth = 32;               // KER2_BLOCK_WIDTH
constexpr std::int64_t kHeight = 16;              // KER2_BLOCK_HEIGHT
constexpr std::int64_t kTileStride = kWidth + 1;  // KER2_SMEMBLOCK_STRIDE
// fp32 operations of one in-place 8-point DCT: 8 sums and differences of mirrored inputs, 4 of those
// sums' sums and differences, outputs 0 and 4 (an add and the normalizing multiply each), 2 and 6 (two
// products combined, normalized: 3 each), and the odd outputs (four products combined and normalized: 5
// each).
constexpr unsigned kDctVectorFlops = 8 + 4 + 2 * 2 + 2 * 3 + 4 * 5;
static_assert(kDctVectorFlops == 42, "dct_vector computes these");

class Dct2 : public Kernel {
 public:
  explicit Dct2(const Args& a)
      : Kernel(a),
        width_(a["width"]),
        height_(a["height"]),
        stride_((width_ * 4 + 511) / 512 * 512 / 4),
        src_(array<float>("src", std::uint64_t(stride_ * height_), height_, stride_)),
        dst_(array<float>("dst", std::uint64_t(stride_ * height_), height_, stride_)) {
    if (width_ % kWidth) throw KernelError("argument 'width': must be a multiple of 32 (KER2_BLOCK_WIDTH)");
    if (height_ % kHeight)
      throw KernelError("argument 'height': must be a multiple of 16 (KER2_BLOCK_HEIGHT)");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(width_ / kWidth), static_cast<std::uint32_t>(height_ / kHeight), 1};
    l.block = {kBlock, kWidth / kBlock, kHeight / kBlock};
    l.regs_per_thread = 32;
    l.shared_bytes = kHeight * kTileStride * 4;
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const V<std::int64_t> tx = c.threadIdx_x(), ty = c.threadIdx_y(), tz = c.threadIdx_z();
    const V<std::int64_t> in_row = ty * kBlock + tx;  // OffsThreadInRow
    const V<std::int64_t> in_col = tz * kBlock;       // OffsThreadInCol
    const V<std::int64_t> offset = (in_col + std::int64_t(c.blockIdx.y) * kHeight) * stride_ + in_row +
                                   std::int64_t(c.blockIdx.x) * kWidth;
    Cta::Shared<float> tile(c, kHeight * kTileStride);
    const V<std::int64_t> column = in_col * kTileStride + in_row;  // bl_ptr

    for (std::int64_t i = 0; i < kBlock; ++i)  // unrolled
      tile.store(column, c.load(src_, offset + i * stride_), i * kTileStride);
    c.syncthreads();

    // Rows: the vector at (OffsThreadInCol + tx) * 33 + OffsThreadInRow - tx, step 1.
    dct_vector(c, tile, (in_col + tx) * kTileStride + in_row - tx, 1);
    c.syncthreads();
    // Columns: bl_ptr, step 33.
    dct_vector(c, tile, column, kTileStride);
    c.syncthreads();

    for (std::int64_t i = 0; i < kBlock; ++i)
      c.store(dst_, offset + i * stride_, tile.load(column, i * kTileStride));
  }

  // CUDAsubroutineInplaceDCTvector: 8 reads, the butterfly (kDctVectorFlops fp32 operations), 8 writes, in
  // the source's order: each output is computed and written in turn (0, 2, 4, 6, 1, 3, 5, 7).
  static void dct_vector(Cta& c, Cta::Shared<float>& tile, const V<std::int64_t>& first, std::int64_t step) {
    std::vector<V<float>> x;
    x.reserve(kBlock);
    for (std::int64_t k = 0; k < kBlock; ++k)
      x.push_back(tile.load(first, k * step));
    const V<float> x07p = x[0] + x[7], x16p = x[1] + x[6], x25p = x[2] + x[5], x34p = x[3] + x[4];
    const V<float> x07m = x[0] - x[7], x61m = x[6] - x[1], x25m = x[2] - x[5], x43m = x[4] - x[3];
    const V<float> x07p34pp = x07p + x34p, x07p34pm = x07p - x34p;
    const V<float> x16p25pp = x16p + x25p, x16p25pm = x16p - x25p;
    const auto k = [&c](float v) { return V<float>(c, v); };
    const auto put = [&](std::int64_t i, const V<float>& v) { tile.store(first, v * kNorm, i * step); };
    put(0, x07p34pp + x16p25pp);                   // C_norm * (X07P34PP + X16P25PP)
    put(2, fma(k(kE), x16p25pm, x07p34pm * kB));   // C_norm * (C_b X07P34PM + C_e X16P25PM)
    put(4, x07p34pp - x16p25pp);                   // C_norm * (X07P34PP - X16P25PP)
    put(6, fma(k(-kB), x16p25pm, x07p34pm * kE));  // C_norm * (C_e X07P34PM - C_b X16P25PM)
    put(1, fma(k(-kF), x43m, fma(k(kD), x25m, fma(k(-kC), x61m, x07m * kA))));
    put(3, fma(k(kD), x43m, fma(k(-kA), x25m, fma(k(kF), x61m, x07m * kC))));
    put(5, fma(k(-kC), x43m, fma(k(kF), x25m, fma(k(kA), x61m, x07m * kD))));
    put(7, fma(k(kA), x43m, fma(k(kC), x25m, fma(k(kD), x61m, x07m * kF))));
  }

  // The source's C_a .. C_f (sqrt(2) cos(k pi / 16) for k = 1, 2, 3, 5, 6, 7) and C_norm (1 / sqrt(8)).
  static constexpr float kA = 1.387039845322148f, kB = 1.306562964876377f, kC = 1.175875602419359f,
                         kD = 0.785694958387102f, kE = 0.541196100146197f, kF = 0.275899379282943f,
                         kNorm = 0.3535533905932737f;

  std::int64_t width_, height_, stride_;
  Array<float> src_, dst_;
};

}  // namespace

LibraryEntry cuda_samples_dct8x8_CUDAkernel2DCT() {
  return {"cuda-samples/dct8x8_CUDAkernel2DCT",
          "CUDA samples 11.1 dct8x8, kernel CUDAkernel2DCT; GV100 study input: the sample's 512 x 512 image",
          {{"width", 512, 32, 1 << 15, "image width in pixels (a multiple of 32)"},
           {"height", 512, 16, 1 << 15, "image height in pixels (a multiple of 16)"}},
          [](const Args& a) { return std::make_unique<Dct2>(a); }};
}

}  // namespace numagpu::kernels
