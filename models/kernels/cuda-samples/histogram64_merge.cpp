// cuda-samples/histogram64_merge: mergeHistogram64Kernel of the CUDA samples 11.1 `histogram` (learned from
// Samples/histogram/histogram64.cu, written here anew), the second launch of histogram64(): one CTA of 256
// threads per bin (64 CTAs) adds that bin over every partial histogram of histogram64Kernel. Thread t reads
// partial[bin + 64 i] for i = t, t + 256, ... < histogramCount (a 256 B stride: uncoalesced, each warp
// load touches 32 lines), stores its sum in shared memory, and the CTA reduces the 256 sums by halving
// (8 barriers); thread 0 writes the bin.
//
// Reference input (the sample's default): the 4,162 partial histograms of 64 MiB of data (histogramCount =
// ceil(bytes / (64 x 252))). The partial counts steer nothing, so the array carries no data. Simplified: the
// partial histograms are this kernel's own array (a separate allocation from histogram64's). The sums (the
// strided accumulation, the tree reduction) are computed with values; only the unrolled loop's steps are
// charged branches.
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;  // MERGE_THREADBLOCK_SIZE
constexpr std::int64_t kBins = 64;      // HISTOGRAM64_BIN_COUNT

class Histogram64Merge : public Kernel {
 public:
  explicit Histogram64Merge(const Args& a)
      : Kernel(a),
        count_((a["bytes"] + 64 * 252 - 1) / (64 * 252)),
        histogram_(array<std::uint32_t>("histogram", kBins)),
        partial_(array<std::uint32_t>("partial_histograms", std::uint64_t(count_ * kBins))) {}

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(kBins), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 16;         // nvcc for sm_70
    l.shared_bytes = kThreads * 4;  // data[256] of uint
    l.body = [this](Cta& c) { body(c); };
    return l;
  }

 private:
  void body(Cta& c) {
    const V<std::int64_t> tx = c.threadIdx_x();
    const std::int64_t bin = c.blockIdx.x;
    V<std::uint32_t> sum(c, 0);
    V<std::int64_t> i = tx;
    c.while_([&] { return i < count_; },
             [&] {
               sum = sum + c.load(partial_, i * kBins + bin);
               i = i + kThreads;
             });
    Cta::Shared<std::uint32_t> data(c, kThreads);
    data.store(tx, sum);
    for (std::int64_t stride = kThreads / 2; stride > 0; stride /= 2) {
      c.syncthreads();
      c.if_(tx < stride, [&] { data.store(tx, data.load(tx) + data.load(tx, stride)); });
      c.charge(InstrClass::kBranch);  // the unrolled loop's step
    }
    c.if_(tx == 0, [&] { c.store(histogram_, tx + bin, data.load(c.uniform(0))); });
  }

  std::int64_t count_;
  Array<std::uint32_t> histogram_, partial_;
};

}  // namespace

LibraryEntry cuda_samples_histogram64_merge() {
  return {"cuda-samples/histogram64_merge",
          "CUDA samples 11.1 histogram, kernel mergeHistogram64Kernel; GV100 study input: the default 64 MiB "
          "(4,162 partial histograms)",
          {{"bytes", 64 << 20, 16, 32768 * 16128,
            "bytes of the histogrammed data (sets the count, at most 32,768)"}},
          [](const Args& a) { return std::make_unique<Histogram64Merge>(a); }};
}

}  // namespace numagpu::kernels
