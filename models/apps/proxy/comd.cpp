// proxy/comd (application): a CoMD-like molecular dynamics step (CoMD 1.1, the ExMatEx co-design proxy, with
// its Lennard-Jones potential; learned from the design CoMD 1.1's reference code documents (link cells at
// least the cutoff wide, the 26 neighbour cells, MAXATOMS slots a cell, the velocity-Verlet timestep) and the
// thread-per-atom scheme of its GPU ports as described by its authors; no code copied, written here anew).
// Atoms live in a periodic cube of link cells, each cell at least the cutoff wide and holding up to kMaxAtoms
// = 64 atoms in fixed slots (CoMD's MAXATOMS): atom slot s of cell b is element b * 64 + s of the
// structure-of-atoms arrays r, p, f (3 doubles each, CoMD's real3) and gid. The host program is CoMD's
// timestep(): advance_velocity (half a step), advance_position, redistribute (re-binning), compute_force,
// advance_velocity (half a step), after one compute_force at the start. Every kernel has one CTA per link
// cell of 64 threads, one thread per atom slot; threads whose slot is beyond the cell's atom count leave at
// once.
//
// compute_force (LJ, thread per atom): for each of the 27 neighbouring cells (periodic, the image shift
// uniform per cell), for each of its atoms (a uniform loop: the count is the cell's), load its position (the
// same address for every thread: a broadcast), form the distance, and where it is within the cutoff (a
// branch on computed values) accumulate the LJ force and energy (CoMD's ljForce: 1/r^2, r^-6, the force
// factor). Self-interaction is skipped by the same test (r^2 > 0).
//
// Re-binning: CoMD moves atoms that left their cell (updateLinkCells) and then exchanges halo cells (with MPI
// ranks, or its own periodic images). Here, one GPU without halo cells, the closest GPU equivalent is a
// counting re-bin into a second set of arrays each step: clear_counts zeroes the new cells' counts, and
// redistribute has every atom wrap its position into the box, compute its cell and take a slot with
// atomicAdd on that cell's count (the returned old value; the model applies atomics in thread order, so the
// slots are deterministic), copying r, p and gid there; the host then swaps the two sets and checks no cell
// overflowed. Periodic neighbours are found by wrapped cell indices with an image shift instead of halo
// copies.
//
// EAM (`eam=1`, CoMD's -e): copper's embedded-atom potential in three kernels, as CoMD's GPU ports split
// eamForce: EAM_Force_1 sums over the neighbours within the cutoff the pair term phi(r) (its force and
// half its energy) and the density rhobar = sum rho(r); EAM_Force_2 adds each atom's embedding energy
// F(rhobar) and keeps F'(rhobar); EAM_Force_3 adds the embedding forces (F'(rhobar_i) + F'(rhobar_j))
// rho'(r) along each pair, reading the neighbour's F' (CoMD exchanges it through the halo; here the
// periodic neighbours are read in place). Each of phi, rho and F is a table read by CoMD's 4-point
// interpolate(), four gathered loads a call. The lattice and cutoff are copper's (3.615 and 4.95 angstrom,
// Cu_u6.eam's); the tables are generated (below), not read from the potential file.
//
// Input: generated, no data files: an FCC lattice of `nx`^3 unit cells (4 atoms each) in CoMD's LJ copper
// units made reduced (sigma = 1, epsilon = 1, mass = 1; lattice 5.257 / 2.315 sigma, cutoff 2.5 sigma, as
// CoMD's defaults), each atom displaced by up to 0.05 sigma and given a velocity of up to 0.1 in each
// component from a splitmix64 stream of `seed`; dt = 0.005. Positions, momenta, forces, counts and gids carry
// data (they steer the cutoff branch, the cells and the slots).
#include <cmath>

#include "kernels/application.hpp"
#include "kernels/generate.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kMaxAtoms = 64;  // CoMD's MAXATOMS: slots of a link cell
constexpr double kLattice = 5.257 / 2.315, kCutoff = 2.5, kDt = 0.005;
// EAM: copper's FCC lattice and Cu_u6.eam's cutoff (angstrom), tables of 500 intervals (as that file's),
// the density's table up to kRhoMax (an atom's rhobar in this lattice is about 20: 12 + 2.6 + 5.5 from
// its first three shells).
constexpr double kEamLattice = 3.615, kEamCutoff = 4.95, kRhoMax = 40.0;
constexpr std::int64_t kTable = 500;

