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
//
// Wide loads (`width` 8 or 16: LDS.64, LDS.128; `ways` 1): lane l reads the width / 4 words from word
// l x width / 4 (the warp's 256 or 512 B in a row, conflict free), or with `broadcast` every lane the
// same words from word 0. A 4-byte `broadcast` is every lane on word 0.
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
        ctas_(a["ctas"]),
        width_(a["width"]),
        broadcast_(a["broadcast"] != 0) {
    if (kWarpSize % ways_) throw KernelError("ways must divide 32, got " + std::to_string(ways_));
    if (width_ != 4 && width_ != 8 && width_ != 16)
      throw KernelError("width must be 4, 8 or 16 bytes, got " + std::to_string(width_));
    if (ways_ != 1 && (width_ != 4 || broadcast_))
      throw KernelError("ways must be 1 with a wide load or a broadcast, got " + std::to_string(ways_));
  }

  Launch launch() override {
    Launch l = ubench::grid_launch(ctas_, threads_);
    l.shared_bytes = kWords * sizeof(std::int32_t);
    l.body = [this](Cta& c) {
      Cta::Shared<std::int32_t> words(c, kWords);
      V<std::int64_t> index(c, 0);
      const std::int64_t per_lane = width_ / 4;  // words a lane reads
      for (unsigned t = 0; t < c.threads(); ++t) {
        const std::int64_t lane = t % kWarpSize;
        index[t] = broadcast_     ? 0
                   : per_lane > 1 ? lane * per_lane
                                  : lane / ways_ + (lane % ways_) * kWarpSize;
      }
      // Each word names itself: one store per warp, with the same pattern (bench-sm's difference of two
      // lengths cancels it).
      V<std::int32_t> self(c, 0);
      for (unsigned t = 0; t < c.threads(); ++t)
        self[t] = static_cast<std::int32_t>(index[t]);
      words.store(index, self);
      V<std::int64_t> j = index;
      if (width_ == 8)
        chase<2>(c, words, j);
      else if (width_ == 16)
        chase<4>(c, words, j);
      else
        chase<1>(c, words, j);
    };
    return l;
  }

 private:
  // One load of N words a lane (LDS, LDS.64, LDS.128): the first word's value.
  template <std::size_t N>
  static V<std::int32_t> load(Cta::Shared<std::int32_t>& words, const V<std::int64_t>& j) {
    if constexpr (N == 1)
      return words.load(j);
    else
      return std::move(words.template load_wide<N>(j)[0]);
  }

  // `length` loads of N words a lane, each from the word the one before returned first.
  template <std::size_t N>
  void chase(Cta& c, Cta::Shared<std::int32_t>& words, V<std::int64_t>& j) const {
    for (std::int64_t k = 0; k < length_; ++k) {
      const V<std::int32_t> v = load<N>(words, j);
      // The loaded word is the next address as it is (LDS's result feeds the next LDS's address register):
      // no instruction, the value and its ready cycle carried over.
      for (unsigned t = 0; t < c.threads(); ++t)
        j[t] = v[t];
      for (unsigned w = 0; w < c.warps(); ++w)
        j.ready_data()[w] = v.ready(w);
    }
  }

  std::int64_t ways_, length_, threads_, ctas_, width_;
  bool broadcast_;
};

}  // namespace

LibraryEntry ubench_shared() {
  return {"ubench/shared",
          "microbenchmark: chased shared-memory loads with an n-way bank conflict (latency, bandwidth; "
          "docs/microbenchmarks.md)",
          {{"ways", 1, 1, 32, "lanes of a warp that share a bank on distinct words (1, 2, 4, 8, 16 or 32)"},
           {"length", 64, 1, 1 << 16, "dependent loads per thread"},
           {"width", 4, 4, 16, "bytes a lane loads: 4 (LDS.32), 8 (LDS.64) or 16 (LDS.128)"},
           {"broadcast", 0, 0, 1, "1: every lane reads the same address (ways 1)"},
           ubench::threads_arg(32),
           ubench::ctas_arg()},
          [](const Args& a) { return std::make_unique<Shared>(a); }};
}

}  // namespace numagpu::kernels
