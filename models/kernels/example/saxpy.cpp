// example/saxpy: y = a x + y over n floats, 256 threads per CTA, one element per thread.
#include "kernels/library.hpp"

namespace numagpu::kernels {
namespace {

class Saxpy : public Kernel {
 public:
  explicit Saxpy(const Args& a)
      : Kernel(a), n_(a["n"]), x_(array<float>("x", n_)), y_(array<float>("y", n_)) {}

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((n_ + 255) / 256), 1, 1};
    l.block = {256, 1, 1};
    l.regs_per_thread = 8;
    l.body = [this](Cta& c) {
      const V<std::int64_t> i = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * 256;
      c.exit_if(i >= n_);  // if (i >= n) return;
      const V<float> x = c.load(x_, i), y = c.load(y_, i);
      c.store(y_, i, fma(V<float>(c, 2.0f), x, y));  // one fp32 instruction
    };
    return l;
  }

 private:
  std::int64_t n_;
  Array<float> x_, y_;
};

}  // namespace

LibraryEntry example_saxpy() {
  return {"example/saxpy", "a textbook SAXPY", {{"n", 1 << 20, 1, 1 << 28, "elements"}}, [](const Args& a) {
            return std::make_unique<Saxpy>(a);
          }};
}

}  // namespace numagpu::kernels
