// proxy/mcb (application): an MCB-like Monte Carlo particle transport (LLNL's Monte Carlo Benchmark, a
// Sequoia/CORAL benchmark: particles tracked event by event through a 2-D mesh of zones, learned from its
// public description, written here anew). A `source` launch samples each particle's position (uniform over
// the mesh), direction (isotropic in the plane) and weight 1; then each time step is one `track` launch of
// one thread per particle (blocks of 128): a living particle moves until it reaches census (a fixed
// distance a step, speed x dt) or dies, one event at a time: the distance to collision (-ln(r) / sigma_t of
// its zone's material), to the zone's facet along its direction (the zone's bounds), and to census; it moves
// by the least, adds weight x distance to its zone's track-length tally (atomicAdd), and then collides
// (absorbed with the material's absorption probability, else scattered into a new direction), crosses the
// facet into the neighbour zone the mesh's facet table names (or, at the mesh's edge, escapes, or with
// `reflect` is reflected), or stops at census. The particle's state (position, direction, zone, the
// liveness flag, its random-number state) is read at the start and written at the end of each step, so the
// next step continues it. The host sums the tallies once the steps have run.
//
// The mesh is nx x ny unit zones in two materials: a disk of radius min(nx, ny) / 4 at the centre (sigma_t
// 2, absorption `absorb_in` %) in a background (sigma_t 0.5, absorption `absorb_out` %); the zones' bounds
// (4 doubles), material and facet neighbours (4 int32: -x, +x, -y, +y; -1 at the edge) are arrays the
// kernel reads through the particle's zone, as MCB's unstructured zone-facet connectivity is. Random
// numbers: an LCG a particle (x' = a x + 1 mod 2^63, RSBench's and MCB-style codes' kind), seeded from the
// particle's index. ln and cos/sin cost 24 fp64 instructions each (estimates, as proxy/rsbench's).
#include <cmath>

#include "kernels/application.hpp"
#include "kernels/generate.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 128;
constexpr unsigned kLibmCost = 24;
constexpr std::uint64_t kLcgA = 2806196910506780709ull, kLcgMask = (std::uint64_t(1) << 63) - 1;
constexpr double kInfinite = 1e300;

V<double> fp64_call(const V<double>& x, double (*f)(double)) {
  V<double> r = map(x, InstrClass::kFp64, f);
  x.cta().charge(InstrClass::kFp64, kLibmCost - 1);
  return r;
}

// A uniform double in (0, 1) from the particle's LCG state (advanced): the multiply-add and mask, a
// conversion and the scaling.
V<double> draw(V<std::int64_t>& seed) {
  seed = map(seed, InstrClass::kInt,
             [](std::int64_t s) { return std::int64_t((kLcgA * std::uint64_t(s) + 1) & kLcgMask); });
  seed.cta().charge(InstrClass::kInt, 3);
  return (convert<double>(seed) + 0.5) * 0x1.0p-63;
}

class McbApp : public Application {
 public:
  McbApp(const Args& a, const std::string& input)
      : Application(a, input),
        particles_(a["particles"]),
        nx_(a["nx"]),
        ny_(a["ny"]),
        steps_(a["steps"]),
        reflect_(a["reflect"] != 0),
        census_(double(a["census"]) / 100.0) {
    const double r = double(std::min(nx_, ny_)) / 4, cx = double(nx_) / 2, cy = double(ny_) / 2;
    for (std::int64_t j = 0; j < ny_; ++j) {
      for (std::int64_t i = 0; i < nx_; ++i) {
        const std::int64_t z = i + j * nx_;
        double* b = &bounds_.values[4 * z];
        b[0] = double(i), b[1] = double(i + 1), b[2] = double(j), b[3] = double(j + 1);
        const double dx = i + 0.5 - cx, dy = j + 0.5 - cy;
        const bool inside = dx * dx + dy * dy < r * r;
        sigma_.values[z] = inside ? 2.0 : 0.5;
        absorb_.values[z] = double(inside ? a["absorb_in"] : a["absorb_out"]) / 100.0;
        std::int32_t* n = &neighbours_.values[4 * z];
        n[0] = i > 0 ? std::int32_t(z - 1) : -1;
        n[1] = i + 1 < nx_ ? std::int32_t(z + 1) : -1;
        n[2] = j > 0 ? std::int32_t(z - nx_) : -1;
        n[3] = j + 1 < ny_ ? std::int32_t(z + nx_) : -1;
      }
    }
  }

  void host() override {
    launch("source", source());
    for (std::int64_t s = 0; s < steps_; ++s)
      launch("track", track());
    total_ = 0;  // the host's sum of the tallies
    for (double t : tally_.values)
      total_ += t;
  }

