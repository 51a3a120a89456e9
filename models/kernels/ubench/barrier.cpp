// ubench/barrier: __syncthreads() repeated by a CTA with nothing between, for a barrier's cost (Wong et al.,
// ISPASS 2010, Section IV). `numagpu bench-sm` runs it (docs/microbenchmarks.md).
#include "kernels/library.hpp"
#include "kernels/ubench/grid.hpp"

namespace numagpu::kernels {
namespace {

class Barrier : public Kernel {
 public:
  explicit Barrier(const Args& a)
      : Kernel(a), count_(a["count"]), threads_(ubench::whole_warps(a["threads"])), ctas_(a["ctas"]) {}

  Launch launch() override {
    Launch l = ubench::grid_launch(ctas_, threads_);
    l.body = [this](Cta& c) {
      for (std::int64_t k = 0; k < count_; ++k)
        c.syncthreads();
    };
    return l;
  }

 private:
  std::int64_t count_, threads_, ctas_;
};

}  // namespace

LibraryEntry ubench_barrier() {
  return {"ubench/barrier",
          "microbenchmark: back-to-back __syncthreads() (docs/microbenchmarks.md)",
          {{"count", 64, 1, 1 << 16, "barriers"}, ubench::threads_arg(1024), ubench::ctas_arg()},
          [](const Args& a) { return std::make_unique<Barrier>(a); }};
}

}  // namespace numagpu::kernels
