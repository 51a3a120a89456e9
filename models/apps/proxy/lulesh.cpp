// proxy/lulesh (application): a LULESH-like Lagrangian shock hydrodynamics step (LULESH 2.0, the CORAL
// proxy; learned from its specification, LLNL-TR-490254 "Hydrodynamics Challenge Problem", the structure of
// its reference code (kernel names, the Sedov setup, the first time step) and the kernel decomposition of its
// CUDA port as described by its authors; no code copied, written here anew) on the Sedov blast problem: a
// cube of s^3 hex elements and (s+1)^3 nodes, the blast energy in element 0 at the origin's corner, symmetry
// planes at x, y, z = 0. The mesh is structured but, as LULESH's, reached only through explicit indirection
// arrays: each element's 8 nodes (nodelist, corner-major: corner k of element e at k * numElem + e, as the
// CUDA port lays it for coalescing), each node's element corners (nodeElemStart/Count and nodeElemCornerList,
// CSR), and the three symmetry planes' node lists.
//
// Lulesh-Unstruct (the paper's HPC-Lulesh-Unstruct, `mesh=B`): the same program on a mesh whose numbering
// is an unstructured mesh's rather than the lattice's (number_mesh below): LULESH's kernels never use the
// lattice (its documentation: the regular Cartesian default mesh is "for simplicity only"; the indirection
// arrays are what a complex geometry requires), so what changes is where each element's nodes and each
// node's corners lie in memory, which is what a NUMA GPU's placement and caches see.
//
// The host program is LULESH's time loop, `iterations` steps, each the main kernels of its CUDA version in
// reduced form:
//   CalcVolumeForceForElems (per element): gathers its 8 nodes' coordinates through nodelist, loads p, q
//     and the relative volume, and scatters a force per corner into fx/fy/fz_elem (no atomics: the
//     per-corner arrays, as the CUDA port does); the hourglass control's arithmetic is charged, not done;
//   AddNodeForcesFromElems (per node): sums its corners' forces through nodeElemCornerList;
//   CalcAccelerationForNodes (per node), ApplyAccelerationBoundaryConditionsForNodes (per symmetry-plane
//     entry, through the three node lists), CalcVelocityAndPositionForNodes (per node, LULESH's u_cut);
//   CalcKinematicsForElems (per element): gathers the 8 nodes' new coordinates and velocities; the new
//     relative volume, its change, vdov and the characteristic length;
//   ApplyMaterialPropertiesAndEOS (per element: CalcLagrangeElements' volume update, the monotonic Q in
//     reduced form and EvalEOSForElems: an ideal gas) writing e, p, q, the sound speed and v;
//   CalcTimeConstraintsForElems (per element, blocks of 128 with a shared-memory min reduction: the Courant
//     and hydro constraints per block) and CalcMinDtOneBlock (one block reduces the blocks' minima);
// the host reads the two minima and sets the next time step as LULESH's TimeIncrement does (at most 1.2 x
// growth, half the Courant constraint, two thirds of the hydro one).
//
// Simplified, to keep a step cheap on the host: the element volume is the
// product of the hex's averaged extents and a corner's force (p + q) times a quarter of each face it touches,
// outward (both exact for a rectilinear hexahedron, which the Sedov mesh stays close to; LULESH's triple
// products and B matrix are charged as fp64 instructions), the hourglass forces and the monotonic Q's
// neighbour gradients are charged, not computed, and there is one material region. Values are computed (the
// host's time step reads them); the launches are the same every step (the host reads dt, as LULESH does, but
// nothing steers an address).
// Blocks: 64 threads for the two element kernels that gather 8 nodes (many registers), 128 for the others and
// the per-block reduction, 1,024 for the one-block reduction (register counts are estimates from reading the
// algorithm, not from compiled code).
#include <cmath>
#include <limits>

#include "kernels/application.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kElemBlock = 64, kNodeBlock = 128, kReduceBlock = 128, kOneBlock = 1024;
constexpr double kGamma = 5.0 / 3.0, kUCut = 1e-7, kBig = 1e20;

