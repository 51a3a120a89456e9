// rodinia/lud (application): Rodinia 3.1 lud, CUDA version (lud.cu and lud_kernel.cu; learned from them,
// written here anew): in-place LU decomposition of an n x n row-major matrix in 16 x 16 blocks. For each
// block step i = 0, 16, ..., n - 32 the host launches lud_diagonal (1 CTA of 16 threads: the diagonal block,
// factored in shared memory), lud_perimeter ((n - i) / 16 - 1 CTAs of 32 threads: CTA b takes the diagonal
// block, the block to its right in the block row and the block below it in the block column; threads 0-15
// solve the row block, 16-31 the column block) and lud_internal ((n - i) / 16 - 1 squared CTAs of 16 x 16:
// each updates one trailing block by the product of its perimeter column and row blocks, read into shared
// memory); a last lud_diagonal factors the final block. 3 n / 16 - 2 launches whose grids shrink
// quadratically. Values steer nothing; shared-memory work is charged per access as the source's loops make
// it.
//
// Reference: Rodinia's run `lud -s 2048` (a 16 MiB matrix, 382 launches).
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kB = 16;  // BLOCK_SIZE

class LudApp : public Application {
 public:
  LudApp(const Args& a, const std::string& input) : Application(a, input), n_(a["n"]) {
    if (n_ % kB) throw KernelError("argument 'n': must be a multiple of 16");
  }

  void host() override {
    std::int64_t i = 0;
    for (; i < n_ - kB; i += kB) {
      launch("lud_diagonal", diagonal(i));
      launch("lud_perimeter", perimeter(i));
      launch("lud_internal", internal(i));
    }
    launch("lud_diagonal", diagonal(i));
  }

 private:
  // Loads (or stores) the 16 x 16 block at (row, col) with threads tx = 0..15 (thread tx: column tx of each
  // row), one memory step per row, from or into shared memory `s` at `s_base` (16 x 16, row-major).
  void block_rows(Cta& c, const V<std::int64_t>& tx, std::int64_t row, std::int64_t col,
                  Cta::Shared<float>& s, std::int64_t s_base, bool store) {
    for (std::int64_t r = 0; r < kB; ++r) {
      const V<std::int64_t> at = tx + (row + r) * n_ + col;
      if (store)
        c.store(m_, at, s.load(tx + r * kB + s_base));
      else
        s.store(tx + r * kB + s_base, c.load(m_, at));
    }
  }

  Launch diagonal(std::int64_t offset) {
    Launch l;
    l.grid = {1, 1, 1};
    l.block = {kB, 1, 1};
    l.regs_per_thread = 20;
    l.shared_bytes = kB * kB * 4;
    // LASP: m[offset n + offset + tx + i n] over the rows i (lud_kernel.cu's array_offset += matrix_dim):
    // no block id in the loop-invariant group (one CTA; offset is a kernel argument), n x m in the
    // loop-variant one: neither Algorithm 1's NL (which needs blockIdx.x) nor a 2-D sharing: row 7.
    l.accesses = {
        lasp_access(m_, {false, false, false, runtime::LoopVariant::kM, std::uint64_t(n_)}, kB * 4)};
    l.body = [this, offset](Cta& c) {
      const V<std::int64_t> tx = c.threadIdx_x();
      Cta::Shared<float> s(c, kB * kB);
      block_rows(c, tx, offset, offset, s, 0, false);
      c.syncthreads();
      for (std::int64_t i = 0; i < kB - 1; ++i) {
        c.if_(tx > i, [&] {  // the column below the pivot
          for (std::int64_t j = 0; j < i; ++j)
            s.store(tx * kB + i, s.load(tx * kB + i) - s.load(tx * kB + j) * s.load(c.uniform(j * kB + i)));
          s.store(tx * kB + i, s.load(tx * kB + i) / s.load(c.uniform(i * kB + i)));
        });
        c.syncthreads();
        c.if_(tx > i, [&] {  // the row right of the pivot
          for (std::int64_t j = 0; j < i + 1; ++j)
            s.store((i + 1) * kB + tx,
                    s.load((i + 1) * kB + tx) - s.load(c.uniform((i + 1) * kB + j)) * s.load(j * kB + tx));
        });
        c.syncthreads();
      }
      for (std::int64_t r = 1; r < kB; ++r)  // the source stores rows 1..15 (row 0 is unchanged)
        c.store(m_, tx + (offset + r) * n_ + offset, s.load(tx + r * kB));
    };
    return l;
  }

