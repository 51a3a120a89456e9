// proxy/rsbench (application): RSBench, the multipole cross-section lookup of Monte Carlo neutron transport
// (Tramm et al., EASC 2014; ANL-CESAR/RSBench, its CUDA port's baseline event-based kernel, learned from
// its public description and source, written here anew). One launch, one thread per lookup, blocks of 256
// threads: each lookup draws an energy E in [0, 1) and a material from the Hoogenboom-Martin reactor's
// volume fractions with RSBench's LCG (m = 2^63, fast-forwarded to the lookup's place in the stream, two
// draws a lookup), then for each nuclide of the material (mats, concs) computes its microscopic cross
// sections: the nuclide's window count gives the window of E (spacing 1 / n_windows), four l-value phase
// factors from pseudo_K0RS (atan corrections, cos and sin), the window's background (T, A, F) times E,
// and for each pole of the window [start, end) (the original's loop bound: the window's last pole is not
// visited) its Doppler-broadened contribution through the Faddeeva function W(Z), Z = (E - pole) / 2:
// the three-term asymptotic expansion, or Abrarov's 10-term series where |Z| < 6 (about 0.5 % of poles,
// the reason for the poles' 152.5 scale). The macroscopic sums weighted by the concentrations; the lookup
// stores the index (1..4) of the largest of (total, absorption, fission, elastic) into `verification`,
// which the host sums.
//
// Data layout as the original's: poles are structs of four complex doubles and an l-value (72 B; loaded
// here as nine 8-byte loads, where nvcc would use wider ones), padded per nuclide to the largest pole count;
// windows are 32 B (T, A, F, and the start and end pole as two int32, one 8-byte load). Generated as
// RSBench does: each nuclide at least one pole and one window, the rest of avg x nuclides drawn uniformly
// over the nuclides; poles spread evenly over a nuclide's windows. The materials' nuclide counts are H-M's
// (fuel 34 of 68 nuclides, "small", or 321 of 355, "large"; then 5, 4, 4, 27, 21 x 5, 9, 9); which
// nuclides a material holds is drawn from `seed` (RSBench lists fixed ones), as are all values (RSBench
// uses its LCG; only their distributions matter here).
//
// Costs charged beyond the operations written out: a double sqrt 8 fp64 instructions, sin or cos 24, atan
// 32, fast_exp 12 multiplies (written out), estimates of the CUDA math library's sequences, not measured.
#include <cmath>
#include <cstring>
#include <optional>

#include "kernels/application.hpp"
#include "kernels/generate.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;
constexpr int kMaterials = 12;
constexpr int kNumL = 4;
constexpr int kPoleDoubles = 9;    // EA, RT, RA, RF (real, imaginary) and the l-value: 72 B
constexpr int kWindowDoubles = 4;  // T, A, F and [start, end) as two int32: 32 B
constexpr unsigned kSqrtCost = 8, kSinCosCost = 24, kAtanCost = 32;
// RSBench's LCG: x' = a x + 1 mod 2^63.
constexpr std::uint64_t kLcgA = 2806196910506780709ull, kLcgMask = (std::uint64_t(1) << 63) - 1;
constexpr std::uint64_t kStartingSeed = 1070;
// The H-M core's volume fractions per material (fuel, cladding, cold and hot borated water, RPV, lower
// radial reflector, top reflector, bottom plate, bottom and top nozzle, top and bottom of the assemblies).
constexpr double kVolume[kMaterials] = {0.140, 0.052, 0.275, 0.134, 0.154, 0.064,
                                        0.066, 0.055, 0.008, 0.015, 0.025, 0.013};

std::uint64_t lcg_next(std::uint64_t s) {
  return (kLcgA * s + 1) & kLcgMask;
}

// x_n of the LCG from x_0 = seed in O(log n): composes the affine map (a, c) by squaring.
std::uint64_t lcg_skip(std::uint64_t seed, std::uint64_t n) {
  std::uint64_t a = kLcgA, c = 1, a_n = 1, c_n = 0;
  for (; n > 0; n >>= 1) {
    if (n & 1) a_n = a_n * a, c_n = c_n * a + c;
    c *= a + 1;
    a *= a;
  }
  return (a_n * seed + c_n) & kLcgMask;
}

// The material of a roll in [0, 1): RSBench's scan (material i once the roll is below the fractions of
// materials 1..i; fuel, material 0, is what is left: 0.139 of the rolls).
int material_of(double roll) {
  double running = 0;
  for (int i = 1; i < kMaterials; ++i) {
    running += kVolume[i];
    if (roll < running) return i;
  }
  return 0;
}

