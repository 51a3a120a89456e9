// parboil/mri-q_ComputeQ: ComputeQ_GPU of Parboil's mri-q (learned from its CUDA version,
// src/cuda/computeQ.cu, written here anew). The Q matrix of non-Cartesian MRI reconstruction: each thread
// owns one voxel (xIndex = blockIdx.x * 256 + threadIdx.x), reads its x, y, z and the running Qr, Qi from
// global memory, then for each of up to 1,024 k-space samples of this launch (held in constant memory,
// ck[], the loop unrolled by two with the odd sample peeled first) adds PhiMag * cos(arg) and
// PhiMag * sin(arg), arg = 2 pi (Kx x + Ky y + Kz z), and writes Qr, Qi back.
//
// Reference input of the GV100 study: dataset "large" (64^3: numX = 262,144 voxels, numK = 2,048 samples).
// The host launches ceil(numK / 1,024) = 2 kernels of numX / 256 = 1,024 CTAs of 256 threads, each after
// copying the next 1,024 samples to constant memory; `launch` selects one (0, the first, by default). The
// input file's values (coordinates and samples) steer no address and no branch, so the arrays carry no
// data and nothing is generated.
//
// Simplified: ck[] lives in constant memory, read by every thread of a warp at the same index; nvcc folds
// those reads into the FMAs' constant operands, so they are no load instructions and no global traffic (the
// constant cache's few misses, 16 KiB per launch, are not modelled). sin and cos of one argument become
// one sincosf: its fast path (the |arg| < 105,615 test, a Cody-Waite reduction, two short polynomials and
// a quadrant select) is computed with values per sample below (the instructions the model charged before,
// now with the source's dataflow: the argument's chain, the reduction, the two polynomial chains, the
// selects, and the two accumulations sQr, sQi, each a chain through all the launch's samples); the slow
// path is never taken for these arguments. The loop's counters and compares stay charged (uniform).
#include <cmath>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;     // KERNEL_Q_THREADS_PER_BLOCK
constexpr std::int64_t kPerLaunch = 1024;  // KERNEL_Q_K_ELEMS_PER_GRID

class MriQComputeQ : public Kernel {
 public:
  explicit MriQComputeQ(const Args& a)
      : Kernel(a),
        num_x_(a["numx"]),
        num_k_(a["numk"]),
        launch_(a["launch"]),
        x_(array<float>("x", std::uint64_t(num_x_))),
        y_(array<float>("y", std::uint64_t(num_x_))),
        z_(array<float>("z", std::uint64_t(num_x_))),
        qr_(array<float>("Qr", std::uint64_t(num_x_))),
        qi_(array<float>("Qi", std::uint64_t(num_x_))) {
    if (num_x_ % kThreads != 0) throw KernelError("argument 'numx': not a multiple of 256");
    if (launch_ * kPerLaunch >= num_k_) throw KernelError("argument 'launch': beyond the last sample");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(num_x_ / kThreads), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 20;  // nvcc for sm_70
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const V<std::int64_t> x_index = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
    const V<float> sx = c.load(x_, x_index), sy = c.load(y_, x_index), sz = c.load(z_, x_index);
    V<float> qr = c.load(qr_, x_index), qi = c.load(qi_, x_index);
    const std::int64_t first = launch_ * kPerLaunch;  // kGlobalIndex
    const std::int64_t samples = std::min(kPerLaunch, num_k_ - first);
    c.charge(InstrClass::kInt);                     // numK % 2
    if (num_k_ % 2) sample(c, sx, sy, sz, qr, qi);  // the peeled odd sample (numK, not this launch's count)
    const std::int64_t pairs = (samples - (num_k_ % 2)) / 2;
    c.uniform_loop(std::uint64_t(pairs), [&](std::uint64_t) {
      sample(c, sx, sy, sz, qr, qi);
      sample(c, sx, sy, sz, qr, qi);
      c.charge(InstrClass::kInt, 4);  // kIndex += 2, kGlobalIndex += 2, the two compares
    });
    c.store(qr_, x_index, qr);
    c.store(qi_, x_index, qi);
  }

