// cuda-samples/binomialOptions: binomialOptionsKernel of the CUDA samples 11.1 binomialOptions (learned
// from Samples/binomialOptions/binomialOptions_kernel.cu, binomialOptions_common.h and binomialOptions.cpp,
// written here anew): European call options priced on a binomial tree of NUM_STEPS = 2,048 steps, one CTA
// of 128 threads per option, single precision. Each thread holds 16 consecutive leaves (call values at
// expiry: S exp(vDt (2 i - 2048)) - X, clamped at 0; thread 0 also publishes leaf 2,048). Then for
// i = 2,048 down to 1: each thread publishes its first value in shared memory, a barrier, reads its right
// neighbour's, a barrier, and, while i > max(0, 16 tid - 1) (the part of the tree still alive for it),
// updates its 16 values (call[j] = puByDf call[j + 1] + pdByDf call[j]). Thread 0 finally writes the
// option's value.
//
// Reference input (the sample's default): MAX_OPTIONS = 1,024 options (1,024 CTAs). The option data (S in
// [5, 30], X in [1, 100], T in [0.25, 10], from rand() after srand(123)) live in constant memory and steer
// nothing: no array but the results. The liveness test depends only on tid and i, so warps stop updating
// at i = 512 w (warp w): warp 0 runs 2,048 updates, warps 1, 2, 3 run 1,537, 1,025 and 513; no warp
// diverges (16 tid - 1 steps by 16 within a warp, and a warp's lanes leave at different i: it runs as long
// as its first lane does, masked for the others).
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 128, kSteps = 2048, kPerThread = kSteps / kThreads;

class BinomialOptions : public Kernel {
 public:
  explicit BinomialOptions(const Args& a)
      : Kernel(a), options_(a["options"]), call_value_(array<float>("call_value", std::uint64_t(options_))) {}

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(options_), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 40;               // nvcc for sm_70 (16 values held in registers)
    l.shared_bytes = (kThreads + 1) * 4;  // call_exchange[129]
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  // expiryCallValue: 2 i - NUM_STEPS and vDt times it (I2F, FFMA), __expf (a scale multiply and MUFU.EX2),
  // S times it minus X (FFMA), the clamp (FMNMX).
  static void expiry(Cta& c) {
    c.charge(InstrClass::kFp32, 5);
    c.charge(InstrClass::kSfu);
  }

  void body(Cta& c) {
    const V<std::int64_t> tid = c.threadIdx_x();
    for (std::int64_t i = 0; i < kPerThread; ++i)  // unrolled in the source
      expiry(c);
    Cta::Shared<float> exchange(c, kThreads + 1);
    c.if_(tid == 0, [&] {
      expiry(c);
      exchange.store(c.uniform(kThreads), V<float>(c, 0.0f));
    });
    const V<std::int64_t> final_it = map(
        tid, InstrClass::kInt, [](std::int64_t t) { return std::max<std::int64_t>(0, t * kPerThread - 1); });
    c.charge(InstrClass::kInt);  // the multiply before the max
    const V<std::int64_t> right = tid + 1;
    const V<float> first(c, 0.0f);
    for (std::int64_t i = kSteps; i > 0; --i) {  // unrolled by 16 in the source: a branch per 16
      exchange.store(tid, first);
      c.syncthreads();
      (void)exchange.load(right);
      c.syncthreads();
      c.if_(final_it < i, [&] { c.charge(InstrClass::kFp32, 2 * kPerThread); });
      if (i % 16 == 0) c.charge(InstrClass::kBranch);
    }
    c.if_(tid == 0, [&] { c.store(call_value_, c.uniform(c.blockIdx.x), V<float>(c, 0.0f)); });
  }

  std::int64_t options_;
  Array<float> call_value_;
};

}  // namespace

LibraryEntry cuda_samples_binomialOptions() {
  return {
      "cuda-samples/binomialOptions",
      "CUDA samples 11.1 binomialOptions, kernel binomialOptionsKernel; GV100 study input: the default 1,024 "
      "options of 2,048 steps",
      {{"options", 1024, 1, 1 << 20, "options (one CTA each)"}},
      [](const Args& a) { return std::make_unique<BinomialOptions>(a); }};
}

}  // namespace numagpu::kernels
