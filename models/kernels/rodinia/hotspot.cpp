// rodinia/hotspot: calculate_temp of Rodinia 3.1's hotspot (learned from its CUDA source, written here
// anew). A thermal simulation on a rows x cols grid: each CTA of 16 x 16 threads loads a tile of the
// temperature and power grids into shared memory and advances `pyramid` time steps in it, each step
// shrinking the valid region by one cell on every side, so that the CTAs' inner 12 x 12 regions (for a
// pyramid of 2) tile the grid without overlap; tiles overlap by the halo. Reference run of the GV100 study:
// `hotspot 1024 2 2` (1024 x 1024 grid, pyramid height 2, 2 time steps: one launch of 86 x 86 CTAs).
// Values: the temperatures never steer an address or a branch, so the arrays carry no data.
// Simplifications: the stencil update is computed with values as the source's dataflow runs (shared reads,
// the vertical and horizontal sums, the ambient term, the update), so its chain is seen; in float, where
// the source's 2.0 literal would make two of its steps fp64 (unchanged here: instruction classes kept).
// Only the loop's back edge is charged.
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBlock = 16;

class Hotspot : public Kernel {
 public:
  explicit Hotspot(const Args& a)
      : Kernel(a),
        rows_(a["rows"]),
        cols_(a["cols"]),
        pyramid_(a["pyramid"]),
        power_(array<float>("power", std::uint64_t(rows_ * cols_), rows_, cols_)),
        temp_src_(array<float>("temp_src", std::uint64_t(rows_ * cols_), rows_, cols_)),
        temp_dst_(array<float>("temp_dst", std::uint64_t(rows_ * cols_), rows_, cols_)) {
    if (kBlock - 2 * pyramid_ < 1) throw KernelError("argument 'pyramid': leaves no cell of a 16 x 16 tile");
  }

  Launch launch() override {
    const std::int64_t small = kBlock - 2 * pyramid_;  // the cells a CTA finally computes, per side
    Launch l;
    l.grid = {static_cast<std::uint32_t>((cols_ + small - 1) / small),
              static_cast<std::uint32_t>((rows_ + small - 1) / small), 1};
    l.block = {kBlock, kBlock, 1};
    l.regs_per_thread = 36;                    // nvcc for sm_70, as Accel-Sim's traces of it report
    l.shared_bytes = 3 * kBlock * kBlock * 4;  // three 16 x 16 float tiles
    l.body = [this, small](Cta& c) { body(c, small); };
    return l;
  }

 private:
  void body(Cta& c, std::int64_t small) {
    const std::int64_t border = pyramid_;  // halo cells on each side
    const std::int64_t blk_y = small * c.blockIdx.y - border, blk_x = small * c.blockIdx.x - border;
    const V<std::int64_t> tx = c.threadIdx_x(), ty = c.threadIdx_y();
    const V<std::int64_t> y = ty + blk_y, x = tx + blk_x;
    const V<std::int64_t> index = y * cols_ + x;
    const V<std::int64_t> cell = ty * kBlock + tx;
    Cta::Shared<float> temp(c, kBlock * kBlock), power(c, kBlock * kBlock), next(c, kBlock * kBlock);

    c.if_((y >= 0) && (y <= rows_ - 1) && (x >= 0) && (x <= cols_ - 1), [&] {
      temp.store(cell, c.load(temp_src_, index));
      power.store(cell, c.load(power_, index));
    });
    c.syncthreads();

    // The tile's cells inside the grid (uniform per CTA).
    const std::int64_t valid_y0 = blk_y < 0 ? -blk_y : 0, valid_x0 = blk_x < 0 ? -blk_x : 0;
    const std::int64_t blk_y1 = blk_y + kBlock - 1, blk_x1 = blk_x + kBlock - 1;
    const std::int64_t valid_y1 = blk_y1 > rows_ - 1 ? kBlock - 1 - (blk_y1 - rows_ + 1) : kBlock - 1;
    const std::int64_t valid_x1 = blk_x1 > cols_ - 1 ? kBlock - 1 - (blk_x1 - cols_ + 1) : kBlock - 1;
    // Neighbours clamped to the valid region.
    const V<std::int64_t> north = max_of(ty - 1, valid_y0), south = min_of(ty + 1, valid_y1);
    const V<std::int64_t> west = max_of(tx - 1, valid_x0), east = min_of(tx + 1, valid_x1);

    V<bool> computed(c, false);
    for (std::int64_t i = 0; i < pyramid_; ++i) {
      computed = false;
      const V<bool> inside = (tx >= i + 1) && (tx <= kBlock - i - 2) && (ty >= i + 1) &&
                             (ty <= kBlock - i - 2) && (tx >= valid_x0) && (tx <= valid_x1) &&
                             (ty >= valid_y0) && (ty <= valid_y1);
      c.if_(inside, [&] {
        computed = true;
        const V<float> t = temp.load(cell);
        const V<float> vertical = temp.load(south * kBlock + tx) + temp.load(north * kBlock + tx) - t * 2.0f;
        const V<float> horizontal = temp.load(ty * kBlock + east) + temp.load(ty * kBlock + west) - t * 2.0f;
        const V<float> ambient = (t * -1.0f + 80.0f) * kRz;
        next.store(cell, t + (power.load(cell) + vertical * kRy + horizontal * kRx + ambient) * kStepDivCap);
      });
      c.syncthreads();
      if (i == pyramid_ - 1) break;
      c.if_(computed, [&] { temp.store(cell, next.load(cell)); });
      c.syncthreads();
      c.charge(InstrClass::kBranch);  // the loop's back edge
    }
    c.if_(computed, [&] { c.store(temp_dst_, index, next.load(cell)); });
  }

  static V<std::int64_t> max_of(const V<std::int64_t>& a, std::int64_t b) {
    return map(a, InstrClass::kInt, [b](std::int64_t v) { return v < b ? b : v; });
  }
  static V<std::int64_t> min_of(const V<std::int64_t>& a, std::int64_t b) {
    return map(a, InstrClass::kInt, [b](std::int64_t v) { return v > b ? b : v; });
  }

  // The chip constants of the reference program fold into these factors; their values steer nothing.
  static constexpr float kRx = 1.0f, kRy = 1.0f, kRz = 1.0f, kStepDivCap = 1.0f;

  std::int64_t rows_, cols_, pyramid_;
  Array<float> power_, temp_src_, temp_dst_;
};

}  // namespace

LibraryEntry rodinia_hotspot() {
  return {"rodinia/hotspot",
          "Rodinia 3.1 hotspot, kernel calculate_temp; GV100 study input: 1024 x 1024, pyramid 2, 2 steps",
          {{"rows", 1024, 16, 1 << 16, "grid rows"},
           {"cols", 1024, 16, 1 << 16, "grid columns"},
           {"pyramid", 2, 1, 7, "time steps per launch (the pyramid height)"}},
          [](const Args& a) { return std::make_unique<Hotspot>(a); }};
}

}  // namespace numagpu::kernels
