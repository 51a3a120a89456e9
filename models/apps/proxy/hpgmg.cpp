// proxy/hpgmg (application): HPGMG-FV's geometric multigrid V-cycle as its GPU port runs it (the paper's
// HPC-HPGMG; learned from HPGMG-FV's published design and its CUDA port's description, written here anew):
// a periodic cube of n^3 cells decomposed into boxes of `box`^3 cells, each box's grids with a ghost layer
// one cell deep; the variable-coefficient operator A x = a alpha x - b div(beta grad x) (alpha at cells,
// beta_i, beta_j, beta_k on the faces), in doubles. Levels keep the boxes and halve their cells, from
// `box`^3 down to 4^3 cells a box. Every grid of a level is one array over its boxes (HPGMG-FV's vector:
// box-major, each box's (d + 2)^3 cells with its ghosts): x, the other x of the smoother's pair, rhs,
// residual, alpha, beta_i, beta_j, beta_k, Dinv (the diagonal's inverse): 9 per level.
//
// Before the solve, one `initialize` launch a level writes its grids box by box (HPGMG-FV's problem set-up
// and operator rebuild), so each box's pages are first touched where its CTAs run. A V-cycle, as HPGMG-FV's:
// on each level from the finest down, `smooths` Chebyshev sweeps (each: the ghost exchange of x, then x' = x
// + c1 (x - x_prev) + c2 Dinv (rhs - A x) into the other buffer, which becomes x), the exchange and the
// residual rhs - A x, its restriction to the coarser level's rhs (each coarse cell the average of its 8 fine
// cells, box by box) and the coarser x zeroed (zero_vector); at the coarsest 4 x smooths sweeps (HPGMG-FV's
// bottom solver is iterative too); on the way up the piecewise-constant interpolation (each fine cell adds
// its coarse parent's x) and `smooths` sweeps.
//
// The ghost exchange (exchange_boundary) is one launch of one CTA of 256 threads per box and neighbour (6
// faces, 12 edges, 8 corners; the box grid periodic): the CTA copies the neighbour's boundary layer (a face
// d^2 cells, an edge d, a corner 1) into its box's ghost cells, each thread a cell at a stride of 256: the
// reads are the neighbour box's, wherever its pages live, the writes its own box's. The stencil kernels are
// one thread per (i, j) column of a box, blocks of 32 x 4 (fewer along i on boxes under 32 cells), each
// thread walking its column along k: the 7-point x and the 6 beta faces, alpha, rhs (and x_prev, Dinv for
// the smoother) loaded a cell. Values steer nothing: the grids are addresses only.
//
// Reference: n = 256 in 4^3 boxes of 64^3 (5 levels, 64 down to 4 cells a box): 1.5 GiB of grids.
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBi = 32, kBj = 4, kCopyThreads = 256, kMinBox = 4;

// One level: `boxes`^3 boxes of d^3 cells, each with a ghost layer: its 9 grids.
struct Level {
  std::int64_t d;                        // cells a box side
  std::int64_t stride_j, stride_k, vol;  // (d + 2), (d + 2)^2, (d + 2)^3
  Array<double> x[2], rhs, res, alpha, beta[3], dinv;
  int cur = 0;  // which x buffer holds the solution
};

class HpgmgApp : public Application {
 public:
  HpgmgApp(const Args& a, const std::string& input)
      : Application(a, input), cycles_(a["cycles"]), smooths_(a["smooths"]) {
    const std::int64_t n = a["n"], box = a["box"];
    if (box & (box - 1) || box < kMinBox)
      throw KernelError("argument 'box': must be a power of two, at least 4");
    if (n % box) throw KernelError("argument 'n': must be a multiple of 'box'");
    boxes_ = n / box;
    const std::uint64_t nboxes = std::uint64_t(boxes_ * boxes_ * boxes_);
    for (std::int64_t d = box; d >= kMinBox; d /= 2) {
      Level lv;
      lv.d = d;
      lv.stride_j = d + 2;
      lv.stride_k = (d + 2) * (d + 2);
      lv.vol = (d + 2) * lv.stride_k;
      const std::uint64_t count = nboxes * std::uint64_t(lv.vol);
      const std::string s = "_" + std::to_string(d);
      lv.x[0] = array<double>("x" + s, count);
      lv.x[1] = array<double>("x_prev" + s, count);
      lv.rhs = array<double>("rhs" + s, count);
      lv.res = array<double>("res" + s, count);
      lv.alpha = array<double>("alpha" + s, count);
      lv.beta[0] = array<double>("beta_i" + s, count);
      lv.beta[1] = array<double>("beta_j" + s, count);
      lv.beta[2] = array<double>("beta_k" + s, count);
      lv.dinv = array<double>("Dinv" + s, count);
      levels_.push_back(lv);
    }
  }

