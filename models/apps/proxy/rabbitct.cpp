// proxy/rabbitct (application): RabbitCT's cone-beam back-projection (Rohkohl, Keck, Hofmann, Hornegger,
// "RabbitCT - an open platform for benchmarking 3D cone-beam reconstruction algorithms", Medical Physics
// 2009; learned from the benchmark's published algorithm, written here anew). A volume of L^3 float voxels
// (L = 512: 512 MiB) is reconstructed from projections of 1248 x 960 float pixels, one launch a projection
// with the projection's 3 x 4 matrix A as a kernel argument (RabbitCT copies each image to the GPU before
// its launch: one image buffer): each thread takes one voxel, maps its world position (origin O, voxel size
// R = 256 mm / L) through A to (u', v', w'), divides u = u' / w', v = v' / w', reads the 2 x 2 pixels
// around (u, v) (tex2D's bilinear filter reads the same four texels; four texture loads here, the model
// having no filtering unit) where they lie on the detector, and adds the bilinear value weighted by
// 1 / w'^2 to the voxel (a load and a store). Blocks of 32 x 32 threads over x and y, one z slice a block
// row of the grid: L = 512 is (16, 16, 512) = 131,072 CTAs, a warp 32 consecutive voxels in x.
//
// The geometry is generated, not RabbitCT's C-arm dataset (not redistributable, and its images' values
// steer nothing): a circular trajectory over 200 degrees in `total` projections (RabbitCT's 496), source to
// isocentre 750 mm, to detector 1200 mm, pixels 0.32 mm, the detector centred on the central ray; the images
// hold 1.0 (so a voxel's value is the sum of 1 / w'^2 over the projections that see it). The reference
// implementation also weighs pixels on the detector's last row and column; here a voxel whose 2 x 2 pixels
// are not all on the detector adds nothing.
#include <cmath>

#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kWidth = 1248, kHeight = 960, kBlock = 32;
constexpr double kSourceIso = 750.0, kSourceDetector = 1200.0, kPixel = 0.32, kVolumeMm = 256.0;

class RabbitctApp : public Application {
 public:
  RabbitctApp(const Args& a, const std::string& input)
      : Application(a, input), l_(a["L"]), projections_(a["projections"]), total_(a["total"]) {
    if (l_ % kBlock) throw KernelError("argument 'L': must be a multiple of 32");
    if (projections_ > total_) throw KernelError("argument 'projections': at most 'total'");
  }

  void host() override {
    for (std::int64_t k = 0; k < projections_; ++k) {
      // The trajectory's k-th angle; the matrix maps world (x, y, z, 1) to (u', v', w'): w' the depth
      // along the central ray, u and v the detector's column and row.
      const double theta = double(k) * (200.0 / double(total_)) * std::acos(-1.0) / 180.0;
      const double c = std::cos(theta), s = std::sin(theta), f = kSourceDetector / kPixel;
      const double u0 = (kWidth - 1) / 2.0, v0 = (kHeight - 1) / 2.0;
      const std::array<float, 12> m = {float(-f * s - u0 * c),
                                       float(f * c - u0 * s),
                                       0.0f,
                                       float(u0 * kSourceIso),
                                       float(-v0 * c),
                                       float(-v0 * s),
                                       float(f),
                                       float(v0 * kSourceIso),
                                       float(-c),
                                       float(-s),
                                       0.0f,
                                       float(kSourceIso)};
      launch("backproject", backproject(m));
    }
  }