class ComdApp : public Application {
 public:
  ComdApp(const Args& a, const std::string& input)
      : Application(a, input),
        eam_(a["eam"] != 0),
        warp_(a["warp"] != 0),
        lattice_(eam_ ? kEamLattice : kLattice),
        cutoff_(eam_ ? kEamCutoff : kCutoff),
        steps_(a["steps"]),
        box_(double(a["nx"]) * lattice_) {
    const std::int64_t nx = a["nx"];
    if (warp_ && !eam_) throw KernelError("argument 'warp': warp_atom is a form of the EAM force (eam=1)");
    if (cells_ < 3) throw KernelError("argument 'nx': the box must hold at least 3 link cells a side");
    cell_size_ = box_ / double(cells_);
    // The FCC lattice: 4 atoms a unit cell, binned on the host as CoMD's initialization does (putAtomInBox).
    SplitMix64 rng{static_cast<std::uint64_t>(a["seed"])};
    const double basis[4][3] = {
        {0.25, 0.25, 0.25}, {0.25, 0.75, 0.75}, {0.75, 0.25, 0.75}, {0.75, 0.75, 0.25}};
    std::int32_t gid = 0;
    for (std::int64_t z = 0; z < nx; ++z)
      for (std::int64_t y = 0; y < nx; ++y)
        for (std::int64_t x = 0; x < nx; ++x)
          for (const auto& b : basis) {
            double pos[3] = {(double(x) + b[0]) * lattice_, (double(y) + b[1]) * lattice_,
                             (double(z) + b[2]) * lattice_};
            std::int64_t cell[3];
            for (int k = 0; k < 3; ++k) {
              pos[k] += (rng.uniform() - 0.5) * 0.1;
              cell[k] = std::min(cells_ - 1, std::int64_t(pos[k] / cell_size_));
            }
            const std::int64_t box = cell[0] + (cell[1] + cell[2] * cells_) * cells_;
            const std::int32_t slot = set_[0].count.values[std::size_t(box)]++;
            if (slot >= kMaxAtoms) throw KernelError("comd: a link cell overflowed at initialization");
            const std::size_t at = std::size_t(box * kMaxAtoms + slot);
            for (int k = 0; k < 3; ++k) {
              set_[0].r.values[3 * at + std::size_t(k)] = pos[k];
              set_[0].p.values[3 * at + std::size_t(k)] = (rng.uniform() - 0.5) * 0.2;
            }
            set_[0].gid.values[at] = gid++;
          }
    atoms_ = gid;
    if (eam_) {
      // The three functions sampled at 500 intervals from entry 1 on (entry 0 is CoMD's values[-1]): a
      // Morse pair term phi (well depth 0.3 eV at the nearest-neighbour distance r0), an exponential
      // density rho, and Finnis-Sinclair's embedding F = -sqrt(rhobar): the shapes of an EAM potential, in
      // place of the Cu_u6.eam file CoMD reads.
      const double r0 = kEamLattice / std::sqrt(2.0);
      for (std::int64_t k = 0; k < kTable + 4; ++k) {
        const double rr = std::max(0.0, double(k - 1)) * kEamCutoff / kTable;
        const double m = std::exp(-1.4 * (rr - r0));
        phi_.values[std::size_t(k)] = 0.3 * (m * m - 2 * m);
        rho_.values[std::size_t(k)] = std::exp(-2.0 * (rr / r0 - 1.0));
        embed_.values[std::size_t(k)] = -std::sqrt(std::max(0.0, double(k - 1)) * kRhoMax / kTable);
      }
    }
  }

  void host() override {
    if (warp_) launch("build_atom_list", build_atom_list());
    force();
    for (std::int64_t step = 0; step < steps_; ++step) {
      launch("advance_velocity", advance_velocity());
      launch("advance_position", advance_position());
      launch("clear_counts", clear_counts());
      launch("redistribute", redistribute());
      cur_ = 1 - cur_;
      std::int64_t total = 0;
      for (std::int32_t n : set_[cur_].count.values) {
        if (n > kMaxAtoms) throw KernelError("comd: a link cell overflowed (more than 64 atoms)");
        total += n;
      }
      if (total != atoms_) throw KernelError("comd: atoms were lost in re-binning");
      if (warp_) launch("build_atom_list", build_atom_list());
      force();
      launch("advance_velocity", advance_velocity());
    }
  }

