// parboil/sgemm (application): Parboil's sgemm (CUDA base version) at a size beyond its datasets: C = A B^T
// with mysgemmNT (the library kernel parboil/sgemm_mysgemmNT), launched `iterations` times on the same
// matrices (a solver's repeated products; Parboil itself launches once). A is m x k, B n x k and C m x n,
// column-major, all the application's.
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

class SgemmApp : public Application {
 public:
  SgemmApp(const Args& a, const std::string& input)
      : Application(a, input), m_(a["m"]), n_(a["n"]), k_(a["k"]), iterations_(a["iterations"]) {
    make();  // the shape's checks, when the configuration is checked
  }

  void host() override {
    for (std::int64_t i = 0; i < iterations_; ++i)
      launch("mysgemmNT", make());
  }

 private:
  std::unique_ptr<Kernel> make() {
    return library_kernel("parboil/sgemm_mysgemmNT",
                          "m=" + std::to_string(m_) + " n=" + std::to_string(n_) + " k=" + std::to_string(k_),
                          {{"A", bind(a_)}, {"B", bind(b_)}, {"C", bind(c_)}});
  }
  std::int64_t m_, n_, k_, iterations_;
  Array<float> a_ = array<float>("A", std::uint64_t(m_) * k_, std::uint64_t(k_), std::uint64_t(m_));
  Array<float> b_ = array<float>("B", std::uint64_t(k_) * n_, std::uint64_t(k_), std::uint64_t(n_));
  Array<float> c_ = array<float>("C", std::uint64_t(m_) * n_, std::uint64_t(n_), std::uint64_t(m_));
};

}  // namespace

ApplicationEntry app_parboil_sgemm() {
  return {"parboil/sgemm",
          "Parboil sgemm (CUDA base, mysgemmNT) at 4096 x 1024 x 1024 by default, `iterations` launches",
          {{"m", 4096, 128, 1 << 16, "rows of A and C (a multiple of 128)"},
           {"n", 1024, 16, 1 << 16, "columns of C, rows of B (a multiple of 16)"},
           {"k", 1024, 8, 1 << 16, "columns of A and B (a multiple of 8)"},
           {"iterations", 1, 1, 100000, "launches"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<SgemmApp>(a, input); }};
}

}  // namespace numagpu::kernels