 private:
  Launch backproject(const std::array<float, 12>& m) {
    Launch l;
    l.grid = {std::uint32_t(l_ / kBlock), std::uint32_t(l_ / kBlock), std::uint32_t(l_)};
    l.block = {kBlock, kBlock, 1};
    l.regs_per_thread = 32;
    const float r = float(kVolumeMm / double(l_)), o = -float(l_ - 1) / 2.0f * r;
    l.body = [this, m, r, o](Cta& c) {
      const V<std::int64_t> i = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kBlock;
      const V<std::int64_t> j = c.threadIdx_y() + std::int64_t(c.blockIdx.y) * kBlock;
      const std::int64_t k = c.blockIdx.z;
      const V<float> x = convert<float>(i) * r + o, y = convert<float>(j) * r + o;
      const float z = float(k) * r + o;  // uniform over the CTA: folded into the rows' constants
      const V<float> up = fma(x, V<float>(c, m[0]), fma(y, V<float>(c, m[1]), V<float>(c, m[2] * z + m[3])));
      const V<float> vp = fma(x, V<float>(c, m[4]), fma(y, V<float>(c, m[5]), V<float>(c, m[6] * z + m[7])));
      const V<float> wp =
          fma(x, V<float>(c, m[8]), fma(y, V<float>(c, m[9]), V<float>(c, m[10] * z + m[11])));
      const V<float> u = up / wp, v = vp / wp;
      const V<std::int64_t> iu = convert<std::int64_t>(floor(u)), iv = convert<std::int64_t>(floor(v));
      const V<float> fu = u - convert<float>(iu), fv = v - convert<float>(iv);
      c.if_(iu >= 0 && iu < kWidth - 1 && iv >= 0 && iv < kHeight - 1, [&] {
        const V<std::int64_t> p = iv * kWidth + iu;
        const V<float> p00 = c.texture_load(image_, p), p01 = c.texture_load(image_, p + 1),
                       p10 = c.texture_load(image_, p + kWidth), p11 = c.texture_load(image_, p + kWidth + 1);
        const V<float> top = fma(fu, p01 - p00, p00), bottom = fma(fu, p11 - p10, p10);
        const V<float> value = fma(fv, bottom - top, top);
        const V<std::int64_t> voxel = i + (j + k * l_) * l_;
        c.store(volume_, voxel, c.load(volume_, voxel) + value / (wp * wp));
      });
    };
    // LASP's index terms (LADM §III-C): the voxel i + (j + k L) L with i = tx + 32 bx, j = ty + 32 by and
    // k = blockIdx.z holds both block ids in the loop-invariant group (blockIdx.z too, which Algorithm 1
    // does not read) and there is no loop: Table II row 1 without a stride. A CTA row reads 32 floats
    // (128 B), its datablock: align-aware batches of multiples of 4096 / 128 = 32 CTAs, kernel-wide
    // placement, RTWICE. The image is read through the texture unit (RabbitCT binds it to a texture, a
    // cudaArray, not a global pointer the kernel indexes): LADM's pass sees no access to it, so nothing is
    // stated and LASP's default places it (and its (u, v) are data: row 7 had it been a pointer).
    l.accesses = {lasp_access(volume_, {true, true, false, runtime::LoopVariant::kNone, 0}, kBlock * 4)};
    return l;
  }

  static V<float> floor(const V<float>& a) {
    return map(a, InstrClass::kFp32, [](float v) { return std::floor(v); });
  }

  std::int64_t l_, projections_, total_;
  Data<float> volume_{this, "volume", std::uint64_t(l_* l_* l_)};
  Data<float> image_{this, "image", std::uint64_t(kWidth* kHeight), 1.0f};
};

}  // namespace

ApplicationEntry app_proxy_rabbitct() {
  return {
      "proxy/rabbitct",
      "RabbitCT's cone-beam back-projection: one launch a projection (1248 x 960 pixels), one thread a "
      "voxel of an L^3 volume, bilinear detector reads weighted by 1 / w'^2 (generated circular geometry)",
      {{"L", 512, 32, 1024, "voxels per side (a multiple of 32)"},
       {"projections", 2, 1, 496, "projections back-projected (launches)"},
       {"total", 496, 1, 496, "projections of the trajectory (its angular step: 200 degrees / total)"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<RabbitctApp>(a, input); }};
}

}  // namespace numagpu::kernels
