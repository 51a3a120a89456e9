// ubench/barrier: __syncthreads() repeated by a CTA with nothing between, for a barrier's cost (Wong et al.,
// ISPASS 2010, Section IV). `numagpu bench-sm` runs it (docs/microbenchmarks.md).
#include "kernels/library.hpp"

namespace numagpu::kernels {
namespace {

class Barrier : public Kernel {
 public:
  explicit Barrier(const Args& a) : Kernel(a), count_(a["count"]), threads_(a["threads"]), ctas_(a["ctas"]) {}

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(ctas_), 1, 1};
    l.block = {static_cast<std::uint32_t>(threads_), 1, 1};
    l.regs_per_thread = 32;
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
          {{"count", 64, 1, 1 << 16, "barriers"},
           {"threads", 1024, 32, 1024, "threads per CTA"},
           {"ctas", 1, 1, 1 << 20, "CTAs"}},
          [](const Args& a) { return std::make_unique<Barrier>(a); }};
}

}  // namespace numagpu::kernels
