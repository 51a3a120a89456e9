// cutlass/wmma_gemm_nn: the "wmma_gemm_nn" kernel of CUTLASS 1.3's cutlass_perf_test, the binary the
// AccelWattch GV100 study runs (Accel-Sim gpu-app-collection src/cuda/cutlass-bench, CUTLASS 1.3.1:
// `cutlass_perf_test --m=.. --n=.. --k=.. --kernels=wmma_gemm_nn --providers=cutlass`; the name matches only
// this kernel, the f32-output one). Learned from CUTLASS 1.3 (tools/test/perf/gemm/
// wmma_gemm.cu, cutlass/gemm/wmma_gemm_traits.h, gemm.h, gemm_global_tile.h, gemm_shared_tile.h,
// gemm_epilogue.h, wmma_gemm_epilogue_traits.h, wmma_gemm_global_tile.h; the global and shared tile iterators
// as an earlier 1.x revision has them, taken as unchanged in 1.3), written here anew. D = alpha A B + beta C
// with A (m x k) and B (k x n) column-major halves ("nn"), fp32 accumulation and fp32 C/D (m x n,
// column-major; lda = m, ldb = k, ldd = m).
//
// Tile configuration: the perf test instantiates WmmaGemmTraits<kColumnMajor, kColumnMajor> with every other
// template argument defaulted (wmma_gemm.cu), so: OutputTile (K x N x M) = 64 x 128 x 128, accumulators per
// warp min(OutputTile, 64 x 32 x 64) = 64 x 32 x 64 (a warp owns 64 rows x 32 columns of the CTA's tile),
// hence 2 x 4 = 8 warps (256 threads), WMMA 16 x 16 x 16, 8 halves (16 B) per global load of A and B,
// float output, one shared-memory stage, shared tiles skewed by 8 halves. Grid (ceil(m/128), ceil(n/128)).
// Per thread (the global iterators after ReshapeThreads): A (K-strided) thread t loads column k0 + t/16 +
// 16 i (i < 4) at rows m0 + 8 (t % 16) .. +7; B (K contiguous) thread t loads column n0 + t/8 + 32 i (i < 4)
// at rows k0 + 8 (t % 8) .. +7, predicated on the column being < n; each is stored to shared memory at the
// same (row, 16 B) place of a 64 x (128 + 8) (A) or 128 x (64 + 8) (B) half tile. Main loop (gemm.h,
// WMMA's GemmConfig: residue in the prologue): prologue load, store, barrier, first fragments; then k/64
// iterations (consume_tile) of: load the next tile (not in the last), 3 steps of fragment loads + 8
// mma_sync, barrier, store the loaded tile to shared memory (not in the last), barrier, fragments for step
// 0 (not in the last) and the 4th step's 8 mma_sync. Epilogue (beta = 0, the perf test's default: C is never
// read): 2 passes (the warp's 2 16-column slices): barrier, store_matrix_sync of 4 fragments, barrier, 8
// LDS.128 per thread, scale by alpha, 8 STG.128 per thread: warp w writes columns n0 + 64 pass + w + 8 i (i <
// 8) at rows m0 + 4 lane
// .. +3, predicated on row < m and column < n.
//
// Reference input of the GV100 study: m/n/k = 2560/16/2560 (the default), 2560/512/2560 and 4096/128/4096.
// Input generation: the perf test fills A and B with uniform values in [-4, 4] (seed 700 unless --seed);
// values steer neither an address nor a branch, so the arrays carry no data. C (beta = 0) is not allocated.
//
// Simplified: the lane layout of a WMMA fragment is not public, so load_matrix_sync/store_matrix_sync are
// charged as shared-memory instructions, two 128-bit accesses per lane each (a 16 x 16 half fragment is
// 16 halves per lane on Volta), without bank modelling, and the epilogue's LDS.128 reads of the staged tile
// likewise; each mma_sync is 16 HMMA.884 instructions on Volta (the published figure of Jia et al.,
// "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking", 2018), charged as tensor
// instructions. The A/B shared stores are modelled with their addresses. K must be a multiple of 64 (the
// study's sizes are: the residue prologue for a partial first tile is not modelled). The fragments' dataflow
// is followed with values (fragment_op): each mma_sync reads the A and B fragments of its step's buffer
// (double-buffered: loaded during the previous step) and its accumulator, the chain of each of the 8
// accumulators through all of k; the epilogue's fragment stores read the accumulators, its alpha multiplies
// read the LDS.128s and its global stores the multiplies. The 16 HMMAs within one mma_sync are taken as
// independent of each other (their step-to-step dependencies are a SASS detail the model does not hold);
// the iterators' integer work and branches stay charged.
#include <vector>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

struct Int4 {
  std::uint32_t v[4] = {0, 0, 0, 0};
};

