// rodinia/pathfinder_dynproc: dynproc_kernel of Rodinia 3.1's pathfinder (learned from its CUDA source,
// pathfinder.cu, written here anew). Dynamic programming over a rows x cols grid of weights: the cost of a
// cell is its weight plus the least of the three costs below it (down-left, down, down-right). One launch
// advances `iteration` rows (the pyramid height) in shared memory: each CTA of 256 threads loads 256
// consecutive costs of the previous row, then for i = 0 .. iteration-1 the threads tx in [i+1, 254-i] take
// the minimum of prev[W], prev[tx], prev[E] (W and E clamped to the part of the tile inside the grid), add
// their weight wall[cols * (step + i) + x] and publish it to prev, a barrier after each half; the inner
// 256 - 2 * pyramid cells of each CTA tile the row without overlap and are stored.
//
// Reference run of the GV100 study: `pathfinder 100000 100 20` (100,000 columns, 100 rows, pyramid 20). The
// host loop launches ceil(99 / 20) = 5 kernels of ceil(100000 / 216) = 463 CTAs, at start rows 0, 20, 40,
// 60, 80, each advancing min(20, rows - 1 - step) rows (the last 19), ping-ponging two result rows. This
// file is ONE launch: `step` selects it (default 0, the first); the run is five entries with step=0, 20, 40,
// 60, 80. The host's border (the pyramid height) stays the same in every launch while the kernel's small
// block uses the launch's own iteration count, as in the source (the last launch's tiles shift by one).
//
// Input: the host fills the weights with rand() % 10 (seeded 9); the first row is the initial cost, the
// rest is the wall (rows - 1 rows, the array the kernel reads). The values steer no address and no branch
// (MIN is a select), so the arrays carry no data.
// Simplifications: the min-of-three and the add are computed with values (the chain from the shared reads
// to the store); only the loop's back edge is charged.
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kBlock = 256;  // BLOCK_SIZE
constexpr std::int64_t kHalo = 1;

class PathfinderDynproc : public Kernel {
 public:
  explicit PathfinderDynproc(const Args& a)
      : Kernel(a),
        cols_(a["cols"]),
        rows_(a["rows"]),
        pyramid_(a["pyramid"]),
        step_(a["step"]),
        wall_(array<std::int32_t>("wall", std::uint64_t((rows_ - 1) * cols_), std::uint64_t(rows_ - 1),
                                  std::uint64_t(cols_))),
        src_(array<std::int32_t>("src", std::uint64_t(cols_))),
        dst_(array<std::int32_t>("dst", std::uint64_t(cols_))) {
    if (kBlock - 2 * kHalo * pyramid_ < 1)
      throw KernelError("argument 'pyramid': leaves no column of a tile");
    if (step_ > rows_ - 2) throw KernelError("argument 'step': beyond the last row");
  }

  Launch launch() override {
    const std::int64_t border = pyramid_ * kHalo;                   // the host's borderCols
    const std::int64_t small_host = kBlock - 2 * kHalo * pyramid_;  // the host's smallBlockCol
    Launch l;
    l.grid = {static_cast<std::uint32_t>((cols_ + small_host - 1) / small_host), 1, 1};
    l.block = {kBlock, 1, 1};
    l.regs_per_thread = 16;           // nvcc for sm_70 (Accel-Sim's trace of dynproc_kernel)
    l.shared_bytes = 2 * kBlock * 4;  // prev[256], result[256] of int
    l.body = [this, border](Cta& c) { body(c, border); };
    // LASP's index terms: x = tx + small * bx - border, invariant in bx. wall[x + cols * (step + i)]: the
    // pyramid loop moves one data row (cols) per step: no datablock locality, strided by cols. src[x] and
    // dst[x]: no loop. A CTA reads 256 consecutive ints of a row.
    using runtime::LoopVariant;
    l.accesses = {lasp_access(wall_, {true, false, false, LoopVariant::kM, std::uint64_t(cols_)}, kBlock * 4),
                  lasp_access(src_, {true, false, false, LoopVariant::kNone, 0}, kBlock * 4),
                  lasp_access(dst_, {true, false, false, LoopVariant::kNone, 0}, kBlock * 4)};
    return l;
  }

