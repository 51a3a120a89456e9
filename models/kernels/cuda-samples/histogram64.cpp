// cuda-samples/histogram64: histogram64Kernel of the CUDA samples 11.1 `histogram` (learned from
// Samples/histogram/histogram64.cu and histogram_common.h, written here anew). A 64-bin histogram of a byte
// array (the high six bits of each byte) with per-thread byte counters in shared memory: each CTA of 64
// threads keeps 64 x 64 one-byte counters, thread t's counters at byte threadPos + 64 * bin, threadPos a
// permutation of t that puts threads t and t + 16 in the same 32-bit word (different bytes) and the 16
// threads of a half-warp in 16 consecutive banks. After zeroing the counters (16 word stores per thread)
// and a barrier, the CTA walks the data as uint4 (16 bytes) in a grid-stride loop: position
// blockIdx.x * 64 + threadIdx.x, stride 64 x gridDim.x, each uint4 counted into 16 bins (extract, address,
// shared byte load, increment, store). After a second barrier thread t sums bin t over the 64 threads'
// counters (16 rounds of 4 byte loads, rotating through the words by 4 * (t & 15)) and writes bin t of
// the CTA's partial histogram. The CTA count keeps every counter below 256: ceil(bytes / (64 x 252)).
//
// Reference input (the sample's default): 64 MiB of bytes, ceil(67,108,864 / 16,128) = 4,162 CTAs of 64
// threads, 4,194,304 uint4. The sample fills the bytes with rand() % 256 after srand(2009): uniform bytes,
// generated here by std::mt19937 seeded with `seed` (the C library's rand() sequence is not portable; the
// distribution is the same). The values steer the shared-memory counter addresses, so the data are held.
// The partial histograms are computed for real (a test checks them against a count of the data).
// Simplified: the launch is one kernel; mergeHistogram64Kernel is cuda-samples/histogram64_merge. All the
// arithmetic is computed with values (threadPos as five integer operations: two AND-and-shift chains and
// one three-input logic operation combining them).
#include <algorithm>
#include <random>

#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 64;  // HISTOGRAM64_THREADBLOCK_SIZE = 4 x SHARED_MEMORY_BANKS (16)
constexpr std::int64_t kBins = 64;
constexpr std::int64_t kBanks16 = 16;     // the sample's SHARED_MEMORY_BANKS
constexpr std::int64_t kPerThread = 252;  // 255 snapped down to a multiple of sizeof(uint4)

struct U4 {
  std::uint32_t x = 0, y = 0, z = 0, w = 0;
};