// A double-precision library call: its value, and its instruction sequence charged.
V<double> fp64_call(const V<double>& x, double (*f)(double), unsigned instructions) {
  V<double> r = map(x, InstrClass::kFp64, f);
  x.cta().charge(InstrClass::kFp64, instructions - 1);
  return r;
}

struct Complex {
  V<double> r, i;
};
Complex operator+(const Complex& a, const Complex& b) {
  return {a.r + b.r, a.i + b.i};
}
Complex operator-(const Complex& a, const Complex& b) {
  return {a.r - b.r, a.i - b.i};
}
Complex operator*(const Complex& a, const Complex& b) {
  return {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
}
// RSBench's c_div: two divisions by |b|^2.
Complex operator/(const Complex& a, const Complex& b) {
  const V<double> d = b.r * b.r + b.i * b.i;
  return {(a.r * b.r + a.i * b.i) / d, (a.i * b.r - a.r * b.i) / d};
}
Complex real(Cta& c, double v) {
  return {V<double>(c, v), V<double>(c, 0.0)};
}

// exp(x) as (1 + x / 4096)^4096: twelve squarings (RSBench's fast_exp, exact across compilers).
V<double> fast_exp(const V<double>& x) {
  V<double> y = x * 0.000244140625 + 1.0;
  for (int k = 0; k < 12; ++k)
    y = y * y;
  return y;
}
Complex fast_cexp(const Complex& z) {
  const V<double> e = fast_exp(z.r);
  return {e * fp64_call(
                  z.i, [](double v) { return std::cos(v); }, kSinCosCost),
          e * fp64_call(
                  z.i, [](double v) { return std::sin(v); }, kSinCosCost)};
}

// The Faddeeva function W(Z): Abrarov's series (N = 10, Tm = 12) where |Z| < 6, else the three-term
// asymptotic expansion. The series' constants from their formulas: a_n = 2 sqrt(pi) / Tm exp(-(n pi /
// Tm)^2), the denominators (n pi)^2, the prefactor i Tm^2 / sqrt(pi).
Complex faddeeva(Cta& c, const Complex& z) {
  const V<double> abs = fp64_call(
      z.r * z.r + z.i * z.i, [](double v) { return std::sqrt(v); }, kSqrtCost);
  Complex w{V<double>(c, 0.0), V<double>(c, 0.0)};
  c.if_else(
      abs < 6.0,
      [&] {
        const double pi = std::acos(-1.0), tm = 12.0;
        const Complex i{V<double>(c, 0.0), V<double>(c, 1.0)};
        const Complex e = fast_cexp(Complex{V<double>(c, 0.0), V<double>(c, tm)} * z);
        Complex r = (i * (real(c, 1.0) - e)) / (real(c, tm) * z);
        const Complex z2 = z * z;
        Complex sum = real(c, 0.0);
        for (int n = 1; n <= 10; ++n) {
          const double a = 2 * std::sqrt(pi) / tm * std::exp(-(n * pi / tm) * (n * pi / tm));
          const Complex top = real(c, n % 2 ? -1.0 : 1.0) * e - real(c, 1.0);
          const Complex bottom = real(c, (n * pi) * (n * pi)) - real(c, tm * tm) * z2;
          sum = sum + real(c, a) * (top / bottom);
        }
        r = r + Complex{V<double>(c, 0.0), V<double>(c, tm * tm / std::sqrt(pi))} * (z * sum);
        w = r;
      },
      [&] {
        const Complex z2 = z * z;
        const Complex i{V<double>(c, 0.0), V<double>(c, 1.0)};
        const Complex sum = real(c, 0.512424224754768462984) / (z2 - real(c, 0.275255128608410950901)) +
                            real(c, 0.051765358792987823964) / (z2 - real(c, 2.724744871391589049099));
        w = (z * i) * sum;
      });
  return w;
}

class RsbenchApp : public Application {
 public:
  RsbenchApp(const Args& a, const std::string& input)
      : Application(a, input), lookups_(a["lookups"]), nuclides_(a["nuclides"]) {
    if (nuclides_ != 68 && nuclides_ != 355)
      throw KernelError("argument 'nuclides': must be 68 (H-M small) or 355 (H-M large)");
    SplitMix64 r{std::uint64_t(a["seed"])};
    std::vector<std::int32_t> n_poles = spread(a["poles"], r), n_windows = spread(a["windows"], r);
    max_poles_ = *std::max_element(n_poles.begin(), n_poles.end());
    max_windows_ = *std::max_element(n_windows.begin(), n_windows.end());
    const int counts[kMaterials] = {nuclides_ == 68 ? 34 : 321, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9};
    max_nucs_ = counts[0];
    place();
    for (int m = 0; m < kMaterials; ++m) {
      num_nucs_->values[m] = counts[m];
      std::vector<std::int32_t> ids(nuclides_);
      for (std::int64_t n = 0; n < nuclides_; ++n)
        ids[n] = std::int32_t(n);
      for (int k = 0; k < counts[m]; ++k) {  // the first counts[m] of a seeded shuffle
        std::swap(ids[k], ids[k + r.next() % (nuclides_ - k)]);
        mats_->values[m * max_nucs_ + k] = ids[k];
        concs_->values[m * max_nucs_ + k] = r.uniform();
      }
    }
    for (std::int64_t n = 0; n < nuclides_; ++n) {
      n_windows_->values[n] = n_windows[n];
      for (std::int32_t p = 0; p < n_poles[n]; ++p) {
        double* pole = &poles_->values[(n * max_poles_ + p) * kPoleDoubles];
        pole[0] = 152.5 * r.uniform(), pole[1] = 152.5 * r.uniform();  // EA
        for (int k = 2; k < 8; k += 2)
          pole[k] = 152.5 * r.uniform(), pole[k + 1] = r.uniform();  // RT, RA, RF
        pole[8] = double(r.next() % kNumL);
      }
      const std::int32_t space = n_poles[n] / n_windows[n], remainder = n_poles[n] - space * n_windows[n];
      std::int32_t at = 0;
      for (std::int32_t w = 0; w < n_windows[n]; ++w) {
        double* window = &windows_->values[(n * max_windows_ + w) * kWindowDoubles];
        window[0] = r.uniform(), window[1] = r.uniform(), window[2] = r.uniform();
        std::int32_t range[2] = {at, at + space - 1};
        at += space;
        if (w < remainder) ++at, ++range[1];
        std::memcpy(&window[3], range, sizeof range);
      }
      for (int l = 0; l < kNumL; ++l)
        k0rs_->values[n * kNumL + l] = r.uniform();
    }
  }

  void host() override {
    Launch l = one_thread_per_item(lookups_, kThreads, 64);
    l.body = [this](Cta& c) { lookup(c); };
    // LASP's index terms (LADM §III-C), i = tx + 256 bx the lookup. verification[i]: Table II row 1 without
    // a loop (256 x 8 B a CTA). mat and nuc are data (the LCG's draw, mats' entry), so every index built on
    // them is data-dependent; what decides is the loop-variant group. mats and concs at mat max_nucs + k, k
    // the nuclide loop's induction variable: exactly m, ITL (row 6); pseudo_K0RS at nuc numL + l, l the
    // phase factors' loop over numL (an input): m, ITL; poles at nuc max_poles + p (a Pole is a record: its
    // nine doubles are field offsets), p from the window's start one pole a step: m, ITL. num_nucs[mat],
    // n_windows[nuc] and windows at nuc max_windows + window (a Window record, the window computed from E):
    // gathered, no loop term (row 7). The poles are by far the largest array: the kernel is ITL,
    // kernel-wide CTAs and pages and RONCE under CRB (§III-E).
    {
      using runtime::terms::kGathered, runtime::terms::kOwnRun;
      l.accesses = {lasp_access(*verification_, runtime::terms::kPerThread, kThreads * 8),
                    lasp_access(*num_nucs_, kGathered),
                    lasp_access(*mats_, kOwnRun),
                    lasp_access(*concs_, kOwnRun),
                    lasp_access(*n_windows_, kGathered),
                    lasp_access(*k0rs_, kOwnRun),
                    lasp_access(*windows_, kGathered),
                    lasp_access(*poles_, kOwnRun)};
    }
    launch("xs_lookup_kernel_baseline", std::move(l));
    std::int64_t sum = 0;  // the verification hash the host reduces
    for (std::int64_t v : verification_->values)
      sum += v;
    hash_ = sum;
  }

 private:
  // Each nuclide at least 1, then avg x nuclides - nuclides draws uniformly over them.
  std::vector<std::int32_t> spread(std::int64_t avg, SplitMix64& r) const {
    std::vector<std::int32_t> n(nuclides_, 1);
    for (std::int64_t k = 0; k < (avg - 1) * nuclides_; ++k)
      ++n[r.next() % nuclides_];
    return n;
  }

  void place() {
    num_nucs_.emplace(this, "num_nucs", kMaterials);
    concs_.emplace(this, "concs", kMaterials * max_nucs_);
    mats_.emplace(this, "mats", kMaterials * max_nucs_);
    n_windows_.emplace(this, "n_windows", nuclides_);
    poles_.emplace(this, "poles", nuclides_ * max_poles_ * kPoleDoubles);
    windows_.emplace(this, "windows", nuclides_ * max_windows_ * kWindowDoubles);
    k0rs_.emplace(this, "pseudo_K0RS", nuclides_ * kNumL);
    verification_.emplace(this, "verification", lookups_);
  }

  // A uniform double from the thread's LCG state (advanced): an IMAD.WIDE pair and the mask, a conversion
  // and the scaling by 2^-63.
  static V<double> draw(V<std::int64_t>& seed) {
    seed =
        map(seed, InstrClass::kInt, [](std::int64_t s) { return std::int64_t(lcg_next(std::uint64_t(s))); });
    seed.cta().charge(InstrClass::kInt, 3);
    return convert<double>(seed) * 0x1.0p-63;
  }

  void lookup(Cta& c) {
    const V<std::int64_t> i = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
    c.exit_if(i >= lookups_);
    // fast_forward_LCG(seed, 2 i): a loop over the bits of 2 i, about 8 integer instructions a bit.
    V<std::int64_t> seed =
        map(i, InstrClass::kInt, [](std::int64_t k) { return std::int64_t(lcg_skip(kStartingSeed, 2 * k)); });
    c.charge(InstrClass::kInt, 8 * unsigned(std::ceil(std::log2(double(2 * lookups_)))));
    const V<double> e = draw(seed);
    const V<std::int64_t> mat =
        map(draw(seed), InstrClass::kFp64, [](double roll) { return std::int64_t(material_of(roll)); });
    c.charge(InstrClass::kFp64, 2 * (kMaterials - 1));  // the scan's additions and compares
    V<double> macro[4] = {V<double>(c, 0.0), V<double>(c, 0.0), V<double>(c, 0.0), V<double>(c, 0.0)};
    const V<std::int64_t> count = convert<std::int64_t>(c.load(*num_nucs_, mat));
    V<std::int64_t> k(c, 0);
    c.while_(
        [&] { return k < count; },
        [&] {
          const V<std::int64_t> slot = mat * max_nucs_ + k;
          const V<std::int64_t> nuc = convert<std::int64_t>(c.load(*mats_, slot));
          V<double> micro[4] = {V<double>(c, 0.0), V<double>(c, 0.0), V<double>(c, 0.0), V<double>(c, 0.0)};
          micro_xs(c, nuc, e, micro);
          const V<double> conc = c.load(*concs_, slot);
          for (int x = 0; x < 4; ++x)
            macro[x] = fma(micro[x], conc, macro[x]);
          k = k + 1;
        });
    // The index of the largest (first of equals), plus one.
    V<std::int64_t> best(c, 1);
    V<double> most = macro[0];
    for (int x = 1; x < 4; ++x) {
      const V<bool> more = macro[x] > most;
      best = select(more, V<std::int64_t>(c, x + 1), best);
      most = select(more, macro[x], most);
    }
    c.store(*verification_, i, best);
  }

  // calculate_micro_xs_doppler: the nuclide's window, its phase factors, background and poles.
  void micro_xs(Cta& c, const V<std::int64_t>& nuc, const V<double>& e, V<double> (&xs)[4]) {
    const V<std::int32_t> n_windows = c.load(*n_windows_, nuc);
    const V<double> spacing = V<double>(c, 1.0) / convert<double>(n_windows);
    V<std::int64_t> window = convert<std::int64_t>(e / spacing);
    window = select(window == convert<std::int64_t>(n_windows), window - 1, window);
    // The four sigT factors: phi = K0RS sqrt(E), corrected by atan terms for l = 1..3, doubled.
    const V<double> root_e = fp64_call(
        e, [](double v) { return std::sqrt(v); }, kSqrtCost);
    Complex factor[kNumL] = {real(c, 0.0), real(c, 0.0), real(c, 0.0), real(c, 0.0)};
    for (int l = 0; l < kNumL; ++l) {
      V<double> phi = c.load(*k0rs_, nuc * kNumL + l) * root_e;
      auto atan = [](const V<double>& x) {
        return fp64_call(
            x, [](double v) { return std::atan(v); }, kAtanCost);
      };
      if (l == 1) phi = phi + atan(phi);  // RSBench's phi -= -atan(phi)
      if (l == 2) phi = phi - atan(phi * 3.0 / (V<double>(c, 3.0) - phi * phi));
      if (l == 3)
        phi = phi - atan(phi * (V<double>(c, 15.0) - phi * phi) / (V<double>(c, 15.0) - phi * phi * 6.0));
      phi = phi * 2.0;
      factor[l] = {fp64_call(
                       phi, [](double v) { return std::cos(v); }, kSinCosCost),
                   V<double>(c, 0.0) - fp64_call(
                                           phi, [](double v) { return std::sin(v); }, kSinCosCost)};
    }
    const V<std::int64_t> w = (nuc * max_windows_ + window) * kWindowDoubles;
    V<double> sig_t = e * c.load(*windows_, w, 0);
    V<double> sig_a = e * c.load(*windows_, w, 1);
    V<double> sig_f = e * c.load(*windows_, w, 2);
    const V<double> packed = c.load(*windows_, w, 3);
    auto half = [](const V<double>& v, int which) {
      return map(v, InstrClass::kInt, [which](double d) {
        std::int32_t range[2];
        std::memcpy(range, &d, sizeof range);
        return std::int64_t(range[which]);
      });
    };
    V<std::int64_t> p = half(packed, 0);
    const V<std::int64_t> end = half(packed, 1);
    c.while_([&] { return p < end; },
             [&] {
               const V<std::int64_t> q = (nuc * max_poles_ + p) * kPoleDoubles;
               V<double> f[kPoleDoubles] = {
                   c.load(*poles_, q, 0), c.load(*poles_, q, 1), c.load(*poles_, q, 2),
                   c.load(*poles_, q, 3), c.load(*poles_, q, 4), c.load(*poles_, q, 5),
                   c.load(*poles_, q, 6), c.load(*poles_, q, 7), c.load(*poles_, q, 8)};
               const Complex z{(e - f[0]) * 0.5, (V<double>(c, 0.0) - f[1]) * 0.5};  // (E - EA) dopp
               const Complex wz = faddeeva(c, z);
               // sigTfactors[l_value]: the thread's local array, a select per other entry.
               Complex sf = factor[0];
               for (int l = 1; l < kNumL; ++l) {
                 const V<bool> is = f[8] == double(l);
                 sf = {select(is, factor[l].r, sf.r), select(is, factor[l].i, sf.i)};
               }
               sig_t = sig_t + (Complex{f[2], f[3]} * (wz * sf)).r;
               sig_a = sig_a + (Complex{f[4], f[5]} * wz).r;
               sig_f = sig_f + (Complex{f[6], f[7]} * wz).r;
               p = p + 1;
             });
    xs[0] = sig_t;
    xs[1] = sig_a;
    xs[2] = sig_f;
    xs[3] = sig_t - sig_a;
  }

  std::int64_t lookups_, nuclides_;
  std::int32_t max_poles_ = 0, max_windows_ = 0, max_nucs_ = 0;
  std::int64_t hash_ = 0;
  // Sized from the generated counts, so placed once they are known (the order of RSBench's allocations).
  std::optional<Data<std::int32_t>> num_nucs_;
  std::optional<Data<double>> concs_;
  std::optional<Data<std::int32_t>> mats_;
  std::optional<Data<std::int32_t>> n_windows_;
  std::optional<Data<double>> poles_, windows_, k0rs_;
  std::optional<Data<std::int64_t>> verification_;
};

}  // namespace

ApplicationEntry app_proxy_rsbench() {
  return {"proxy/rsbench",
          "RSBench (ANL-CESAR), multipole cross-section lookups: one launch of one thread per lookup, each "
          "summing Doppler-broadened pole contributions (Faddeeva function) over its material's nuclides",
          {{"lookups", 65536, 1, std::int64_t(1) << 26, "cross-section lookups (threads)"},
           {"nuclides", 355, 68, 355, "68 (Hoogenboom-Martin small, 34 in the fuel) or 355 (large, 321)"},
           {"poles", 1000, 1, 100000, "poles per nuclide on average"},
           {"windows", 100, 1, 100000, "windows per nuclide on average"},
           {"seed", 1, 0, std::int64_t(1) << 62, "seed of the generated data"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<RsbenchApp>(a, input); }};
}

}  // namespace numagpu::kernels