class LuleshApp : public Application {
 public:
  LuleshApp(const Args& a, const std::string& input)
      : Application(a, input), iterations_(a["iterations"]), s_(a["s"]) {
    const std::int64_t sn = s_ + 1;
    const double h = 1.125 / double(s_);  // LULESH's domain: a cube of side 1.125
    // The numbering: the lattice's (element i + (j + k s) s, node i + (j + k sn) sn), or an unstructured one.
    number_mesh(a["mesh"], std::uint64_t(a["seed"]));
    // Nodes and their coordinates.
    for (std::int64_t k = 0; k < sn; ++k)
      for (std::int64_t j = 0; j < sn; ++j)
        for (std::int64_t i = 0; i < sn; ++i) {
          const std::size_t n = std::size_t(node_id_[std::size_t(i + (j + k * sn) * sn)]);
          x_.values[n] = double(i) * h;
          y_.values[n] = double(j) * h;
          z_.values[n] = double(k) * h;
        }
    // Elements: nodelist (corner-major), their reference volume and mass; the nodes' masses.
    const std::int64_t corner[8] = {0, 1, 1 + sn, sn, sn * sn, 1 + sn * sn, 1 + sn + sn * sn, sn + sn * sn};
    for (std::int64_t k = 0; k < s_; ++k)
      for (std::int64_t j = 0; j < s_; ++j)
        for (std::int64_t i = 0; i < s_; ++i) {
          const std::int64_t e = elem_id_[std::size_t(i + (j + k * s_) * s_)], n0 = i + (j + k * sn) * sn;
          for (std::int64_t c = 0; c < 8; ++c) {
            const std::int32_t n = node_id_[std::size_t(n0 + corner[c])];
            nodelist_.values[std::size_t(c * ne_ + e)] = n;
            mass_.values[std::size_t(n)] += h * h * h / 8;
          }
        }
    // Node -> element corners (CSR), in element order: entry = corner * numElem + element.
    std::vector<std::int32_t>& start = start_.values;
    for (std::int64_t c = 0; c < 8 * ne_; ++c)
      ++start[std::size_t(nodelist_.values[std::size_t(c)]) + 1];
    for (std::int64_t n = 0; n < nn_; ++n)
      start[std::size_t(n + 1)] += start[std::size_t(n)];
    {
      std::vector<std::int32_t> fill(start.begin(), start.end() - 1);
      for (std::int64_t e = 0; e < ne_; ++e)
        for (std::int64_t c = 0; c < 8; ++c)
          corners_.values[std::size_t(fill[std::size_t(nodelist_.values[std::size_t(c * ne_ + e)])]++)] =
              std::int32_t(c * ne_ + e);
    }
    // The symmetry planes x = 0, y = 0, z = 0: (s+1)^2 nodes each, one of each plane after another.
    for (std::int64_t b = 0, at = 0; b < sn; ++b)
      for (std::int64_t a2 = 0; a2 < sn; ++a2) {
        symm_.values[std::size_t(at++)] = node_id_[std::size_t((a2 + b * sn) * sn)];  // x = 0: i = 0
        symm_.values[std::size_t(at++)] = node_id_[std::size_t(a2 + b * sn * sn)];    // y = 0: j = 0
        symm_.values[std::size_t(at++)] = node_id_[std::size_t(a2 + b * sn)];         // z = 0: k = 0
      }
    // Element state: Sedov's energy in the element at the origin (LULESH's einit scaled by (s / 45)^3).
    const double scale = double(s_) / 45.0;
    const std::size_t origin = std::size_t(elem_id_[0]);
    e_.values[origin] = 3.948746e+7 * scale * scale * scale;
    p_.values[origin] = (kGamma - 1) * e_.values[origin] / (h * h * h);
    volo_.values.assign(std::size_t(ne_), h * h * h);
    dt_ = 0.5 * std::cbrt(h * h * h) / std::sqrt(2.0 * e_.values[origin]);  // LULESH's initial deltatime
  }

  void host() override {
    for (std::int64_t it = 0; it < iterations_; ++it) {
      launch("CalcVolumeForceForElems", volume_force());
      launch("AddNodeForcesFromElems", add_node_forces());
      launch("CalcAccelerationForNodes", acceleration());
      launch("ApplyAccelerationBoundaryConditionsForNodes", boundary());
      launch("CalcVelocityAndPositionForNodes", velocity_position());
      launch("CalcKinematicsForElems", kinematics());
      launch("ApplyMaterialPropertiesAndEOS", eos());
      launch("CalcTimeConstraintsForElems", time_constraints());
      launch("CalcMinDtOneBlock", min_dt());
      // TimeIncrement: the next step from the constraints the GPU found (cudaMemcpy of dt_min).
      double next = 1.2 * dt_;
      if (dt_min_.values[0] < kBig) next = std::min(next, 0.5 * dt_min_.values[0]);
      if (dt_min_.values[1] < kBig) next = std::min(next, 2.0 / 3.0 * dt_min_.values[1]);
      dt_ = next;
      time_ += dt_;
    }
  }