 private:
  // One CTA per link cell, one thread per atom slot; `f(c, cell, slot index)` with the cell's atoms active.
  Launch per_atom(unsigned regs, std::function<void(Cta&, std::int64_t, const V<std::int64_t>&)> f) {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(ncells_), 1, 1};
    l.block = {kMaxAtoms, 1, 1};
    l.regs_per_thread = regs;
    l.body = [this, f = std::move(f)](Cta& c) {
      const std::int64_t box = c.blockIdx.x;
      const V<std::int64_t> t = c.threadIdx_x();
      c.exit_if(t >= convert<std::int64_t>(c.load(set_[cur_].count, c.uniform(box))));
      f(c, box, t + box * kMaxAtoms);
    };
    return l;
  }

  // LASP's index terms (LADM §III-C). A per-atom kernel's thread owns atom i = tx + 64 bx: its r, p, f at
  // 3 i + k (CoMD's real3: three statements, k a constant) and its U, rhobar, dfEmbed at i are row 1 without
  // a loop, `block` CTA threads reading `bytes` each. The neighbours' atoms are read at the boxes CoMD takes
  // from its neighbour table (ljForce's nbrBoxes[iBox][j]; computed here by wrapping, the same numbers): a
  // data-dependent component (row 7), as are the interpolation tables (at computed distances) and every
  // array reached through an atomic's result or the atom list's entries.
  static runtime::ArrayAccess own(const Array<double>& a, std::int64_t components) {
    return lasp_access(a, runtime::terms::kPerThread, std::uint64_t(kMaxAtoms * components) * 8);
  }
  template <class T>
  static runtime::ArrayAccess gathered(const Array<T>& a) {
    return lasp_access(a, runtime::terms::kGathered);
  }
  // The cell's atom count at blockIdx.x (per_atom's exit test): row 1, 4 B a CTA.
  runtime::ArrayAccess cell_count() const {
    return lasp_access(set_[cur_].count, runtime::terms::kPerThread, 4);
  }

  // Each atom j of the 27 neighbouring cells (periodic, the image shift uniform per cell; a uniform loop over
  // the cell's count, each j's position a broadcast load) within the cutoff of the thread's atom (x, y, z)
  // (a branch on computed values; r2 > 0 skips the atom itself): visit(j, dx, dy, dz, r2).
  template <class Visit>
  void for_each_neighbour(Cta& c, std::int64_t box, const V<double>& x, const V<double>& y,
                          const V<double>& z, Visit&& visit) {
    const Array<double>& r = set_[cur_].r;
    const std::int64_t bx = box % cells_, by = box / cells_ % cells_, bz = box / (cells_ * cells_);
    const double rc2 = cutoff_ * cutoff_;
    for (std::int64_t dz = -1; dz <= 1; ++dz)
      for (std::int64_t dy = -1; dy <= 1; ++dy)
        for (std::int64_t dx = -1; dx <= 1; ++dx) {
          // The neighbour cell, wrapped, and the image shift of its atoms (uniform over the CTA).
          double shift[3];
          std::int64_t nb[3];
          const std::int64_t at[3] = {bx + dx, by + dy, bz + dz};
          for (int k = 0; k < 3; ++k) {
            nb[k] = (at[k] + cells_) % cells_;
            shift[k] = at[k] < 0 ? -box_ : at[k] >= cells_ ? box_ : 0.0;
          }
          const std::int64_t nbox = nb[0] + (nb[1] + nb[2] * cells_) * cells_;
          const V<std::int32_t> count = c.load(set_[cur_].count, c.uniform(nbox));
          c.charge(InstrClass::kInt, 4);  // the neighbour cell's index and shift
          c.uniform_loop(std::uint64_t(count[0]), [&](std::uint64_t j) {
            const V<std::int64_t> jj = c.uniform(nbox * kMaxAtoms + std::int64_t(j));
            const V<double> ddx = x - (c.load(r, jj * 3) + shift[0]);
            const V<double> ddy = y - (c.load(r, jj * 3 + 1) + shift[1]);
            const V<double> ddz = z - (c.load(r, jj * 3 + 2) + shift[2]);
            const V<double> r2 = fma(ddx, ddx, fma(ddy, ddy, ddz * ddz));
            c.if_(r2 <= rc2 && r2 > 0.0, [&] { visit(jj, ddx, ddy, ddz, r2); });
          });
        }
  }

  // The force: CoMD's ljForce, or with `eam` its eamForce as three kernels (CoMD's GPU ports split it so:
  // the pair terms and densities, the embedding, the embedding forces).
  void force() {
    if (!eam_) {
      launch("compute_force", compute_force());
      return;
    }
    launch("EAM_Force_1", warp_ ? warp_atom_force(1) : eam_pair_and_density());
    launch("EAM_Force_2", eam_embedding());
    launch("EAM_Force_3", warp_ ? warp_atom_force(3) : eam_embedding_force());
  }

  Launch compute_force() {
    Launch l = per_atom(64, [this](Cta& c, std::int64_t box, const V<std::int64_t>& i) {
      const Array<double>& r = set_[cur_].r;
      const V<double> x = c.load(r, i * 3), y = c.load(r, i * 3 + 1), z = c.load(r, i * 3 + 2);
      V<double> fx(c, 0.0), fy(c, 0.0), fz(c, 0.0), e(c, 0.0);
      for_each_neighbour(c, box, x, y, z,
                         [&](const V<std::int64_t>&, const V<double>& ddx, const V<double>& ddy,
                             const V<double>& ddz, const V<double>& r2) {
                           const V<double> ir2 = 1.0 / r2;  // CoMD's ljForce: r^-2, r^-6, energy and force
                           const V<double> ir6 = ir2 * ir2 * ir2;
                           e = e + ir6 * (ir6 - 1.0) * 4.0;
                           const V<double> fr = ir6 * ir2 * (ir6 * 2.0 - 1.0) * 24.0;
                           fx = fma(fr, ddx, fx);
                           fy = fma(fr, ddy, fy);
                           fz = fma(fr, ddz, fz);
                         });
      c.store(f_, i * 3, fx);
      c.store(f_, i * 3 + 1, fy);
      c.store(f_, i * 3 + 2, fz);
      c.store(u_, i, e * 0.5);
    });
    // LASP: r mostly at the neighbours' atoms (27 cells' against its own 3 reads): gathered; r and f are the
    // largest, r (first) decides: kernel-wide, RTWICE. f and U: the thread's own atom.
    l.accesses = {gathered(set_[cur_].r), own(f_, 3), own(u_, 1), cell_count()};
    return l;
  }

  // CoMD's interpolate(): the table's value and derivative at x by its 4-point polynomial (the entries
  // ii - 1 .. ii + 2 around ii = floor(x / dx), each a gathered load; tables start one entry early, as
  // CoMD's values[-1]).
  std::pair<V<double>, V<double>> interpolate(Cta& c, const Data<double>& table, double inv_dx,
                                              const V<double>& at) {
    const V<double> u = at * inv_dx;
    const V<std::int64_t> ii = convert<std::int64_t>(u);  // u >= 0: truncation is floor
    const V<double> frac = u - convert<double>(ii);
    const V<double> vm = c.load(table, ii), v0 = c.load(table, ii, 1), v1 = c.load(table, ii, 2),
                    v2 = c.load(table, ii, 3);
    const V<double> g1 = v1 - vm, g2 = v2 - v0;
    const V<double> value = v0 + frac * 0.5 * (g1 + frac * (v1 + vm - v0 * 2.0));
    const V<double> slope = (g1 + frac * (g2 - g1)) * (0.5 * inv_dx);
    return {value, slope};
  }

  // EAM_Force_1: pair forces and energy from phi(r), and the density rhobar = sum rho(r).
  Launch eam_pair_and_density() {
    Launch l = per_atom(72, [this](Cta& c, std::int64_t box, const V<std::int64_t>& i) {
      const Array<double>& r = set_[cur_].r;
      const V<double> x = c.load(r, i * 3), y = c.load(r, i * 3 + 1), z = c.load(r, i * 3 + 2);
      V<double> fx(c, 0.0), fy(c, 0.0), fz(c, 0.0), e(c, 0.0), rho(c, 0.0);
      for_each_neighbour(c, box, x, y, z,
                         [&](const V<std::int64_t>&, const V<double>& ddx, const V<double>& ddy,
                             const V<double>& ddz, const V<double>& r2) {
                           const V<double> rr = sqrt(r2);
                           const auto [phi, dphi] = interpolate(c, phi_, kTable / cutoff_, rr);
                           const auto [rho_r, drho] = interpolate(c, rho_, kTable / cutoff_, rr);
                           (void)drho;
                           const V<double> fr = (V<double>(c, 0.0) - dphi) / rr;
                           fx = fma(fr, ddx, fx);
                           fy = fma(fr, ddy, fy);
                           fz = fma(fr, ddz, fz);
                           e = e + phi * 0.5;
                           rho = rho + rho_r;
                         });
      c.store(f_, i * 3, fx);
      c.store(f_, i * 3 + 1, fy);
      c.store(f_, i * 3 + 2, fz);
      c.store(u_, i, e);
      c.store(rhobar_, i, rho);
    });
    // LASP: as compute_force's, and rhobar the thread's own; the tables gathered.
    l.accesses = {gathered(set_[cur_].r), own(f_, 3),     own(u_, 1),  own(rhobar_, 1),
                  gathered(phi_),         gathered(rho_), cell_count()};
    return l;
  }

  // EAM_Force_2: the embedding energy F(rhobar) added, its derivative kept for the third kernel.
  Launch eam_embedding() {
    Launch l = per_atom(32, [this](Cta& c, std::int64_t, const V<std::int64_t>& i) {
      const auto [f, df] = interpolate(c, embed_, kTable / kRhoMax, c.load(rhobar_, i));
      c.store(dfembed_, i, df);
      c.store(u_, i, c.load(u_, i) + f);
    });
    // LASP: every array at the thread's own atom (row 1, no loop; equal sizes, rhobar first decides:
    // align-aware batches of 512 B datablocks); the embedding table gathered.
    l.accesses = {own(rhobar_, 1), own(dfembed_, 1), own(u_, 1), gathered(embed_), cell_count()};
    return l;
  }

  // EAM_Force_3: the embedding forces, (F'(rhobar_i) + F'(rhobar_j)) rho'(r) along the pair.
  Launch eam_embedding_force() {
    Launch l = per_atom(64, [this](Cta& c, std::int64_t box, const V<std::int64_t>& i) {
      const Array<double>& r = set_[cur_].r;
      const V<double> x = c.load(r, i * 3), y = c.load(r, i * 3 + 1), z = c.load(r, i * 3 + 2);
      const V<double> dfi = c.load(dfembed_, i);
      V<double> fx(c, 0.0), fy(c, 0.0), fz(c, 0.0);
      for_each_neighbour(c, box, x, y, z,
                         [&](const V<std::int64_t>& j, const V<double>& ddx, const V<double>& ddy,
                             const V<double>& ddz, const V<double>& r2) {
                           const V<double> rr = sqrt(r2);
                           const auto [rho_r, drho] = interpolate(c, rho_, kTable / cutoff_, rr);
                           (void)rho_r;
                           const V<double> fr = (V<double>(c, 0.0) - (dfi + c.load(dfembed_, j)) * drho) / rr;
                           fx = fma(fr, ddx, fx);
                           fy = fma(fr, ddy, fy);
                           fz = fma(fr, ddz, fz);
                         });
      for (std::int64_t k = 0; k < 3; ++k)
        c.store(f_, i * 3 + k, c.load(f_, i * 3 + k) + (k == 0 ? fx : k == 1 ? fy : fz));
    });
    // LASP: r and dfEmbed mostly at the neighbours' atoms: gathered (r decides: kernel-wide, RTWICE); f the
    // thread's own; the density table gathered.
    l.accesses = {gathered(set_[cur_].r), own(f_, 3), gathered(dfembed_), gathered(rho_), cell_count()};
    return l;
  }

  // warp_atom (`warp=1`, CoMD-CUDA's -Wa method): the atom list, each atom's cell and slot in cell order (a
  // slot taken by atomicAdd on the list's length), which the warp-per-atom kernels walk.
  Launch build_atom_list() {
    Launch l = per_atom(16, [this](Cta& c, std::int64_t box, const V<std::int64_t>& i) {
      const V<std::int64_t> at = convert<std::int64_t>(fetch_add(c, list_n_, c.uniform(0)));
      c.store(list_cells_, at, V<std::int32_t>(c, std::int32_t(box)));
      c.store(list_atoms_, at, convert<std::int32_t>(i - box * kMaxAtoms));
    });
    // LASP: the list's entries at the slot an atomic on its length returned: gathered (kernel-wide, RTWICE).
    l.accesses = {gathered(list_cells_), gathered(list_atoms_), cell_count()};
    return l;
  }

  // The sum of v over each warp's lanes, in every lane: a 5-step butterfly of shuffles and adds.
  static V<double> warp_sum(const V<double>& v) {
    Cta& c = v.cta();
    V<double> r = v;
    for (unsigned w = 0; w < c.warps(); ++w) {
      double sum = 0;
      const unsigned first = w * kWarpSize, last = std::min(c.threads(), first + kWarpSize);
      for (unsigned t = first; t < last; ++t)
        sum += v[t];
      for (unsigned t = first; t < last; ++t)
        r[t] = sum;
    }
    c.charge(InstrClass::kInt, 5);   // SHFL.BFLY
    c.charge(InstrClass::kFp64, 5);  // DADD
    return r;
  }

  // EAM_Force_1 (`step` 1) or EAM_Force_3 (3) as warp_atom: a warp an atom of the list (4 warps a CTA of
  // 128), its lanes over each neighbour cell's slots (lane and lane + 32: whole cells read coalesced where
  // thread_atom broadcasts one atom at a time), the terms of atom_force's per-pair work, the warp's sums
  // reduced by shuffles and stored by lane 0.
  Launch warp_atom_force(int step) {
    constexpr std::int64_t kWarps = 4;
    Launch l;
    l.grid = {static_cast<std::uint32_t>((atoms_ + kWarps - 1) / kWarps), 1, 1};
    l.block = {kWarps * kWarpSize, 1, 1};
    l.regs_per_thread = 64;
    // LASP: atom_list_cells[tx / 32 + 4 bx]: row 1 without a loop, 16 B a CTA; r (the largest), f and the
    // rest at the listed atom or its neighbours: gathered, so r decides: kernel-wide, RTWICE.
    l.accesses = {gathered(set_[cur_].r), gathered(f_),
                  lasp_access(list_cells_, runtime::terms::kPerThread, kWarps * 4),
                  lasp_access(list_atoms_, runtime::terms::kPerThread, kWarps * 4)};
    l.body = [this, step](Cta& c) {
      const Array<double>& r = set_[cur_].r;
      const Array<std::int32_t>& count = set_[cur_].count;
      const V<std::int64_t> lane = c.threadIdx_x() - (c.threadIdx_x() / kWarpSize) * kWarpSize;
      const V<std::int64_t> id = c.threadIdx_x() / kWarpSize + std::int64_t(c.blockIdx.x) * kWarps;
      c.exit_if(id >= atoms_);
      const V<std::int64_t> box = convert<std::int64_t>(c.load(list_cells_, id));
      const V<std::int64_t> i = box * kMaxAtoms + convert<std::int64_t>(c.load(list_atoms_, id));
      const V<double> x = c.load(r, i * 3), y = c.load(r, i * 3 + 1), z = c.load(r, i * 3 + 2);
      const V<double> dfi = step == 3 ? c.load(dfembed_, i) : V<double>(c, 0.0);
      V<double> fx(c, 0.0), fy(c, 0.0), fz(c, 0.0), e(c, 0.0), rho(c, 0.0);
      const double rc2 = cutoff_ * cutoff_;
      const std::int64_t n = cells_;
      for (std::int64_t dz = -1; dz <= 1; ++dz)
        for (std::int64_t dy = -1; dy <= 1; ++dy)
          for (std::int64_t dx = -1; dx <= 1; ++dx) {
            // The neighbour cell, wrapped, and its image shift: per warp (each warp's atom has its cell).
            const std::int64_t d[3] = {dx, dy, dz};
            V<std::int64_t> nbox(c, 0);
            V<double> shift[3] = {V<double>(c, 0.0), V<double>(c, 0.0), V<double>(c, 0.0)};
            for (int k = 2; k >= 0; --k) {
              const V<std::int64_t> at = map(box, InstrClass::kInt, [n, k, dk = d[k]](std::int64_t b) {
                const std::int64_t axis[3] = {b % n, b / n % n, b / (n * n)};
                return axis[k] + dk;
              });
              shift[k] = map(at, InstrClass::kInt, [n, this](std::int64_t a) {
                return a < 0 ? -box_ : a >= n ? box_ : 0.0;
              });
              nbox = nbox * n + map(at, InstrClass::kInt, [n](std::int64_t a) { return (a + n) % n; });
            }
            const V<std::int64_t> in_cell = convert<std::int64_t>(c.load(count, nbox));
            for (std::int64_t pass = 0; pass < kMaxAtoms / kWarpSize; ++pass) {
              const V<std::int64_t> slot = lane + pass * kWarpSize;
              c.if_(slot < in_cell, [&] {
                const V<std::int64_t> j = nbox * kMaxAtoms + slot;
                const V<double> ddx = x - (c.load(r, j * 3) + shift[0]);
                const V<double> ddy = y - (c.load(r, j * 3 + 1) + shift[1]);
                const V<double> ddz = z - (c.load(r, j * 3 + 2) + shift[2]);
                const V<double> r2 = fma(ddx, ddx, fma(ddy, ddy, ddz * ddz));
                c.if_(r2 <= rc2 && r2 > 0.0, [&] {
                  const V<double> rr = sqrt(r2);
                  const auto [rho_r, drho] = interpolate(c, rho_, kTable / cutoff_, rr);
                  V<double> dphi(c, 0.0);
                  if (step == 1) {
                    const auto [phi, dp] = interpolate(c, phi_, kTable / cutoff_, rr);
                    dphi = dp;
                    e = e + phi * 0.5;
                    rho = rho + rho_r;
                  } else {
                    dphi = (dfi + c.load(dfembed_, j)) * drho;
                  }
                  const V<double> fr = (V<double>(c, 0.0) - dphi) / rr;
                  fx = fma(fr, ddx, fx);
                  fy = fma(fr, ddy, fy);
                  fz = fma(fr, ddz, fz);
                });
              });
            }
          }
      fx = warp_sum(fx);
      fy = warp_sum(fy);
      fz = warp_sum(fz);
      if (step == 1) {
        e = warp_sum(e);
        rho = warp_sum(rho);
      }
      c.if_(lane == 0, [&] {
        const V<double> sum[3] = {fx, fy, fz};
        for (std::int64_t k = 0; k < 3; ++k)
          c.store(f_, i * 3 + k, step == 1 ? sum[k] : c.load(f_, i * 3 + k) + sum[k]);
        if (step == 1) {
          c.store(u_, i, e);
          c.store(rhobar_, i, rho);
        }
      });
    };
    return l;
  }

  // p += dt / 2 * f (CoMD's advanceVelocity with dt / 2).
  Launch advance_velocity() {
    Launch l = per_atom(24, [this](Cta& c, std::int64_t, const V<std::int64_t>& i) {
      for (std::int64_t k = 0; k < 3; ++k)
        c.store(set_[cur_].p, i * 3 + k,
                fma(c.load(f_, i * 3 + k), V<double>(c, 0.5 * kDt), c.load(set_[cur_].p, i * 3 + k)));
    });
    l.accesses = {own(set_[cur_].p, 3), own(f_, 3), cell_count()};  // LASP: the own atom's, row 1
    return l;
  }

  // r += dt * p / m (mass 1).
  Launch advance_position() {
    Launch l = per_atom(24, [this](Cta& c, std::int64_t, const V<std::int64_t>& i) {
      for (std::int64_t k = 0; k < 3; ++k)
        c.store(set_[cur_].r, i * 3 + k,
                fma(c.load(set_[cur_].p, i * 3 + k), V<double>(c, kDt), c.load(set_[cur_].r, i * 3 + k)));
    });
    l.accesses = {own(set_[cur_].r, 3), own(set_[cur_].p, 3), cell_count()};  // LASP: the own atom's, row 1
    return l;
  }

  // The other set's counts zeroed (a cudaMemset: one thread per cell, 256 a block).
  Launch clear_counts() {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((ncells_ + 255) / 256), 1, 1};
    l.block = {256, 1, 1};
    l.regs_per_thread = 8;
    // LASP: the other set's counts at tx + 256 bx: row 1 without a loop, 1 KiB a CTA.
    l.accesses = {lasp_access(set_[1 - cur_].count, runtime::terms::kPerThread, 256 * 4)};
    l.body = [this](Cta& c) {
      const V<std::int64_t> k = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * 256;
      c.exit_if(k >= ncells_);
      c.store(set_[1 - cur_].count, k, V<std::int32_t>(c, 0));
      if (warp_) c.if_(k == 0, [&] { c.store(list_n_, k, V<std::int32_t>(c, 0)); });  // the list rebuilt next
    };
    return l;
  }

  // Each atom wraps its position into the box, finds its cell, takes a slot there with atomicAdd and
  // copies itself into the other set.
  Launch redistribute() {
    Launch l = per_atom(40, [this](Cta& c, std::int64_t, const V<std::int64_t>& i) {
      const int to = 1 - cur_;
      V<double> pos[3] = {c.load(set_[cur_].r, i * 3), c.load(set_[cur_].r, i * 3 + 1),
                          c.load(set_[cur_].r, i * 3 + 2)};
      V<std::int64_t> cell(c, 0);
      for (int k = 2; k >= 0; --k) {
        pos[k] = select(pos[k] >= box_, pos[k] - box_, select(pos[k] < 0.0, pos[k] + box_, pos[k]));
        const V<std::int64_t> ck = convert<std::int64_t>(pos[k] * (1.0 / cell_size_));
        // Clamped to the box: keeps the index inside the arrays (an atom cannot cross a box in a step).
        const V<std::int64_t> inside = select(ck >= cells_, V<std::int64_t>(c, cells_ - 1), ck);
        cell = cell * cells_ + select(inside < 0, V<std::int64_t>(c, 0), inside);
      }
      const V<std::int32_t> slot = fetch_add(c, set_[to].count, cell);
      const V<std::int64_t> j = cell * kMaxAtoms + convert<std::int64_t>(slot);
      c.if_(slot < std::int32_t(kMaxAtoms), [&] {  // an overflow is found by the host from the counts
        for (std::int64_t k = 0; k < 3; ++k) {
          c.store(set_[to].r, j * 3 + k, pos[k]);
          c.store(set_[to].p, j * 3 + k, c.load(set_[cur_].p, i * 3 + k));
        }
        c.store(set_[to].gid, j, c.load(set_[cur_].gid, i));
      });
    });
    // LASP: the current set at the thread's own atom (row 1; its r, stated first of the largest, decides:
    // align-aware batches), the other set at the slot an atomic on the new cell's count returned: gathered.
    const int to = 1 - cur_;
    l.accesses = {own(set_[cur_].r, 3),
                  own(set_[cur_].p, 3),
                  lasp_access(set_[cur_].gid, runtime::terms::kPerThread, kMaxAtoms * 4),
                  gathered(set_[to].r),
                  gathered(set_[to].p),
                  gathered(set_[to].gid),
                  gathered(set_[to].count),
                  cell_count()};
    return l;
  }

  // old = atomicAdd(&a[index], 1) per active thread: the old values are read in thread order (the order in
  // which the model applies a CTA's atomics), then the atomic step is issued (adding 0 to data already
  // counted, so its addresses are what it contributes).
  static V<std::int32_t> fetch_add(Cta& c, const Array<std::int32_t>& a, const V<std::int64_t>& index) {
    V<std::int32_t> old(c, 0);
    for (unsigned t = 0; t < c.threads(); ++t) {
      if (!c.active(t)) continue;
      if (std::uint64_t(index[t]) >= a.data->size()) continue;
      std::int32_t& cell = (*a.data)[std::size_t(index[t])];
      old[t] = cell++;
    }
    c.atomic_add(a, index, V<std::int32_t>(c, 0));
    return old;
  }

  // The atoms in their link cells (kMaxAtoms slots a cell), twice: each step's redistribution reads one set
  // and writes the other.
  struct Atoms {
    Atoms(Application* app, const std::string& k, std::uint64_t slots, std::uint64_t cells)
        : r{app, "r" + k, 3 * slots},
          p{app, "p" + k, 3 * slots},
          gid{app, "gid" + k, slots, -1},
          count{app, "n_atoms" + k, cells} {}
    Data<double> r, p;         // 3 a slot
    Data<std::int32_t> gid;    // -1: an empty slot
    Data<std::int32_t> count;  // atoms a cell
  };

  bool eam_, warp_;
  double lattice_, cutoff_;
  std::int64_t steps_;
  double box_;
  std::int64_t cells_ = std::int64_t(box_ / cutoff_), ncells_ = cells_ * cells_ * cells_, atoms_ = 0;
  std::uint64_t slots_ = std::uint64_t(ncells_) * kMaxAtoms;
  double cell_size_ = 0;
  int cur_ = 0;
  Atoms set_[2] = {{this, "0", slots_, std::uint64_t(ncells_)}, {this, "1", slots_, std::uint64_t(ncells_)}};
  Data<double> f_{this, "f", 3 * slots_};
  Array<double> u_ = array<double>("U", slots_);
  // EAM only (one element otherwise): the tables, each atom's density and embedding derivative.
  std::uint64_t eam_slots_ = eam_ ? slots_ : 1, eam_table_ = eam_ ? kTable + 4 : 1;
  Data<double> phi_{this, "phi_table", eam_table_}, rho_{this, "rho_table", eam_table_},
      embed_{this, "F_table", eam_table_};
  Data<double> rhobar_{this, "rhobar", eam_slots_}, dfembed_{this, "dfEmbed", eam_slots_};
  // warp_atom only (one element otherwise): the atom list (cell and slot an atom) and its length.
  std::uint64_t list_slots_ = warp_ ? slots_ : 1;
  Data<std::int32_t> list_cells_{this, "atom_list_cells", list_slots_},
      list_atoms_{this, "atom_list_atoms", list_slots_};
  Data<std::int32_t> list_n_{this, "atom_list_n", 1};
};

}  // namespace

ApplicationEntry app_proxy_comd() {
  return {
      "proxy/comd",
      "A CoMD-like (ExMatEx) Lennard-Jones molecular dynamics step on link cells of 64 atom slots: "
      "compute_force, advance_velocity, advance_position, a counting re-bin (clear_counts, redistribute) "
      "per time step, on a generated FCC lattice of nx^3 unit cells",
      {{"nx", 24, 4, 64, "FCC unit cells per side (4 atoms each)"},
       {"steps", 2, 1, 10000, "time steps"},
       {"seed", 1, 0, std::int64_t(1) << 62, "seed of the displacements and velocities"},
       {"eam", 0, 0, 1, "1: CoMD's EAM potential (copper, three force kernels) instead of Lennard-Jones"},
       {"warp", 0, 0, 1, "1 (with eam=1): CoMD-CUDA's warp_atom, a warp an atom of an atom list (CoMD-Wa)"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<ComdApp>(a, input); }};
}

}  // namespace numagpu::kernels
