// cuda-samples/mergeSort_mergeElementaryIntervals: mergeElementaryIntervalsKernel of the CUDA samples 11.1
// mergeSort (learned from Samples/mergeSort/mergeSort.cu, written here anew), the third launch of each
// merge stage: the sorted runs of `stride` pairs are merged two by two, cut into intervals of at most 128
// + 128 pairs at the limits that generateSampleRanks and mergeRanksAndIndices found (every 128th key of
// each run ranked in the other run, the ranks merged). CTA b (128 threads) takes interval
// I = b & (2 stride / 128 - 1) of the segment starting at (b - I) x 128: thread 0 reads its limits (and the
// next interval's, except for the segment's last) from LimitsA/LimitsB and publishes the interval's
// starts and lengths in shared memory; after a barrier the threads load lenA pairs of run A and lenB of
// run B into shared memory, merge them there by binary search (each key's rank in the other run, 8 steps
// of 128, 64, ..., 1), and after two more barriers store the merged pairs at the segment's destination.
// The key values steer the interval lengths (so the loads' extents and the active threads) and the shared
// addresses of the merge.
//
// Reference input (the sample's default): N = 4 x 1,048,576 pairs, keys uniform in [0, 65,536) (rand() %
// 65,536 after srand(2009); here std::mt19937 seeded with `seed`), values their index. The sort runs 12
// merge stages, stride 1,024, 2,048, ..., 2^21, each with N / 128 = 32,768 CTAs; `stride` selects one
// (default 1,024, the first). Its input is built in prepare() as the earlier launches leave it: the keys
// sorted in runs of `stride` (stable: mergeSortShared and the merges are stable), and the limits as
// generateSampleRanks and mergeRanksAndIndices compute them (their searches done on the host). Simplified:
// N must be a multiple of 2 x stride (the sample's power-of-two N always is), so no segment is passed
// through by the host's copy.
// The binary searches are computed with values, each step's newPos = umin(pos + s, len) as its add and its
// min, so the steps form the source's chain through pos (address, key read, compare, select); the
// segment-size and sample-count arithmetic, the loop tests and branches stay charged (uniform: no chain
// the model could wait on).
#include "kernels/cuda-samples/merge_sort_input.hpp"
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kSample = merge_sort::kSample;

class MergeElementaryIntervals : public Kernel {
 public:
  explicit MergeElementaryIntervals(const Args& a)
      : Kernel(a),
        n_(a["n"]),
        stride_(a["stride"]),
        seed_(a["seed"]),
        src_key_(array<std::uint32_t>("src_key", std::uint64_t(n_), 0, 0, &src_keys_)),
        src_val_(array<std::uint32_t>("src_val", std::uint64_t(n_), 0, 0, &src_vals_)),
        dst_key_(array<std::uint32_t>("dst_key", std::uint64_t(n_), 0, 0, &dst_keys_)),
        dst_val_(array<std::uint32_t>("dst_val", std::uint64_t(n_), 0, 0, &dst_vals_)),
        limits_a_(array<std::uint32_t>("limits_a", std::uint64_t(n_ / kSample), 0, 0, &limits_a_values_)),
        limits_b_(array<std::uint32_t>("limits_b", std::uint64_t(n_ / kSample), 0, 0, &limits_b_values_)) {
    if (stride_ < kSample || (stride_ & (stride_ - 1)) != 0)
      throw KernelError("argument 'stride': not a power of two >= 128");
    if (n_ % (2 * stride_) != 0) throw KernelError("argument 'n': not a multiple of 2 x stride");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(n_ / kSample), 1, 1};
    l.block = {kSample, 1, 1};
    l.regs_per_thread = 24;                    // nvcc for sm_70
    l.shared_bytes = 4 * kSample * 4 + 6 * 4;  // s_key, s_val (2 x 128 each) and six parameters
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