  void host() override {
    // HPGMG-FV's problem set-up before the solve (initialize_problem, rebuild_operator): every level's
    // grids written box by box, by the CTAs that later smooth the box, so its pages are placed there.
    for (Level& lv : levels_)
      launch("initialize", initialize(lv));
    const std::size_t coarsest = levels_.size() - 1;
    for (std::int64_t cycle = 0; cycle < cycles_; ++cycle) {
      for (std::size_t l = 0; l < coarsest; ++l) {
        smooth(l, smooths_);
        launch("exchange_boundary", exchange(levels_[l], levels_[l].x[levels_[l].cur]));
        launch("residual", stencil(levels_[l], false));
        launch("restriction", restriction(l));
        launch("zero_vector", zero(levels_[l + 1]));
      }
      smooth(coarsest, 4 * smooths_);
      for (std::size_t l = coarsest; l-- > 0;) {
        launch("interpolation", interpolation(l));
        smooth(l, smooths_);
      }
    }
  }

 private:
  void smooth(std::size_t l, std::int64_t sweeps) {
    Level& lv = levels_[l];
    for (std::int64_t s = 0; s < sweeps; ++s) {
      launch("exchange_boundary", exchange(lv, lv.x[lv.cur]));
      launch("smooth", stencil(lv, true));
      lv.cur = 1 - lv.cur;
    }
  }

  std::int64_t box_count() const { return boxes_ * boxes_ * boxes_; }

  // One thread per (i, j) column of every box: grid (tiles in i, tiles in j, boxes).
  Launch columns(const Level& lv, unsigned regs) const {
    const std::int64_t bi = std::min(lv.d, kBi);
    Launch l;
    l.grid = {std::uint32_t(lv.d / bi), std::uint32_t((lv.d + kBj - 1) / kBj), std::uint32_t(box_count())};
    l.block = {std::uint32_t(bi), std::uint32_t(kBj), 1};
    l.regs_per_thread = regs;
    return l;
  }
  // The thread's column: its (i, j) in the box and its cell at k = 0 (ghosts counted, the box's offset in).
  struct Column {
    V<std::int64_t> i, j, at;
  };
  static Column column(Cta& c, const Level& lv) {
    V<std::int64_t> i = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * std::int64_t(c.blockDim.x);
    V<std::int64_t> j = c.threadIdx_y() + std::int64_t(c.blockIdx.y) * kBj;
    c.exit_if(j >= lv.d);
    V<std::int64_t> at = (i + 1) + (j + 1) * lv.stride_j + lv.stride_k + std::int64_t(c.blockIdx.z) * lv.vol;
    return {std::move(i), std::move(j), std::move(at)};
  }

  // LASP's index terms (LADM §III-C) of a grid walked by the column kernels: the cell (i + 1) + (j + 1)
  // stride_j + stride_k + bz vol + k stride_k with i = tx + bx bdx and j = ty + 4 by holds both block ids in
  // the loop-invariant group (blockIdx.z too, which Algorithm 1 does not read) and k, the induction variable,
  // times a stride in the loop-variant one: Table II row 1 strided by `stride` cells (a plane of the box, or
  // two for the restriction's fine grid). The datablock: `cells` doubles, a row of the CTA's tile.
  static runtime::ArrayAccess along_k(const Array<double>& a, std::int64_t stride, std::int64_t cells) {
    return lasp_access(a, {true, true, false, runtime::LoopVariant::kM, std::uint64_t(stride)},
                       std::uint64_t(cells) * 8);
  }
  // The tile's row of one column kernel on `lv`: blockDim.x cells.
  static std::int64_t tile_row(const Level& lv) { return std::min(lv.d, kBi); }

