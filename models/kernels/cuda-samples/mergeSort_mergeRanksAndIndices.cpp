// cuda-samples/mergeSort_mergeRanksAndIndices: mergeRanksAndIndicesKernel of the CUDA samples 11.1
// mergeSort (learned from Samples/mergeSort/mergeSort.cu, written here anew), the second and third launches
// of each merge stage (once for RanksA -> LimitsA, once for RanksB -> LimitsB): thread pos takes sample i =
// pos & (stride / 128 - 1) of its segment (ranks at (pos - i) x 2), finds the rank of A's entry i among
// B's entries (exclusive) and of B's entry i among A's (inclusive) by binary search in global memory over
// the segment's stride / 128 entries (steps nextPowerOfTwo(stride / 128), ..., 1), and writes each entry
// to Limits at i plus its rank: a merge of the two sorted lists of ranks, whose store addresses the rank
// values steer.
//
// Reference input (the sample's default): N = 4 Mi pairs, 12 stages (stride 1,024 .. 2^21), 16,384
// threads in 64 CTAs of 256; `stride` selects the stage (default 1,024), `list` the launch (0: A, 1: B).
// The ranks are those generateSampleRanks computes from keys sorted in runs of `stride`
// (kernels/cuda-samples/merge_sort_input.hpp). Simplified: N a multiple of 2 x stride (full segments).
// The binary searches are computed with values, each step's newPos = umin(pos + s, len) as its add and its
// min, so the steps form the source's chain through pos (address, key read, compare, select); the
// segment-size and sample-count arithmetic, the loop tests and branches stay charged (uniform: no chain
// the model could wait on).
#include "kernels/cuda-samples/merge_sort_input.hpp"
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kSample = merge_sort::kSample, kThreads = 256;

class MergeRanksAndIndices : public Kernel {
 public:
  explicit MergeRanksAndIndices(const Args& a)
      : Kernel(a),
        n_(a["n"]),
        stride_(a["stride"]),
        list_(a["list"]),
        seed_(a["seed"]),
        ranks_(array<std::uint32_t>("ranks", std::uint64_t(n_ / kSample), 0, 0, &ranks_values_)),
        limits_(array<std::uint32_t>("limits", std::uint64_t(n_ / kSample), 0, 0, &limits_values_)) {
    if (stride_ < kSample || (stride_ & (stride_ - 1)) != 0)
      throw KernelError("argument 'stride': not a power of two >= 128");
    if (n_ % (2 * stride_) != 0) throw KernelError("argument 'n': not a multiple of 2 x stride");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((n_ / (2 * kSample) + kThreads - 1) / kThreads), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 16;  // nvcc for sm_70
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

  void prepare() override {
    std::vector<std::uint32_t> keys, vals, ranks_a, ranks_b;
    merge_sort::sorted_runs(std::uint64_t(n_), std::uint64_t(stride_), static_cast<std::uint32_t>(seed_),
                            keys, vals);
    merge_sort::sample_ranks(keys, std::uint64_t(stride_), ranks_a, ranks_b);
    ranks_values_ = list_ == 0 ? ranks_a : ranks_b;
    limits_values_.assign(ranks_values_.size(), 0);
  }

  const std::vector<std::uint32_t>& ranks() const { return ranks_values_; }
  const std::vector<std::uint32_t>& limits() const { return limits_values_; }
  std::int64_t stride() const { return stride_; }

 private:
  using Vi = V<std::int64_t>;
  using Vu = V<std::uint32_t>;

  void body(Cta& c) {
    const Vi pos = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
    c.exit_if(pos >= n_ / (2 * kSample));
    const std::int64_t samples = stride_ / kSample;  // segmentSamplesA = segmentSamplesB (full runs)
    const Vi i = map(pos, InstrClass::kInt, [samples](std::int64_t p) { return p & (samples - 1); });
    const Vi at = (pos - i) * 2;    // d_Ranks, d_Limits offsets
    c.charge(InstrClass::kInt, 6);  // segment sizes and sample counts
    c.charge(InstrClass::kInt);     // i < segmentSamplesA: always
    const Vu a = c.load(ranks_, at + i);
    const Vi dst_a = search(c, a, at + samples, false) + i;
    c.store(limits_, at + dst_a, a);  // d_Ranks[i] again: the same load, reused (no store between)
    c.charge(InstrClass::kInt);       // i < segmentSamplesB: always
    const Vu b = c.load(ranks_, at + samples + i);
    const Vi dst_b = search(c, b, at, true) + i;
    c.store(limits_, at + dst_b, b);
  }

  // binarySearchExclusive / Inclusive (ascending) over `samples` ranks from `data`, steps
  // nextPowerOfTwo(samples) = samples, ..., 1.
  Vi search(Cta& c, const Vu& val, const Vi& data, bool inclusive) const {
    const std::int64_t len = stride_ / kSample;
    Vi pos(c, 0);
    c.charge(InstrClass::kInt, 3);  // L == 0, nextPowerOfTwo
    for (std::int64_t s = len; s > 0; s >>= 1) {
      // newPos = umin(pos + s, len): an add, then a min (the chain runs through pos, step to step).
      const Vi new_pos = map(pos + s, InstrClass::kInt, [len](std::int64_t p) { return std::min(p, len); });
      const Vu k = c.load(ranks_, data + new_pos - std::int64_t(1));
      const V<bool> take = inclusive ? (k <= val) : (k < val);
      pos = select(take, new_pos, pos);
      c.charge(InstrClass::kBranch);
    }
    return pos;
  }

  std::int64_t n_, stride_, list_, seed_;
  std::vector<std::uint32_t> ranks_values_, limits_values_;
  Array<std::uint32_t> ranks_, limits_;
};

}  // namespace

// For tests: the ranks a mergeRanksAndIndices kernel read and the limits it wrote, and its stride (0 if `k`
// is another kernel).
std::int64_t merge_ranks_result(const Kernel& k, std::vector<std::uint32_t>& ranks,
                                std::vector<std::uint32_t>& limits) {
  const auto* m = dynamic_cast<const MergeRanksAndIndices*>(&k);
  if (!m) return 0;
  ranks = m->ranks();
  limits = m->limits();
  return m->stride();
}

LibraryEntry cuda_samples_mergeSort_mergeRanksAndIndices() {
  return {
      "cuda-samples/mergeSort_mergeRanksAndIndices",
      "CUDA samples 11.1 mergeSort, kernel mergeRanksAndIndicesKernel; GV100 study input: the default 4 Mi "
      "pairs (12 stages, stride=1024 .. 2097152; list=0 and 1)",
      {{"n", 4 << 20, 256, std::int64_t(1) << 28, "pairs (a multiple of 2 x stride)"},
       {"stride", 1024, 128, std::int64_t(1) << 27, "this stage's run length (a power of two)"},
       {"list", 0, 0, 1, "0: RanksA into LimitsA, 1: RanksB into LimitsB"},
       {"seed", 2009, 0, 0xFFFFFFFF, "seed of the keys' generator"}},
      [](const Args& a) { return std::make_unique<MergeRanksAndIndices>(a); }};
}

}  // namespace numagpu::kernels