  double dt() const { return dt_; }

 private:
  // elem_id_ / node_id_: the number of lattice element / node (i, j, k). mesh = 0: the lattice's own order.
  // mesh = B > 0: the numbering of an unstructured mesh as a multi-block mesh generator writes one: the cube
  // cut into B^3 blocks, the blocks taken in a random order, each block's elements numbered along its own
  // random order of the three axes, and the nodes numbered as they are first met walking the elements'
  // corners in that order (a mesh file's node table). Neighbours stay near each other in memory within a
  // block, not across blocks, and no element's nodes follow a fixed stride.
  void number_mesh(std::int64_t blocks, std::uint64_t seed) {
    const std::int64_t sn = s_ + 1;
    elem_id_.resize(std::size_t(ne_));
    node_id_.assign(std::size_t(nn_), -1);
    if (blocks == 0) {
      for (std::int64_t e = 0; e < ne_; ++e)
        elem_id_[std::size_t(e)] = std::int32_t(e);
      for (std::int64_t n = 0; n < nn_; ++n)
        node_id_[std::size_t(n)] = std::int32_t(n);
      return;
    }
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    auto draw = [&state](std::uint64_t bound) {  // splitmix64, so the numbering is the same on every host
      state += 0x9E3779B97F4A7C15ull;
      std::uint64_t z = state;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return (z ^ (z >> 31)) % bound;
    };
    const std::int64_t side = (s_ + blocks - 1) / blocks;  // elements a block side (the last ones shorter)
    std::vector<std::int64_t> order(std::size_t(blocks * blocks * blocks));
    for (std::size_t b = 0; b < order.size(); ++b)
      order[b] = std::int64_t(b);
    for (std::size_t b = order.size(); b > 1; --b)  // Fisher-Yates
      std::swap(order[b - 1], order[draw(b)]);
    const std::int64_t corner[8] = {0, 1, 1 + sn, sn, sn * sn, 1 + sn * sn, 1 + sn + sn * sn, sn + sn * sn};
    const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    std::int32_t next_elem = 0, next_node = 0;
    for (std::int64_t b : order) {
      const std::int64_t lo[3] = {b % blocks * side, b / blocks % blocks * side,
                                  b / (blocks * blocks) * side};
      const int* axis = axes[draw(6)];  // axis[0] varies fastest
      std::int64_t len[3];
      for (int d = 0; d < 3; ++d)
        len[d] = std::max<std::int64_t>(0, std::min(side, s_ - lo[d]));
      std::int64_t at[3];
      for (at[2] = 0; at[2] < len[axis[2]]; ++at[2])
        for (at[1] = 0; at[1] < len[axis[1]]; ++at[1])
          for (at[0] = 0; at[0] < len[axis[0]]; ++at[0]) {
            std::int64_t ijk[3];
            for (int d = 0; d < 3; ++d)
              ijk[axis[d]] = lo[axis[d]] + at[d];
            const std::int64_t e = ijk[0] + (ijk[1] + ijk[2] * s_) * s_;
            const std::int64_t n0 = ijk[0] + (ijk[1] + ijk[2] * sn) * sn;
            elem_id_[std::size_t(e)] = next_elem++;
            for (std::int64_t c : corner)
              if (node_id_[std::size_t(n0 + c)] < 0) node_id_[std::size_t(n0 + c)] = next_node++;
          }
    }
  }