  // One sample: arg = PIx2 * (Kx sX + Ky sY + Kz sZ) (FMUL, 2 FFMA, FMUL); sincosf's fast path (the range
  // test and its branch, the quadrant: FMUL, round, F2I, three Cody-Waite FFMAs; two polynomials of five
  // FFMAs; the quadrant's selects and sign flips: four integer operations); sQr += PhiMag * cos, sQi +=
  // PhiMag * sin (2 FFMA). The ck operands come from the constant bank (uniform: V constants, ready at
  // once; no data: zeros). Computed with values, 20 fp32, 5 int, 2 sfu (FRND and F2I: the rounding and
  // the conversion run on the XU) and a branch: the argument's chain of 4;
  // the range test (an integer compare of its bits) and its branch; the quadrant (FMUL, FRND, F2I) and the
  // reduced argument (3 FFMA on the rounded quadrant); the sine and cosine polynomials, two independent
  // chains of 5 FFMA on it; the quadrant's parity, the sign flips (one integer operation; folded into the
  // accumulating FFMAs as operand modifiers, and ready long before the selects, so not read) and the two
  // selects of sine and cosine; the two accumulations, each continuing its chain (sQr, sQi) from the last
  // sample.
  static void sample(Cta& c, const V<float>& sx, const V<float>& sy, const V<float>& sz, V<float>& qr,
                     V<float>& qi) {
    const auto k = [&c](float v) { return V<float>(c, v); };
    const V<float> arg = fma(k(kKz), sz, fma(k(kKy), sy, sx * kKx)) * kPi2;  // PIx2 * (..)
    const V<bool> slow = map(arg, InstrClass::kInt, [](float x) { return std::fabs(x) >= 105615.0f; });
    c.if_(slow, [] {});  // the slow path: never taken for these arguments
    const V<float> quadrant =
        map(arg * kTwoOverPi, InstrClass::kSfu, [](float x) { return std::nearbyint(x); });  // FRND (XU)
    const V<std::int64_t> q = convert<std::int64_t>(quadrant);                               // F2I
    const V<float> reduced =
        fma(quadrant, k(-kPiOver2Lo), fma(quadrant, k(-kPiOver2Mid), fma(quadrant, k(-kPiOver2Hi), arg)));
    V<float> ps = reduced, pc(c, 1.0f);
    for (int i = 0; i < 5; ++i) {  // two polynomials of five FFMAs (coefficients: values steer nothing)
      ps = fma(ps, reduced, k(kPoly));
      pc = fma(pc, reduced, k(kPoly));
    }
    const V<bool> odd = map(q, InstrClass::kInt, [](std::int64_t v) { return (v & 1) != 0; });
    (void)map(q, InstrClass::kInt, [](std::int64_t v) { return (v + 1) & 2; });  // the sign flips
    const V<float> sin_v = select(odd, pc, ps);
    const V<float> cos_v = select(odd, ps, pc);
    qr = fma(k(kPhiMag), cos_v, qr);  // sQr += PhiMag * cos
    qi = fma(k(kPhiMag), sin_v, qi);  // sQi += PhiMag * sin
  }

  // ck[k]'s Kx, Ky, Kz, PhiMag (no data: any value), 2 pi, and sincosf's constants (2 / pi, pi / 2 in three
  // parts; one stand-in polynomial coefficient: the values steer nothing).
  static constexpr float kKx = 0.0f, kKy = 0.0f, kKz = 0.0f, kPhiMag = 0.0f, kPi2 = 6.2831853071795864769f,
                         kTwoOverPi = 0.636619772f, kPiOver2Hi = 1.57079601f, kPiOver2Mid = 3.13916473e-07f,
                         kPiOver2Lo = 5.39030253e-15f, kPoly = 1.0f / 120.0f;

  std::int64_t num_x_, num_k_, launch_;
  Array<float> x_, y_, z_, qr_, qi_;
};

}  // namespace

LibraryEntry parboil_mri_q_ComputeQ() {
  return {"parboil/mri-q_ComputeQ",
          "Parboil mri-q, kernel ComputeQ_GPU; GV100 study input: dataset large (64^3 voxels, 2,048 samples: "
          "two launches, launch=0 and 1)",
          {{"numx", 262144, 256, std::int64_t(1) << 28, "voxels (a multiple of 256)"},
           {"numk", 2048, 1, std::int64_t(1) << 28, "k-space samples"},
           {"launch", 0, 0, 1 << 20, "which launch: samples 1,024 x launch onward"}},
          [](const Args& a) { return std::make_unique<MriQComputeQ>(a); }};
}

}  // namespace numagpu::kernels
