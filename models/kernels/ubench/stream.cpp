// ubench/stream: every thread of a full grid reads floats, a warp one 128 B line a load, for the bandwidth of
// a level of the memory hierarchy (the stream method of Jia et al., arXiv:1804.06826, Section 3.7, and of
// Accel-Sim's l1_bw, l2_bw and mem_bw microbenchmarks). `numagpu bench-sm` runs it (docs/microbenchmarks.md).
//
// `per_cta` 1: each CTA reads the whole array, `passes` times (a small array then stays in each SM's L1: its
// hit bandwidth; one larger than the L1 but within the L2 makes every SM read the L2). `per_cta` 0: the grid
// reads the array once between all its threads, `passes` times (an array past the L2: DRAM bandwidth).
// bench-sm takes the difference of two pass counts, so the first pass (cold misses) and the launch cancel.
// Each thread adds what it loads to a sum (one FADD a load), as the published benchmarks do so that the
// compiler keeps the loads: with sm.nonblocking_loads a load no instruction read would never hold its warp,
// and a warp would put all its loads in flight at once, which no compiled stream does.
// The array's size is a multiple of a CTA's (per_cta) or the grid's threads x 4 B, or the last loads reach
// past its end (addresses only: the model reads no data of it).
#include "kernels/library.hpp"
#include "kernels/ubench/grid.hpp"

namespace numagpu::kernels {
namespace {

class Stream : public Kernel {
 public:
  explicit Stream(const Args& a)
      : Kernel(a),
        count_(static_cast<std::uint64_t>(a["footprint_kib"]) * 1024 / sizeof(float)),
        passes_(a["passes"]),
        threads_(ubench::whole_warps(a["threads"])),
        ctas_(a["ctas"]),
        per_cta_(a["per_cta"] != 0),
        sum_(a["sum"] != 0),
        data_(array<float>("data", count_)) {}

  Launch launch() override {
    Launch l = ubench::grid_launch(ctas_, threads_);
    l.body = [this](Cta& c) {
      const std::uint64_t span =
          per_cta_ ? std::uint64_t(threads_) : std::uint64_t(threads_) * std::uint64_t(ctas_);
      const std::int64_t first = per_cta_ ? 0 : std::int64_t(c.blockIdx.x) * threads_;
      const V<std::int64_t> tid = c.threadIdx_x() + first;
      // A thread's elements are tid, tid + span, ...: each an immediate offset of its first address (an
      // unrolled loop), so the loads issue no address arithmetic of their own.
      // With per_cta, CTA b starts its walk at chunk b (modulo the chunks): the SMs do not all ask the same
      // L2 slice for the same line at once, as a walk in lockstep would.
      const std::uint64_t chunks = (count_ + span - 1) / span, start = per_cta_ ? c.blockIdx.x % chunks : 0;
      V<float> sum(c, 0.0f);
      for (std::int64_t p = 0; p < passes_; ++p)
        for (std::uint64_t k = 0; k < chunks; ++k) {
          const V<float> v = c.load(data_, tid, static_cast<std::int64_t>((start + k) % chunks * span));
          if (sum_) sum = sum + v;
        }
    };
    return l;
  }

 private:
  std::uint64_t count_;
  std::int64_t passes_, threads_, ctas_;
  bool per_cta_, sum_;
  Array<float> data_;
};

}  // namespace

LibraryEntry ubench_stream() {
  return {
      "ubench/stream",
      "microbenchmark: coalesced reads by a full grid (L1, L2 or DRAM bandwidth; docs/microbenchmarks.md)",
      {{"footprint_kib", 64, 1, 1 << 22, "the array's size in KiB"},
       {"passes", 1, 1, 1 << 16, "times the array is read"},
       ubench::threads_arg(1024),
       ubench::ctas_arg(),
       {"per_cta", 0, 0, 1, "1: every CTA reads the whole array; 0: the grid reads it once between them"},
       {"sum", 1, 0, 1,
        "1: each thread adds what it loads (a FADD a load); 0: nothing reads the loads, so with "
        "sm.nonblocking_loads a warp puts all of them in flight (the memory system's queues under load)"}},
      [](const Args& a) { return std::make_unique<Stream>(a); }};
}

}  // namespace numagpu::kernels
