// rodinia/hotspot (application): Rodinia 3.1 hotspot's host program, compute_tran_temp (learned from its
// CUDA source, written here anew): `steps` time steps of the thermal simulation on a rows x cols grid, one
// launch of calculate_temp (the library kernel rodinia/hotspot) per `pyramid` steps, the two temperature
// grids swapping roles after each launch (the result of one is the input of the next). The grids are the
// application's: every launch reads power and one temperature grid and writes the other.
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

class HotspotApp : public Application {
 public:
  HotspotApp(const Args& a, const std::string& input)
      : Application(a, input),
        rows_(a["rows"]),
        cols_(a["cols"]),
        pyramid_(a["pyramid"]),
        steps_(a["steps"]) {
    if (steps_ % pyramid_ != 0) throw KernelError("argument 'steps': not a multiple of pyramid");
    if (16 - 2 * pyramid_ < 1) throw KernelError("argument 'pyramid': leaves no cell of a 16 x 16 tile");
  }

  void host() override {
    const std::string args = "rows=" + std::to_string(rows_) + " cols=" + std::to_string(cols_) +
                             " pyramid=" + std::to_string(pyramid_);
    int src = 0;
    for (std::int64_t t = 0; t < steps_; t += pyramid_) {
      launch("calculate_temp", library_kernel("rodinia/hotspot", args,
                                              {{"power", bind(power_)},
                                               {"temp_src", bind(temp_[src])},
                                               {"temp_dst", bind(temp_[1 - src])}}));
      src = 1 - src;
    }
  }

 private:
  std::uint64_t cells() const { return std::uint64_t(rows_ * cols_); }
  std::int64_t rows_, cols_, pyramid_, steps_;
  Array<float> power_ = array<float>("power", cells(), rows_, cols_);
  Array<float> temp_[2] = {array<float>("temp0", cells(), rows_, cols_),
                           array<float>("temp1", cells(), rows_, cols_)};
};

}  // namespace

ApplicationEntry app_rodinia_hotspot() {
  return {"rodinia/hotspot",
          "Rodinia 3.1 hotspot's host loop (compute_tran_temp): steps / pyramid launches of calculate_temp, "
          "temperature grids swapped after each",
          {{"rows", 2048, 16, 1 << 16, "grid rows"},
           {"cols", 2048, 16, 1 << 16, "grid columns"},
           {"pyramid", 2, 1, 7, "time steps per launch (the pyramid height)"},
           {"steps", 8, 1, 1 << 20, "time steps in all (a multiple of pyramid)"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<HotspotApp>(a, input); }};
}

}  // namespace numagpu::kernels
