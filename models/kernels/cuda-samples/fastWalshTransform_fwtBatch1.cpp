// cuda-samples/fastWalshTransform_fwtBatch1: fwtBatch1Kernel of the CUDA samples 11.1 fastWalshTransform
// (learned from Samples/fastWalshTransform/fastWalshTransform_kernel.cuh, written here anew): the
// Walsh-Hadamard transform of M independent vectors of N = 2^log2N <= 2,048 floats, one CTA of N / 4
// threads per vector, in shared memory. The CTA copies its vector in (thread t: elements t, t + N/4, ...),
// runs radix-4 stages with stride N/4, N/16, ... > 0 (each after a barrier: thread t reads and writes
// i0 = 4 (t - lo) + lo, lo = t & (stride - 1), and i0 + stride, + 2 stride, + 3 stride), a radix-2 stage
// when log2N is odd (elements 2p and 2p + 1 for p = t, t + N/4 < N/2), and after a last barrier copies
// the vector out in place.
//
// Reference input (the sample's default): 2^23 floats. After the six fwtBatch2 passes fwtBatchGPU launches
// this kernel with log2N = 11 on M = 4^6 = 4,096 CTAs of 512 threads (8 KiB of shared memory); the sample
// does so three times (data, kernel array, product). `log2n` is the whole data's length; the elementary
// size is what the host's loop leaves (log2n - 2 k <= 11). The values (rand() / RAND_MAX after
// srand(2007)) steer nothing, so the array carries no data. The butterflies are computed with values (each
// stage's shared reads, sums and differences, shared writes); only the loops' branches are charged.
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kElementaryLog2 = 11;  // ELEMENTARY_LOG2SIZE

class FwtBatch1 : public Kernel {
 public:
  explicit FwtBatch1(const Args& a)
      : Kernel(a), log2n_(a["log2n"]), data_(array<float>("data", std::uint64_t(1) << log2n_)) {
    log2_ = log2n_;
    while (log2_ > kElementaryLog2)
      log2_ -= 2;
  }

  Launch launch() override {
    const std::int64_t n = std::int64_t(1) << log2_;
    Launch l;
    l.grid = {static_cast<std::uint32_t>(std::int64_t(1) << (log2n_ - log2_)), 1, 1};
    l.block = {static_cast<std::uint32_t>(n / 4), 1, 1};
    l.regs_per_thread = 16;  // nvcc for sm_70
    l.shared_bytes = std::uint64_t(n) * 4;
    l.body = [this, n](Cta& c) { body(c, n); };
    return l;
  }

 private:
  void body(Cta& c, std::int64_t n) {
    const std::int64_t threads = c.blockDim.x, base = std::int64_t(c.blockIdx.x) << log2_;
    const V<std::int64_t> tx = c.threadIdx_x();
    Cta::Shared<float> s(c, std::uint64_t(n));
    for (std::int64_t p = 0; p < n; p += threads) {  // pos = t; pos < N; pos += blockDim.x: uniform trips
      s.store(tx + p, c.load(data_, tx + (base + p)));
      c.charge(InstrClass::kBranch);
    }
    for (std::int64_t stride = n >> 2; stride > 0; stride >>= 2) {
      const V<std::int64_t> lo =
          map(tx, InstrClass::kInt, [stride](std::int64_t t) { return t & (stride - 1); });
      const V<std::int64_t> i0 = (tx - lo) * 4 + lo;
      const V<std::int64_t> i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
      c.syncthreads();
      const V<float> d0 = s.load(i0), d1 = s.load(i1), d2 = s.load(i2), d3 = s.load(i3);
      const V<float> s02 = d0 + d2, t02 = d0 - d2, s13 = d1 + d3, t13 = d1 - d3;
      s.store(i0, s02 + s13);
      s.store(i1, s02 - s13);
      s.store(i2, t02 + t13);
      s.store(i3, t02 - t13);
      c.charge(InstrClass::kBranch);
    }
    if (log2_ & 1) {
      c.syncthreads();
      for (std::int64_t p = 0; p < n / 2; p += threads) {
        const V<std::int64_t> i0 = (tx + p) * 2;  // s_data[i0 + 1]: the + 1 an immediate of the address
        const V<float> d0 = s.load(i0), d1 = s.load(i0, 1);
        s.store(i0, d0 + d1);
        s.store(i0, d0 - d1, 1);
        c.charge(InstrClass::kBranch);
      }
    }
    c.syncthreads();
    for (std::int64_t p = 0; p < n; p += threads) {
      c.store(data_, tx + (base + p), s.load(tx + p));
      c.charge(InstrClass::kBranch);
    }
  }

  std::int64_t log2n_, log2_ = 0;
  Array<float> data_;
};

}  // namespace

LibraryEntry cuda_samples_fastWalshTransform_fwtBatch1() {
  return {"cuda-samples/fastWalshTransform_fwtBatch1",
          "CUDA samples 11.1 fastWalshTransform, kernel fwtBatch1Kernel; GV100 study input: the default 2^23 "
          "floats (4,096 vectors of 2,048)",
          {{"log2n", 23, 2, 28, "log2 of the data's length"}},
          [](const Args& a) { return std::make_unique<FwtBatch1>(a); }};
}

}  // namespace numagpu::kernels