 private:
  Launch shape(unsigned regs) const { return one_thread_per_item(particles_, kThreads, regs); }

  Launch source() {
    Launch l = shape(32);
    l.body = [this](Cta& c) {
      const V<std::int64_t> p = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(p >= particles_);
      // The particle's own stream: its index hashed (splitmix64's finalizer, a few integer instructions).
      V<std::int64_t> seed = map(p, InstrClass::kInt, [](std::int64_t k) {
        SplitMix64 r{std::uint64_t(k)};
        return std::int64_t(r.next() & kLcgMask);
      });
      c.charge(InstrClass::kInt, 8);
      const V<double> x = draw(seed) * double(nx_);
      const V<double> y = draw(seed) * double(ny_);
      const V<double> phi = draw(seed) * (2 * M_PI);
      const V<std::int64_t> zone = convert<std::int64_t>(x) + convert<std::int64_t>(y) * nx_;
      c.store(x_, p, x);
      c.store(y_, p, y);
      c.store(ux_, p, fp64_call(phi, [](double v) { return std::cos(v); }));
      c.store(uy_, p, fp64_call(phi, [](double v) { return std::sin(v); }));
      c.store(weight_, p, V<double>(c, 1.0));
      c.store(zone_, p, convert<std::int32_t>(zone));
      c.store(alive_, p, V<std::int32_t>(c, 1));
      c.store(seed_, p, seed);
    };
    // LASP's index terms (LADM §III-C): every particle array at p = tx + 128 bx, no loop: Table II row 1 (a
    // CTA's 128 x 8 B of a double array, 128 x 4 B of an int32 one). x and the other doubles are the
    // largest; x, stated first, chooses: align-aware kernel-wide, RTWICE.
    l.accesses = particle_accesses();
    return l;
  }

  // The particle arrays, each at p (row 1, no loop), in the order the kernels touch them.
  std::vector<runtime::ArrayAccess> particle_accesses() const {
    std::vector<runtime::ArrayAccess> r;
    for (const Array<double>* a : {&x_, &y_, &ux_, &uy_, &weight_})
      r.push_back(lasp_access(*a, runtime::terms::kPerThread, kThreads * 8));
    r.push_back(lasp_access(zone_, runtime::terms::kPerThread, kThreads * 4));
    r.push_back(lasp_access(alive_, runtime::terms::kPerThread, kThreads * 4));
    r.push_back(lasp_access(seed_, runtime::terms::kPerThread, kThreads * 8));
    return r;
  }

