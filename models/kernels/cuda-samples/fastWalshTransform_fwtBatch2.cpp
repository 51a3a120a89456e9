// cuda-samples/fastWalshTransform_fwtBatch2: fwtBatch2Kernel of the CUDA samples 11.1 fastWalshTransform
// (learned from Samples/fastWalshTransform/fastWalshTransform_kernel.cuh, written here anew): one radix-4
// pass of the Walsh-Hadamard transform in global memory, for strides beyond the 2,048-element tile of
// fwtBatch1. Thread pos (blockIdx.x * 256 + threadIdx.x) takes lo = pos & (stride - 1) and the four
// elements i0 = 4 (pos - lo) + lo, i0 + stride, i0 + 2 stride, i0 + 3 stride, combines them with 8 adds
// and subtracts and writes them back in place (the sample passes the same array as input and output).
//
// Reference input (the sample's default): 2^23 floats (log2Data 23). fwtBatchGPU launches this kernel on a
// grid of 2^23 / 1,024 = 8,192 CTAs of 256 threads with stride 2^21, 2^19, 2^17, 2^15, 2^13, 2^11 (six
// passes, N shrinking by 4 while M grows by 4: the grid's y stays 1 as the host computes it once), then
// fwtBatch1; the sample transforms the data, the kernel array and the product: three times. This file is
// ONE pass: `stride` selects it (default 2^21, the first). The data (rand() / RAND_MAX after srand(2007))
// steer nothing, so the array carries no data. The radix-4 butterfly is computed with values; nothing is
// charged.
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;  // THREAD_N

class FwtBatch2 : public Kernel {
 public:
  explicit FwtBatch2(const Args& a)
      : Kernel(a),
        log2n_(a["log2n"]),
        stride_(a["stride"]),
        data_(array<float>("data", std::uint64_t(1) << log2n_)) {
    if ((stride_ & (stride_ - 1)) != 0) throw KernelError("argument 'stride': not a power of two");
    if (4 * stride_ > (std::int64_t(1) << log2n_)) throw KernelError("argument 'stride': beyond 2^log2n / 4");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((std::int64_t(1) << log2n_) / (4 * kThreads)), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 16;  // nvcc for sm_70
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const V<std::int64_t> pos = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
    // blockIdx.y * N is 0 (one row); lo, i0 and the three offsets: integer work.
    const V<std::int64_t> lo =
        map(pos, InstrClass::kInt, [this](std::int64_t p) { return p & (stride_ - 1); });
    const V<std::int64_t> i0 = (pos - lo) * 4 + lo;
    const V<std::int64_t> i1 = i0 + stride_, i2 = i1 + stride_, i3 = i2 + stride_;
    V<float> d0 = c.load(data_, i0), d1 = c.load(data_, i1), d2 = c.load(data_, i2), d3 = c.load(data_, i3);
    const V<float> s02 = d0 + d2, t02 = d0 - d2, s13 = d1 + d3, t13 = d1 - d3;
    c.store(data_, i0, s02 + s13);
    c.store(data_, i1, s02 - s13);
    c.store(data_, i2, t02 + t13);
    c.store(data_, i3, t02 - t13);
  }

  std::int64_t log2n_, stride_;
  Array<float> data_;
};

}  // namespace

LibraryEntry cuda_samples_fastWalshTransform_fwtBatch2() {
  return {"cuda-samples/fastWalshTransform_fwtBatch2",
          "CUDA samples 11.1 fastWalshTransform, kernel fwtBatch2Kernel; GV100 study input: the default 2^23 "
          "floats (passes with stride 2^21 .. 2^11)",
          {{"log2n", 23, 10, 28, "log2 of the data's length"},
           {"stride", 1 << 21, 1, 1 << 26, "this pass's stride (a power of two, at most 2^log2n / 4)"}},
          [](const Args& a) { return std::make_unique<FwtBatch2>(a); }};
}

}  // namespace numagpu::kernels
