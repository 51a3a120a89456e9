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
//
// Simplifications: the integer work is computed with values: the Gray code, the first point's XOR chain
// over v[k] (mask, AND, XOR into X, shift of g, each step), the index of the stepping loop's shared read
// (subtract, OR, NOT, find-first-set) and its two XORs into X, and each point's conversion and scale feed
// the store, so X's chain runs through the whole loop as in the source. The stride's multiply stays charged
// (uniform, nothing computed here reads it).
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
    c.charge(InstrClass::kInt);  // stride = gridDim.x * blockDim.x (uniform, read by nothing computed here)
    V<std::int64_t> g = bits(i0, shr(i0), [](std::int64_t a, std::int64_t b) { return a ^ b; });  // Gray
    V<std::int64_t> x(c, 0);                                                                      // X
    const int log2_stride = ffs64(stride) - 1;
    c.uniform_loop(std::uint64_t(log2_stride), [&](std::uint64_t k) {
      const V<std::int64_t> vk = widen(v.load(c.uniform(std::int64_t(k))));  // every thread reads one word
      // mask = -(g & 1) (one bit-field extract), X ^= mask & v[k] (an AND, an XOR), g >>= 1.
      const V<std::int64_t> mask = map(g, InstrClass::kInt, [](std::int64_t b) { return -(b & 1); });
      x = bits(x, bits(mask, vk, [](std::int64_t a, std::int64_t b) { return a & b; }),
               [](std::int64_t a, std::int64_t b) { return a ^ b; });
      g = shr(g);
    });
    const V<std::int64_t> row = c.uniform(dim * vectors_);
    const V<float> first = scaled(x);  // computed before the test, as the model charged it
    c.if_(i0 < vectors_, [&] { c.store(output_, row + i0, first); });
    const V<std::int64_t> v_last = widen(v.load(c.uniform(log2_stride - 1)));  // v_log2stridem1
    V<std::int64_t> i = i0 + stride;
    c.while_(
        [&] { return i < vectors_; },
        [&] {
          // ~((i - stride) | v_stridemask): a subtract, an OR, a NOT; then __ffs(..) - 1 (the FLO).
          const V<std::int64_t> low = map(
              map(map(i - stride, InstrClass::kInt, [stride](std::int64_t y) { return y | (stride - 1); }),
                  InstrClass::kInt, [](std::int64_t y) { return ~y & 0xFFFFFFFFll; }),
              InstrClass::kInt, [](std::int64_t y) { return std::int64_t(ffs64(y) - 1); });
          // X ^= v_log2stridem1 ^ v[..]: two XORs.
          const V<std::int64_t> both =
              bits(v_last, widen(v.load(low)), [](std::int64_t a, std::int64_t b) { return a ^ b; });
          x = bits(x, both, [](std::int64_t a, std::int64_t b) { return a ^ b; });
          c.store(output_, row + i, scaled(x));
          i = i + stride;
        });
  }

  // Integer bit operations (one int instruction each), on the direction numbers widened to int64.
  template <class F>
  static V<std::int64_t> bits(const V<std::int64_t>& a, const V<std::int64_t>& b, F f) {
    return zip(a, b, InstrClass::kInt, f);
  }
  static V<std::int64_t> shr(const V<std::int64_t>& a) {
    return map(a, InstrClass::kInt, [](std::int64_t y) { return y >> 1; });
  }
  // A shared read's value as int64, no instruction (the register holds the 32 bits either way).
  static V<std::int64_t> widen(const V<std::uint32_t>& a) {
    V<std::int64_t> r = Uninitialized<std::int64_t>::make(a.cta());
    for (unsigned t = 0; t < a.size(); ++t)
      r[t] = a[t];
    if (a.cta().dependent())
      for (unsigned w = 0; w < a.cta().warps(); ++w)
        r.ready_data()[w] = a.ready(w);
    return r;
  }
  // (float)X * k_2powneg32: the conversion (I2F, on the XU: simt.hpp, convert) and the scale.
  static V<float> scaled(const V<std::int64_t>& x) {
    return map(x, InstrClass::kSfu, [](std::int64_t y) { return float(std::uint32_t(y)); }) * 2.3283064e-10f;
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
