// cuda-samples/mergeSort_mergeSortShared: mergeSortSharedKernel of the CUDA samples 11.1 mergeSort (learned
// from Samples/mergeSort/mergeSort.cu, main.cpp and mergeSort_common.h, written here anew), the first launch
// of the sample's sort: each CTA of 512 threads sorts 1,024 (key, value) pairs in shared memory. Thread t
// loads pairs t and t + 512; then for stride = 1, 2, ..., 512 (a barrier before and after the reads) it
// takes element lPos = t & (stride - 1) of the two sorted runs of length `stride` that start at
// 2 (t - lPos), finds by binary search the rank of A's element in B (exclusive: keys < it) and of B's
// element in A (inclusive: keys <= it), and writes both pairs at their ranks: a merge whose shared-memory
// addresses are steered by the keys. After a last barrier the 1,024 sorted pairs are stored.
//
// Reference input (the sample's default): N = 4 x 1,048,576 pairs, ascending; 4,096 CTAs. Keys: rand() %
// 65,536 after srand(2009), uniform in [0, 65,536), generated here by std::mt19937 seeded with `seed` (the
// C library's sequence is not portable; the distribution is the same); values: the index (the sample's
// fillValues). The keys steer the searches' and the scatter's shared-memory addresses, so keys and values
// are held and sorted for real. The binary searches have the same trip count for every thread (the stride),
// their step is a predicated select, so warps do not diverge; bank conflicts depend on the keys.
// The searches are computed with values, each step's newPos = umin(pos + s, len) as its add and its min,
// so the steps form the source's chain through pos (add, min, address, shared read, compare, select); the
// loops' branches stay charged.
#include <random>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kTile = 1024;  // SHARED_SIZE_LIMIT

class MergeSortShared : public Kernel {
 public:
  explicit MergeSortShared(const Args& a)
      : Kernel(a),
        n_(a["n"]),
        seed_(a["seed"]),
        src_key_(array<std::uint32_t>("src_key", std::uint64_t(n_), 0, 0, &src_keys_)),
        src_val_(array<std::uint32_t>("src_val", std::uint64_t(n_), 0, 0, &src_vals_)),
        dst_key_(array<std::uint32_t>("dst_key", std::uint64_t(n_), 0, 0, &dst_keys_)),
        dst_val_(array<std::uint32_t>("dst_val", std::uint64_t(n_), 0, 0, &dst_vals_)) {
    if (n_ % kTile != 0) throw KernelError("argument 'n': not a multiple of 1024");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(n_ / kTile), 1, 1};
    l.block = {kTile / 2, 1, 1};
    l.regs_per_thread = 22;          // nvcc for sm_70
    l.shared_bytes = 2 * kTile * 4;  // s_key, s_val
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

  void prepare() override {
    std::mt19937 rng(static_cast<std::uint32_t>(seed_));
    resize_interruptibly(src_keys_, std::uint64_t(n_));
    resize_interruptibly(src_vals_, std::uint64_t(n_));
    for (std::uint64_t i = 0; i < src_keys_.size(); ++i) {
      interrupt_point();
      src_keys_[i] = rng() % 65536u;
      src_vals_[i] = static_cast<std::uint32_t>(i);
    }
    zeros_interruptibly(dst_keys_, std::uint64_t(n_));
    zeros_interruptibly(dst_vals_, std::uint64_t(n_));
  }

  const std::vector<std::uint32_t>& src_keys() const { return src_keys_; }
  const std::vector<std::uint32_t>& dst_keys() const { return dst_keys_; }
  const std::vector<std::uint32_t>& dst_vals() const { return dst_vals_; }

 private:
  using Vi = V<std::int64_t>;
  using Vu = V<std::uint32_t>;