  void prepare() override {
    const std::uint64_t n = std::uint64_t(n_), stride = std::uint64_t(stride_);
    merge_sort::sorted_runs(n, stride, static_cast<std::uint32_t>(seed_), src_keys_, src_vals_);
    std::vector<std::uint32_t> ranks_a, ranks_b;
    merge_sort::sample_ranks(src_keys_, stride, ranks_a, ranks_b);
    merge_sort::limits(ranks_a, stride, limits_a_values_);
    merge_sort::limits(ranks_b, stride, limits_b_values_);
    dst_keys_.assign(n, 0);
    dst_vals_.assign(n, 0);
  }

  const std::vector<std::uint32_t>& src_vals() const { return src_vals_; }
  const std::vector<std::uint32_t>& dst_keys() const { return dst_keys_; }
  const std::vector<std::uint32_t>& dst_vals() const { return dst_vals_; }

 private:
  using Vi = V<std::int64_t>;
  using Vu = V<std::uint32_t>;

  void body(Cta& c) {
    const std::int64_t block = c.blockIdx.x;
    const std::int64_t interval = block & (2 * stride_ / kSample - 1);
    const std::int64_t segment = (block - interval) * kSample;
    const Vi tx = c.threadIdx_x();
    Cta::Shared<std::uint32_t> params(c, 6);  // startSrcA, startSrcB, lenSrcA, lenSrcB, startDstA, startDstB
    c.if_(tx == 0, [&] {
      const std::int64_t segment_samples = 2 * stride_ / kSample;  // A's and B's (full runs)
      const Vu start_a = c.load(limits_a_, c.uniform(block)), start_b = c.load(limits_b_, c.uniform(block));
      Vu end_a(c, std::uint32_t(stride_)), end_b(c, std::uint32_t(stride_));
      c.charge(InstrClass::kInt, 6);  // segment sizes, sample counts, the interval test
      if (interval + 1 < segment_samples) {
        end_a = c.load(limits_a_, c.uniform(block + 1));
        end_b = c.load(limits_b_, c.uniform(block + 1));
      }
      const Vu len_a = end_a - start_a, len_b = end_b - start_b;
      const Vu dst_a = start_a + start_b, dst_b = dst_a + len_a;
      for (std::int64_t p = 0; p < 6; ++p) {
        const Vu& v = p == 0   ? start_a
                      : p == 1 ? start_b
                      : p == 2 ? len_a
                      : p == 3 ? len_b
                      : p == 4 ? dst_a
                               : dst_b;
        params.store(c.uniform(p), v);
      }
    });
    c.syncthreads();
    // The parameters, read by every thread (values uniform over the CTA).
    const std::int64_t start_a = params.load(c.uniform(0))[0], start_b = params.load(c.uniform(1))[0];
    const std::int64_t len_a = params.load(c.uniform(2))[0], len_b = params.load(c.uniform(3))[0];
    const std::int64_t dst_a = params.load(c.uniform(4))[0], dst_b = params.load(c.uniform(5))[0];

    Cta::Shared<std::uint32_t> s_key(c, 2 * kSample), s_val(c, 2 * kSample);
    c.if_(tx < len_a, [&] {
      const Vi g = tx + (segment + start_a);
      s_key.store(tx, c.load(src_key_, g));
      s_val.store(tx, c.load(src_val_, g));
    });
    c.if_(tx < len_b, [&] {
      const Vi g = tx + (segment + stride_ + start_b);
      s_key.store(tx, c.load(src_key_, g), kSample);
      s_val.store(tx, c.load(src_val_, g), kSample);
    });
    c.syncthreads();

    // merge(): ranks of A's keys among B's (exclusive) and of B's among A's (inclusive).
    Vu key_a(c, 0), val_a(c, 0), key_b(c, 0), val_b(c, 0);
    Vi pos_a(c, 0), pos_b(c, 0);
    c.if_(tx < len_a, [&] {
      key_a = s_key.load(tx);
      val_a = s_val.load(tx);
      pos_a = search(c, s_key, key_a, kSample, len_b, false) + tx;
    });
    c.if_(tx < len_b, [&] {
      key_b = s_key.load(tx, kSample);
      val_b = s_val.load(tx, kSample);
      pos_b = search(c, s_key, key_b, 0, len_a, true) + tx;
    });
    c.syncthreads();
    c.if_(tx < len_a, [&] {
      s_key.store(pos_a, key_a);
      s_val.store(pos_a, val_a);
    });
    c.if_(tx < len_b, [&] {
      s_key.store(pos_b, key_b);
      s_val.store(pos_b, val_b);
    });
    c.syncthreads();

    c.if_(tx < len_a, [&] {
      const Vi g = tx + (segment + dst_a);
      c.store(dst_key_, g, s_key.load(tx));
      c.store(dst_val_, g, s_val.load(tx));
    });
    c.if_(tx < len_b, [&] {
      const Vi g = tx + (segment + dst_b);
      c.store(dst_key_, g, s_key.load(tx + len_a));
      c.store(dst_val_, g, s_val.load(tx + len_a));
    });
  }

