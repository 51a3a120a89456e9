// parboil/sgemm_mysgemmNT: mysgemmNT of Parboil's sgemm, CUDA version (benchmarks/sgemm/src/cuda/
// sgemm_kernel.cu; learned from it, written here anew). C = alpha A B + beta C with A column-major (m x k,
// lda = m), B given transposed (the "NT" of the name: B^T column-major, k rows of n, ldb = n) and C
// column-major (m x n, ldc = m). Register tiling after Volkov: a CTA of 16 x 8 threads computes a 128 x 16
// tile of C; each thread owns one row of the tile (m = blockIdx.x * 128 + its flattened id) and keeps its
// 16 partial sums in registers. Per step of 8 along k, the CTA stages an 8 x 16 tile of B in shared memory
// (b_s[threadIdx.y][threadIdx.x], one float per thread), then every thread reads 8 elements of its row of A
// from global memory and multiplies each by the 16 floats of the matching b_s row (the same word for all
// threads: a broadcast). At the end each thread reads, scales and writes its 16 elements of C (Parboil's
// main passes alpha 1 and beta 0, but beta is a run-time argument: C is read all the same).
// Grid (m / 128, n / 16), block (16, 8).
//
// Reference run of the GV100 study: Parboil dataset "medium" (input/matrix1.txt, matrix2t.txt): A is
// 1024 x 992, B is 992 x 1056, so m = 1024, k = 992, n = 1056: a grid of 8 x 66 CTAs, 124 steps along k.
// Input generation: the matrices' values steer neither an address nor a branch, so the arrays carry no data
// (the dataset's values do not matter to the access pattern); only the sizes are taken from the dataset.
//
// The 16 products per A element are charged as 16 fp32 FMAs (the unrolled inner loop). The 16 reads of the
// b_s row are 4 shared loads of 128 bits, each a broadcast: nvcc fuses the row's four-float groups into
// LDS.128 (b_s rows are 64 B, 16-byte aligned, and the unrolled indices are constants). The GV100 study's
// count confirms it exactly: its SHRD_ACC for this kernel, 8,642,304 warp instructions, is 528 CTAs x 4
// warps x 124 steps x (1 store + 8 rows x 4 loads); with scalar reads it would be 129 a step (33.8 M).
// (Until 2026-11-26 the library kept the source's 16 scalar reads; the compiled form was taken from that
// count, an instruction count of the binary with no free parameter, not from any timing.) Address
// arithmetic other than what the index expressions below compute is not charged. The FMAs are computed with
// values: 16 independent accumulator chains (c[0 .. 15]) along k, each FMA reading the loaded A element and
// its LDS.128's result (Shared::broadcast of 4 elements: one value for the four, the matrices carrying no
// data; its passes those of a 16-byte broadcast), and the final C * beta + alpha * c[i] stores them; the 16
// zeroing moves stay charged.
//
// Checked against the SASS (2026-11-29; docs/kernels.md, "sgemm against its SASS"): an equivalent kernel
// written anew and compiled for sm_70 by CUDA 11.8 and by ptxas 12.9 gives the same 192-instruction loop
// and 56 registers. With dependent latencies (the GV100) a step is issued as that loop is (sass_step: its
// order, its address arithmetic, its one FFMA with three sources in one register bank); without them (the
// paper system) as the source reads (source_step, unchanged).
#include <vector>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kTileN = 16;                    // TILE_N: columns of C per CTA, threads in x
constexpr std::int64_t kTileHeight = 8;                // TILE_TB_HEIGHT: threads in y, the k step
constexpr std::int64_t kTileM = kTileN * kTileHeight;  // TILE_M: rows of C per CTA

