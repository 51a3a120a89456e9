// cuda-samples/quasirandomGenerator_quasirandomGenerator: quasirandomGeneratorKernel of the CUDA samples
// 11.1 quasirandomGenerator (learned from Samples/quasirandomGenerator/quasirandomGenerator_kernel.cu and
// quasirandomGenerator.cpp, written here anew): Niederreiter quasirandom numbers in 3 dimensions. 128 CTAs
// of 128 x 3 threads (threadIdx.y the dimension: warps 0-3 dimension 0, 4-7 dimension 1, 8-11 dimension 2);
// thread (x, y) produces positions pos = 128 blockIdx.x + x, + 16,384, ... < N: for each of the 31 bits of
// seed + pos it XORs the dimension's table entry into the result where the bit is set, then stores
// (result + 1) x 2^-31 at output[y N + pos].
//
// Reference input (the sample's default): N = 1,048,576, seed 0 (64 positions per thread). The table lives
// in constant memory (c_Table[3][31]) and nothing is read from global memory; the output's values steer
// nothing. Simplified: the bit test's branch is modelled as predicated (a short body, the warp's threads
// take it or not bit by bit, no divergence); the table read is an LDC per bit, a Cta::constant_load (an
// integer instruction; c_Table[threadIdx.y][bit] is one address per warp: one pass). The bits' work is
// computed with values: the shift chain of data, and the result's chain of predicated XORs (each reading
// its bit test and its table entry), then the conversion and scale the store waits for; `result = 0` stays
// a charged move. The table carries no data (zeros: its values steer nothing).
#include <algorithm>
#include <vector>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreadsX = 128, kDims = 3, kBlocks = 128, kResolution = 31;

class QuasirandomGenerator : public Kernel {
 public:
  explicit QuasirandomGenerator(const Args& a)
      : Kernel(a), n_(a["n"]), output_(array<float>("output", std::uint64_t(kDims * n_))) {}

  Launch launch() override {
    Launch l;
    l.grid = {kBlocks, 1, 1};
    l.block = {kThreadsX, kDims, 1};
    l.regs_per_thread = 16;  // nvcc for sm_70
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const std::int64_t thread_n = kThreadsX * kBlocks;
    const V<std::int64_t> tid = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreadsX;
    const V<std::int64_t> row = c.threadIdx_y() * n_;  // MUL(threadIdx.y, N)
    V<std::int64_t> pos = tid;
    // c_Table[threadIdx.y][bit]'s index, per bit: folded into the LDC's address (no instruction).
    std::vector<V<std::int64_t>> entries;
    entries.reserve(kResolution);
    for (std::int64_t bit = 0; bit < kResolution; ++bit) {
      entries.emplace_back(c, 0);
      for (unsigned t = 0; t < c.threads(); ++t)
        entries.back()[t] = (t / kThreadsX) * kResolution + bit;
    }
    c.while_([&] { return pos < n_; },
             [&] {
               // result = 0; data = seed + pos; 31 x (test the bit, LDC the entry, predicated XOR, shift).
               c.charge(InstrClass::kInt);  // result = 0
               V<std::int64_t> result(c, 0);
               V<std::int64_t> data = pos + kSeed;
               for (std::int64_t bit = 0; bit < kResolution; ++bit) {
                 const V<bool> set = map(data, InstrClass::kInt, [](std::int64_t d) { return (d & 1) != 0; });
                 const V<std::int64_t> entry = c.constant_load(table_, entries[bit]);
                 result = xor_if(set, result, entry);
                 data = map(data, InstrClass::kInt, [](std::int64_t d) { return d >> 1; });
               }
               // (float)(result + 1) * INT_SCALE: the conversion (I2F, on the XU) and the scale.
               const V<float> f = map(result, InstrClass::kSfu, [](std::int64_t r) { return float(r + 1); });
               c.store(output_, row + pos, f * 4.656612873077392578125e-10f);
               pos = pos + thread_n;
             });
  }

  // if (data & 1) result ^= entry, predicated: one integer instruction reading the test, the result and the
  // entry.
  static V<std::int64_t> xor_if(const V<bool>& set, const V<std::int64_t>& result, const V<std::int64_t>& e) {
    V<std::int64_t> r = Uninitialized<std::int64_t>::make(result.cta());
    for (unsigned t = 0; t < r.size(); ++t)
      r[t] = set[t] ? (result[t] ^ e[t]) : result[t];
    result.cta().issue(
        InstrClass::kInt,
        [&](unsigned w) {
          return std::max({set.ready(w), result.ready(w), e.ready(w)});
        },
        r.ready_data());
    return r;
  }

  static constexpr std::int64_t kSeed = 0;  // the sample's seed
  std::int64_t n_;
  Array<float> output_;
  std::vector<std::int64_t> table_;  // c_Table: no data (zeros)
};

}  // namespace

LibraryEntry cuda_samples_quasirandomGenerator_quasirandomGenerator() {
  return {"cuda-samples/quasirandomGenerator_quasirandomGenerator",
          "CUDA samples 11.1 quasirandomGenerator, kernel quasirandomGeneratorKernel; GV100 study input: the "
          "default N = 1,048,576 in 3 dimensions",
          {{"n", 1 << 20, 1, std::int64_t(1) << 28, "numbers per dimension"}},
          [](const Args& a) { return std::make_unique<QuasirandomGenerator>(a); }};
}

}  // namespace numagpu::kernels