  void body(Cta& c) {
    const Vi tx = c.threadIdx_x();
    const Vi g = tx + std::int64_t(c.blockIdx.x) * kTile;
    Cta::Shared<std::uint32_t> s_key(c, kTile), s_val(c, kTile);
    s_key.store(tx, c.load(src_key_, g));
    s_val.store(tx, c.load(src_val_, g));
    s_key.store(tx, c.load(src_key_, g, kTile / 2), kTile / 2);
    s_val.store(tx, c.load(src_val_, g, kTile / 2), kTile / 2);

    for (std::int64_t stride = 1; stride < kTile; stride <<= 1) {
      const Vi lpos = map(tx, InstrClass::kInt, [stride](std::int64_t t) { return t & (stride - 1); });
      const Vi base = (tx - lpos) * 2;
      c.syncthreads();
      const Vi at_a = base + lpos, at_b = at_a + stride;
      const Vu key_a = s_key.load(at_a), val_a = s_val.load(at_a);
      const Vu key_b = s_key.load(at_b), val_b = s_val.load(at_b);
      const Vi pos_a = search(c, s_key, key_a, base + stride, stride, false) + lpos;
      const Vi pos_b = search(c, s_key, key_b, base, stride, true) + lpos;
      c.syncthreads();
      const Vi dst_a = base + pos_a, dst_b = base + pos_b;
      s_key.store(dst_a, key_a);
      s_val.store(dst_a, val_a);
      s_key.store(dst_b, key_b);
      s_val.store(dst_b, val_b);
      c.charge(InstrClass::kBranch);  // the stride loop
    }
    c.syncthreads();
    c.store(dst_key_, g, s_key.load(tx));
    c.store(dst_val_, g, s_val.load(tx));
    c.store(dst_key_, g, s_key.load(tx, kTile / 2), kTile / 2);
    c.store(dst_val_, g, s_val.load(tx, kTile / 2), kTile / 2);
  }

  // binarySearchInclusive / Exclusive (ascending) over `len` sorted keys at `data`, steps `stride`, stride /
  // 2, ..., 1: newPos = min(pos + s, len); pos = newPos if data[newPos - 1] <= val (inclusive) or < val.
  static Vi search(Cta& c, Cta::Shared<std::uint32_t>& keys, const Vu& val, const Vi& data, std::int64_t len,
                   bool inclusive) {
    Vi pos(c, 0);
    for (std::int64_t s = len; s > 0; s >>= 1) {
      // newPos = umin(pos + s, len): an add, then a min.
      const Vi new_pos = map(pos + s, InstrClass::kInt, [len](std::int64_t p) { return std::min(p, len); });
      // data[newPos - 1]: the address (one integer operation: the base and the -1 fold into it).
      const Vu k = keys.load(
          zip(data, new_pos, InstrClass::kInt, [](std::int64_t d, std::int64_t p) { return d + p - 1; }));
      const V<bool> take = inclusive ? (k <= val) : (k < val);
      pos = select(take, new_pos, pos);
      c.charge(InstrClass::kBranch);  // the search loop
    }
    return pos;
  }

  std::int64_t n_, seed_;
  std::vector<std::uint32_t> src_keys_, src_vals_, dst_keys_, dst_vals_;
  Array<std::uint32_t> src_key_, src_val_, dst_key_, dst_val_;
};

}  // namespace

// For tests: the source keys and the sorted keys and values of a mergeSortShared kernel (false if `k` is
// another kernel).
bool merge_sort_shared_result(const Kernel& k, std::vector<std::uint32_t>& src_keys,
                              std::vector<std::uint32_t>& dst_keys, std::vector<std::uint32_t>& dst_vals) {
  const auto* m = dynamic_cast<const MergeSortShared*>(&k);
  if (!m) return false;
  src_keys = m->src_keys();
  dst_keys = m->dst_keys();
  dst_vals = m->dst_vals();
  return true;
}

LibraryEntry cuda_samples_mergeSort_mergeSortShared() {
  return {"cuda-samples/mergeSort_mergeSortShared",
          "CUDA samples 11.1 mergeSort, kernel mergeSortSharedKernel; GV100 study input: the default 4 Mi "
          "pairs, keys uniform in [0, 65536)",
          {{"n", 4 << 20, 1024, std::int64_t(1) << 28, "pairs (a multiple of 1024)"},
           {"seed", 2009, 0, 0xFFFFFFFF, "seed of the keys' generator"}},
          [](const Args& a) { return std::make_unique<MergeSortShared>(a); }};
}

}  // namespace numagpu::kernels
