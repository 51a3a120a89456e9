// cuda-samples/cudaTensorCoreGemm: compute_gemm of the CUDA samples 11.1 cudaTensorCoreGemm (learned from
// Samples/cudaTensorCoreGemm/cudaTensorCoreGemm.cu, written here anew): D = alpha A B + beta C with WMMA
// 16 x 16 x 16 tiles, A (M x K, half, row-major), B (N x K, half, "col-major" B), C and D (M x N, float).
// One persistent CTA of 256 threads (8 warps) per SM walks the 128 x 128 tiles of D (block_pos = blockIdx.x,
// + gridDim.x, ...; row of tiles ((block_pos x 8) / N_TILES) x 8, column (block_pos x 8) % N_TILES) until
// none is left. Per tile: warp w streams 16 rows of C (row (tile_i + w) x 16 + r: 32 lanes x 16 B = 512 B
// per row) into shared memory, a barrier, loads its 2 x 4 accumulator fragments, a barrier; then for each
// chunk of CHUNK_K = 4 K-tiles warps 0-3 copy 128 rows x 128 B of A and warps 4-7 128 columns x 128 B of B
// into shared memory (8 copies of 16 B per lane: lanes 8k..8k+7 one row of 128 B, 4 rows per copy; rows
// padded by SKEW_HALF = 16 halves to 160 B), a barrier, 4 k-steps of 2 A-fragment and 4 B-fragment loads and
// 2 x 4 mma_sync, a barrier; finally each warp stores its fragments to shared memory, a barrier, and streams
// 16 rows of D out, a barrier.
//
// Reference input (the sample's default): M_TILES = N_TILES = K_TILES = 256 (4,096 x 4,096 x 4,096), on the
// GV100's 80 SMs: 80 CTAs over 1,024 tiles (CTAs 0..63 take 13, the others 12), 64 KiB of shared memory
// (SHARED_MEMORY_LIMIT_64K: CHUNK_K 4). Values (rand() % 3) steer nothing: no data.
// Simplified: the lane layout of WMMA fragments is not public, so fragment loads and stores are charged as
// shared-memory instructions (two 128-bit accesses per lane each) without bank modelling; each mma_sync is
// 16 HMMA.884 instructions on Volta (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
// Microbenchmarking", 2018), as tensor instructions. The int4 copies to and from shared memory are
// modelled with their addresses (their bank passes counted). The fragments' dataflow is followed with values
// (fragment_op): each mma_sync reads its A and B fragments' loads and its accumulator, the source's chain
// c[i][j] through all k-steps (8 independent chains per warp), and the beta and alpha scales and the final
// store_matrix_sync read the accumulators; the 16 HMMAs within one mma_sync are taken as independent of each
// other (their step-to-step dependencies are a SASS detail the model does not hold). The tile loop's
// integer work and branches stay charged.
#include <vector>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

struct Int4 {
  std::uint32_t v[4] = {0, 0, 0, 0};
};

constexpr std::int64_t kTile = 16;                                       // M = N = K
constexpr std::int64_t kWarps = 8, kThreads = 32 * kWarps;               // WARPS_PER_BLOCK
constexpr std::int64_t kBlockTiles = 8;                                  // BLOCK_ROW_TILES = BLOCK_COL_TILES
constexpr std::int64_t kChunkK = 4;                                      // CHUNK_K (64 KiB limit)
constexpr std::int64_t kShmemRowInt4 = (kChunkK * kTile + 16) * 2 / 16;  // 80 halves = 160 B = 10 int4
constexpr std::int64_t kShmemStride = kTile * kBlockTiles;               // 128 floats per staged C/D row
constexpr unsigned kFragmentShared = 2;  // shared instructions per fragment access
constexpr unsigned kHmmaPerMma = 16;     // HMMA.884 per 16 x 16 x 16 mma_sync

