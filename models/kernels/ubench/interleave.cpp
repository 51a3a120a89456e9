// ubench/interleave: every warp alternates a global load (an L1 hit once the array is warm) with a run of
// FFMAs that use it, for the warp scheduler (the greedy-then-oldest against loose round-robin comparison of
// Rogers et al., "Cache-Conscious Wavefront Scheduling", MICRO 2012, and Narasiman et al., "Improving GPU
// Performance via Large Warps and Two-Level Warp Scheduling", MICRO 2011: round-robin brings the warps to
// their loads together, so they wait together, where greedy-then-oldest staggers them and overlaps one warp's
// arithmetic with the others' loads). `numagpu bench-sm` runs it (docs/microbenchmarks.md).
//
// Each thread, `iterations` times: loads one float (a warp one 128 B line), then `work` FFMAs on 4
// accumulators, each reading the loaded value and its accumulator. The CTA walks an array of `footprint_kib`
// (at least its threads' 4 B each) a chunk of threads x 4 B an iteration, cyclically: a footprint past the L1
// makes every load an L2 hit once the first walk around has warmed the L2.
#include "kernels/library.hpp"
#include "kernels/ubench/grid.hpp"

namespace numagpu::kernels {
namespace {

constexpr unsigned kAccumulators = 4;

class Interleave : public Kernel {
 public:
  explicit Interleave(const Args& a)
      : Kernel(a),
        iterations_(a["iterations"]),
        work_(a["work"]),
        threads_(ubench::whole_warps(a["threads"])),
        ctas_(a["ctas"]),
        chunks_(std::max<std::uint64_t>(
            1, std::uint64_t(a["footprint_kib"]) * 1024 / (4 * std::uint64_t(threads_)))),
        data_(array<float>("data", chunks_ * std::uint64_t(threads_))) {}

  Launch launch() override {
    Launch l = ubench::grid_launch(ctas_, threads_);
    l.body = [this](Cta& c) {
      const V<std::int64_t> tid = c.threadIdx_x();
      std::vector<V<float>> acc;
      for (unsigned k = 0; k < kAccumulators; ++k)
        acc.emplace_back(c, 1.0f);
      for (std::int64_t i = 0; i < iterations_; ++i) {
        // The chunk's offset is an immediate of the load (an unrolled walk): no address instruction.
        const V<float> v =
            c.load(data_, tid, static_cast<std::int64_t>(std::uint64_t(i) % chunks_) * threads_);
        for (std::int64_t w = 0; w < work_; ++w) {
          V<float>& a = acc[static_cast<std::size_t>(w) % kAccumulators];
          a = fma(v, a, V<float>(c, 0.5f));
        }
      }
    };
    return l;
  }

 private:
  std::int64_t iterations_, work_, threads_, ctas_;
  std::uint64_t chunks_;
  Array<float> data_;
};

}  // namespace

LibraryEntry ubench_interleave() {
  return {"ubench/interleave",
          "microbenchmark: loads and the FFMAs that use them, alternating (the warp scheduler; "
          "docs/microbenchmarks.md)",
          {{"iterations", 16, 1, 1 << 16, "loads per thread"},
           {"work", 16, 0, 1024, "FFMAs after each load"},
           {"footprint_kib", 0, 0, 1 << 20,
            "the array the CTA walks, KiB (0: one chunk, the threads' own floats)"},
           ubench::threads_arg(1024),
           ubench::ctas_arg()},
          [](const Args& a) { return std::make_unique<Interleave>(a); }};
}

}  // namespace numagpu::kernels
