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
// Simplifications: Moro's two approximations are computed with values as the source writes them (the
// central rational function's two Horner chains, the multiply by p2 and the division as a reciprocal and
// its refinement; the tail's two __logf as MUFU.LG2 and a scale each, the 8-FFMA Horner chain, the
// negations), and the final sign select feeds the store; `distance`'s division and the loop's first branch
// stay charged (uniform).
#include <algorithm>
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
    c.charge(InstrClass::kInt, 2);  // distance: pathN + 1 and its unsigned division by a kernel argument
    c.charge_int_division_sequence(false);  // the rest of div.u32 (with dependent latencies)
    const V<std::int64_t> tid = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
    V<std::int64_t> pos = tid;
    c.charge(InstrClass::kBranch);  // d_Input is null: the generating loop
    c.while_(
        [&] { return pos < n_; },
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
          const auto k = [&c](float v) { return V<float>(c, v); };
          V<float> z(c, 0.0f);
          c.if_else(
              p2 > -0.42f,
              [&] {
                // z = p2^2; p2 (((a4 z + a3) z + a2) z + a1) / ((((b4 z + b3) z + b2) z + b1) z + 1):
                // a multiply, 3 + 4 FFMA, the multiply by p2, the division (a reciprocal on the SFU, a
                // multiply and two FFMA of its refinement).
                const V<float> z2 = p2 * p2;
                const V<float> num = p2 * fma(fma(fma(k(kA[3]), z2, k(kA[2])), z2, k(kA[1])), z2, k(kA[0]));
                const V<float> den =
                    fma(fma(fma(fma(k(kB[3]), z2, k(kB[2])), z2, k(kB[1])), z2, k(kB[0])), z2, k(1.0f));
                const V<float> r = map(den, InstrClass::kSfu, [](float d) { return 1.0f / d; });  // MUFU.RCP
                const V<float> q = num * r;
                const V<float> e = fnma(den, q, num);  // the residual
                z = fma(e, r, q);
              },
              [&] {
                // z = __logf(-__logf(p1)) (two MUFU.LG2, their scale multiplies, a negation); the
                // Chebyshev polynomial: 8 FFMA and a negation.
                const V<float> lg = lg2(p1) * kLn2;
                const V<float> y = lg2(lg * -1.0f) * kLn2;
                V<float> h = fma(y, k(kC[8]), k(kC[7]));
                for (int i = 6; i >= 0; --i)
                  h = fma(y, h, k(kC[i]));
                z = h * -1.0f;
              });
          // negate ? -z : z (a select on the sign).
          const V<float> out = zip(z, negate, InstrClass::kFp32, [](float v, bool n) { return n ? -v : v; });
          c.store(output_, pos, out);
          pos = pos + kThreads * kBlocks;
        });
  }

  // -a b + c: one FFMA (the negation is an operand modifier).
  static V<float> fnma(const V<float>& a, const V<float>& b, const V<float>& c) {
    V<float> r = Uninitialized<float>::make(a.cta());
    for (unsigned t = 0; t < r.size(); ++t)
      r[t] = -a[t] * b[t] + c[t];
    a.cta().issue(
        InstrClass::kFp32,
        [&](unsigned w) {
          return std::max({a.ready(w), b.ready(w), c.ready(w)});
        },
        r.ready_data());
    return r;
  }
  static V<float> lg2(const V<float>& a) {  // MUFU.LG2
    return map(a, InstrClass::kSfu, [](float v) { return std::log2(v); });
  }

  // Moro's coefficients (a1 .. a4, b1 .. b4, c1 .. c9 of the source) and ln 2 of __logf's scale.
  static constexpr float kA[4] = {2.50662823884f, -18.61500062529f, 41.39119773534f, -25.44106049637f};
  static constexpr float kB[4] = {-8.4735109309f, 23.08336743743f, -21.06224101826f, 3.13082909833f};
  static constexpr float kC[9] = {0.337475482272615f,   0.976169019091719f,  0.160797971491821f,
                                  2.76438810333863e-2f, 3.8405729373609e-3f, 3.951896511919e-4f,
                                  3.21767881768e-5f,    2.888167364e-7f,     3.960315187e-7f};
  static constexpr float kLn2 = 0.69314718056f;

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
