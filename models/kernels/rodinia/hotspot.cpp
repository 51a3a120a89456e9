// rodinia/hotspot: calculate_temp of Rodinia 3.1's hotspot (learned from its CUDA source, written here
// anew). A thermal simulation on a rows x cols grid: each CTA of 16 x 16 threads loads a tile of the
// temperature and power grids into shared memory and advances `pyramid` time steps in it, each step
// shrinking the valid region by one cell on every side, so that the CTAs' inner 12 x 12 regions (for a
// pyramid of 2) tile the grid without overlap; tiles overlap by the halo. Reference run of the GV100 study:
// `hotspot 1024 2 2` (1024 x 1024 grid, pyramid height 2, 2 time steps: one launch of 86 x 86 CTAs).
// Values: the temperatures never steer an address or a branch, so the arrays carry no data.
// Arithmetic as the source types it: each thread first computes step / Cap, 1 / Rx, 1 / Ry and 1 / Rz
// (four fp32 divisions of its kernel arguments). In the update the literal 2.0 is a double, so from
// `S + N - 2.0 * t` on the expression is double: the float sums S + N and E + W, the power and the float
// ambient term (amb_temp - t) * Rz_1 are converted to double, the sums of products are DFMAs (nvcc
// contracts a * b + c by default), and the result is converted back to float for the store; Rx_1, Ry_1 and
// step / Cap are converted once, outside the loop. Each step is computed with values, so its chain is seen.
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
    // LASP's index terms: index = (ty + small * by - border) * cols + tx + small * bx - border for all three
    // arrays: invariant in bx and by, no loop: no datablock locality (a stencil, LADM §III-B), each CTA
    // reading 16 consecutive floats (64 B) of a data row.
    const runtime::IndexTerms tile{true, true, false, runtime::LoopVariant::kNone, 0};
    l.accesses = {lasp_access(power_, tile, kBlock * 4), lasp_access(temp_src_, tile, kBlock * 4),
                  lasp_access(temp_dst_, tile, kBlock * 4)};
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
    // step_div_Cap = step / Cap; Rx_1 = 1 / Rx; Ry_1 = 1 / Ry; Rz_1 = 1 / Rz (fp32 divisions), and the
    // three the double update reads, converted once.
    const V<float> step_div_cap = V<float>(c, kStep) / kCap;
    const V<float> rx_1 = 1.0f / V<float>(c, kRx);
    const V<float> ry_1 = 1.0f / V<float>(c, kRy);
    const V<float> rz_1 = 1.0f / V<float>(c, kRz);
    const V<double> step_d = convert<double>(step_div_cap);
    const V<double> rx_d = convert<double>(rx_1);
    const V<double> ry_d = convert<double>(ry_1);
    const V<double> minus_two(c, -2.0);

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
        // One statement per instruction where C++ would leave the order of evaluation open.
        const V<float> t = temp.load(cell);
        const V<double> td = convert<double>(t);
        const V<float> s = temp.load(south * kBlock + tx);
        const V<float> n = temp.load(north * kBlock + tx);
        const V<double> vertical = fma(minus_two, td, convert<double>(s + n));  // S + N - 2.0 t
        const V<float> e = temp.load(ty * kBlock + east);
        const V<float> w = temp.load(ty * kBlock + west);
        const V<double> horizontal = fma(minus_two, td, convert<double>(e + w));  // E + W - 2.0 t
        const V<float> ambient = (kAmbient - t) * rz_1;                           // float
        const V<double> p = convert<double>(power.load(cell));
        const V<double> with_vertical = fma(vertical, ry_d, p);
        const V<double> with_horizontal = fma(horizontal, rx_d, with_vertical);
        const V<double> sum = with_horizontal + convert<double>(ambient);
        next.store(cell, convert<float>(fma(step_d, sum, td)));  // t + step_div_Cap * sum
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

  // The kernel's arguments (the chip's constants) and amb_temp; their values steer nothing.
  static constexpr float kRx = 1.0f, kRy = 1.0f, kRz = 1.0f, kStep = 1.0f, kCap = 1.0f, kAmbient = 80.0f;

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
