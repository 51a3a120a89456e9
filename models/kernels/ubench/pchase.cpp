// ubench/pchase: a pointer chase by one thread, for the load-to-use latency of each level of the memory
// hierarchy (Jia et al., arXiv:1804.06826, Section 3 and Figure 3.2: the fine-grained p-chase; Wong et al.,
// ISPASS 2010). `numagpu bench-sm` runs it (docs/microbenchmarks.md).
//
// The array holds indices: element i names i + stride / 8 (modulo the footprint), so each load's address is
// the value the load before returned, and no load can start before the one before it has ended. One thread
// (lane 0 of one warp) walks it. With `warm` the walk first goes once around the whole footprint, so that the
// timed walk finds what a footprint of that size leaves in the caches: a footprint within the L1 hits there,
// one past the L1 but within the L2 hits the L2, one past the L2 goes to DRAM. Without `warm` every load of a
// new line is cold. The timed part is `steps` loads; bench-sm takes the difference of two step counts, so the
// launch, the warm-up and the kernel's end cancel. With `texture` every load is a texture fetch
// (tex1Dfetch of the index, as the texture benchmarks of Arafa et al., arXiv:1905.08778, chase through a
// bound texture): the texture path's latency, through the same unified L1 / texture cache.
#include "kernels/library.hpp"
#include "kernels/ubench/grid.hpp"

namespace numagpu::kernels {
namespace {

class Pchase : public Kernel {
 public:
  explicit Pchase(const Args& a)
      : Kernel(a),
        count_(static_cast<std::uint64_t>(a["footprint_kib"]) * 1024 / sizeof(std::int64_t)),
        stride_(a["stride"]),
        steps_(a["steps"]),
        warm_(a["warm"] != 0),
        texture_(a["texture"] != 0),
        next_(array<std::int64_t>("next", count_, 0, 0, &values_)) {
    if (stride_ % 8)
      throw KernelError("stride must be a multiple of 8 bytes, got " + std::to_string(stride_));
  }

  void prepare() override {
    values_.resize(count_);
    const std::uint64_t hop = static_cast<std::uint64_t>(stride_) / sizeof(std::int64_t);
    for (std::uint64_t i = 0; i < count_; ++i)
      values_[i] = static_cast<std::int64_t>((i + hop) % count_);
  }

  Launch launch() override {
    Launch l = ubench::grid_launch(1, kWarpSize);
    l.body = [this](Cta& c) {
      c.exit_if(c.threadIdx_x() != 0);  // one thread walks
      V<std::int64_t> j(c, 0);
      auto next = [&] { j = texture_ ? c.texture_load(next_, j) : c.load(next_, j); };
      if (warm_) {
        const std::uint64_t around = count_ * sizeof(std::int64_t) / static_cast<std::uint64_t>(stride_);
        for (std::uint64_t k = 0; k < around; ++k)
          next();
      }
      for (std::int64_t k = 0; k < steps_; ++k)
        next();
    };
    return l;
  }

 private:
  std::uint64_t count_;
  std::int64_t stride_, steps_;
  bool warm_, texture_;
  std::vector<std::int64_t> values_;
  Array<std::int64_t> next_;
};

}  // namespace

LibraryEntry ubench_pchase() {
  return {"ubench/pchase",
          "microbenchmark: one thread's pointer chase over a footprint (load latency per memory level; "
          "docs/microbenchmarks.md)",
          {{"footprint_kib", 64, 1, 1 << 22, "the array's size in KiB"},
           {"stride", 128, 8, 1 << 20, "bytes from one element to the next it names (a multiple of 8)"},
           {"steps", 64, 1, 1 << 20, "timed loads"},
           {"warm", 1, 0, 1, "1: walk the whole footprint once first; 0: the timed loads find cold caches"},
           {"texture", 0, 0, 1, "1: every load is a texture fetch (the texture path); 0: global loads"}},
          [](const Args& a) { return std::make_unique<Pchase>(a); }};
}

}  // namespace numagpu::kernels