class Histogram64 : public Kernel {
 public:
  explicit Histogram64(const Args& a)
      : Kernel(a),
        bytes_(a["bytes"]),
        seed_(a["seed"]),
        ctas_((bytes_ + kThreads * kPerThread - 1) / (kThreads * kPerThread)),
        data_(array<U4>("data", std::uint64_t(bytes_ / 16), 0, 0, &data_values_)),
        partial_(array<std::uint32_t>("partial_histograms", std::uint64_t(ctas_ * kBins), 0, 0, &partials_)) {
    if (bytes_ % 16 != 0) throw KernelError("argument 'bytes': not a multiple of 16 (one uint4)");
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(ctas_), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 32;             // nvcc for sm_70
    l.shared_bytes = kThreads * kBins;  // s_Hist: 64 x 64 byte counters
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

  void prepare() override {
    std::mt19937 rng(static_cast<std::uint32_t>(seed_));
    resize_interruptibly(data_values_, std::uint64_t(bytes_ / 16));
    auto word = [&rng] {  // four uniform bytes
      std::uint32_t w = 0;
      for (int b = 0; b < 4; ++b)
        w |= (rng() & 0xFFu) << (8 * b);
      return w;
    };
    for (U4& u : data_values_) {
      interrupt_point();
      u = {word(), word(), word(), word()};
    }
    partials_.assign(std::uint64_t(ctas_ * kBins), 0);
  }

  const std::vector<U4>& data() const { return data_values_; }
  const std::vector<std::uint32_t>& partials() const { return partials_; }

 private:
  void body(Cta& c) {
    const V<std::int64_t> tx = c.threadIdx_x();
    // threadPos: (t & ~63) | (t & 15) << 2 | (t & 48) >> 4 (five integer operations in the source): two
    // chains of an AND and a shift, and one three-input logic operation combining them with t & ~63.
    const V<std::int64_t> low =
        map(map(tx, InstrClass::kInt, [](std::int64_t t) { return t & (kBanks16 - 1); }), InstrClass::kInt,
            [](std::int64_t v) { return v << 2; });
    const V<std::int64_t> mid =
        map(map(tx, InstrClass::kInt, [](std::int64_t t) { return t & (kBanks16 * 3); }), InstrClass::kInt,
            [](std::int64_t v) { return v >> 4; });
    V<std::int64_t> thread_pos = Uninitialized<std::int64_t>::make(c);  // LOP3: (t & ~63) | low | mid
    for (unsigned i = 0; i < c.threads(); ++i)
      thread_pos[i] = (tx[i] & ~(kBanks16 * 4 - 1)) | low[i] | mid[i];
    c.issue(
        InstrClass::kInt,
        [&](unsigned w) {
          return std::max({tx.ready(w), low.ready(w), mid.ready(w)});
        },
        thread_pos.ready_data());
    Cta::Shared<std::uint8_t> hist(c, kThreads * kBins);
    // The zeroing writes s_Hist as 32-bit words: the same bytes, accessed word-wide (the counters start at
    // zero in `hist` already), so the stores go through a word view for their bank accounting.
    Cta::Shared<std::uint32_t> hist_words(c, kThreads * kBins / 4);
    for (std::int64_t i = 0; i < kBins / 4; ++i)  // unrolled in the source
      hist_words.store(tx, V<std::uint32_t>(c, 0), i * kThreads);
    c.syncthreads();

    const std::int64_t count = bytes_ / 16, stride = kThreads * std::int64_t(c.gridDim.x);
    V<std::int64_t> pos = tx + std::int64_t(c.blockIdx.x) * kThreads;
    c.while_([&] { return pos < count; },
             [&] {
               const V<U4> d = c.load(data_, pos);
               for (int word = 0; word < 4; ++word) {
                 V<std::uint32_t> w(c, 0);
                 for (unsigned t = 0; t < c.threads(); ++t) {  // a register of the uint4: no instruction
                   const U4& u = d[t];
                   w[t] = word == 0 ? u.x : word == 1 ? u.y : word == 2 ? u.z : u.w;
                 }
                 for (int shift = 2; shift < 32; shift += 8)
                   add_byte(hist, thread_pos, w, shift);
               }
               pos = pos + stride;
             });
    c.syncthreads();

    // Every thread of the CTA has a bin (64 threads, 64 bins): the source's `threadIdx.x < 64` holds for all.
    c.if_(tx < kBins, [&] {
      const V<std::int64_t> base = tx * kThreads;
      V<std::int64_t> p = map(tx, InstrClass::kInt, [](std::int64_t t) { return 4 * (t & (kBanks16 - 1)); });
      V<std::uint32_t> sum(c, 0);
      for (std::int64_t i = 0; i < kThreads / 4; ++i) {  // unrolled in the source
        const V<std::int64_t> at = base + p;
        V<std::uint32_t> four = convert<std::uint32_t>(hist.load(at));
        for (std::int64_t k = 1; k < 4; ++k)
          four = four + convert<std::uint32_t>(hist.load(at, k));
        sum = sum + four;
        p = map(p + 4, InstrClass::kInt, [](std::int64_t v) { return v & (kThreads - 1); });
      }
      c.store(partial_, tx + std::int64_t(c.blockIdx.x) * kBins, sum);
    });
  }

  // addByte: s_ThreadBase[64 * ((w >> shift) & 63)]++ (a bit-field extract, an address, a byte
  // read-modify-write of shared memory).
  void add_byte(Cta::Shared<std::uint8_t>& hist, const V<std::int64_t>& thread_pos, const V<std::uint32_t>& w,
                int shift) {
    const V<std::int64_t> bin =
        map(w, InstrClass::kInt, [shift](std::uint32_t v) { return std::int64_t((v >> shift) & 0x3Fu); });
    const V<std::int64_t> at = zip(bin, thread_pos, InstrClass::kInt,
                                   [](std::int64_t b, std::int64_t p) { return b * kThreads + p; });
    hist.store(at, hist.load(at) + std::uint8_t(1));
  }

  std::int64_t bytes_, seed_, ctas_;
  std::vector<U4> data_values_;
  std::vector<std::uint32_t> partials_;
  Array<U4> data_;
  Array<std::uint32_t> partial_;
};

}  // namespace

// For tests: the data a histogram64 kernel generated and the partial histograms it computed (null if `k`
// is another kernel).
const std::vector<std::uint32_t>* histogram64_partials(const Kernel& k,
                                                       std::vector<std::uint32_t>* bytes_of_data) {
  const auto* h = dynamic_cast<const Histogram64*>(&k);
  if (!h) return nullptr;
  if (bytes_of_data) {
    bytes_of_data->clear();
    for (const U4& u : h->data())
      for (std::uint32_t w : {u.x, u.y, u.z, u.w})
        for (int b = 0; b < 4; ++b)
          bytes_of_data->push_back((w >> (8 * b)) & 0xFFu);
  }
  return &h->partials();
}

LibraryEntry cuda_samples_histogram64() {
  return {"cuda-samples/histogram64",
          "CUDA samples 11.1 histogram, kernel histogram64Kernel; GV100 study input: the default 64 MiB of "
          "uniform random bytes",
          {{"bytes", 64 << 20, 16, 32768 * 16128,
            "bytes of data (a multiple of 16; at most 32,768 partial histograms)"},
           {"seed", 2009, 0, 0xFFFFFFFF, "seed of the data's generator"}},
          [](const Args& a) { return std::make_unique<Histogram64>(a); }};
}

}  // namespace numagpu::kernels