class TensorCoreGemm : public Kernel {
 public:
  explicit TensorCoreGemm(const Args& a)
      : Kernel(a),
        m_tiles_(a["m_tiles"]),
        n_tiles_(a["n_tiles"]),
        k_tiles_(a["k_tiles"]),
        sms_(a["sms"]),
        a_(array<std::uint16_t>("A", std::uint64_t(m_tiles_ * kTile * k_tiles_ * kTile),
                                std::uint64_t(m_tiles_ * kTile), std::uint64_t(k_tiles_ * kTile))),
        b_(array<std::uint16_t>("B", std::uint64_t(n_tiles_ * kTile * k_tiles_ * kTile),
                                std::uint64_t(n_tiles_ * kTile), std::uint64_t(k_tiles_ * kTile))),
        c_(array<float>("C", std::uint64_t(m_tiles_ * n_tiles_ * kTile * kTile),
                        std::uint64_t(m_tiles_ * kTile), std::uint64_t(n_tiles_ * kTile))),
        d_(array<float>("D", std::uint64_t(m_tiles_ * n_tiles_ * kTile * kTile),
                        std::uint64_t(m_tiles_ * kTile), std::uint64_t(n_tiles_ * kTile))) {
    if (m_tiles_ % kBlockTiles || n_tiles_ % kBlockTiles)
      throw KernelError("arguments 'm_tiles', 'n_tiles': not multiples of 8");
    if (k_tiles_ % kChunkK) throw KernelError("argument 'k_tiles': not a multiple of 4");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(sms_), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 96;      // nvcc for sm_70 (64 accumulator floats per thread)
    l.shared_bytes = 64 * 1024;  // max(A and B chunks with skew: 40 KiB, the 128 x 128 float tile: 64 KiB)
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const std::int64_t width = n_tiles_ * kTile, depth = k_tiles_ * kTile;  // GLOBAL_MEM_STRIDE, K_GLOBAL
    const V<std::int64_t> tx = c.threadIdx_x();
    const V<std::int64_t> warp = map(tx, InstrClass::kInt, [](std::int64_t t) { return t / 32; });
    const V<std::int64_t> lane = map(tx, InstrClass::kInt, [](std::int64_t t) { return t % 32; });
    Cta::Shared<Int4> staged(c, kShmemStride * kShmemStride / 4);          // the float view, in int4
    Cta::Shared<Int4> chunks(c, 2 * kBlockTiles * kTile * kShmemRowInt4);  // the half view, in int4
    const Array<Int4> c4{c_.name, c_.base, c_.count / 4, nullptr},
        d4{d_.name, d_.base, d_.count / 4, nullptr};
    const Array<Int4> a4{a_.name, a_.base, a_.count / 8, nullptr},
        b4{b_.name, b_.base, b_.count / 8, nullptr};
    c.charge(InstrClass::kFp32);  // beta /= alpha
    // Which matrix a warp copies and where its lanes sit in a copy (integer work done once).
    const V<std::int64_t> is_b =
        map(warp, InstrClass::kInt, [](std::int64_t w) { return std::int64_t(w >= 4); });
    const V<std::int64_t> row0 = map(warp, InstrClass::kInt, [](std::int64_t w) { return 32 * (w % 4); }) +
                                 map(lane, InstrClass::kInt, [](std::int64_t l) { return l / 8; });
    const V<std::int64_t> col = map(lane, InstrClass::kInt, [](std::int64_t l) { return l % 8; });
    const V<bool> copies_a = is_b == 0;
    for (std::int64_t pos = c.blockIdx.x;; pos += c.gridDim.x) {
      const std::int64_t tile_i = ((pos * kBlockTiles) / n_tiles_) * kBlockTiles;
      const std::int64_t tile_j = (pos * kBlockTiles) % n_tiles_;
      c.charge(InstrClass::kInt, 4);
      c.charge(InstrClass::kBranch);
      if (tile_i >= m_tiles_) break;
      // C rows of this warp, in floats: (tile_i + warp) x 16 x width + tile_j x 16 (+ width x r), 4 per int4.
      const V<std::int64_t> gmem = (warp + tile_i) * (kTile * width) + tile_j * kTile;
      const V<std::int64_t> stream = warp * (kShmemStride * kTile / 4) + lane;  // int4 index in `staged`
      const V<std::int64_t> c_row0 = gmem / 4 + lane;  // int4 index of row 0; width (N_GLOBAL) a constant
      for (std::int64_t r = 0; r < kTile; ++r)  // unrolled in the source: each row's offset an immediate
        staged.store(stream, c.load(c4, c_row0, r * width / 4), r * (kShmemStride / 4));
      c.syncthreads();
      std::vector<V<float>> acc;  // c[i][j], 2 x 4 accumulator fragments: load_matrix_sync
      acc.reserve(8);
      for (int f = 0; f < 8; ++f)
        acc.push_back(fragment_op<float>(c, InstrClass::kShared, kFragmentShared));
      c.syncthreads();
      for (V<float>& f : acc)  // c *= beta: 8 elements per lane per fragment
        f = fragment_op<float>(c, InstrClass::kFp32, 8, f);

      // The copy: warps 0-3 rows of A from tile_i x 16 + 32 (w % 4), warps 4-7 rows of B from tile_j x 16 +
      // 32 (w % 4); lane: row + lane / 8, int4 lane % 8 of the chunk's 128 B. The source computes each
      // lane's pointers once per tile and advances them by a constant per copy and per chunk: the int4
      // indices of the 8 copies are set up here, each copy adds the chunk's offset (tile_k x 16 halves).
      std::vector<V<std::int64_t>> shmem, from_a, from_b;
      for (std::int64_t i = 0; i < 8; ++i) {
        const V<std::int64_t> row = row0 + 4 * i;
        shmem.push_back((row + is_b * (kBlockTiles * kTile)) * kShmemRowInt4 + col);
        from_a.push_back((row + tile_i * kTile) * (depth / 8) + col);
        from_b.push_back((row + tile_j * kTile) * (depth / 8) + col);
      }
      for (std::int64_t tile_k = 0; tile_k < k_tiles_; tile_k += kChunkK) {
        for (std::int64_t i = 0; i < 8; ++i) {  // unrolled in the source
          c.if_else(
              copies_a,
              [&] { chunks.store(shmem[std::size_t(i)], c.load(a4, from_a[std::size_t(i)] + tile_k * 2)); },
              [&] { chunks.store(shmem[std::size_t(i)], c.load(b4, from_b[std::size_t(i)] + tile_k * 2)); });
        }
        c.syncthreads();
        for (std::int64_t k_step = 0; k_step < kChunkK; ++k_step) {  // unrolled in the source
          std::vector<V<float>> a, b;  // 2 A and 4 B fragments: load_matrix_sync
          for (int i = 0; i < 2; ++i)
            a.push_back(fragment_op<float>(c, InstrClass::kShared, kFragmentShared));
          for (int j = 0; j < 4; ++j)
            b.push_back(fragment_op<float>(c, InstrClass::kShared, kFragmentShared));
          for (int i = 0; i < 2; ++i)  // 2 x 4 mma_sync(c[i][j], a[i], b[j], c[i][j])
            for (int j = 0; j < 4; ++j)
              acc[std::size_t(i * 4 + j)] =
                  fragment_op<float>(c, InstrClass::kTensor, kHmmaPerMma, a[std::size_t(i)],
                                     b[std::size_t(j)], acc[std::size_t(i * 4 + j)]);
        }
        c.syncthreads();
        c.charge(InstrClass::kBranch);
      }
      for (V<float>& f : acc)  // c *= alpha
        f = fragment_op<float>(c, InstrClass::kFp32, 8, f);
      for (const V<float>& f : acc)  // store_matrix_sync of the 8 fragments
        (void)fragment_op<float>(c, InstrClass::kShared, kFragmentShared, f);
      c.syncthreads();
      for (std::int64_t r = 0; r < kTile; ++r)
        c.store(d4, c_row0, staged.load(stream, r * (kShmemStride / 4)), r * width / 4);
      c.syncthreads();
    }
  }

  std::int64_t m_tiles_, n_tiles_, k_tiles_, sms_;
  Array<std::uint16_t> a_, b_;
  Array<float> c_, d_;
};

}  // namespace

LibraryEntry cuda_samples_cudaTensorCoreGemm() {
  return {"cuda-samples/cudaTensorCoreGemm",
          "CUDA samples 11.1 cudaTensorCoreGemm, kernel compute_gemm; GV100 study input: the default 4096 x "
          "4096 x "
          "4096 (80 persistent CTAs)",
          {{"m_tiles", 256, 8, 1 << 16, "rows of 16 x 16 tiles (a multiple of 8)"},
           {"n_tiles", 256, 8, 1 << 16, "columns of tiles (a multiple of 8)"},
           {"k_tiles", 256, 4, 1 << 16, "tiles along K (a multiple of 4)"},
           {"sms", 80, 1, 1024, "the GPU's SMs (one persistent CTA each)"}},
          [](const Args& a) { return std::make_unique<TensorCoreGemm>(a); }};
}

}  // namespace numagpu::kernels