constexpr std::int64_t kTileM = 128, kTileN = 128, kTileK = 64;  // OutputTile kW, kH, kD
constexpr std::int64_t kThreads = 256;                           // 2 x 4 warps
constexpr std::int64_t kPitchA = (kTileM + 8) / 8;               // A tile row: 136 halves = 17 int4
constexpr std::int64_t kPitchB = (kTileK + 8) / 8;               // B tile row: 72 halves = 9 int4
constexpr std::int64_t kOffsetB = kTileK * kPitchA;              // B after A in shared memory (int4)
constexpr unsigned kFragmentShared = 2;                          // shared instructions per fragment
constexpr unsigned kHmmaPerMma = 16;                             // HMMA.884 per 16 x 16 x 16 mma_sync
constexpr unsigned kFragmentsA = 4, kFragmentsB = 2;             // per warp and k-step of 16
constexpr unsigned kMmaPerStep = kFragmentsA * kFragmentsB;
static_assert(kTileN / 64 == kFragmentsB, "the epilogue stores B fragment `pass` of each A row per pass");

class WmmaGemmNN : public Kernel {
 public:
  explicit WmmaGemmNN(const Args& a)
      : Kernel(a),
        m_(a["m"]),
        n_(a["n"]),
        k_(a["k"]),
        a_(array<std::uint16_t>("A", std::uint64_t(m_ * k_), std::uint64_t(k_), std::uint64_t(m_))),
        b_(array<std::uint16_t>("B", std::uint64_t(k_ * n_), std::uint64_t(n_), std::uint64_t(k_))),
        d_(array<float>("D", std::uint64_t(m_ * n_), std::uint64_t(n_), std::uint64_t(m_))) {
    if (m_ % 8) throw KernelError("argument 'm': not a multiple of 8 (128-bit loads of A)");
    if (k_ % kTileK) throw KernelError("argument 'k': not a multiple of 64");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((m_ + kTileM - 1) / kTileM),
              static_cast<std::uint32_t>((n_ + kTileN - 1) / kTileN), 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 128;  // 64 accumulator floats, fragments, the A/B staging registers
    l.shared_bytes = (kTileK * kPitchA + kTileN * kPitchB) * 16;  // 35,840 B; the epilogue reuses it
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const std::int64_t m0 = std::int64_t(c.blockIdx.x) * kTileM, n0 = std::int64_t(c.blockIdx.y) * kTileN;
    const V<std::int64_t> t = c.threadIdx_x();
    const auto div = [&](std::int64_t d) {
      return map(t, InstrClass::kInt, [d](std::int64_t x) { return x / d; });
    };
    const auto mod = [&](std::int64_t d) {
      return map(t, InstrClass::kInt, [d](std::int64_t x) { return x % d; });
    };
    const Array<Int4> a4{a_.name, a_.base, a_.count / 8, nullptr},
        b4{b_.name, b_.base, b_.count / 8, nullptr};
    const Array<Int4> d4{d_.name, d_.base, d_.count / 4, nullptr};
    Cta::Shared<Int4> tiles(c, std::uint64_t(kOffsetB + kTileN * kPitchB));

    // Thread offsets of the global iterators (ThreadOffset) and of the shared store iterators, and the
    // predicates set up once (initialize_predicates): A's row, B's columns.
    const V<std::int64_t> a_k = div(16), a_m = mod(16) * 8, b_n = div(8), b_k = mod(8) * 8;
    const V<bool> a_ok = a_m + m0 < m_;
    std::vector<V<bool>> b_ok;
    std::vector<V<std::int64_t>> a_index, b_index, a_shared, b_shared;  // int4 indices (k0 = 0)
    for (std::int64_t i = 0; i < 4; ++i) {
      b_ok.push_back(b_n + (n0 + 32 * i) < n_);
      a_index.push_back(((a_k + 16 * i) * m_ + a_m + m0) / 8);
      b_index.push_back(((b_n + (n0 + 32 * i)) * k_ + b_k) / 8);
      a_shared.push_back((a_k + 16 * i) * kPitchA + mod(16));
      b_shared.push_back((b_n + 32 * i) * kPitchB + mod(8) + kOffsetB);
    }
    std::vector<V<Int4>> fa(4, V<Int4>(c, Int4{})), fb(4, V<Int4>(c, Int4{}));  // the fetched registers
    // global_stream.copy(): 4 LDG.128 of A and 4 of B, each where its predicate holds; the iterator's
    // pointer advances by a constant per load (one integer add each).
    const auto copy = [&](std::int64_t k0) {
      for (std::size_t i = 0; i < 4; ++i) {
        c.if_(a_ok, [&] { fa[i] = c.load(a4, a_index[i] + k0 * m_ / 8); });
        c.charge(InstrClass::kInt);
      }
      for (std::size_t i = 0; i < 4; ++i) {
        c.if_(b_ok[i], [&] { fb[i] = c.load(b4, b_index[i] + k0 / 8); });
        c.charge(InstrClass::kInt);
      }
    };
    // global_stream.commit(): 4 STS.128 of A and 4 of B, unpredicated.
    const auto commit = [&] {
      for (std::size_t i = 0; i < 4; ++i)
        tiles.store(a_shared[i], fa[i]);
      for (std::size_t i = 0; i < 4; ++i)
        tiles.store(b_shared[i], fb[i]);
    };
    // The fragments, double-buffered as the shared load stream keeps them: step s's mma reads buffer s % 2
    // while the next step's fragments are loaded into the other.
    std::vector<std::vector<V<float>>> frag_a(2), frag_b(2);
    for (int s = 0; s < 2; ++s) {
      frag_a[s].assign(kFragmentsA, V<float>(c, 0.0f));
      frag_b[s].assign(kFragmentsB, V<float>(c, 0.0f));
    }
    const auto fragments = [&](int buffer) {
      for (V<float>& f : frag_a[buffer])
        f = fragment_op<float>(c, InstrClass::kShared, kFragmentShared);
      for (V<float>& f : frag_b[buffer])
        f = fragment_op<float>(c, InstrClass::kShared, kFragmentShared);
    };
    std::vector<V<float>> acc;  // the 8 accumulator fragments: 8 independent chains through k
    const auto mma = [&](int buffer) {
      for (unsigned i = 0; i < kFragmentsA; ++i)
        for (unsigned j = 0; j < kFragmentsB; ++j) {
          V<float>& d = acc[i * kFragmentsB + j];
          d = fragment_op<float>(c, InstrClass::kTensor, kHmmaPerMma, frag_a[buffer][i], frag_b[buffer][j],
                                 d);
        }
    };

    copy(0);
    commit();
    c.syncthreads();  // shared_store_fence
    fragments(0);     // shared_load_stream.copy(0)
    acc.reserve(kMmaPerStep);
    for (unsigned f = 0; f < kMmaPerStep; ++f)  // clear the 8 accumulator fragments (8 floats each per lane)
      acc.push_back(fragment_op<float>(c, InstrClass::kFp32, 8));
    const std::int64_t tiles_k = k_ / kTileK;
    for (std::int64_t it = 0; it < tiles_k; ++it) {  // outer_k = k - 64 (it + 1)
      const bool last = it == tiles_k - 1;           // consume_tile<false, true>
      c.charge(InstrClass::kBranch);
      if (!last) copy((it + 1) * kTileK);
      for (int step = 0; step < 3; ++step) {  // unrolled in the source
        fragments((step + 1) % 2);            // copy(step + 1)
        mma(step % 2);
      }
      c.syncthreads();  // shared_load_fence (one stage)
      if (!last) commit();
      c.syncthreads();          // shared_store_fence
      if (!last) fragments(0);  // copy(0) of the next tile
      mma(1);                   // step 3
    }

    // Epilogue (beta = 0): per pass the CTA stages 64 columns of 128 floats.
    const V<std::int64_t> warp = div(32), row = mod(32) * 4 + m0;
    const V<bool> row_ok = row < m_;
    for (std::int64_t pass = 0; pass < kTileN / 64; ++pass) {
      c.syncthreads();  // shared_load_fence
      // store_matrix_sync of 4 fragments: this pass's 64 columns, taken as B fragment `pass` of the 4 A rows.
      for (unsigned i = 0; i < kFragmentsA; ++i)
        (void)fragment_op<float>(c, InstrClass::kShared, kFragmentShared,
                                 acc[i * kFragmentsB + static_cast<unsigned>(pass)]);
      c.syncthreads();  // shared_store_fence
      std::vector<V<float>> staged;
      staged.reserve(8);
      for (int i = 0; i < 8; ++i)  // 8 LDS.128 of the staged tile
        staged.push_back(fragment_op<float>(c, InstrClass::kShared, 1));
      std::vector<V<Int4>> scaled;
      scaled.reserve(8);
      for (int i = 0; i < 8; ++i)  // alpha x 32 floats: 4 multiplies per LDS.128's four floats
        scaled.push_back(fragment_op<Int4>(c, InstrClass::kFp32, 4, staged[std::size_t(i)]));
      for (std::int64_t i = 0; i < 8; ++i) {
        const V<std::int64_t> col = warp + (n0 + 64 * pass + 8 * i);
        c.charge(InstrClass::kInt);  // the pointer and predicate offset advance
        c.if_(row_ok && col < n_, [&] { c.store(d4, (col * m_ + row) / 4, scaled[std::size_t(i)]); });
      }
    }
  }

  std::int64_t m_, n_, k_;
  Array<std::uint16_t> a_, b_;
  Array<float> d_;
};

}  // namespace

LibraryEntry cutlass_wmma_gemm_nn() {
  return {
      "cutlass/wmma_gemm_nn",
      "CUTLASS 1.3 cutlass_perf_test, kernel wmma_gemm_nn (WmmaGemmTraits defaults: 128 x 128 x 64 tile, "
      "8 warps of 64 x 32); GV100 study inputs: m/n/k 2560/16/2560 (default), 2560/512/2560, 4096/128/4096",
      {{"m", 2560, 8, 1 << 16, "rows of A and D (a multiple of 8)"},
       {"n", 16, 1, 1 << 16, "columns of B and D"},
       {"k", 2560, 64, 1 << 16, "columns of A, rows of B (a multiple of 64)"}},
      [](const Args& a) { return std::make_unique<WmmaGemmNN>(a); }};
}

}  // namespace numagpu::kernels
