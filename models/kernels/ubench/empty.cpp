// ubench/empty: a kernel whose threads do nothing, for the launch's and the grid's own cost (Accel-Sim's
// kernel_lat microbenchmark; the empty kernels of the AMALI model's micro_benchmark). `numagpu bench-sm` runs
// it (docs/microbenchmarks.md).
#include "kernels/library.hpp"
#include "kernels/ubench/grid.hpp"

namespace numagpu::kernels {
namespace {

class Empty : public Kernel {
 public:
  explicit Empty(const Args& a) : Kernel(a), threads_(a["threads"]), ctas_(a["ctas"]) {}

  Launch launch() override {
    Launch l = ubench::grid_launch(ctas_, threads_);
    l.body = [](Cta&) {};
    return l;
  }

 private:
  std::int64_t threads_, ctas_;
};

}  // namespace

LibraryEntry ubench_empty() {
  return {"ubench/empty",
          "microbenchmark: an empty kernel (launch overhead; docs/microbenchmarks.md)",
          {{"threads", 32, 1, 1024, "threads per CTA"}, ubench::ctas_arg()},
          [](const Args& a) { return std::make_unique<Empty>(a); }};
}

}  // namespace numagpu::kernels