  // A x at cell `at`: a alpha x - b h2inv sum over the 3 directions of beta(+) (x+ - x) - beta(-) (x - x-).
  static V<double> apply_op(Cta& c, const Level& lv, const Array<double>& x, const V<std::int64_t>& at) {
    const V<double> xc = c.load(x, at);
    V<double> div(c, 0.0);
    const std::int64_t stride[3] = {1, lv.stride_j, lv.stride_k};
    for (int dir = 0; dir < 3; ++dir) {
      const V<double> lo = c.load(lv.beta[dir], at), hi = c.load(lv.beta[dir], at, stride[dir]);
      const V<double> xm = c.load(x, at, -stride[dir]), xp = c.load(x, at, stride[dir]);
      div = fma(hi, xp - xc, div);
      div = div - lo * (xc - xm);
    }
    const V<double> h2inv(c, double(lv.d * lv.d));
    return fma(c.load(lv.alpha, at) * 1.0, xc, V<double>(c, 0.0) - div * h2inv);
  }

  // A Chebyshev sweep (x_prev buffer <- new x) or the residual (res <- rhs - A x), walking each column.
  Launch stencil(Level& lv, bool smooth) {
    Launch l = columns(lv, smooth ? 64 : 48);
    const int cur = lv.cur;
    // LASP: every grid at the column's cell (and the 7-point neighbours, constants apart): row 1 strided by
    // a plane; all a level's grids are equal, x (stated first) decides.
    for (const Array<double>* a : {&lv.x[cur], smooth ? &lv.x[1 - cur] : &lv.res, &lv.rhs, &lv.alpha,
                                   &lv.beta[0], &lv.beta[1], &lv.beta[2]})
      l.accesses.push_back(along_k(*a, lv.stride_k, tile_row(lv)));
    if (smooth) l.accesses.push_back(along_k(lv.dinv, lv.stride_k, tile_row(lv)));
    l.body = [&lv, cur, smooth](Cta& c) {
      const V<std::int64_t> base = column(c, lv).at;
      const Array<double>& x = lv.x[cur];
      c.uniform_loop(std::uint64_t(lv.d), [&](std::uint64_t k) {
        const V<std::int64_t> at = base + std::int64_t(k) * lv.stride_k;
        const V<double> ax = apply_op(c, lv, x, at);
        const V<double> r = c.load(lv.rhs, at) - ax;
        if (!smooth) {
          c.store(lv.res, at, r);
          return;
        }
        const Array<double>& prev = lv.x[1 - cur];
        const V<double> xc = c.load(x, at);
        const V<double> next =
            fma(V<double>(c, 0.5), xc - c.load(prev, at), fma(c.load(lv.dinv, at) * 0.8, r, xc));
        c.store(prev, at, next);
      });
    };
    return l;
  }

  // The coarse rhs from the fine residual (the average of 8 children), box by box.
  Launch restriction(std::size_t fine) {
    Level& f = levels_[fine];
    Level& cl = levels_[fine + 1];
    Launch l = columns(cl, 32);
    // LASP: the fine residual at (2 i + 1 + di) + ... + 2 k f.stride_k: row 1 strided by two fine planes, a
    // CTA's row 2 bi fine cells (the larger array, the fine level's, decides); the coarse rhs row 1
    // strided by a coarse plane.
    l.accesses = {along_k(f.res, 2 * f.stride_k, 2 * tile_row(cl)),
                  along_k(cl.rhs, cl.stride_k, tile_row(cl))};
    l.body = [&f, &cl](Cta& c) {
      const Column col = column(c, cl);
      const V<std::int64_t>&base = col.at, &i = col.i, &j = col.j;
      // The coarse cell's (i, j) and box give the fine children's column.
      const V<std::int64_t> fine =
          (2 * i + 1) + (2 * j + 1) * f.stride_j + f.stride_k + std::int64_t(c.blockIdx.z) * f.vol;
      c.uniform_loop(std::uint64_t(cl.d), [&](std::uint64_t k) {
        const V<std::int64_t> child = fine + std::int64_t(2 * k) * f.stride_k;
        V<double> sum(c, 0.0);
        for (std::int64_t dk = 0; dk < 2; ++dk)
          for (std::int64_t dj = 0; dj < 2; ++dj)
            for (std::int64_t di = 0; di < 2; ++di)
              sum = sum + c.load(f.res, child, di + dj * f.stride_j + dk * f.stride_k);
        c.store(cl.rhs, base + std::int64_t(k) * cl.stride_k, sum * 0.125);
      });
    };
    return l;
  }

