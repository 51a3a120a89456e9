// parboil/stencil (application): Parboil's stencil, CUDA version (block2D_hybrid_coarsen_x; learned from its
// source, written here anew): a 7-point Jacobi stencil on an nx x ny x nz grid, `iterations` launches with
// the two grids swapped after each (the benchmark's host loop). Blocks of 32 x 4 threads; each thread owns
// two points of a row (i and i + 32: the x coarsening), the CTA a 64 x 4 tile of the xy plane, and marches
// along z from 1 to nz - 2 keeping bottom, current and top in registers: per plane it loads its points' top
// values, puts the current ones in shared memory (a barrier before and after), then updates its points
// inside the grid from shared memory, reading the tile's halo (left, right, up, down) from global memory at
// the tile's edges. Values steer nothing; the arrays carry none.
//
// Reference input: Parboil's "default" dataset, 512 x 512 x 64 (64 MiB a grid); Parboil times 100
// iterations, the suite runs fewer at the full footprint.
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kTx = 32, kTy = 4;

class StencilApp : public Application {
 public:
  StencilApp(const Args& a, const std::string& input)
      : Application(a, input), nx_(a["nx"]), ny_(a["ny"]), nz_(a["nz"]), iterations_(a["iterations"]) {}

  void host() override {
    int src = 0;
    for (std::int64_t t = 0; t < iterations_; ++t) {
      launch("block2D_hybrid_coarsen_x", kernel(grid_[src], grid_[1 - src]));
      src = 1 - src;
    }
  }

 private:
  Launch kernel(const Array<float>& a0, const Array<float>& next) {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((nx_ + 2 * kTx - 1) / (2 * kTx)),
              static_cast<std::uint32_t>((ny_ + kTy - 1) / kTy), 1};
    l.block = {kTx, kTy, 1};
    l.regs_per_thread = 32;
    l.shared_bytes = 2 * kTx * kTy * 4;
    // LASP's index terms: x + (y + k * ny) * nx with x = tx + 64 bx, y = ty + 4 by: invariant in bx and by,
    // the z loop moves a whole nx x ny plane per step: no datablock locality strided by a plane (Table II
    // row 1, the paper's Hotspot3D: NL-Ystride), stride-aware; a CTA reads 64 consecutive floats of a row.
    const runtime::IndexTerms plane{true, true, false, runtime::LoopVariant::kM, std::uint64_t(nx_ * ny_)};
    l.accesses = {lasp_access(a0, plane, 2 * kTx * 4), lasp_access(next, plane, 2 * kTx * 4)};
    l.body = [this, &a0, &next](Cta& c) {
      const V<std::int64_t> tx = c.threadIdx_x(), ty = c.threadIdx_y();
      const V<std::int64_t> i = tx + std::int64_t(c.blockIdx.x) * 2 * kTx, i2 = i + kTx;
      const V<std::int64_t> j = ty + std::int64_t(c.blockIdx.y) * kTy;
      const V<std::int64_t> sh = tx + ty * 2 * kTx, sh2 = sh + kTx;
      auto at = [this](const V<std::int64_t>& x, const V<std::int64_t>& y, std::int64_t z) {
        return x + (y + z * ny_) * nx_;
      };
      const V<bool> in1 = (i < nx_) && (j < ny_), in2 = (i2 < nx_) && (j < ny_);
      V<float> bottom(c, 0.0f), bottom2(c, 0.0f), current(c, 0.0f), current2(c, 0.0f);
      V<float> top(c, 0.0f), top2(c, 0.0f);
      c.if_(in1, [&] {
        bottom = c.load(a0, at(i, j, 0));
        current = c.load(a0, at(i, j, 1));
      });
      c.if_(in2, [&] {
        bottom2 = c.load(a0, at(i2, j, 0));
        current2 = c.load(a0, at(i2, j, 1));
      });
      Cta::Shared<float> tile(c, 2 * kTx * kTy);
      const V<bool> inner1 = (i > 0) && (i < nx_ - 1) && (j > 0) && (j < ny_ - 1);
      const V<bool> inner2 = (i2 > 0) && (i2 < nx_ - 1) && (j > 0) && (j < ny_ - 1);
      for (std::int64_t k = 1; k < nz_ - 1; ++k) {
        c.if_(in1, [&] { top = c.load(a0, at(i, j, k + 1)); });
        c.if_(in2, [&] { top2 = c.load(a0, at(i2, j, k + 1)); });
        c.syncthreads();
        c.if_(in1, [&] { tile.store(sh, current); });
        c.if_(in2, [&] { tile.store(sh2, current2); });
        c.syncthreads();
        // One point: its left (global at the tile's left edge), right (from the tile, or global at its right
        // edge), up and down neighbours (global at the tile's top and bottom rows).
        auto update = [&](const V<bool>& inner, const V<std::int64_t>& x, const V<std::int64_t>& s,
                          bool first, V<float>& b, V<float>& cur, V<float>& t) {
          c.if_(inner, [&] {
            V<float> sum = t + b;
            if (first) {
              c.if_else(
                  tx == 0, [&] { sum = sum + c.load(a0, at(x - 1, j, k)); },
                  [&] { sum = sum + tile.load(s - 1); });
              sum = sum + tile.load(s + 1);
            } else {
              sum = sum + tile.load(s - 1);
              c.if_else(
                  tx == kTx - 1, [&] { sum = sum + c.load(a0, at(x + 1, j, k)); },
                  [&] { sum = sum + tile.load(s + 1); });
            }
            c.if_else(
                ty == kTy - 1, [&] { sum = sum + c.load(a0, at(x, j + 1, k)); },
                [&] { sum = sum + tile.load(s + 2 * kTx); });
            c.if_else(
                ty == 0, [&] { sum = sum + c.load(a0, at(x, j - 1, k)); },
                [&] { sum = sum + tile.load(s - 2 * kTx); });
            c.store(next, at(x, j, k), sum * 0.5f - cur * 0.25f);
          });
          b = cur;
          cur = t;
        };
        update(inner1, i, sh, true, bottom, current, top);
        update(inner2, i2, sh2, false, bottom2, current2, top2);
        c.charge(InstrClass::kBranch);  // the z loop's back edge
      }
    };
    return l;
  }

  // A grid: nx x ny x nz cells, placed as ny nz rows of nx.
  std::uint64_t cells() const { return std::uint64_t(nx_ * ny_ * nz_); }
  std::uint64_t rows() const { return std::uint64_t(ny_ * nz_); }
  std::int64_t nx_, ny_, nz_, iterations_;
  Array<float> grid_[2] = {array<float>("A0", cells(), rows(), std::uint64_t(nx_)),
                           array<float>("Anext", cells(), rows(), std::uint64_t(nx_))};
};

}  // namespace

ApplicationEntry app_parboil_stencil() {
  return {"parboil/stencil",
          "Parboil stencil (CUDA, block2D_hybrid_coarsen_x): a 7-point 3-D Jacobi stencil, `iterations` "
          "launches swapping the grids; reference: the default dataset, 512 x 512 x 64",
          {{"nx", 512, 3, 1 << 14, "grid points in x"},
           {"ny", 512, 3, 1 << 14, "grid points in y"},
           {"nz", 64, 3, 1 << 14, "grid points in z"},
           {"iterations", 8, 1, 100000, "time steps (launches)"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<StencilApp>(a, input); }};
}

}  // namespace numagpu::kernels