  Launch track() {
    Launch l = shape(48);
    l.body = [this](Cta& c) {
      const V<std::int64_t> p = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(p >= particles_);
      c.exit_if(c.load(alive_, p) == 0);
      V<double> x = c.load(x_, p), y = c.load(y_, p), ux = c.load(ux_, p), uy = c.load(uy_, p);
      const V<double> w = c.load(weight_, p);
      V<std::int64_t> zone = convert<std::int64_t>(c.load(zone_, p));
      V<std::int64_t> seed = c.load(seed_, p);
      V<std::int32_t> alive(c, 1);
      V<double> left(c, census_);
      c.while_([&] { return left > 0.0; },
               [&] {
                 const V<double> d_coll = V<double>(c, 0.0) - fp64_call(draw(seed), [](double v) {
                                                                return std::log(v);
                                                              }) / c.load(sigma_, zone);
                 const V<std::int64_t> b = zone * 4;
                 // The facet along the direction in x and in y, and the distance to each (infinite along 0).
                 const V<double> bx = select(ux > 0.0, c.load(bounds_, b, 1), c.load(bounds_, b, 0));
                 const V<double> by = select(uy > 0.0, c.load(bounds_, b, 3), c.load(bounds_, b, 2));
                 const V<double> tx = select(ux == 0.0, V<double>(c, kInfinite), (bx - x) / ux);
                 const V<double> ty = select(uy == 0.0, V<double>(c, kInfinite), (by - y) / uy);
                 const V<bool> x_first = tx < ty;
                 const V<double> d_facet = select(x_first, tx, ty);
                 const V<std::int64_t> facet =
                     select(x_first, select(ux > 0.0, V<std::int64_t>(c, 1), V<std::int64_t>(c, 0)),
                            select(uy > 0.0, V<std::int64_t>(c, 3), V<std::int64_t>(c, 2)));
                 V<double> d = select(d_coll < d_facet, d_coll, d_facet);
                 d = select(left < d, left, d);
                 d = select(d < 0.0, V<double>(c, 0.0), d);  // a rounding just past a facet
                 x = x + ux * d;
                 y = y + uy * d;
                 left = left - d;
                 c.atomic_add(tally_, zone, w * d);  // the track-length estimator
                 c.if_(left > 0.0, [&] {
                   c.if_else(
                       d == d_coll,
                       [&] {  // collision: absorbed, or scattered isotropically
                         c.if_else(
                             draw(seed) < c.load(absorb_, zone),
                             [&] {
                               alive = 0;
                               left = 0.0;
                             },
                             [&] {
                               const V<double> phi = draw(seed) * (2 * M_PI);
                               ux = fp64_call(phi, [](double v) { return std::cos(v); });
                               uy = fp64_call(phi, [](double v) { return std::sin(v); });
                             });
                       },
                       [&] {  // facet: into the neighbour, out of the mesh, or reflected at its edge
                         const V<std::int64_t> next = convert<std::int64_t>(c.load(neighbours_, b + facet));
                         c.if_else(
                             next >= 0, [&] { zone = next; },
                             [&] {
                               if (!reflect_) {
                                 alive = 0;
                                 left = 0.0;
                                 return;
                               }
                               ux = select(facet < 2, V<double>(c, 0.0) - ux, ux);
                               uy = select(facet >= 2, V<double>(c, 0.0) - uy, uy);
                             });
                       });
                 });
               });
      c.store(x_, p, x);
      c.store(y_, p, y);
      c.store(ux_, p, ux);
      c.store(uy_, p, uy);
      c.store(zone_, p, convert<std::int32_t>(zone));
      c.store(alive_, p, alive);
      c.store(seed_, p, seed);
    };
    // LASP's index terms: the particle's state at p, read at the start and written at the end, outside the
    // event loop: row 1. The mesh's arrays at the particle's zone, a value loaded from zone[p] and then from
    // the facet table (zone_bounds at 4 zone + 0..3 and the facet table at 4 zone + facet: a zone's record
    // and a computed facet, not an induction variable): gathered, row 7, and so is the tally's atomicAdd.
    // The larger of zone_bounds (32 B a zone) and the particle doubles (8 B a particle) chooses: the mesh
    // once zones exceed a quarter of the particles (kernel-wide, RTWICE), else x (align-aware, RTWICE).
    l.accesses = particle_accesses();
    for (const Array<double>* a : {&sigma_, &bounds_, &tally_, &absorb_})
      l.accesses.push_back(lasp_access(*a, runtime::terms::kGathered));
    l.accesses.push_back(lasp_access(neighbours_, runtime::terms::kGathered));
    return l;
  }

  std::int64_t particles_, nx_, ny_, steps_;
  bool reflect_;
  double census_;
  double total_ = 0;
  std::uint64_t zones_ = std::uint64_t(nx_ * ny_), n_ = std::uint64_t(particles_);
  // The mesh.
  Data<double> bounds_{this, "zone_bounds", 4 * zones_};
  Data<std::int32_t> neighbours_{this, "facet_neighbours", 4 * zones_};
  Data<double> sigma_{this, "sigma_t", zones_};
  Data<double> absorb_{this, "absorption", zones_};
  Data<double> tally_{this, "tally", zones_};
  // The particles (structure of arrays).
  Data<double> x_{this, "x", n_}, y_{this, "y", n_}, ux_{this, "ux", n_}, uy_{this, "uy", n_};
  Data<double> weight_{this, "weight", n_};
  Data<std::int32_t> zone_{this, "zone", n_};
  Data<std::int32_t> alive_{this, "alive", n_};
  Data<std::int64_t> seed_{this, "rng", n_};
};

}  // namespace

ApplicationEntry app_proxy_mcb() {
  return {
      "proxy/mcb",
      "An MCB-like Monte Carlo particle transport (LLNL's Monte Carlo Benchmark): particles tracked event by "
      "event (collision, facet crossing, census) through a 2-D mesh of zones in two materials, track-length "
      "tallies by atomicAdd, one launch a time step",
      {{"particles", 640000, 1, std::int64_t(1) << 26, "particles (threads of each launch)"},
       {"nx", 512, 1, 65536, "zones along x"},
       {"ny", 512, 1, 65536, "zones along y"},
       {"steps", 4, 1, 10000, "time steps (track launches)"},
       {"census", 800, 1, 1000000, "distance a particle travels in a step, in hundredths of a zone"},
       {"absorb_in", 30, 0, 100, "absorption probability of a collision in the disk, %"},
       {"absorb_out", 10, 0, 100, "absorption probability of a collision outside it, %"},
       {"reflect", 0, 0, 1, "1: the mesh's edges reflect (else particles escape)"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<McbApp>(a, input); }};
}

}  // namespace numagpu::kernels
