// rodinia/kmeans (application): Rodinia 3.1 kmeans, CUDA version (kmeans_cuda.cu; learned from it, written
// here anew): the first call transposes the features into feature-major order (invert_mapping: one thread
// per point, feature i of point p from p * nfeatures + i to i * npoints + p), then each iteration launches
// kmeansPoint (the library kernel rodinia/kmeans_kmeansPoint) to assign every point to its nearest center;
// the host then reads the memberships back and recomputes the centers. The source stops when fewer than
// threshold memberships changed (or after 500 iterations); the library kernel keeps its reference centers
// (the first points), so the loop here runs a fixed number of `iterations` instead: the traffic of each
// launch is the same either way (every point reads every feature for every center). Blocks of 256 threads
// in a square grid, as the library kernel's.
#include <cmath>

#include "kernels/application.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;

class KmeansApp : public Application {
 public:
  KmeansApp(const Args& a, const std::string& input)
      : Application(a, input),
        points_(a["points"]),
        features_(a["features"]),
        clusters_(a["clusters"]),
        iterations_(a["iterations"]) {
    const std::int64_t blocks = (points_ + kThreads - 1) / kThreads;
    perdim_ = static_cast<std::int64_t>(std::sqrt(double(blocks)));
    while (perdim_ * perdim_ < blocks)
      ++perdim_;
    point();  // the arguments' checks, when the configuration is checked
  }

  void host() override {
    launch("invert_mapping", invert_mapping());
    for (std::int64_t i = 0; i < iterations_; ++i)
      launch("kmeansPoint", point());
  }

 private:
  std::unique_ptr<Kernel> point() {
    return library_kernel("rodinia/kmeans_kmeansPoint",
                          "points=" + std::to_string(points_) + " features=" + std::to_string(features_) +
                              " clusters=" + std::to_string(clusters_),
                          {{"features", bind(flipped_)}, {"membership", bind(membership_)}});
  }

  Launch invert_mapping() {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(perdim_), static_cast<std::uint32_t>(perdim_), 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 12;
    l.body = [this](Cta& c) {
      const V<std::int64_t> p =
          c.threadIdx_x() + (std::int64_t(c.gridDim.x) * c.blockIdx.y + c.blockIdx.x) * kThreads;
      c.if_(p < points_, [&] {
        for (std::int64_t i = 0; i < features_; ++i)
          c.store(flipped_, p + i * points_, c.load(feature_d_, p * features_ + i));
      });
    };
    // LASP's index terms, p = tx + (gridDim.x * by + bx) * 256 invariant in bx and by: feature_d[p *
    // features + i] walks a thread's own point one feature per step, intra-thread locality (Table II row 6,
    // the paper's Kmeans-noTex); feature_flipped_d[p + i * points] moves a whole data row per step, no
    // datablock locality strided by `points` (row 1). The two are equal in size: feature_d, stated first,
    // chooses (kernel-wide, RONCE under CRB).
    using runtime::LoopVariant;
    l.accesses = {
        lasp_access(feature_d_, {true, true, false, LoopVariant::kUnitM, 0}),
        lasp_access(flipped_, {true, true, false, LoopVariant::kM, std::uint64_t(points_)}, kThreads * 4)};
    return l;
  }

  std::int64_t points_, features_, clusters_, iterations_, perdim_ = 1;
  Array<float> feature_d_ = array<float>("feature_d", std::uint64_t(points_) * features_,
                                         std::uint64_t(points_), std::uint64_t(features_));
  Array<float> flipped_ = array<float>("feature_flipped_d", std::uint64_t(points_) * features_,
                                       std::uint64_t(features_), std::uint64_t(points_));
  Array<int> membership_ = array<int>("membership_d", std::uint64_t(points_));
};

}  // namespace

ApplicationEntry app_rodinia_kmeans() {
  return {"rodinia/kmeans",
          "Rodinia 3.1 kmeans (CUDA): invert_mapping once, then kmeansPoint per iteration; reference input "
          "819200.txt's shape (819,200 points x 34 features), 5 clusters",
          {{"points", 819200, 1, 1 << 26, "points"},
           {"features", 34, 1, 1024, "features per point"},
           {"clusters", 5, 1, 32, "cluster centers"},
           {"iterations", 2, 1, 500, "kmeansPoint launches (the source's loop, bounded here)"}},
          "",
          [](const Args& a, const std::string& input) { return std::make_unique<KmeansApp>(a, input); }};
}

}  // namespace numagpu::kernels