 private:
  void body(Cta& c, std::int64_t border) {
    const std::int64_t iteration = std::min(pyramid_, rows_ - step_ - 1);
    const std::int64_t small = kBlock - iteration * kHalo * 2;
    const std::int64_t blk_x = small * c.blockIdx.x - border, blk_x_max = blk_x + kBlock - 1;
    const std::int64_t valid_min = blk_x < 0 ? -blk_x : 0;
    const std::int64_t valid_max = blk_x_max > cols_ - 1 ? kBlock - 1 - (blk_x_max - cols_ + 1) : kBlock - 1;
    const V<std::int64_t> tx = c.threadIdx_x();
    const V<std::int64_t> x = tx + blk_x;
    const V<std::int64_t> west = clamp_low(tx - 1, valid_min), east = clamp_high(tx + 1, valid_max);
    const V<bool> valid = (tx >= valid_min) && (tx <= valid_max);
    Cta::Shared<std::int32_t> prev(c, kBlock), result(c, kBlock);

    c.if_((x >= 0) && (x <= cols_ - 1), [&] { prev.store(tx, c.load(src_, x)); });
    c.syncthreads();

    V<bool> computed(c, false);
    for (std::int64_t i = 0; i < iteration; ++i) {
      computed = false;
      c.if_((tx >= i + 1) && (tx <= kBlock - i - 2) && valid, [&] {
        computed = true;
        const V<std::int32_t> left = prev.load(west), up = prev.load(tx), right = prev.load(east);
        const V<std::int32_t> shortest = min_of(min_of(left, up), right);
        const V<std::int64_t> index = x + cols_ * (step_ + i);
        result.store(tx, shortest + c.load(wall_, index));
      });
      c.syncthreads();
      if (i == iteration - 1) break;
      c.if_(computed, [&] { prev.store(tx, result.load(tx)); });
      c.syncthreads();
      c.charge(InstrClass::kBranch);  // the loop's back edge
    }
    c.if_(computed, [&] { c.store(dst_, x, result.load(tx)); });
  }

  static V<std::int64_t> clamp_low(const V<std::int64_t>& a, std::int64_t b) {
    return map(a, InstrClass::kInt, [b](std::int64_t v) { return v < b ? b : v; });
  }
  static V<std::int64_t> clamp_high(const V<std::int64_t>& a, std::int64_t b) {
    return map(a, InstrClass::kInt, [b](std::int64_t v) { return v > b ? b : v; });
  }
  static V<std::int32_t> min_of(const V<std::int32_t>& a, const V<std::int32_t>& b) {
    return zip(a, b, InstrClass::kInt, [](std::int32_t x, std::int32_t y) { return x < y ? x : y; });
  }

  std::int64_t cols_, rows_, pyramid_, step_;
  Array<std::int32_t> wall_, src_, dst_;
};

}  // namespace

LibraryEntry rodinia_pathfinder_dynproc() {
  return {"rodinia/pathfinder_dynproc",
          "Rodinia 3.1 pathfinder, kernel dynproc_kernel; GV100 study input: 100000 100 20 (five launches, "
          "step=0, 20, 40, 60, 80)",
          {{"cols", 100000, 16, 1 << 26, "columns"},
           {"rows", 100, 2, 1 << 20, "rows (the wall has rows - 1)"},
           {"pyramid", 20, 1, 127, "rows advanced per launch (the pyramid height)"},
           {"step", 0, 0, 1 << 20, "this launch's first row (0, pyramid, 2 x pyramid, ...)"}},
          [](const Args& a) { return std::make_unique<PathfinderDynproc>(a); }};
}

}  // namespace numagpu::kernels