  Launch shape(std::int64_t n, std::int64_t block, unsigned regs) const {
    return one_thread_per_item(n, block, regs);
  }
  static V<std::int64_t> thread(Cta& c, std::int64_t block) {
    return c.threadIdx_x() + std::int64_t(c.blockIdx.x) * block;
  }
  static V<double> vmin(const V<double>& a, const V<double>& b) { return select(a < b, a, b); }
  // The two minima (Courant, hydro) of a block of `block` threads, by a tree in shared memory (the reduction
  // of LULESH's CUDA port); thread 0 holds them at the end.
  static void block_min(Cta& c, const V<std::int64_t>& t, std::int64_t block, V<double>& dtc,
                        V<double>& dth) {
    Cta::Shared<double> sc(c, block), sh(c, block);
    sc.store(t, dtc);
    sh.store(t, dth);
    c.syncthreads();
    for (std::int64_t stride = block / 2; stride > 0; stride /= 2) {
      c.if_(t < stride, [&] {
        sc.store(t, vmin(sc.load(t), sc.load(t + stride)));
        sh.store(t, vmin(sh.load(t), sh.load(t + stride)));
      });
      c.syncthreads();
    }
    c.if_(t == 0, [&] {
      dtc = sc.load(t);
      dth = sh.load(t);
    });
  }

  // The 8 nodes of elements `e` (nodelist, corner-major).
  // LASP's index terms (LADM §III-C). Every kernel is one thread per item i = tx + bx blockDim.x (1-D grids):
  // an array at i is row 1 without a loop (terms::kPerThread); a corner-major array at e + k numElem over the
  // 8 corners k (the loop) is row 1 strided by numElem; an array at a node or corner read from nodelist or
  // nodeElemCornerList is gathered (row 7). `block` threads read `block` elements: the datablock.
  template <class T>
  static runtime::ArrayAccess per_item(const Array<T>& a, std::int64_t block) {
    return lasp_access(a, runtime::terms::kPerThread, std::uint64_t(block) * sizeof(T));
  }
  template <class T>
  runtime::ArrayAccess per_corner(const Array<T>& a, std::int64_t block) const {
    return lasp_access(a, {true, false, false, runtime::LoopVariant::kM, std::uint64_t(ne_)},
                       std::uint64_t(block) * sizeof(T));
  }
  template <class T>
  static runtime::ArrayAccess gathered(const Array<T>& a) {
    return lasp_access(a, runtime::terms::kGathered);
  }

  std::vector<V<std::int64_t>> nodes_of(Cta& c, const V<std::int64_t>& e) const {
    std::vector<V<std::int64_t>> n;
    for (std::int64_t k = 0; k < 8; ++k)
      n.push_back(convert<std::int64_t>(c.load(nodelist_, e + k * ne_)));
    return n;
  }
  // The averaged extents of a hex (corners 1, 2, 5, 6 are at +x; 2, 3, 6, 7 at +y; 4..7 at +z).
  static void extents(const std::vector<V<double>>& x, const std::vector<V<double>>& y,
                      const std::vector<V<double>>& z, V<double>& dx, V<double>& dy, V<double>& dz) {
    dx = (x[1] + x[2] + x[5] + x[6] - x[0] - x[3] - x[4] - x[7]) * 0.25;
    dy = (y[2] + y[3] + y[6] + y[7] - y[0] - y[1] - y[4] - y[5]) * 0.25;
    dz = (z[4] + z[5] + z[6] + z[7] - z[0] - z[1] - z[2] - z[3]) * 0.25;
  }

