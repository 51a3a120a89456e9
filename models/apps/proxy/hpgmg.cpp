// proxy/hpgmg (application): a geometric multigrid V-cycle in the manner of HPGMG-FV (the paper's HPGMG
// proxy; its CUDA port's operators learned from its description, written here anew): Poisson's 7-point
// operator on a cube of n^3 cells (n a power of two), levels halving n down to 8^3. Each V-cycle, on every
// level from the finest down: `smooths` weighted-Jacobi sweeps (each reads the 7-point neighbourhood of x and
// b, writes the other x buffer: the buffers swap), the residual r = b - A x, and its restriction to the
// coarser level's b (each coarse cell the average of its 8 fine cells) with the coarse x zeroed; at the
// coarsest level 4 x smooths sweeps; then on the way up, the prolongation (each fine cell adds its coarse
// parent's correction: piecewise constant, as HPGMG-FV's) and `smooths` sweeps again. Every kernel is one
// thread per cell, blocks of 32 x 4 threads over x and y, one z plane per block row of the grid: the cells
// of a warp are 32 consecutive ones in x. Cells on the cube's faces read their own value for a neighbour
// outside (a homogeneous Neumann boundary); values steer nothing and are not computed.
//
// Reference: 128^3 cells on the finest level (x twice, b, r: 32 MiB), levels 128, 64, 32, 16, 8.
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBx = 32, kBy = 4;

// One level: n^3 cells, the solution twice (the smooths swap the buffers), the right-hand side and the
// residual, each placed by `grid` from its role's name (x0_, x1_, b_, r_).
struct Level {
  Level(std::int64_t m, const std::function<Array<float>(const std::string& role)>& grid)
      : n(m), x{grid("x0_"), grid("x1_")}, b(grid("b_")), r(grid("r_")) {}
  std::int64_t n;
  Array<float> x[2], b, r;
  int cur = 0;  // which x buffer holds the solution
};

class HpgmgApp : public Application {
 public:
  HpgmgApp(const Args& a, const std::string& input)
      : Application(a, input), cycles_(a["cycles"]), smooths_(a["smooths"]) {
    const std::int64_t n = a["n"];
    if (n & (n - 1)) throw KernelError("argument 'n': must be a power of two");
    // Each grid m^2 rows of m cells, named after its level (x0_128).
    for (std::int64_t m = n; m >= 8; m /= 2) {
      levels_.emplace_back(m, [&](const std::string& role) {
        return array<float>(role + std::to_string(m), std::uint64_t(m * m * m), std::uint64_t(m * m),
                            std::uint64_t(m));
      });
    }
  }

  void host() override {
    const std::size_t coarsest = levels_.size() - 1;
    for (std::int64_t cycle = 0; cycle < cycles_; ++cycle) {
      for (std::size_t l = 0; l < coarsest; ++l) {
        smooth(l, smooths_);
        launch("residual", stencil(levels_[l], Op::kResidual));
        launch("restriction", restriction(l));
      }
      smooth(coarsest, 4 * smooths_);
      for (std::size_t l = coarsest; l-- > 0;) {
        launch("prolongation", prolongation(l));
        smooth(l, smooths_);
      }
    }
  }

 private:
  enum class Op { kSmooth, kResidual };

  void smooth(std::size_t l, std::int64_t sweeps) {
    for (std::int64_t s = 0; s < sweeps; ++s) {
      launch("smooth", stencil(levels_[l], Op::kSmooth));
      levels_[l].cur = 1 - levels_[l].cur;
    }
  }

