// cuda-samples/mergeSort_generateSampleRanks: generateSampleRanksKernel of the CUDA samples 11.1 mergeSort
// (learned from Samples/mergeSort/mergeSort.cu, written here anew), the first launch of each merge stage:
// one thread per pair of samples (every 128th key of a run); thread pos takes sample i = pos &
// (stride / 128 - 1) of the segment (two runs of `stride`) starting at (pos - i) x 256, writes A's sample
// position i x 128 to RanksA and its rank in run B (keys < it, a binary search in global memory over
// `stride` keys: log2(stride) + 1 steps) to RanksB, then B's sample position to RanksB and its rank in A
// (keys <= it) to RanksA. The keys steer the searches' global addresses.
//
// Reference input (the sample's default): N = 4 Mi pairs, 12 stages (stride 1,024 .. 2^21), N / 256 =
// 16,384 threads in 64 CTAs of 256 each stage; `stride` selects one (default 1,024). The keys (uniform in
// [0, 65,536)) are sorted in runs of `stride` as the earlier launches leave them
// (kernels/cuda-samples/merge_sort_input.hpp). Simplified: N is a multiple of 2 x stride (full segments,
// as the sample's power-of-two N gives), ascending sort.
// The binary searches are computed with values, each step's newPos = umin(pos + s, len) as its add and its
// min, so the steps form the source's chain through pos (address, key read, compare, select); the
// segment-size and sample-count arithmetic, the loop tests and branches stay charged (uniform: no chain
// the model could wait on).
#include "kernels/cuda-samples/merge_sort_input.hpp"
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kSample = merge_sort::kSample, kThreads = 256;

class GenerateSampleRanks : public Kernel {
 public:
  explicit GenerateSampleRanks(const Args& a)
      : Kernel(a),
        n_(a["n"]),
        stride_(a["stride"]),
        seed_(a["seed"]),
        key_(array<std::uint32_t>("src_key", std::uint64_t(n_), 0, 0, &keys_)),
        ranks_a_(array<std::uint32_t>("ranks_a", std::uint64_t(n_ / kSample), 0, 0, &ranks_a_values_)),
        ranks_b_(array<std::uint32_t>("ranks_b", std::uint64_t(n_ / kSample), 0, 0, &ranks_b_values_)) {
    if (stride_ < kSample || (stride_ & (stride_ - 1)) != 0)
      throw KernelError("argument 'stride': not a power of two >= 128");
    if (n_ % (2 * stride_) != 0) throw KernelError("argument 'n': not a multiple of 2 x stride");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((threads() + kThreads - 1) / kThreads), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 20;  // nvcc for sm_70
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

  void prepare() override {
    std::vector<std::uint32_t> vals;
    merge_sort::sorted_runs(std::uint64_t(n_), std::uint64_t(stride_), static_cast<std::uint32_t>(seed_),
                            keys_, vals);
    ranks_a_values_.assign(std::uint64_t(n_ / kSample), 0);
    ranks_b_values_.assign(std::uint64_t(n_ / kSample), 0);
  }

  const std::vector<std::uint32_t>& keys() const { return keys_; }
  const std::vector<std::uint32_t>& ranks_a() const { return ranks_a_values_; }
  const std::vector<std::uint32_t>& ranks_b() const { return ranks_b_values_; }

 private:
  using Vi = V<std::int64_t>;
  using Vu = V<std::uint32_t>;

  std::int64_t threads() const { return n_ / (2 * kSample); }  // full segments: (N - 0) / 256

  void body(Cta& c) {
    const Vi pos = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
    c.exit_if(pos >= threads());
    const std::int64_t samples = stride_ / kSample;  // segmentSamplesA = segmentSamplesB (full runs)
    const Vi i = map(pos, InstrClass::kInt, [samples](std::int64_t p) { return p & (samples - 1); });
    const Vi base = (pos - i) * (2 * kSample);  // segmentBase
    const Vi at = (pos - i) * 2;                // segmentBase / SAMPLE_STRIDE
    c.charge(InstrClass::kInt, 6);              // the segment sizes and sample counts (umin, two ceils)
    const Vi sample = i * kSample;
    // i < segmentSamplesA, and i < segmentSamplesB: always, for full runs (the two tests still execute).
    c.charge(InstrClass::kInt);
    c.store(ranks_a_, at + i, convert<std::uint32_t>(sample));
    const Vu key_a = c.load(key_, base + sample);
    c.store(ranks_b_, at + i, convert<std::uint32_t>(search(c, key_a, base + stride_, false)));
    c.charge(InstrClass::kInt);
    c.store(ranks_b_, at + i + samples, convert<std::uint32_t>(sample));
    const Vu key_b = c.load(key_, base + stride_ + sample);
    c.store(ranks_a_, at + i + samples, convert<std::uint32_t>(search(c, key_b, base, true)));
  }

  // binarySearchExclusive / Inclusive over the `stride` keys from `data` in global memory, steps stride,
  // stride / 2, ..., 1 (nextPowerOfTwo(stride) = stride).
  Vi search(Cta& c, const Vu& val, const Vi& data, bool inclusive) const {
    Vi pos(c, 0);
    const std::int64_t len = stride_;
    c.charge(InstrClass::kInt, 3);  // L == 0, nextPowerOfTwo (a CLZ and a shift)
    for (std::int64_t s = len; s > 0; s >>= 1) {
      // newPos = umin(pos + s, len): an add, then a min (the chain runs through pos, step to step).
      const Vi new_pos = map(pos + s, InstrClass::kInt, [len](std::int64_t p) { return std::min(p, len); });
      const Vu k = c.load(key_, data + new_pos - std::int64_t(1));
      const V<bool> take = inclusive ? (k <= val) : (k < val);
      pos = select(take, new_pos, pos);
      c.charge(InstrClass::kBranch);
    }
    return pos;
  }

  std::int64_t n_, stride_, seed_;
  std::vector<std::uint32_t> keys_, ranks_a_values_, ranks_b_values_;
  Array<std::uint32_t> key_, ranks_a_, ranks_b_;
};

}  // namespace

// For tests: the keys and the ranks a generateSampleRanks kernel computed (false if `k` is another kernel).
bool generate_sample_ranks_result(const Kernel& k, std::vector<std::uint32_t>& keys,
                                  std::vector<std::uint32_t>& ranks_a, std::vector<std::uint32_t>& ranks_b) {
  const auto* g = dynamic_cast<const GenerateSampleRanks*>(&k);
  if (!g) return false;
  keys = g->keys();
  ranks_a = g->ranks_a();
  ranks_b = g->ranks_b();
  return true;
}

LibraryEntry cuda_samples_mergeSort_generateSampleRanks() {
  return {
      "cuda-samples/mergeSort_generateSampleRanks",
      "CUDA samples 11.1 mergeSort, kernel generateSampleRanksKernel; GV100 study input: the default 4 Mi "
      "pairs (12 stages, stride=1024 .. 2097152)",
      {{"n", 4 << 20, 256, std::int64_t(1) << 28, "pairs (a multiple of 2 x stride)"},
       {"stride", 1024, 128, std::int64_t(1) << 27, "this stage's run length (a power of two)"},
       {"seed", 2009, 0, 0xFFFFFFFF, "seed of the keys' generator"}},
      [](const Args& a) { return std::make_unique<GenerateSampleRanks>(a); }};
}

}  // namespace numagpu::kernels