class SgemmNT : public Kernel {
 public:
  explicit SgemmNT(const Args& a)
      : Kernel(a),
        m_(a["m"]),
        n_(a["n"]),
        k_(a["k"]),
        a_(array<float>("A", std::uint64_t(m_ * k_), k_, m_)),
        b_(array<float>("B", std::uint64_t(k_ * n_), k_, n_)),
        c_(array<float>("C", std::uint64_t(m_ * n_), n_, m_)) {
    if (m_ % kTileM) throw KernelError("argument 'm': must be a multiple of 128 (TILE_M)");
    if (n_ % kTileN) throw KernelError("argument 'n': must be a multiple of 16 (TILE_N)");
    if (k_ % kTileHeight) throw KernelError("argument 'k': must be a multiple of 8 (TILE_TB_HEIGHT)");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(m_ / kTileM), static_cast<std::uint32_t>(n_ / kTileN), 1};
    l.block = {kTileN, kTileHeight, 1};
    l.regs_per_thread = 56;                     // ptxas for sm_70 (CUDA 11.8 and 12.9): 56 registers
    l.shared_bytes = kTileHeight * kTileN * 4;  // b_s: 8 x 16 floats
    l.body = [this](Cta& c) { body(c); };
    // LASP's index terms (the body's index expressions in prime variables; m is the k step, lda = m_ and
    // ldb = n_ the data rows' widths, a whole row skipped per unit of m as gridDim.x is in Figure 6's B):
    //  A[bx * 128 + ty * 16 + tx + (8 m + j) * lda]: invariant in bx only, 8 rows of A per m.
    //  B[by * 16 + tx + (ty + 8 m) * ldb]: invariant in by only, 8 rows of B per m.
    //  C[bx * 128 + ty * 16 + tx + (by * 16 + i) * ldc]: invariant in bx and by, no loop.
    // Per iteration a CTA reads 128 consecutive floats of a row of A (512 B) and 16 of a row of B (64 B).
    using runtime::LoopVariant;
    l.accesses = {
        lasp_access(a_, {true, false, false, LoopVariant::kMGridDimX, std::uint64_t(kTileHeight * m_)},
                    kTileM * 4),
        lasp_access(b_, {false, true, false, LoopVariant::kMGridDimX, std::uint64_t(kTileHeight * n_)},
                    kTileN * 4),
        lasp_access(c_, {true, true, false, LoopVariant::kNone, 0}, kTileM * 4)};
    return l;
  }

 private:
  void body(Cta& c) {
    const std::int64_t ldc = m_;
    const float alpha = 1.0f, beta = 0.0f;  // as Parboil's main passes them; C is read all the same
    const V<std::int64_t> tx = c.threadIdx_x(), ty = c.threadIdx_y();
    c.charge(InstrClass::kInt, kTileN);  // the 16 partial sums set to zero
    std::vector<V<float>> sums;          // c[0 .. 15]: 16 independent accumulators
    sums.reserve(kTileN);
    for (std::int64_t kk = 0; kk < kTileN; ++kk)
      sums.emplace_back(c, 0.0f);
    const V<std::int64_t> mid = ty * std::int64_t(c.blockDim.x) + tx;
    const V<std::int64_t> m = mid + std::int64_t(c.blockIdx.x) * kTileM;
    const V<std::int64_t> n = tx + std::int64_t(c.blockIdx.y) * kTileN;
    Cta::Shared<float> b_s(c, kTileHeight * kTileN);
    const V<std::int64_t> b_cell = ty * kTileN + tx;

    const auto steps = static_cast<std::uint64_t>(k_ / kTileHeight);
    if (c.models_latencies()) {
      c.uniform_loop(steps, [&](std::uint64_t step) {
        sass_step(c, std::int64_t(step) * kTileHeight, b_s, b_cell, m, n, ty, sums);
      });
    } else {
      c.uniform_loop(steps, [&](std::uint64_t step) {
        source_step(c, std::int64_t(step) * kTileHeight, b_s, b_cell, m, n, ty, sums);
      });
    }

    const V<std::int64_t> t = m + ldc * std::int64_t(c.blockIdx.y) * kTileN;
    for (std::int64_t i = 0; i < kTileN; ++i) {  // unrolled
      const V<std::int64_t> at = t + i * ldc;
      const V<float> old = c.load(c_, at);
      c.store(c_, at, fma(V<float>(c, alpha), sums[i], old * beta));  // C * beta + alpha * c[i]: FMUL, FFMA
    }
  }

  // One step of 8 along k as the source reads (the paper system, without dependent latencies): the tile of
  // B staged, then per row j of the step its element of A and the row's 16 products; the 8 loads of A
  // first (nvcc's unrolled loop issues them ahead of the products).
  void source_step(Cta& c, std::int64_t i, Cta::Shared<float>& b_s, const V<std::int64_t>& b_cell,
                   const V<std::int64_t>& m, const V<std::int64_t>& n, const V<std::int64_t>& ty,
                   std::vector<V<float>>& sums) {
    const std::int64_t lda = m_, ldb = n_;
    b_s.store(b_cell, c.load(b_, n + (ty + i) * ldb));
    c.syncthreads();
    std::vector<V<float>> a_row;
    a_row.reserve(kTileHeight);
    for (std::int64_t j = 0; j < kTileHeight; ++j)
      a_row.push_back(c.load(a_, m + (i + j) * lda));
    for (std::int64_t j = 0; j < kTileHeight; ++j) {
      const V<float>& a = a_row[std::size_t(j)];
      // b_s[j][kk .. kk + 3]: one LDS.128, a broadcast; its four floats share its ready cycle (and, the
      // matrices carrying no data, its value).
      std::vector<V<float>> row;
      row.reserve(kTileN / 4);
      for (std::int64_t kk = 0; kk < kTileN; kk += 4)
        row.push_back(b_s.broadcast(std::uint64_t(j * kTileN + kk), 4));
      for (std::int64_t kk = 0; kk < kTileN; ++kk)  // c[kk] += a * b_s[j][kk]: 16 FMAs, one per chain
        sums[kk] = fma(a, row[kk / 4], sums[kk]);
    }
    c.syncthreads();
  }

  // The same step as nvcc compiles it for sm_70 (docs/kernels.md, "sgemm against its SASS": CUDA 11.8 and
  // 12.9 give the same 192-instruction loop), with dependent latencies (the GV100): in the SASS's order,
  // with its address arithmetic. Per step: MOV (the element size), IADD3 + IMAD (B's index), IMAD.WIDE.U32
  // + LDG (B), IMAD + IMAD.WIDE (A's row 0 address), IADD3 + IMAD + IMAD.WIDE (row 1), three IMAD.WIDE (rows
  // 2 to 4, each two rows on from the one before), STS, BAR; then LDG rows 0-3, LDS.128 groups 0-2, LDG row
  // 4, IMAD.WIDE (row 5), LDG row 5, two IMAD.WIDE (rows 6, 7), and the 128 FFMAs in groups of four (row j,
  // columns 4q .. 4q + 3, group 4j + q), each group's LDS.128 issued three groups ahead of its FFMAs (the
  // SASS rotates three register quads), LDG row 6 after the 8th FFMA and row 7 after the 32nd; IADD3 +
  // ISETP (the loop counter), BAR, BRA. Not issued: the two NOPs before the BARs (no pipe). The SASS's
  // per-row address increments (IMAD.WIDE of the previous address) are charged instructions and the loads
  // take rows 2 to 7 as immediates on row 0's or row 1's address, which they wait for.
  void sass_step(Cta& c, std::int64_t i, Cta::Shared<float>& b_s, const V<std::int64_t>& b_cell,
                 const V<std::int64_t>& m, const V<std::int64_t>& n, const V<std::int64_t>& ty,
                 std::vector<V<float>>& sums) {
    const std::int64_t lda = m_, ldb = n_;
    c.charge(InstrClass::kInt, 1);  // MOV R52, 0x4
    const V<float> b =
        c.load(b_, fma(ty + i, V<std::int64_t>(c, ldb), n));  // IADD3, IMAD, IMAD.WIDE.U32, LDG
    const V<std::int64_t> row0 = m + i * lda;                 // IMAD
    c.form_address_ahead(a_, row0);                           // IMAD.WIDE
    const V<std::int64_t> row1 = fma(V<std::int64_t>(c, i) + 1, V<std::int64_t>(c, lda), m);  // IADD3, IMAD
    c.form_address_ahead(a_, row1);                                                           // IMAD.WIDE
    c.charge(InstrClass::kInt, 3);  // IMAD.WIDE: rows 2, 3 and 4's addresses
    b_s.store(b_cell, b);
    c.syncthreads();
    // Row j's element of A: an immediate of j * lda elements on row 0's address (row 1's for odd rows).
    std::vector<V<float>> a_row;
    a_row.reserve(kTileHeight);
    const auto load_row = [&](std::int64_t j) {
      a_row.push_back(c.load(a_, j % 2 ? row1 : row0, (j - j % 2) * lda));
    };
    for (std::int64_t j = 0; j < 4; ++j)
      load_row(j);
    constexpr std::int64_t kGroups = kTileHeight * kTileN / 4;  // 32 LDS.128 a step
    constexpr std::int64_t kAhead = 3;                          // groups in registers ahead of their FFMAs
    std::vector<V<float>> group;  // b_s[j][4q .. 4q + 3] of group 4j + q: one LDS.128, a broadcast
    group.reserve(kGroups);
    const auto load_group = [&](std::int64_t g) { group.push_back(b_s.broadcast(std::uint64_t(g * 4), 4)); };
    for (std::int64_t g = 0; g < kAhead; ++g)
      load_group(g);
    load_row(4);
    c.charge(InstrClass::kInt, 1);  // IMAD.WIDE: row 5's address
    load_row(5);
    c.charge(InstrClass::kInt, 2);  // IMAD.WIDE: rows 6 and 7's addresses
    for (std::int64_t g = 0; g < kGroups; ++g) {
      const std::int64_t j = g / 4, q = g % 4;
      for (std::int64_t col = 4 * q; col < 4 * q + 4; ++col) {  // c[col] += a_j * b_s[j][col]
        sums[std::size_t(col)] = fma(a_row[std::size_t(j)], group[std::size_t(g)], sums[std::size_t(col)]);
        // The one FFMA of the 128 whose three sources the SASS puts in one register bank, none held by
        // the reuse cache: row 2's first (FFMA R21, R16, R20, R26: b_s[2][0], A's row 2, c[0]).
        if (g == 8 && col == 0) c.sources_in_one_register_bank();
      }
      if (g + kAhead < kGroups) load_group(g + kAhead);
      if (g == 1) load_row(6);  // after the 8th FFMA
      if (g == 7) load_row(7);  // after the 32nd
    }
    c.charge(InstrClass::kInt, 2);  // IADD3 (the counter), ISETP
    c.syncthreads();
  }

  std::int64_t m_, n_, k_;
  Array<float> a_, b_, c_;
};

}  // namespace

LibraryEntry parboil_sgemm_mysgemmNT() {
  return {"parboil/sgemm_mysgemmNT",
          "Parboil sgemm (CUDA), kernel mysgemmNT; GV100 study input: dataset medium, m 1024, k 992, n 1056",
          {{"m", 1024, 128, 1 << 16, "rows of A and C (a multiple of 128)"},
           {"n", 1056, 16, 1 << 16, "columns of B and C (a multiple of 16)"},
           {"k", 992, 8, 1 << 16, "columns of A, rows of B (a multiple of 8)"}},
          [](const Args& a) { return std::make_unique<SgemmNT>(a); }};
}

}  // namespace numagpu::kernels
