// ubench/constant: chased __constant__ reads with 1 to 32 distinct addresses a warp, for the constant cache's
// latency by one warp and its serialization of distinct addresses at full occupancy (the CUDA C Programming
// Guide: a warp's constant read is split into as many requests as it has distinct addresses; Jia et al.,
// arXiv:1804.06826, Section 3.4). `numagpu bench-sm` runs it (docs/microbenchmarks.md).
//
// Lane l reads entry l % distinct; each entry holds its own index, so a thread reads the same entry again and
// again, each read waiting for the one before. 1 distinct address: a broadcast.
#include "kernels/library.hpp"
#include "kernels/ubench/grid.hpp"

namespace numagpu::kernels {
namespace {

class Constant : public Kernel {
 public:
  explicit Constant(const Args& a)
      : Kernel(a),
        distinct_(a["distinct"]),
        length_(a["length"]),
        threads_(ubench::whole_warps(a["threads"])),
        ctas_(a["ctas"]) {
    for (std::int64_t i = 0; i < std::int64_t(kWarpSize); ++i)
      table_.push_back(i);
  }

  Launch launch() override {
    Launch l = ubench::grid_launch(ctas_, threads_);
    l.body = [this](Cta& c) {
      V<std::int64_t> j(c, 0);
      for (unsigned t = 0; t < c.threads(); ++t)
        j[t] = std::int64_t(t % kWarpSize) % distinct_;
      for (std::int64_t k = 0; k < length_; ++k)
        j = c.constant_load(table_, j);
    };
    return l;
  }

 private:
  std::int64_t distinct_, length_, threads_, ctas_;
  std::vector<std::int64_t> table_;
};

}  // namespace

LibraryEntry ubench_constant() {
  return {"ubench/constant",
          "microbenchmark: chased __constant__ reads, 1 to 32 distinct addresses a warp "
          "(docs/microbenchmarks.md)",
          {{"distinct", 1, 1, 32, "distinct addresses a warp reads (1: a broadcast)"},
           {"length", 64, 1, 1 << 16, "dependent reads per thread"},
           ubench::threads_arg(32),
           ubench::ctas_arg()},
          [](const Args& a) { return std::make_unique<Constant>(a); }};
}

}  // namespace numagpu::kernels