  // The set-up: x, rhs, alpha, the betas and Dinv of each cell written (their values steer nothing).
  Launch initialize(Level& lv) {
    Launch l = columns(lv, 24);
    for (const Array<double>* a :
         {&lv.x[0], &lv.rhs, &lv.alpha, &lv.beta[0], &lv.beta[1], &lv.beta[2], &lv.dinv})
      l.accesses.push_back(along_k(*a, lv.stride_k, tile_row(lv)));  // LASP: row 1 strided by a plane
    l.body = [&lv](Cta& c) {
      const V<std::int64_t> base = column(c, lv).at;
      c.uniform_loop(std::uint64_t(lv.d), [&](std::uint64_t k) {
        const V<std::int64_t> at = base + std::int64_t(k) * lv.stride_k;
        for (const Array<double>* a :
             {&lv.x[0], &lv.rhs, &lv.alpha, &lv.beta[0], &lv.beta[1], &lv.beta[2], &lv.dinv})
          c.store(*a, at, V<double>(c, 1.0));
      });
    };
    return l;
  }

  // zero_vector: the level's x (its interior; the next exchange fills the ghosts).
  Launch zero(Level& lv) {
    lv.cur = 0;
    Launch l = columns(lv, 16);
    l.accesses = {along_k(lv.x[0], lv.stride_k, tile_row(lv))};  // LASP: row 1 strided by a plane
    l.body = [&lv](Cta& c) {
      const V<std::int64_t> base = column(c, lv).at;
      c.uniform_loop(std::uint64_t(lv.d), [&](std::uint64_t k) {
        c.store(lv.x[0], base + std::int64_t(k) * lv.stride_k, V<double>(c, 0.0));
      });
    };
    return l;
  }

  // Piecewise-constant interpolation: each fine cell adds its coarse parent's x.
  Launch interpolation(std::size_t fine) {
    Level& f = levels_[fine];
    Level& cl = levels_[fine + 1];
    Launch l = columns(f, 24);
    // LASP: the fine x row 1 strided by a plane (the larger array, it decides); the coarse parent at
    // (i / 2 + 1) + ... + (k / 2) cl.stride_k: k halved is no stride x k: row 7.
    l.accesses = {along_k(f.x[f.cur], f.stride_k, tile_row(f)),
                  lasp_access(cl.x[cl.cur], {true, true, false, runtime::LoopVariant::kIrregular, 0})};
    l.body = [&f, &cl, xf = f.cur, xc = cl.cur](Cta& c) {
      const Column col = column(c, f);
      const V<std::int64_t>&base = col.at, &i = col.i, &j = col.j;
      const V<std::int64_t> parent =
          (i / 2 + 1) + (j / 2 + 1) * cl.stride_j + cl.stride_k + std::int64_t(c.blockIdx.z) * cl.vol;
      c.uniform_loop(std::uint64_t(f.d), [&](std::uint64_t k) {
        const V<std::int64_t> at = base + std::int64_t(k) * f.stride_k;
        const V<double> add = c.load(cl.x[xc], parent, std::int64_t(k / 2) * cl.stride_k);
        c.store(f.x[xf], at, c.load(f.x[xf], at) + add);
      });
    };
    return l;
  }