  Launch volume_force() {
    Launch l = shape(ne_, kElemBlock, 96);
    // LASP: the corner forces (the largest arrays, 8 doubles an element) and nodelist at e + k numElem: row 1
    // strided by numElem; the coordinates at the nodes: gathered; p, q, v at e: row 1.
    l.accesses = {per_corner(fxe_, kElemBlock),
                  per_corner(fye_, kElemBlock),
                  per_corner(fze_, kElemBlock),
                  per_corner(nodelist_, kElemBlock),
                  gathered(x_),
                  gathered(y_),
                  gathered(z_),
                  per_item(p_, kElemBlock),
                  per_item(q_, kElemBlock),
                  per_item(v_, kElemBlock)};
    l.body = [this](Cta& c) {
      const V<std::int64_t> e = thread(c, kElemBlock);
      c.exit_if(e >= ne_);
      const std::vector<V<std::int64_t>> n = nodes_of(c, e);
      std::vector<V<double>> x, y, z;
      for (std::int64_t k = 0; k < 8; ++k) {
        x.push_back(c.load(x_, n[std::size_t(k)]));
        y.push_back(c.load(y_, n[std::size_t(k)]));
        z.push_back(c.load(z_, n[std::size_t(k)]));
      }
      const V<double> sig = c.load(p_, e) + c.load(q_, e);  // InitStressTermsForElems: -(p + q)
      c.load(v_, e);                                        // the hourglass control's determinant
      V<double> dx(c, 0.0), dy(c, 0.0), dz(c, 0.0);
      extents(x, y, z, dx, dy, dz);
      c.charge(InstrClass::kFp64, 120);  // CalcElemShapeFunctionDerivatives, node normals (the B matrix)
      c.charge(InstrClass::kFp64, 180);  // CalcFBHourglassForceForElems' gammas and hourglass forces
      V<double> cx = x[0], cy = y[0], cz = z[0];
      for (std::size_t k = 1; k < 8; ++k) {
        cx = cx + x[k];
        cy = cy + y[k];
        cz = cz + z[k];
      }
      cx = cx * 0.125;
      cy = cy * 0.125;
      cz = cz * 0.125;
      // (p + q) x a quarter of the face area the corner touches on each axis, outward: for a rectilinear hex,
      // (x_k - cx) ax / dx = +-(p + q) dy dz / 4.
      const V<double> ax = sig * dy * dz * 0.5, ay = sig * dx * dz * 0.5, az = sig * dx * dy * 0.5;
      for (std::int64_t k = 0; k < 8; ++k) {  // (p + q) x the corner's share of its three faces' areas
        const std::size_t kk = std::size_t(k);
        const V<std::int64_t> at = e + k * ne_;
        c.store(fxe_, at, (x[kk] - cx) * ax / dx);
        c.store(fye_, at, (y[kk] - cy) * ay / dy);
        c.store(fze_, at, (z[kk] - cz) * az / dz);
      }
    };
    return l;
  }

  Launch add_node_forces() {
    Launch l = shape(nn_, kNodeBlock, 32);
    // LASP: the corner forces at the corners nodeElemCornerList names (the largest arrays): gathered, so
    // kernel-wide and RTWICE; nodeElemCornerList[i], i from nodeElemStart[n] one a step: the thread's own run
    // (row 6); nodeElemStart and the node forces at n: row 1.
    l.accesses = {gathered(fxe_),
                  gathered(fye_),
                  gathered(fze_),
                  lasp_access(corners_, runtime::terms::kOwnRun),
                  per_item(start_, kNodeBlock),
                  per_item(fx_, kNodeBlock),
                  per_item(fy_, kNodeBlock),
                  per_item(fz_, kNodeBlock)};
    l.body = [this](Cta& c) {
      const V<std::int64_t> n = thread(c, kNodeBlock);
      c.exit_if(n >= nn_);
      V<std::int64_t> i = convert<std::int64_t>(c.load(start_, n));
      const V<std::int64_t> end = convert<std::int64_t>(c.load(start_, n + 1));
      V<double> fx(c, 0.0), fy(c, 0.0), fz(c, 0.0);
      c.while_([&] { return i < end; },
               [&] {
                 const V<std::int64_t> corner = convert<std::int64_t>(c.load(corners_, i));
                 fx = fx + c.load(fxe_, corner);
                 fy = fy + c.load(fye_, corner);
                 fz = fz + c.load(fze_, corner);
                 i = i + 1;
               });
      c.store(fx_, n, fx);
      c.store(fy_, n, fy);
      c.store(fz_, n, fz);
    };
    return l;
  }

  Launch acceleration() {
    Launch l = shape(nn_, kNodeBlock, 16);
    for (const Data<double>* a : {&mass_, &fx_, &fy_, &fz_, &xdd_, &ydd_, &zdd_})
      l.accesses.push_back(per_item(*a, kNodeBlock));  // LASP: all at n, row 1
    l.body = [this](Cta& c) {
      const V<std::int64_t> n = thread(c, kNodeBlock);
      c.exit_if(n >= nn_);
      const V<double> inv = 1.0 / c.load(mass_, n);
      c.store(xdd_, n, c.load(fx_, n) * inv);
      c.store(ydd_, n, c.load(fy_, n) * inv);
      c.store(zdd_, n, c.load(fz_, n) * inv);
    };
    return l;
  }