  static Launch grid_of(std::int64_t n, unsigned regs) {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((n + kBx - 1) / kBx),
              static_cast<std::uint32_t>((n + kBy - 1) / kBy), static_cast<std::uint32_t>(n)};
    l.block = {static_cast<std::uint32_t>(std::min(n, kBx)), kBy, 1};
    l.regs_per_thread = regs;
    return l;
  }

  // The cell of each thread (x, y, z) and whether it is inside the level's cube.
  struct Cell {
    V<std::int64_t> x, y, z;
  };
  static Cell cell(Cta& c) {
    return {c.threadIdx_x() + std::int64_t(c.blockIdx.x) * std::int64_t(c.blockDim.x),
            c.threadIdx_y() + std::int64_t(c.blockIdx.y) * kBy, c.uniform(c.blockIdx.z)};
  }

  // A smooth (x' = x + w (b - A x) / diag into the other buffer) or the residual (r = b - A x).
  Launch stencil(Level& lv, Op op) {
    Launch l = grid_of(lv.n, 32);
    const Array<float>& x = lv.x[lv.cur];
    const Array<float>& out = op == Op::kSmooth ? lv.x[1 - lv.cur] : lv.r;
    const std::int64_t n = lv.n;
    l.body = [&x, &out, &b = lv.b, n](Cta& c) {
      const Cell p = cell(c);
      c.exit_if(p.y >= n);
      const V<std::int64_t> at = p.x + (p.y + p.z * n) * n;
      V<float> sum = c.load(x, at) * -6.0f;
      // The six neighbours; one outside the cube is the cell itself (select: no branch, no load).
      auto neighbour = [&](const V<bool>& inside, std::int64_t offset) {
        sum = sum + c.load(x, select(inside, at + offset, at));
      };
      neighbour(p.x > 0, -1);
      neighbour(p.x < n - 1, 1);
      neighbour(p.y > 0, -n);
      neighbour(p.y < n - 1, n);
      neighbour(p.z > 0, -n * n);
      neighbour(p.z < n - 1, n * n);
      const V<float> res = c.load(b, at) - sum;
      c.store(out, at, res * 0.1f);
    };
    return l;
  }

  // The coarse level's b from the fine residual (the average of 8 children), its x zeroed.
  Launch restriction(std::size_t fine) {
    Level& f = levels_[fine];
    Level& cl = levels_[fine + 1];
    cl.cur = 0;
    Launch l = grid_of(cl.n, 24);
    const std::int64_t n = cl.n, nf = f.n;
    l.body = [&r = f.r, &b = cl.b, &x = cl.x[0], n, nf](Cta& c) {
      const Cell p = cell(c);
      c.exit_if(p.y >= n);
      const V<std::int64_t> child = p.x * 2 + (p.y * 2 + p.z * 2 * nf) * nf;
      V<float> sum(c, 0.0f);
      for (std::int64_t dz = 0; dz < 2; ++dz)
        for (std::int64_t dy = 0; dy < 2; ++dy)
          for (std::int64_t dx = 0; dx < 2; ++dx)
            sum = sum + c.load(r, child + dx + (dy + dz * nf) * nf);
      const V<std::int64_t> at = p.x + (p.y + p.z * n) * n;
      c.store(b, at, sum * 0.125f);
      c.store(x, at, V<float>(c, 0.0f));
    };
    return l;
  }

  // The fine level's x plus its coarse parent's x (piecewise constant interpolation).
  Launch prolongation(std::size_t fine) {
    Level& f = levels_[fine];
    Level& cl = levels_[fine + 1];
    Launch l = grid_of(f.n, 16);
    const std::int64_t n = f.n, nc = cl.n;
    l.body = [&x = f.x[f.cur], &xc = cl.x[cl.cur], n, nc](Cta& c) {
      const Cell p = cell(c);
      c.exit_if(p.y >= n);
      const V<std::int64_t> at = p.x + (p.y + p.z * n) * n;
      const V<std::int64_t> parent = p.x / 2 + (p.y / 2 + (p.z / 2) * nc) * nc;
      c.store(x, at, c.load(x, at) + c.load(xc, parent));
    };
    return l;
  }

  std::int64_t cycles_, smooths_;
  std::vector<Level> levels_;
};

}  // namespace

ApplicationEntry app_proxy_hpgmg() {
  return {"proxy/hpgmg",
          "An HPGMG-FV-like geometric multigrid: V-cycles of Jacobi smooths, residual, restriction and "
          "prolongation on a 7-point Poisson operator, n^3 cells down to 8^3 (reference n = 128)",
          {{"n", 128, 8, 1024, "cells per side on the finest level (a power of two)"},
           {"cycles", 2, 1, 10000, "V-cycles"},
           {"smooths", 2, 1, 64, "Jacobi sweeps before and after each level's correction"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<HpgmgApp>(a, input); }};
}

}  // namespace numagpu::kernels