  // exchange_boundary: CTA (box, neighbour) copies the neighbour's boundary layer into the box's ghosts.
  // The 26 neighbours in order dk, dj, di from -1 to 1 (the box itself skipped).
  Launch exchange(const Level& lv, const Array<double>& x) {
    Launch l = one_thread_per_item(box_count() * 26 * kCopyThreads, kCopyThreads, 16);
    // LASP: x at local + box vol (the ghosts) and local + nb vol (the neighbour's layer), box and nb
    // functions of blockIdx.x; local splits the pass's cell t + 256 pass into (i, j, k) by divisions by the
    // region's extents: no stride x pass, so no row of Table II (row 7; kernel-wide, RTWICE).
    l.accesses = {lasp_access(x, {true, false, false, runtime::LoopVariant::kIrregular, 0})};
    l.body = [this, &lv, &x](Cta& c) {
      const std::int64_t box = c.blockIdx.x / 26, which = c.blockIdx.x % 26;
      const std::int64_t dir = which < 13 ? which : which + 1;  // 0..26 without 13, the box itself
      const std::int64_t off[3] = {dir % 3 - 1, dir / 3 % 3 - 1, dir / 9 - 1};
      const std::int64_t b[3] = {box % boxes_, box / boxes_ % boxes_, box / (boxes_ * boxes_)};
      std::int64_t nb = 0;
      for (int a = 2; a >= 0; --a)
        nb = nb * boxes_ + (b[a] + off[a] + boxes_) % boxes_;
      // The region: along an axis with offset 0 the d interior cells, else one layer: the ghost at -1 (or d)
      // filled from the neighbour's cell d - 1 (or 0).
      std::int64_t extent[3], dst0[3], src0[3];
      for (int a = 0; a < 3; ++a) {
        extent[a] = off[a] == 0 ? lv.d : 1;
        dst0[a] = off[a] < 0 ? 0 : off[a] > 0 ? lv.d + 1 : 1;
        src0[a] = off[a] < 0 ? lv.d : off[a] > 0 ? 1 : 1;
      }
      const std::int64_t cells = extent[0] * extent[1] * extent[2];
      c.charge(InstrClass::kInt, 12);  // the copy's descriptor: boxes, offsets, extents
      const V<std::int64_t> t = c.threadIdx_x();
      c.uniform_loop(std::uint64_t((cells + kCopyThreads - 1) / kCopyThreads), [&](std::uint64_t pass) {
        const V<std::int64_t> cell = t + std::int64_t(pass) * kCopyThreads;
        c.if_(cell < cells, [&] {
          // The cell's (i, j, k) in the region: extents are the CTA's, not constants (idiv, irem).
          const V<std::int64_t> row = idiv(cell, extent[0]);
          const V<std::int64_t> ci = remainder_of_quotient(cell, row, extent[0]);
          const V<std::int64_t> ck = idiv(row, extent[1]);
          const V<std::int64_t> cj = remainder_of_quotient(row, ck, extent[1]);
          const V<std::int64_t> local = ci + cj * lv.stride_j + ck * lv.stride_k;
          const std::int64_t from = src0[0] + src0[1] * lv.stride_j + src0[2] * lv.stride_k + nb * lv.vol;
          const std::int64_t to = dst0[0] + dst0[1] * lv.stride_j + dst0[2] * lv.stride_k + box * lv.vol;
          c.store(x, local + to, c.load(x, local + from));
        });
      });
    };
    return l;
  }

  std::int64_t cycles_, smooths_, boxes_ = 0;
  std::vector<Level> levels_;
};

}  // namespace

ApplicationEntry app_proxy_hpgmg() {
  return {"proxy/hpgmg",
          "HPGMG-FV's geometric multigrid as its GPU port runs it: boxes with ghost layers exchanged between "
          "them (exchange_boundary), a variable-coefficient 7-point operator in doubles, Chebyshev smooths, "
          "residual, restriction, interpolation; V-cycles over levels of `box`^3 down to 4^3 cells a box "
          "(reference n = 256 in 64^3 boxes)",
          {{"n", 256, 8, 2048, "cells per side of the finest level (a multiple of box)"},
           {"box", 64, 4, 512, "cells per side of a box on the finest level (a power of two)"},
           {"cycles", 1, 1, 10000, "V-cycles"},
           {"smooths", 2, 1, 64, "Chebyshev sweeps before and after each level's correction"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<HpgmgApp>(a, input); }};
}

}  // namespace numagpu::kernels
