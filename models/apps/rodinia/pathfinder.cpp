// rodinia/pathfinder (application): Rodinia 3.1 pathfinder's host program (learned from pathfinder.cu,
// written here anew): dynamic programming down a rows x cols grid of weights, one launch of dynproc_kernel
// (the library kernel rodinia/pathfinder_dynproc) per `pyramid` rows, at start rows 0, pyramid, 2 pyramid,
// ..., each advancing min(pyramid, rows - 1 - t) rows, the two result rows swapping roles before each launch
// (src, dst = dst, src). The wall and both result rows are the application's.
#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

class PathfinderApp : public Application {
 public:
  PathfinderApp(const Args& a, const std::string& input)
      : Application(a, input), cols_(a["cols"]), rows_(a["rows"]), pyramid_(a["pyramid"]) {
    if (256 - 2 * pyramid_ < 1) throw KernelError("argument 'pyramid': leaves no column of a tile");
  }

  void host() override {
    int src = 1, dst = 0;
    for (std::int64_t t = 0; t < rows_ - 1; t += pyramid_) {
      std::swap(src, dst);
      const std::string args = "cols=" + std::to_string(cols_) + " rows=" + std::to_string(rows_) +
                               " pyramid=" + std::to_string(pyramid_) + " step=" + std::to_string(t);
      launch(
          "dynproc_kernel",
          library_kernel("rodinia/pathfinder_dynproc", args,
                         {{"wall", bind(wall_)}, {"src", bind(result_[src])}, {"dst", bind(result_[dst])}}));
    }
  }

 private:
  std::int64_t cols_, rows_, pyramid_;
  Array<std::int32_t> wall_ = array<std::int32_t>("wall", std::uint64_t((rows_ - 1) * cols_),
                                                  std::uint64_t(rows_ - 1), std::uint64_t(cols_));
  Array<std::int32_t> result_[2] = {array<std::int32_t>("result0", std::uint64_t(cols_)),
                                    array<std::int32_t>("result1", std::uint64_t(cols_))};
};

}  // namespace

ApplicationEntry app_rodinia_pathfinder() {
  return {
      "rodinia/pathfinder",
      "Rodinia 3.1 pathfinder's host loop: ceil((rows - 1) / pyramid) launches of dynproc_kernel down the "
      "grid, result rows swapped before each",
      {{"cols", 1000000, 16, 1 << 26, "columns"},
       {"rows", 100, 2, 1 << 20, "rows (the wall has rows - 1)"},
       {"pyramid", 20, 1, 127, "rows advanced per launch (the pyramid height)"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<PathfinderApp>(a, input); }};
}

}  // namespace numagpu::kernels
