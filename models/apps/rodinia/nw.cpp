// rodinia/nw (application): Rodinia 3.1 nw, Needleman-Wunsch global alignment of two sequences of n symbols
// (learned from needle.cu and needle_kernel.cu, written here anew). The (n + 1) x (n + 1) score matrix is
// filled in 16 x 16 blocks along anti-diagonals: the host launches needle_cuda_shared_1 for the upper-left
// triangle of blocks (diagonal i = 1 .. n / 16 with i CTAs) and needle_cuda_shared_2 for the lower-right one
// (i = n / 16 - 1 .. 1), 2 n / 16 - 1 launches whose grids grow and shrink. A CTA is 16 threads (half a
// warp): it loads its block of the reference matrix (16 rows) and the block's north-west corner, west column
// and north row of scores into shared memory, sweeps the block's 31 anti-diagonals (thread tx active while
// tx <= m, a barrier after each), and stores its 16 rows of scores. Values steer nothing.
//
// Reference: Rodinia's run `nw 2048 10` (two 16 MiB matrices of 2049 x 2049 ints).
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kB = 16;  // BLOCK_SIZE

class NwApp : public Application {
 public:
  NwApp(const Args& a, const std::string& input) : Application(a, input), n_(a["n"]) {
    if (n_ % kB) throw KernelError("argument 'n': must be a multiple of 16");
  }

  void host() override {
    const std::int64_t width = n_ / kB;
    for (std::int64_t i = 1; i <= width; ++i)
      launch("needle_cuda_shared_1", needle(i, true));
    for (std::int64_t i = width - 1; i >= 1; --i)
      launch("needle_cuda_shared_2", needle(i, false));
  }

 private:
  Launch needle(std::int64_t i, bool upper) {
    const std::int64_t width = n_ / kB;
    Launch l;
    l.grid = {static_cast<std::uint32_t>(i), 1, 1};
    l.block = {kB, 1, 1};
    l.regs_per_thread = 24;
    l.shared_bytes = ((kB + 1) * (kB + 1) + kB * kB) * 4;
    // LASP's index terms (LADM §III-C), from needle_kernel.cu's indices in prime variables: the block's
    // origin is cols (16 biy) + 16 bix with bix and biy functions of blockIdx.x and the launch's diagonal
    // (a kernel argument), so the loop-invariant group holds blockIdx.x (1-D grid); the loops over the
    // block's rows (ty, the induction variable) add cols x ty: reference[index + cols ty] and
    // matrix[index + ty cols] (the stores, 16 of the 19 accesses a thread makes to the matrix) are Table II
    // row 1 strided by a row of cols ints. A CTA's 16 threads read 16 ints (64 B) a row per iteration: its
    // datablock.
    l.accesses = {lasp_access(reference_, row_stride(), kB * 4), lasp_access(matrix_, row_stride(), kB * 4)};
    l.body = [this, i, upper, width](Cta& c) {
      const std::int64_t bx = c.blockIdx.x;
      const std::int64_t bix = upper ? bx : bx + width - i, biy = upper ? i - 1 - bx : width - bx - 1;
      const std::int64_t origin = cols_ * kB * biy + kB * bix;
      const V<std::int64_t> tx = c.threadIdx_x();
      const V<std::int64_t> index = tx + origin + cols_ + 1, index_n = tx + origin + 1;
      Cta::Shared<std::int32_t> temp(c, (kB + 1) * (kB + 1)), ref(c, kB * kB);
      c.if_(tx == 0, [&] { temp.store(c.uniform(0), c.load(matrix_, c.uniform(origin))); });
      for (std::int64_t ty = 0; ty < kB; ++ty)
        ref.store(tx + ty * kB, c.load(reference_, index + cols_ * ty));
      c.syncthreads();
      temp.store((tx + 1) * (kB + 1), c.load(matrix_, tx * cols_ + origin + cols_));
      c.syncthreads();
      temp.store(tx + 1, c.load(matrix_, index_n));
      c.syncthreads();
      // One cell of the anti-diagonal: the maximum of the three predecessors (an add, two subtractions, and
      // two maxima of a compare and a select each: maximum(nw, w, n) as needle.cu computes it, so that the
      // scores stay bounded like the real ones).
      const auto max2 = [](const V<std::int32_t>& a, const V<std::int32_t>& b) {
        return select(a > b, a, b);
      };
      auto cell = [&](const V<std::int64_t>& x, const V<std::int64_t>& y) {
        const V<std::int32_t> nw = temp.load((y - 1) * (kB + 1) + x - 1) + ref.load((y - 1) * kB + x - 1);
        const V<std::int32_t> w = temp.load(y * (kB + 1) + x - 1) - 10;
        const V<std::int32_t> n = temp.load((y - 1) * (kB + 1) + x) - 10;
        temp.store(y * (kB + 1) + x, max2(max2(nw, w), n));
      };
      for (std::int64_t m = 0; m < kB; ++m) {
        c.if_(tx <= m, [&] { cell(tx + 1, m - tx + 1); });
        c.syncthreads();
      }
      for (std::int64_t m = kB - 2; m >= 0; --m) {
        c.if_(tx <= m, [&] { cell(tx + kB - m, kB - tx); });
        c.syncthreads();
      }
      for (std::int64_t ty = 0; ty < kB; ++ty)
        c.store(matrix_, index + ty * cols_, temp.load((tx + 1) + (ty + 1) * (kB + 1)));
    };
    return l;
  }

  // No datablock locality strided by one row of the matrix (cols elements), blockIdx.x in the invariant
  // group.
  runtime::IndexTerms row_stride() const {
    return {true, false, false, runtime::LoopVariant::kM, std::uint64_t(cols_)};
  }

  std::int64_t n_, cols_ = n_ + 1;
  Array<std::int32_t> reference_ = array<std::int32_t>("reference", std::uint64_t(cols_) * cols_,
                                                       std::uint64_t(cols_), std::uint64_t(cols_));
  Array<std::int32_t> matrix_ =
      array<std::int32_t>("matrix", std::uint64_t(cols_) * cols_, std::uint64_t(cols_), std::uint64_t(cols_));
};

}  // namespace

ApplicationEntry app_rodinia_nw() {
  return {
      "rodinia/nw",
      "Rodinia 3.1 nw (Needleman-Wunsch): needle_cuda_shared_1 over the upper-left anti-diagonals of 16 x "
      "16 blocks, then needle_cuda_shared_2 over the lower-right ones; reference: 2048 symbols",
      {{"n", 2048, 16, 1 << 15, "symbols per sequence (a multiple of 16)"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<NwApp>(a, input); }};
}

}  // namespace numagpu::kernels