  // One thread per plane entry: node symmX[i]'s xdd, symmY[i]'s ydd and symmZ[i]'s zdd are zeroed.
  Launch boundary() {
    const std::int64_t planar = (s_ + 1) * (s_ + 1);
    Launch l = shape(planar, kNodeBlock, 12);
    // LASP: the accelerations at the plane's nodes (the larger arrays): gathered, kernel-wide, RTWICE;
    // symm[3 i + d]: LULESH's symmX[i], symmY[i], symmZ[i], three statements (d a constant, no loop): row 1.
    l.accesses = {gathered(xdd_), gathered(ydd_), gathered(zdd_), per_item(symm_, 3 * kNodeBlock)};
    l.body = [this, planar](Cta& c) {
      const V<std::int64_t> i = thread(c, kNodeBlock);
      c.exit_if(i >= planar);
      const Array<double>* acc[3] = {&xdd_, &ydd_, &zdd_};
      for (std::int64_t d = 0; d < 3; ++d)
        c.store(*acc[d], convert<std::int64_t>(c.load(symm_, i * 3 + d)), V<double>(c, 0.0));
    };
    return l;
  }

  Launch velocity_position() {
    Launch l = shape(nn_, kNodeBlock, 24);
    for (const Data<double>* a : {&x_, &y_, &z_, &xd_, &yd_, &zd_, &xdd_, &ydd_, &zdd_})
      l.accesses.push_back(per_item(*a, kNodeBlock));  // LASP: all at n, row 1
    l.body = [this](Cta& c) {
      const V<std::int64_t> n = thread(c, kNodeBlock);
      c.exit_if(n >= nn_);
      const double dt = dt_;
      const Array<double>* vel[3] = {&xd_, &yd_, &zd_};
      const Array<double>* acc[3] = {&xdd_, &ydd_, &zdd_};
      const Array<double>* pos[3] = {&x_, &y_, &z_};
      for (int d = 0; d < 3; ++d) {
        V<double> v = fma(c.load(*acc[d], n), V<double>(c, dt), c.load(*vel[d], n));
        v = select(v * v < kUCut * kUCut, V<double>(c, 0.0), v);  // LULESH's u_cut
        c.store(*vel[d], n, v);
        c.store(*pos[d], n, fma(v, V<double>(c, dt), c.load(*pos[d], n)));
      }
    };
    return l;
  }

  Launch kinematics() {
    Launch l = shape(ne_, kElemBlock, 80);
    // LASP: nodelist at e + k numElem (the largest array, 8 ints an element): row 1 strided by numElem; the
    // nodes' coordinates and velocities: gathered; the element arrays at e: row 1.
    l.accesses = {per_corner(nodelist_, kElemBlock),
                  gathered(x_),
                  gathered(y_),
                  gathered(z_),
                  gathered(xd_),
                  gathered(yd_),
                  gathered(zd_)};
    for (const Data<double>* a : {&volo_, &v_, &vnew_, &delv_, &vdov_, &arealg_})
      l.accesses.push_back(per_item(*a, kElemBlock));
    l.body = [this](Cta& c) {
      const V<std::int64_t> e = thread(c, kElemBlock);
      c.exit_if(e >= ne_);
      const std::vector<V<std::int64_t>> n = nodes_of(c, e);
      std::vector<V<double>> x, y, z;
      for (std::int64_t k = 0; k < 8; ++k) {
        const V<std::int64_t>& nk = n[std::size_t(k)];
        x.push_back(c.load(x_, nk));
        y.push_back(c.load(y_, nk));
        z.push_back(c.load(z_, nk));
        c.load(xd_, nk);  // the velocities: the strain rates (charged below)
        c.load(yd_, nk);
        c.load(zd_, nk);
      }
      V<double> dx(c, 0.0), dy(c, 0.0), dz(c, 0.0);
      extents(x, y, z, dx, dy, dz);
      c.charge(InstrClass::kFp64, 60);   // CalcElemVolume's triple products
      c.charge(InstrClass::kFp64, 150);  // the shape function derivatives and CalcElemVelocityGradient
      const V<double> volume = dx * dy * dz;
      const V<double> vnew = volume / c.load(volo_, e);
      const V<double> delv = vnew - c.load(v_, e);
      c.store(vnew_, e, vnew);
      c.store(delv_, e, delv);
      c.store(vdov_, e, delv / (vnew * dt_));
      // CalcElemCharacteristicLength: the volume over the largest face area.
      const V<double> face = select(dx * dy > dy * dz, dx * dy, dy * dz);
      c.store(arealg_, e, volume / select(face > dx * dz, face, dx * dz));
    };
    return l;
  }