  // binarySearchInclusive / Exclusive (ascending) over `len` keys of shared memory from `data`, steps 128,
  // 64, ..., 1 (nPowTwoLen is SAMPLE_STRIDE); len 0 returns 0 at once.
  static Vi search(Cta& c, Cta::Shared<std::uint32_t>& keys, const Vu& val, std::int64_t data,
                   std::int64_t len, bool inclusive) {
    Vi pos(c, 0);
    c.charge(InstrClass::kInt);  // L == 0
    if (len == 0) return pos;
    for (std::int64_t s = kSample; s > 0; s >>= 1) {
      // newPos = umin(pos + s, len): an add, then a min (the chain runs through pos, step to step).
      const Vi new_pos = map(pos + s, InstrClass::kInt, [len](std::int64_t p) { return std::min(p, len); });
      const Vu k = keys.load(new_pos, data - 1);  // data - 1 a constant: an immediate of the address
      const V<bool> take = inclusive ? (k <= val) : (k < val);
      pos = select(take, new_pos, pos);
      c.charge(InstrClass::kBranch);
    }
    return pos;
  }

  std::int64_t n_, stride_, seed_;
  std::vector<std::uint32_t> src_keys_, src_vals_, dst_keys_, dst_vals_, limits_a_values_, limits_b_values_;
  Array<std::uint32_t> src_key_, src_val_, dst_key_, dst_val_, limits_a_, limits_b_;
};

}  // namespace

// For tests: the merged keys and values and the source values of a mergeElementaryIntervals kernel (false
// if `k` is another kernel).
bool merge_elementary_intervals_result(const Kernel& k, std::vector<std::uint32_t>& src_vals,
                                       std::vector<std::uint32_t>& dst_keys,
                                       std::vector<std::uint32_t>& dst_vals) {
  const auto* m = dynamic_cast<const MergeElementaryIntervals*>(&k);
  if (!m) return false;
  src_vals = m->src_vals();
  dst_keys = m->dst_keys();
  dst_vals = m->dst_vals();
  return true;
}

LibraryEntry cuda_samples_mergeSort_mergeElementaryIntervals() {
  return {
      "cuda-samples/mergeSort_mergeElementaryIntervals",
      "CUDA samples 11.1 mergeSort, kernel mergeElementaryIntervalsKernel; GV100 study input: the default 4 "
      "Mi pairs (12 stages, stride=1024 .. 2097152)",
      {{"n", 4 << 20, 256, std::int64_t(1) << 28, "pairs (a multiple of 2 x stride)"},
       {"stride", 1024, 128, std::int64_t(1) << 27, "this stage's run length (a power of two)"},
       {"seed", 2009, 0, 0xFFFFFFFF, "seed of the keys' generator"}},
      [](const Args& a) { return std::make_unique<MergeElementaryIntervals>(a); }};
}

}  // namespace numagpu::kernels
