// ubench/atomic: global atomicAdd by every thread of a grid, all on one address or each on its own, for the
// atomics' throughput (Accel-Sim's atomic_add_bw and atomic_add_bw_conflict microbenchmarks; Jia et al.,
// arXiv:1804.06826, Chapter 4). `numagpu bench-sm` runs it (docs/microbenchmarks.md).
//
// Shared-memory atomics are not modelled (kernels/simt.hpp has none): docs/microbenchmarks.md lists them so.
#include "kernels/library.hpp"
#include "kernels/ubench/grid.hpp"

namespace numagpu::kernels {
namespace {

class Atomic : public Kernel {
 public:
  explicit Atomic(const Args& a)
      : Kernel(a),
        distinct_(a["distinct"] != 0),
        length_(a["length"]),
        threads_(ubench::whole_warps(a["threads"])),
        ctas_(a["ctas"]),
        counters_(array<std::int32_t>("counters",
                                      distinct_ ? std::uint64_t(threads_) * std::uint64_t(ctas_) : 1)) {}

  Launch launch() override {
    Launch l = ubench::grid_launch(ctas_, threads_);
    l.body = [this](Cta& c) {
      const V<std::int64_t> index =
          distinct_ ? c.threadIdx_x() + std::int64_t(c.blockIdx.x) * threads_ : c.uniform(0);
      const V<std::int32_t> one(c, 1);
      for (std::int64_t k = 0; k < length_; ++k)
        c.atomic_add(counters_, index, one);
    };
    return l;
  }

 private:
  bool distinct_;
  std::int64_t length_, threads_, ctas_;
  Array<std::int32_t> counters_;
};

}  // namespace

LibraryEntry ubench_atomic() {
  return {"ubench/atomic",
          "microbenchmark: global atomicAdd on one address or one per thread (docs/microbenchmarks.md)",
          {{"distinct", 0, 0, 1, "0: every thread adds to one address; 1: each thread to its own"},
           {"length", 16, 1, 1 << 16, "atomics per thread"},
           ubench::threads_arg(1024),
           ubench::ctas_arg()},
          [](const Args& a) { return std::make_unique<Atomic>(a); }};
}

}  // namespace numagpu::kernels