  Launch eos() {
    Launch l = shape(ne_, kNodeBlock, 64);
    for (const Data<double>* a : {&vnew_, &delv_, &vdov_, &arealg_, &p_, &q_, &volo_, &e_, &ss_, &v_})
      l.accesses.push_back(per_item(*a, kNodeBlock));  // LASP: all at i, row 1
    l.body = [this](Cta& c) {
      const V<std::int64_t> i = thread(c, kNodeBlock);
      c.exit_if(i >= ne_);
      const V<double> vnew = c.load(vnew_, i), delv = c.load(delv_, i), vdov = c.load(vdov_, i);
      const V<double> arealg = c.load(arealg_, i), p = c.load(p_, i), q = c.load(q_, i);
      // The monotonic Q, quadratic term only (its limiter's neighbour gradients charged).
      c.charge(InstrClass::kFp64, 40);
      const V<double> dv = arealg * vdov;
      const V<double> qnew = select(vdov < 0.0, dv * dv * 2.0 / vnew, V<double>(c, 0.0));
      // EvalEOSForElems: the element's energy less the work of p + q over its volume change, an ideal gas's
      // pressure and sound speed (reference density 1).
      const V<double> volo = c.load(volo_, i);
      V<double> e = c.load(e_, i) - (p + q) * delv * volo;
      e = select(e < 0.0, V<double>(c, 0.0), e);
      const V<double> pnew = e * (kGamma - 1) / (vnew * volo);
      c.charge(InstrClass::kFp64, 30);  // CalcPressureForElems' cutoffs and CalcSoundSpeedForElems' terms
      c.store(e_, i, e);
      c.store(p_, i, pnew);
      c.store(q_, i, qnew);
      c.store(ss_, i, sqrt(pnew * vnew * kGamma + 1e-36));
      c.store(v_, i, vnew);
    };
    return l;
  }

  Launch time_constraints() {
    Launch l = shape(ne_, kReduceBlock, 32);
    l.shared_bytes = 2 * kReduceBlock * sizeof(double);
    // LASP: ss, vdov, arealg at i and the blocks' minima at bx: row 1.
    for (const Data<double>* a : {&ss_, &vdov_, &arealg_})
      l.accesses.push_back(per_item(*a, kReduceBlock));
    l.accesses.push_back(per_item(dtc_block_, 1));
    l.accesses.push_back(per_item(dth_block_, 1));
    l.body = [this](Cta& c) {
      const V<std::int64_t> t = c.threadIdx_x();
      const V<std::int64_t> i = thread(c, kReduceBlock);
      V<double> dtc(c, kBig), dth(c, kBig);
      c.if_(i < ne_, [&] {
        const V<double> ss = c.load(ss_, i), vdov = c.load(vdov_, i);
        c.if_(ss > 1e-12, [&] { dtc = c.load(arealg_, i) / ss; });  // CalcCourantConstraintForElems
        c.if_(vdov * vdov > 1e-30, [&] {                            // CalcHydroConstraintForElems
          dth = 0.1 / select(vdov < 0.0, 0.0 - vdov, vdov);
        });
      });
      block_min(c, t, kReduceBlock, dtc, dth);
      c.if_(t == 0, [&] {
        const V<std::int64_t> b = c.uniform(c.blockIdx.x);
        c.store(dtc_block_, b, dtc);
        c.store(dth_block_, b, dth);
      });
    };
    return l;
  }

