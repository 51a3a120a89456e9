// cuda-samples/SobolQRNG: sobolGPU_kernel of the CUDA samples 11.1 SobolQRNG (learned from
// Samples/SobolQRNG/sobol_gpu.cu and sobol.cpp, written here anew): Sobol quasirandom vectors, one grid row
// (blockIdx.y) per dimension. The first 32 threads of each CTA copy the dimension's 32 direction numbers
// into shared memory; after a barrier thread i0 = blockIdx.x * 64 + threadIdx.x builds its first point
// from the Gray code of i0 (log2(stride) steps over v[k], stride = gridDim.x * 64), stores it, and then
// steps by the stride: each next point XORs v[log2(stride) - 1] and v[index of the lowest zero bit of
// (i - stride) above the stride's bits], storing output[dimension * n_vectors + i] for i < n_vectors.
//
// Reference input (the sample's default): 100,000 vectors of 100 dimensions. The host sizes the grid from
// the GPU: 100 dimensions < 4 x SMs, so gridDim.x = 4 x 80 (the GV100's SMs) = 320, rounded up to a power
// of two: 512 (x 100 dimensions = 51,200 CTAs of 64 threads); `sms` sets that count. The direction numbers
// (from the primitive polynomials of Joe and Kuo) steer nothing, so the arrays carry no data; the shared
// index of the stepping loop depends only on i and is computed.
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 64, kDirections = 32;

int ffs64(std::int64_t v) {  // CUDA's __ffs: 1 + the lowest set bit, 0 for 0
  for (int b = 0; b < 64; ++b)
    if ((v >> b) & 1) return b + 1;
  return 0;
}

class Sobol : public Kernel {
 public:
  explicit Sobol(const Args& a)
      : Kernel(a),
        vectors_(a["vectors"]),
        dims_(a["dimensions"]),
        sms_(a["sms"]),
        directions_(array<std::uint32_t>("directions", std::uint64_t(dims_ * kDirections))),
        output_(array<float>("output", std::uint64_t(dims_ * vectors_), std::uint64_t(dims_),
                             std::uint64_t(vectors_))) {
    std::int64_t target = dims_ < 4 * sms_ ? 4 * sms_ : 1;
    if (target > vectors_ / kThreads) target = (vectors_ + kThreads - 1) / kThreads;
    grid_x_ = 1;
    while (grid_x_ < target)
      grid_x_ *= 2;
    if (grid_x_ * kThreads < 2) throw KernelError("argument 'vectors': too few for a stride");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(grid_x_), static_cast<std::uint32_t>(dims_), 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 16;            // nvcc for sm_70
    l.shared_bytes = kDirections * 4;  // v[32]
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const std::int64_t dim = c.blockIdx.y, stride = grid_x_ * kThreads;
    const V<std::int64_t> tx = c.threadIdx_x();
    Cta::Shared<std::uint32_t> v(c, kDirections);
    c.if_(tx < kDirections, [&] { v.store(tx, c.load(directions_, tx + dim * kDirections)); });
    c.syncthreads();

    const V<std::int64_t> i0 = tx + std::int64_t(c.blockIdx.x) * kThreads;
    c.charge(InstrClass::kInt, 3);  // stride, the Gray code g = i0 ^ (i0 >> 1)
    const int log2_stride = ffs64(stride) - 1;
    c.uniform_loop(std::uint64_t(log2_stride), [&](std::uint64_t k) {
      (void)v.load(c.uniform(std::int64_t(k)));  // v[k]: every thread reads the same word
      c.charge(InstrClass::kInt, 4);             // mask = -(g & 1), X ^= mask & v[k], g >>= 1
    });
    const V<std::int64_t> row = c.uniform(dim * vectors_);
    c.charge(InstrClass::kFp32, 2);  // (float)X * 2^-32
    c.if_(i0 < vectors_, [&] { c.store(output_, row + i0, V<float>(c, 0.0f)); });
    (void)v.load(c.uniform(log2_stride - 1));  // v_log2stridem1
    V<std::int64_t> i = i0 + stride;
    c.while_([&] { return i < vectors_; },
             [&] {
               const V<std::int64_t> at = map(i, InstrClass::kInt, [stride](std::int64_t x) {
                 return std::int64_t(ffs64(~((x - stride) | (stride - 1)) & 0xFFFFFFFFll) - 1);
               });
               c.charge(InstrClass::kInt, 3);  // the subtract, the or, the not before the FLO
               (void)v.load(at);
               c.charge(InstrClass::kInt, 2);   // the two XORs
               c.charge(InstrClass::kFp32, 2);  // the conversion and the scale
               c.store(output_, row + i, V<float>(c, 0.0f));
               i = i + stride;
             });
  }

  std::int64_t vectors_, dims_, sms_, grid_x_ = 1;
  Array<std::uint32_t> directions_;
  Array<float> output_;
};

}  // namespace

LibraryEntry cuda_samples_SobolQRNG() {
  return {"cuda-samples/SobolQRNG",
          "CUDA samples 11.1 SobolQRNG, kernel sobolGPU_kernel; GV100 study input: the default 100,000 "
          "vectors x 100 dimensions (grid 512 x 100 on 80 SMs)",
          {{"vectors", 100000, 2, std::int64_t(1) << 30, "vectors"},
           {"dimensions", 100, 1, 65535, "dimensions (the grid's y)"},
           {"sms", 80, 1, 1024, "the GPU's SMs (the host sizes the grid from them)"}},
          [](const Args& a) { return std::make_unique<Sobol>(a); }};
}

}  // namespace numagpu::kernels
