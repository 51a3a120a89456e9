// rodinia/srad_v1_srad: the srad kernel of Rodinia 3.1's srad_v1, CUDA version (cuda/srad/srad_v1/
// srad_kernel.cu, launched from main.cu; learned from them, written here anew). Speckle-reducing
// anisotropic diffusion of an Nr x Nc image stored column-major (element ei at row ei % Nr, column
// ei / Nr). One thread per element, 512 threads per CTA (NUMBER_THREADS), ceil(Ne / 512) CTAs in x. Each
// thread recovers its row and column from ei (with the source's (ei + 1) % Nr - 1 formula and its branch
// for the last row), reads its pixel and its four neighbours through the index arrays iN, iS (per row) and
// jW, jE (per column) that clamp at the borders, computes the directional derivatives, the normalized
// gradient and Laplacian, the ICOV and the diffusion coefficient (saturated to [0, 1] by an if / else if),
// and writes the four derivatives and the coefficient.
//
// Reference run of the GV100 study: `srad 100 0.5 502 458`: 100 iterations, lambda 0.5, a 502 x 458 image
// (Ne = 229,916; 450 CTAs, the last with 28 threads). Each iteration launches prepare, reduce, srad and
// srad2; this library kernel is one launch of srad, the first iteration's (lambda is used by srad2 only).
// Input generation: the program reads data/srad/image.pgm, a 502 x 458 8-bit ultrasound image, resizes it
// to Nr x Nc (the identity at the reference size) and exponentiates it in the extract kernel (I = exp(pixel
// / 255)). That image is not reproduced: the pixels here are an ultrasound-like texture, a smooth pattern
// (96 + 64 sin(2 pi r / 125) cos(2 pi c / 115), 32 .. 160) times multiplicative speckle uniform in
// [0.5, 1.5), rounded and clamped to 0 .. 255, from a splitmix64 stream of `seed`, then exponentiated as
// extract does. q0sqr, the ROI statistic the host passes, is computed from that image as the host does
// (ROI = the whole image: variance / mean^2). The values steer only the saturation branch; the index
// arrays (iN, iS, jW, jE) carry data because they steer the addresses.
//
// Simplifications: a division's result takes the division's latency (sm.*_div_latency), and with dependent
// latencies a division (fp32, fp64 or integer) also issues the rest of nvcc's sequence; the double-precision
// literals of the source (0.5, 1.0 / 16.0, 0.25, 1.0) make those steps fp64 with conversions, as
// in the source. The branch on (ei + 1) % Nr == 0 is a divergent branch as written (nvcc may predicate it).
// All the arithmetic is computed with values (nothing is charged without one), so its dependent chains are
// seen.
#include <cmath>

#include "kernels/generate.hpp"
#include "kernels/library.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 512;  // NUMBER_THREADS