  Launch min_dt() {
    Launch l;
    l.grid = {1, 1, 1};
    l.block = {kOneBlock, 1, 1};
    l.regs_per_thread = 24;
    l.shared_bytes = 2 * kOneBlock * sizeof(double);
    // LASP: the blocks' minima at t + 1024 m: no block id (one CTA): row 7, kernel-wide.
    for (const Data<double>* a : {&dtc_block_, &dth_block_})
      l.accesses.push_back(
          lasp_access(*a, {false, false, false, runtime::LoopVariant::kM, kOneBlock}, 8 * kOneBlock));
    l.body = [this](Cta& c) {
      const V<std::int64_t> t = c.threadIdx_x();
      V<double> dtc(c, kBig), dth(c, kBig);
      V<std::int64_t> i = t;
      c.while_([&] { return i < blocks_; },
               [&] {
                 dtc = vmin(dtc, c.load(dtc_block_, i));
                 dth = vmin(dth, c.load(dth_block_, i));
                 i = i + kOneBlock;
               });
      block_min(c, t, kOneBlock, dtc, dth);
      c.if_(t == 0, [&] {
        c.store(dt_min_, V<std::int64_t>(c, 0), dtc);
        c.store(dt_min_, V<std::int64_t>(c, 1), dth);
      });
    };
    return l;
  }

  std::int64_t iterations_, s_;
  std::int64_t ne_ = s_ * s_ * s_, nn_ = (s_ + 1) * (s_ + 1) * (s_ + 1);
  std::int64_t blocks_ = (ne_ + kReduceBlock - 1) / kReduceBlock;
  std::uint64_t nodes_ = std::uint64_t(nn_), elems_ = std::uint64_t(ne_);
  std::vector<std::int32_t> elem_id_, node_id_;  // number_mesh
  double dt_ = 0, time_ = 0;
  // The nodes' state.
  Data<double> x_{this, "x", nodes_}, y_{this, "y", nodes_}, z_{this, "z", nodes_};
  Data<double> xd_{this, "xd", nodes_}, yd_{this, "yd", nodes_}, zd_{this, "zd", nodes_};
  Data<double> xdd_{this, "xdd", nodes_}, ydd_{this, "ydd", nodes_}, zdd_{this, "zdd", nodes_};
  Data<double> fx_{this, "fx", nodes_}, fy_{this, "fy", nodes_}, fz_{this, "fz", nodes_};
  Data<double> mass_{this, "nodalMass", nodes_};
  // The mesh's indirections.
  Data<std::int32_t> nodelist_{this, "nodelist", 8 * elems_};
  Data<std::int32_t> start_{this, "nodeElemStart", nodes_ + 1};
  Data<std::int32_t> corners_{this, "nodeElemCornerList", 8 * elems_};
  Data<std::int32_t> symm_{this, "symm", 3 * std::uint64_t(s_ + 1) * std::uint64_t(s_ + 1)};
  // The elements' state.
  Data<double> fxe_{this, "fx_elem", 8 * elems_}, fye_{this, "fy_elem", 8 * elems_},
      fze_{this, "fz_elem", 8 * elems_};
  Data<double> e_{this, "e", elems_}, p_{this, "p", elems_}, q_{this, "q", elems_},
      v_{this, "v", elems_, 1.0};
  Data<double> volo_{this, "volo", elems_}, vnew_{this, "vnew", elems_}, delv_{this, "delv", elems_};
  Data<double> vdov_{this, "vdov", elems_}, arealg_{this, "arealg", elems_}, ss_{this, "ss", elems_};
  // The time constraints: per reduction block, and the two minima the host reads.
  Data<double> dtc_block_{this, "dtcourant_block", std::uint64_t(blocks_), kBig};
  Data<double> dth_block_{this, "dthydro_block", std::uint64_t(blocks_), kBig};
  Data<double> dt_min_{this, "dt_min", 2, kBig};
};

}  // namespace

ApplicationEntry app_proxy_lulesh() {
  return {
      "proxy/lulesh",
      "A LULESH-like (CORAL) Lagrangian hydrodynamics time step on the Sedov problem: volume forces per "
      "element corner, node force gather, acceleration, boundary conditions, velocity and position, "
      "kinematics, EOS and a time-constraint reduction the host reads, on an s^3 hex mesh through "
      "explicit nodelist indirection",
      {{"s", 48, 2, 160, "elements per side of the cube (s^3 elements, (s+1)^3 nodes)"},
       {"iterations", 2, 1, 100000, "time steps (9 launches each)"},
       {"mesh", 0, 0, 64,
        "0: the lattice's numbering; B: an unstructured mesh's numbering of B^3 blocks (Lulesh-Unstruct)"},
       {"seed", 1, 0, 1000000, "the unstructured numbering's random block order and axes"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<LuleshApp>(a, input); }};
}

}  // namespace numagpu::kernels
