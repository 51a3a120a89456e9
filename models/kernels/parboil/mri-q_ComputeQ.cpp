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
// a quadrant select) is charged per sample below; the slow path is never taken for these arguments.
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
    const V<float> qr = c.load(qr_, x_index), qi = c.load(qi_, x_index);
    const std::int64_t first = launch_ * kPerLaunch;  // kGlobalIndex
    const std::int64_t samples = std::min(kPerLaunch, num_k_ - first);
    c.charge(InstrClass::kInt);  // numK % 2
    if (num_k_ % 2) sample(c);   // the peeled odd sample (numK, not this launch's count, decides)
    const std::int64_t pairs = (samples - (num_k_ % 2)) / 2;
    c.uniform_loop(std::uint64_t(pairs), [&](std::uint64_t) {
      sample(c);
      sample(c);
      c.charge(InstrClass::kInt, 4);  // kIndex += 2, kGlobalIndex += 2, the two compares
    });
    c.store(qr_, x_index, qr);
    c.store(qi_, x_index, qi);
  }

  // One sample: arg = PIx2 * (Kx sX + Ky sY + Kz sZ) (FMUL, 2 FFMA, FMUL); sincosf's fast path (the range
  // test and its branch, the quadrant: FMUL, round, F2I, three Cody-Waite FFMAs; two polynomials of five
  // FFMAs; the quadrant's selects and sign flips: four integer operations); sQr += PhiMag * cos, sQi +=
  // PhiMag * sin (2 FFMA). The ck operands come from the constant bank.
  static void sample(Cta& c) {
    c.charge(InstrClass::kFp32, 4 + 5 + 10 + 2);
    c.charge(InstrClass::kInt, 2 + 4);
    c.charge(InstrClass::kBranch);
  }

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
