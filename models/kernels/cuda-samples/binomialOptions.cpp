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
//
// Simplifications: the option data are uniform constants of the model (their constant-memory reads, at a
// uniform address, are not charged, as before). The leaves (chains of 6 instructions, 16 independent ones
// per thread) and the tree's updates (each value an FMUL and an FFMA on the previous step's values, the
// last reading the neighbour's value from shared memory) are computed with values, so a step's updates
// wait for the shared read and for the previous step's; the shared stores and the final store carry the
// computed values. The loop's branches stay charged.
#include <cmath>
#include <vector>

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
  // expiryCallValue of leaf tid * 16 + i (i uniform, folded into the conversion's operand): 2 i - NUM_STEPS
  // and vDt times it (I2F, FFMA), __expf (a scale multiply and MUFU.EX2), S times it minus X (FFMA), the
  // clamp (FMNMX): a chain of 6, computed with values.
  static V<float> expiry(const V<std::int64_t>& tid, std::int64_t i) {
    Cta& c = tid.cta();
    const V<float> leaf =
        map(tid, InstrClass::kSfu, [i](std::int64_t t) { return float(t * kPerThread + i); });  // I2F (XU)
    const V<float> exponent = fma(leaf, V<float>(c, 2.0f * kVdt), V<float>(c, -float(kSteps) * kVdt));
    const V<float> e = map(exponent * kLog2e, InstrClass::kSfu, [](float x) { return std::exp2(x); });
    const V<float> d = fma(V<float>(c, kS), e, V<float>(c, -kX));
    return map(d, InstrClass::kFp32, [](float x) { return x > 0.0f ? x : 0.0f; });  // FMNMX
  }

  void body(Cta& c) {
    const V<std::int64_t> tid = c.threadIdx_x();
    // call[0 .. 15], and call[16] (the neighbour's first value, read from shared memory each step).
    std::vector<V<float>> call;
    call.reserve(kPerThread + 1);
    for (std::int64_t i = 0; i < kPerThread; ++i)  // unrolled in the source: 16 independent chains
      call.push_back(expiry(tid, i));
    call.emplace_back(c, 0.0f);
    Cta::Shared<float> exchange(c, kThreads + 1);
    // Thread 0's extra leaf, NUM_STEPS: tid * 16 + i with tid = 0 and i = 2,048.
    c.if_(tid == 0, [&] { exchange.store(c.uniform(kThreads), expiry(tid, kSteps)); });
    const V<std::int64_t> final_it = map(
        tid, InstrClass::kInt, [](std::int64_t t) { return std::max<std::int64_t>(0, t * kPerThread - 1); });
    c.charge(InstrClass::kInt);                  // the multiply before the max
    for (std::int64_t i = kSteps; i > 0; --i) {  // unrolled by 16 in the source: a branch per 16
      exchange.store(tid, call[0]);
      c.syncthreads();
      call[kPerThread] = exchange.load(tid, 1);  // callA[tid + 1]: the + 1 an immediate
      c.syncthreads();
      // call[j] = puByDf * call[j + 1] + pdByDf * call[j] (an FMUL and an FFMA), j ascending, so call[j + 1]
      // is still the previous step's: 16 independent chains of 2 within a step, each continuing the last.
      c.if_(final_it < i, [&] {
        for (std::int64_t j = 0; j < kPerThread; ++j)
          call[j] = fma(V<float>(c, kPdByDf), call[j], call[j + 1] * kPuByDf);
      });
      if (i % 16 == 0) c.charge(InstrClass::kBranch);
    }
    c.if_(tid == 0, [&] { c.store(call_value_, c.uniform(c.blockIdx.x), call[0]); });
  }

  // An option's data (d_OptionData[blockIdx.x] in constant memory, read at a uniform address): their values
  // steer nothing; these stand for them (S, X, vDt, puByDf, pdByDf) and log2(e) of __expf's scale.
  static constexpr float kS = 17.5f, kX = 50.0f, kVdt = 0.01f, kPuByDf = 0.5f, kPdByDf = 0.5f,
                         kLog2e = 1.4426950408889634f;

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