class Srad : public Kernel {
 public:
  explicit Srad(const Args& a)
      : Kernel(a),
        nr_(a["rows"]),
        nc_(a["cols"]),
        ne_(nr_ * nc_),
        seed_(static_cast<std::uint64_t>(a["seed"])),
        image_(array<float>("I", std::uint64_t(ne_), nc_, nr_, &image_values_)),
        i_n_(array<int>("iN", std::uint64_t(nr_), 0, 0, &i_n_values_)),
        i_s_(array<int>("iS", std::uint64_t(nr_), 0, 0, &i_s_values_)),
        j_e_(array<int>("jE", std::uint64_t(nc_), 0, 0, &j_e_values_)),
        j_w_(array<int>("jW", std::uint64_t(nc_), 0, 0, &j_w_values_)),
        d_n_(array<float>("dN", std::uint64_t(ne_), nc_, nr_, &d_n_values_)),
        d_s_(array<float>("dS", std::uint64_t(ne_), nc_, nr_, &d_s_values_)),
        d_w_(array<float>("dW", std::uint64_t(ne_), nc_, nr_, &d_w_values_)),
        d_e_(array<float>("dE", std::uint64_t(ne_), nc_, nr_, &d_e_values_)),
        c_(array<float>("c", std::uint64_t(ne_), nc_, nr_, &c_values_)) {}

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((ne_ + kThreads - 1) / kThreads), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 28;
    l.shared_bytes = 0;
    l.body = [this](Cta& c) { body(c); };
    // LASP's index terms: ei = tx + bx * 512, invariant in bx, no loop: I[ei] and the five outputs have no
    // datablock locality (a stencil). The neighbours' reads I[iN[row] + col * nr] are data-dependent
    // (unclassified); the same array's own-element read classifies it. iN, iS, jE, jW: small tables.
    const runtime::IndexTerms own = runtime::terms::kPerThread;
    l.accesses = {lasp_access(image_, own, kThreads * 4), lasp_access(d_n_, own, kThreads * 4),
                  lasp_access(d_s_, own, kThreads * 4),   lasp_access(d_w_, own, kThreads * 4),
                  lasp_access(d_e_, own, kThreads * 4),   lasp_access(c_, own, kThreads * 4)};
    return l;
  }

  void prepare() override {
    // The index arrays as main.cu sets them: neighbours, clamped at the borders.
    i_n_values_.resize(std::uint64_t(nr_));
    i_s_values_.resize(std::uint64_t(nr_));
    j_w_values_.resize(std::uint64_t(nc_));
    j_e_values_.resize(std::uint64_t(nc_));
    for (std::int64_t i = 0; i < nr_; ++i) {
      i_n_values_[std::uint64_t(i)] = int(i == 0 ? 0 : i - 1);
      i_s_values_[std::uint64_t(i)] = int(i == nr_ - 1 ? nr_ - 1 : i + 1);
    }
    for (std::int64_t j = 0; j < nc_; ++j) {
      j_w_values_[std::uint64_t(j)] = int(j == 0 ? 0 : j - 1);
      j_e_values_[std::uint64_t(j)] = int(j == nc_ - 1 ? nc_ - 1 : j + 1);
    }
    // The image after extract, column-major, and the ROI statistic of the host.
    constexpr double kTwoPi = 6.283185307179586;
    SplitMix64 random(seed_);
    resize_interruptibly(image_values_, std::uint64_t(ne_));
    double sum = 0, sum2 = 0;
    for (std::int64_t col = 0; col < nc_; ++col) {
      for (std::int64_t row = 0; row < nr_; ++row) {
        interrupt_point();
        const double pattern = 96 + 64 * std::sin(kTwoPi * row / 125) * std::cos(kTwoPi * col / 115);
        const double pixel = std::clamp(std::round(pattern * (0.5 + random.uniform())), 0.0, 255.0);
        const float v = std::exp(float(pixel) / 255);
        image_values_[std::uint64_t(col * nr_ + row)] = v;
        sum += v;
        sum2 += double(v) * v;
      }
    }
    const double mean = sum / double(ne_);
    q0sqr_ = float((sum2 / double(ne_) - mean * mean) / (mean * mean));
    for (std::vector<float>* out : {&d_n_values_, &d_s_values_, &d_w_values_, &d_e_values_, &c_values_})
      zeros_interruptibly(*out, std::uint64_t(ne_));
  }

 private:
  void body(Cta& c) {
    const V<std::int64_t> ei = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
    const V<std::int64_t> next = ei + 1;
    // Nr is a kernel argument: a division by a run-time value (idiv, with its instruction sequence), and the
    // remainder by the same divisor from its quotient (one IMAD), as the compiler pairs them.
    V<std::int64_t> col = idiv(next, nr_);  // the source's (ei + 1) / Nr + 1 - 1, folded by the compiler
    const V<std::int64_t> rem = remainder_of_quotient(next, col, nr_);
    V<std::int64_t> row = rem - 1;
    const V<bool> last_row = rem == 0;
    c.if_(last_row, [&] {
      row = V<std::int64_t>(c, nr_ - 1);
      col = col - 1;
    });
    c.if_(ei < ne_, [&] {
      const V<float> jc = c.load(image_, ei);
      // Each neighbour's column offset, then its row (a load): one statement each, in that order.
      const V<std::int64_t> north_offset = col * nr_;
      const V<float> dn = c.load(image_, widen(c.load(i_n_, row)) + north_offset) - jc;
      const V<std::int64_t> south_offset = col * nr_;
      const V<float> ds = c.load(image_, widen(c.load(i_s_, row)) + south_offset) - jc;
      const V<float> dw = c.load(image_, row + widen(c.load(j_w_, col)) * nr_) - jc;
      const V<float> de = c.load(image_, row + widen(c.load(j_e_, col)) * nr_) - jc;
      // Normalized discrete gradient magnitude squared and Laplacian (fp32).
      // One statement per instruction where C++ would leave the order of evaluation open.
      const V<float> gradient = fma(de, de, fma(dw, dw, fma(ds, ds, dn * dn)));
      const V<float> jc2 = jc * jc;
      const V<float> g2 = gradient / jc2;
      const V<float> l = (dn + ds + dw + de) / jc;
      // ICOV: the source's double literals make these steps fp64.
      const V<double> g2d = convert<double>(g2), ll = convert<double>(l * l);
      const V<double> half_g2 = g2d * 0.5;
      const V<double> ll_16 = ll * (1.0 / 16.0);
      const V<float> num = convert<float>(half_g2 - ll_16);
      const V<float> den = convert<float>(convert<double>(l) * 0.25 + 1.0);
      const V<float> qsqr = num / (den * den);
      // Diffusion coefficient, then saturated to [0, 1].
      const V<float> den2 = (qsqr - q0sqr_) / (q0sqr_ * (1 + q0sqr_));
      V<float> coeff = convert<float>(1.0 / (convert<double>(den2) + 1.0));
      c.if_else(
          coeff < 0.0f, [&] { coeff = 0.0f; }, [&] { c.if_(coeff > 1.0f, [&] { coeff = 1.0f; }); });
      c.store(d_n_, ei, dn);
      c.store(d_s_, ei, ds);
      c.store(d_w_, ei, dw);
      c.store(d_e_, ei, de);
      c.store(c_, ei, coeff);
    });
  }

  // An int loaded from an index array, as the 64-bit index the address computation uses.
  static V<std::int64_t> widen(const V<int>& v) {
    return map(v, InstrClass::kInt, [](int x) { return std::int64_t(x); });
  }

  std::int64_t nr_, nc_, ne_;
  std::uint64_t seed_;
  float q0sqr_ = 0;
  std::vector<int> i_n_values_, i_s_values_, j_e_values_, j_w_values_;
  std::vector<float> d_n_values_, d_s_values_, d_w_values_, d_e_values_, c_values_, image_values_;
  Array<float> image_;  // the arrays in main.cu's cudaMalloc order
  Array<int> i_n_, i_s_, j_e_, j_w_;
  Array<float> d_n_, d_s_, d_w_, d_e_, c_;
};

}  // namespace

LibraryEntry rodinia_srad_v1_srad() {
  return {
      "rodinia/srad_v1_srad",
      "Rodinia 3.1 srad_v1 (CUDA), kernel srad; GV100 study input: 100 0.5 502 458 (a 502 x 458 image), one "
      "launch (the first iteration's)",
      {{"rows", 502, 2, 1 << 15, "image rows Nr (the fast, column-major dimension)"},
       {"cols", 458, 2, 1 << 15, "image columns Nc"},
       {"seed", 1, 0, std::int64_t(1) << 62, "seed of the generated image"}},
      [](const Args& a) { return std::make_unique<Srad>(a); }};
}

}  // namespace numagpu::kernels