  Launch perimeter(std::int64_t offset) {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((n_ - offset) / kB - 1), 1, 1};
    l.block = {2 * kB, 1, 1};
    l.regs_per_thread = 24;
    l.shared_bytes = 3 * kB * kB * 4;
    // LASP: the row block m[offset n + offset + (bx + 1) 16 + tx + i n] and the column block
    // m[(offset + (bx + 1) 16) n + offset + tx + i n], i the loop over the block's rows, are 32 of the 48
    // reads and all 31 stores; both hold blockIdx.x in the loop-invariant group (1-D grid) and n x m in the
    // loop-variant one: row 1 strided by a row of n floats. (The diagonal block's 16 reads hold no block
    // id.) Per row a block's 16 threads read 16 floats, 64 B, the row block's of consecutive CTAs side by
    // side: the datablock.
    l.accesses = {lasp_access(m_, {true, false, false, runtime::LoopVariant::kM, std::uint64_t(n_)}, kB * 4)};
    l.body = [this, offset](Cta& c) {
      const V<std::int64_t> t = c.threadIdx_x();
      const std::int64_t other = offset + (std::int64_t(c.blockIdx.x) + 1) * kB;
      Cta::Shared<float> dia(c, kB * kB), row(c, kB * kB), col(c, kB * kB);
      // Threads 0-15 load the diagonal block's top half and the row block, 16-31 the bottom half and the
      // column block (as the source splits the loads).
      c.if_else(
          t < kB,
          [&] {
            for (std::int64_t r = 0; r < kB / 2; ++r)
              dia.store(t + r * kB, c.load(m_, t + (offset + r) * n_ + offset));
            block_rows(c, t, offset, other, row, 0, false);
          },
          [&] {
            const V<std::int64_t> tx = t - kB;
            for (std::int64_t r = kB / 2; r < kB; ++r)
              dia.store(tx + r * kB, c.load(m_, tx + (offset + r) * n_ + offset));
            block_rows(c, tx, other, offset, col, 0, false);
          });
      c.syncthreads();
      c.if_else(
          t < kB,
          [&] {  // the row block: forward substitution down each column
            for (std::int64_t i = 1; i < kB; ++i)
              for (std::int64_t j = 0; j < i; ++j)
                row.store(i * kB + t,
                          row.load(i * kB + t) - dia.load(c.uniform(i * kB + j)) * row.load(j * kB + t));
          },
          [&] {  // the column block: along each row, divided by the pivots
            const V<std::int64_t> tx = t - kB;
            for (std::int64_t i = 0; i < kB; ++i) {
              for (std::int64_t j = 0; j < i; ++j)
                col.store(tx * kB + i,
                          col.load(tx * kB + i) - col.load(tx * kB + j) * dia.load(c.uniform(j * kB + i)));
              col.store(tx * kB + i, col.load(tx * kB + i) / dia.load(c.uniform(i * kB + i)));
            }
          });
      c.syncthreads();
      c.if_else(
          t < kB,
          [&] {  // rows 1..15 of the row block (row 0 is unchanged)
            for (std::int64_t r = 1; r < kB; ++r)
              c.store(m_, t + (offset + r) * n_ + other, row.load(t + r * kB));
          },
          [&] { block_rows(c, t - kB, other, offset, col, 0, true); });
    };
    return l;
  }

  Launch internal(std::int64_t offset) {
    const std::int64_t blocks = (n_ - offset) / kB - 1;
    Launch l;
    l.grid = {static_cast<std::uint32_t>(blocks), static_cast<std::uint32_t>(blocks), 1};
    l.block = {kB, kB, 1};
    l.regs_per_thread = 24;
    l.shared_bytes = 2 * kB * kB * 4;
    // LASP: the CTA's own block, read and written at (ty + offset + (by + 1) 16) n + offset + (bx + 1) 16
    // + tx (2 of the kernel's 4 accesses, no loop), holds both block ids: row 1 without a stride. (The
    // perimeter row m[(ty + offset) n + offset + (bx + 1) 16 + tx] holds blockIdx.x only, a grid column's
    // share, row 3; the perimeter column blockIdx.y only, row 2; LASP takes one class per array here, the
    // block's own.) A CTA's 16 threads in x read 16 floats (64 B) of each of its rows.
    l.accesses = {lasp_access(m_, {true, true, false, runtime::LoopVariant::kNone, 0}, kB * 4)};
    l.body = [this, offset](Cta& c) {
      const V<std::int64_t> tx = c.threadIdx_x(), ty = c.threadIdx_y();
      const std::int64_t row0 = offset + (std::int64_t(c.blockIdx.y) + 1) * kB;
      const std::int64_t col0 = offset + (std::int64_t(c.blockIdx.x) + 1) * kB;
      const V<std::int64_t> grow = ty + row0, gcol = tx + col0;
      Cta::Shared<float> peri_row(c, kB * kB), peri_col(c, kB * kB);
      peri_row.store(ty * kB + tx, c.load(m_, (ty + offset) * n_ + gcol));
      peri_col.store(ty * kB + tx, c.load(m_, grow * n_ + offset + tx));
      c.syncthreads();
      V<float> sum(c, 0.0f);
      for (std::int64_t i = 0; i < kB; ++i)
        sum = fma(peri_col.load(ty * kB + i), peri_row.load(i * kB + tx), sum);
      const V<std::int64_t> at = grow * n_ + gcol;
      c.store(m_, at, c.load(m_, at) - sum);
    };
    return l;
  }

  std::int64_t n_;
  Array<float> m_ = array<float>("m", std::uint64_t(n_) * n_, std::uint64_t(n_), std::uint64_t(n_));
};

}  // namespace

ApplicationEntry app_rodinia_lud() {
  return {
      "rodinia/lud",
      "Rodinia 3.1 lud (CUDA): per 16-row block step lud_diagonal, lud_perimeter, lud_internal, then a last "
      "lud_diagonal; reference: -s 2048",
      {{"n", 2048, 32, 1 << 15, "matrix size (a multiple of 16)"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<LudApp>(a, input); }};
}

}  // namespace numagpu::kernels
