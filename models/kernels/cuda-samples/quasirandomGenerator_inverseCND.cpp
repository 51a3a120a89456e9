// cuda-samples/quasirandomGenerator_inverseCND: inverseCNDKernel of the CUDA samples 11.1
// quasirandomGenerator (learned from Samples/quasirandomGenerator/quasirandomGenerator_kernel.cu and
// quasirandomGenerator.cpp, written here anew): Moro's inverse of the cumulative normal distribution over
// pathN evenly spaced points. 128 CTAs of 128 threads; thread tid takes pos = tid, + 16,384, ... < pathN,
// d = (pos + 1) x floor((2^32 - 1) / (pathN + 1)), reflects d into the lower half of the range (x >= 2^31:
// x = 2^32 - 1 - x, negate), maps it to p1 in (0, 0.5] and p2 = p1 - 0.5, and evaluates either the central
// rational approximation (p2 > -0.42) or the tail's Chebyshev polynomial in log(-log(p1)) (two __logf on
// the SFU), then stores the result at output[pos].
//
// Reference input (the sample's default): pathN = 3 x 1,048,576, no input array (the sample passes NULL:
// the points are generated from pos). The points come from pos, so the branches are executed for real:
// warps whose 32 consecutive points straddle the tail boundary or the reflection diverge.
#include <cmath>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 128, kBlocks = 128;

class InverseCnd : public Kernel {
 public:
  explicit InverseCnd(const Args& a)
      : Kernel(a), n_(a["n"]), output_(array<float>("output", std::uint64_t(n_))) {}

  Launch launch() override {
    Launch l;
    l.grid = {kBlocks, 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 20;  // nvcc for sm_70
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const std::uint32_t distance = 0xFFFFFFFFu / std::uint32_t(n_ + 1);
    c.charge(InstrClass::kInt, 2);  // distance (an integer division by a kernel argument)
    const V<std::int64_t> tid = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
    V<std::int64_t> pos = tid;
    c.charge(InstrClass::kBranch);  // d_Input is null: the generating loop
    c.while_([&] { return pos < n_; },
             [&] {
               V<std::uint32_t> x = map(pos, InstrClass::kInt, [distance](std::int64_t p) {
                 return static_cast<std::uint32_t>(std::uint32_t(p + 1) * distance);
               });
               V<bool> negate(c, false);
               c.if_(x >= 0x80000000u, [&] {
                 x = map(x, InstrClass::kInt, [](std::uint32_t v) { return 0xFFFFFFFFu - v; });
                 negate = true;
               });
               const float x1 = 1.0f / static_cast<float>(0xFFFFFFFFu), x2 = x1 / 2.0f;
               const V<float> p1 = convert<float>(x) * x1 + x2;  // I2F, FMUL, FADD (an FFMA after nvcc)
               const V<float> p2 = p1 - 0.5f;
               c.if_else(
                   p2 > -0.42f,
                   [&] {
                     // z = p2^2; p2 (((a4 z + a3) z + a2) z + a1) / ((((b4 z + b3) z + b2) z + b1) z + 1):
                     // a multiply, 3 + 4 FFMA, the division (a reciprocal on the SFU, a multiply and two FFMA
                     // of its refinement).
                     c.charge(InstrClass::kFp32, 1 + 3 + 4 + 1 + 3);
                     c.charge(InstrClass::kSfu);
                   },
                   [&] {
                     // z = __logf(-__logf(p1)) (two MUFU.LG2, their scale multiplies, a negation); the
                     // Chebyshev polynomial: 8 FFMA and a negation.
                     c.charge(InstrClass::kSfu, 2);
                     c.charge(InstrClass::kFp32, 2 + 1 + 8 + 1);
                   });
               c.charge(InstrClass::kFp32);  // negate ? -z : z (a select on the sign)
               c.store(output_, pos, V<float>(c, 0.0f));
               pos = pos + kThreads * kBlocks;
             });
  }

  std::int64_t n_;
  Array<float> output_;
};

}  // namespace

LibraryEntry cuda_samples_quasirandomGenerator_inverseCND() {
  return {"cuda-samples/quasirandomGenerator_inverseCND",
          "CUDA samples 11.1 quasirandomGenerator, kernel inverseCNDKernel; GV100 study input: the default "
          "3 x 1,048,576 points",
          {{"n", 3 << 20, 1, std::int64_t(1) << 30, "points (pathN)"}},
          [](const Args& a) { return std::make_unique<InverseCnd>(a); }};
}

}  // namespace numagpu::kernels
