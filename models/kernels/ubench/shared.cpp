// ubench/shared: shared-memory loads with an n-way bank conflict, chased (each load's index is the value the
// load before returned), for the latency by one warp and the bandwidth at full occupancy (Jia et al.,
// arXiv:1804.06826, Section 3.6; Wong et al., ISPASS 2010). `numagpu bench-sm` runs it
// (docs/microbenchmarks.md).
//
// Lane l of a warp reads word (l / ways) + (l % ways) x 32: the lanes in groups of `ways`, each group in one
// bank (banks are 4 B words modulo 32), each lane of a group on a different word of it. So every bank a warp
// touches is asked for `ways` distinct words: `ways` passes through the banks (1: conflict free, 32: every
// lane in bank 0). Each word holds its own index, so a thread chases the same word: the loads depend on one
// another and the pattern stays.
#include "kernels/library.hpp"
#include "kernels/ubench/grid.hpp"

namespace numagpu::kernels {
namespace {

constexpr unsigned kWords = kWarpSize * kWarpSize;  // 32 banks x 32 words deep: every pattern fits

class Shared : public Kernel {
 public:
  explicit Shared(const Args& a)
      : Kernel(a),
        ways_(a["ways"]),
        length_(a["length"]),
        threads_(ubench::whole_warps(a["threads"])),
        ctas_(a["ctas"]) {
    if (kWarpSize % ways_) throw KernelError("ways must divide 32, got " + std::to_string(ways_));
  }

  Launch launch() override {
    Launch l = ubench::grid_launch(ctas_, threads_);
    l.shared_bytes = kWords * sizeof(std::int32_t);
    l.body = [this](Cta& c) {
      Cta::Shared<std::int32_t> words(c, kWords);
      V<std::int64_t> index(c, 0);
      for (unsigned t = 0; t < c.threads(); ++t) {
        const std::int64_t lane = t % kWarpSize;
        index[t] = lane / ways_ + (lane % ways_) * kWarpSize;
      }
      // Each word names itself: one store per warp, with the same pattern (bench-sm's difference of two
      // lengths cancels it).
      V<std::int32_t> self(c, 0);
      for (unsigned t = 0; t < c.threads(); ++t)
        self[t] = static_cast<std::int32_t>(index[t]);
      words.store(index, self);
      V<std::int64_t> j = index;
      for (std::int64_t k = 0; k < length_; ++k) {
        const V<std::int32_t> v = words.load(j);
        // The loaded word is the next address as it is (LDS's result feeds the next LDS's address register):
        // no instruction, the value and its ready cycle carried over.
        for (unsigned t = 0; t < c.threads(); ++t)
          j[t] = v[t];
        for (unsigned w = 0; w < c.warps(); ++w)
          j.ready_data()[w] = v.ready(w);
      }
    };
    return l;
  }

 private:
  std::int64_t ways_, length_, threads_, ctas_;
};

}  // namespace

LibraryEntry ubench_shared() {
  return {"ubench/shared",
          "microbenchmark: chased shared-memory loads with an n-way bank conflict (latency, bandwidth; "
          "docs/microbenchmarks.md)",
          {{"ways", 1, 1, 32, "lanes of a warp that share a bank on distinct words (1, 2, 4, 8, 16 or 32)"},
           {"length", 64, 1, 1 << 16, "dependent loads per thread"},
           ubench::threads_arg(32),
           ubench::ctas_arg()},
          [](const Args& a) { return std::make_unique<Shared>(a); }};
}

}  // namespace numagpu::kernels
