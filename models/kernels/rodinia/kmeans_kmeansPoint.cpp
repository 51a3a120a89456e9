// rodinia/kmeans_kmeansPoint: kmeansPoint of Rodinia 3.1's kmeans, CUDA version (cuda/kmeans/
// kmeans_cuda_kernel.cu, launched from kmeans_cuda.cu; learned from them, written here anew). One thread per
// point: it computes the squared Euclidean distance from its point to every cluster center, feature by
// feature, keeps the nearest (the first one on a tie: a strict `<`) and stores that center's index as the
// point's membership. The features are read from the transposed ("inverted") array the host program builds
// with invert_mapping (feature j of point p at j * npoints + p), so the 32 threads of a warp read 32
// consecutive floats of one feature; the centers come from constant memory. Grid: npoints / 256 blocks
// rounded up, laid out as the smallest square that holds them (num_blocks_perdim^2, the extra CTAs have no
// point and only test their index); blocks of 256 threads in x. point_id = (gridDim.x * blockIdx.y +
// blockIdx.x) * 256 + threadIdx.x.
//
// Reference run of the GV100 study: `kmeans -o -i 819200.txt`: 819,200 points of 34 features; 3,200 blocks
// of points in a 57 x 57 grid (3,249 CTAs). Clusters: with -o and no -m/-n the program's range of cluster
// counts is min 5 .. max 5 (its defaults), so every launch uses 5 centers. The program launches kmeansPoint
// once per iteration until the memberships settle; this kernel is one launch, the first: the centers are
// the first 5 points (kmeans_clustering.c picks points 0, 1, 2, ... as initial centers; its rand() pick is
// commented out).
// Input generation: 819200.txt holds one point per line, an id and 34 features; Rodinia's generator
// (data/kmeans/inpuGen/datagen.cpp) writes features as integers uniform in 0 .. 255 by default. The features
// here are such integers from a splitmix64 stream of the argument `seed` (point-major, feature by feature),
// stored transposed as the kernel reads them. They steer the `dist < min_dist` branch (divergence) and the
// membership values; the membership array carries data so tests can check it.
//
// The feature loop's order (argument `unroll`): nvcc (11.8, -arch=sm_70) unrolls the loop over features by
// 4 (nfeatures is a run-time value): four TLD fetches back to back, then the four centers' LDC, then the
// four FADD and FFMA, and the nfeatures % 4 left over one at a time; a warp so has 4 fetches in flight.
// unroll=4 issues that order; the default, 1, keeps the source's order (each fetch waited for before the
// next; configurations that do not opt in are unchanged). The GV100 correlation runs unroll=4
// (configs/correlate/gv100_kernels.yaml; docs/kernels.md, "kmeans and dct8x8 against their SASS").
//
// Simplifications: the feature reads go through tex1Dfetch (the texture path) on the real GPU: they are
// Cta::texture_load fetches, the texture pipeline's latency (sm.texture_latency) and then the L1 (on Volta
// the texture and L1 caches are one). The constant-memory reads of the
// centers (c_clusters, 680 bytes) are Cta::constant_load reads (one integer instruction each, no global
// traffic; the index is uniform: one pass), whose values the subtraction waits for. The distance's
// accumulation (ans += diff * diff) is a chain of FMAs per cluster, as in the source.
// Rodinia 3.1 leaves GPU_DELTA_REDUCTION and GPU_NEW_CENTER_REDUCTION undefined, so the kernel has no shared
// memory, no barrier and no read of the old membership; neither does the model.
#include <cmath>
#include <limits>

#include "kernels/generate.hpp"
#include "kernels/library.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;  // THREADS_PER_DIM^2

class KmeansPoint : public Kernel {
 public:
  explicit KmeansPoint(const Args& a)
      : Kernel(a),
        npoints_(a["points"]),
        nfeatures_(a["features"]),
        nclusters_(a["clusters"]),
        seed_(static_cast<std::uint64_t>(a["seed"])),
        unroll_(a["unroll"]),
        features_(array<float>("features", std::uint64_t(npoints_ * nfeatures_), nfeatures_, npoints_,
                               &feature_values_)),
        membership_(array<int>("membership", std::uint64_t(npoints_), 0, 0, &membership_values_)) {
    if (nclusters_ > npoints_) throw KernelError("argument 'clusters': more clusters than points");
    if (nclusters_ * nfeatures_ > 32 * 34)
      throw KernelError("argument 'clusters': the centers exceed c_clusters' 32 x 34 floats");
    const std::int64_t blocks = (npoints_ + kThreads - 1) / kThreads;
    perdim_ = static_cast<std::int64_t>(std::sqrt(double(blocks)));
    while (perdim_ * perdim_ < blocks)
      ++perdim_;
  }

  Launch launch() override {
    Launch l;
    l.grid = {static_cast<std::uint32_t>(perdim_), static_cast<std::uint32_t>(perdim_), 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = 20;
    l.shared_bytes = 0;
    l.body = [this](Cta& c) { body(c); };
    // LASP's index terms: point_id = tx + (by * gridDim.x + bx) * 256, invariant in bx and by.
    // features[point_id + j * npoints] (feature-major): the loop over features moves a whole data row
    // (npoints) per step: no datablock locality, strided by npoints. membership[point_id]: no loop.
    using runtime::LoopVariant;
    l.accesses = {
        lasp_access(features_, {true, true, false, LoopVariant::kMGridDimX, std::uint64_t(npoints_)},
                    kThreads * 4),
        lasp_access(membership_, {true, true, false, LoopVariant::kNone, 0}, kThreads * 4)};
    return l;
  }

  void prepare() override {
    zeros_interruptibly(feature_values_, std::uint64_t(npoints_ * nfeatures_));
    SplitMix64 random(seed_);
    for (std::int64_t p = 0; p < npoints_; ++p) {
      interrupt_point();
      for (std::int64_t j = 0; j < nfeatures_; ++j)
        feature_values_[std::uint64_t(j * npoints_ + p)] = float(random.next() >> 56);  // 0 .. 255
    }
    centers_.assign(std::uint64_t(nclusters_ * nfeatures_), 0.0f);
    for (std::int64_t i = 0; i < nclusters_; ++i)
      for (std::int64_t j = 0; j < nfeatures_; ++j)
        centers_[std::uint64_t(i * nfeatures_ + j)] = feature_values_[std::uint64_t(j * npoints_ + i)];
    membership_values_.assign(std::uint64_t(npoints_), -1);  // the host's initial membership
  }

 private:
  void body(Cta& c) {
    const std::int64_t block_id = std::int64_t(c.gridDim.x) * c.blockIdx.y + c.blockIdx.x;
    const V<std::int64_t> point_id = c.threadIdx_x() + block_id * kThreads;
    V<int> index(c, -1);
    const V<bool> has_point = point_id < npoints_;
    c.if_(has_point, [&] {
      V<float> min_dist(c, std::numeric_limits<float>::max());
      c.uniform_loop(std::uint64_t(nclusters_), [&](std::uint64_t i) {
        const std::int64_t cluster_base_index = std::int64_t(i) * nfeatures_;
        V<float> ans(c, 0.0f);
        // Features `first` .. first + count - 1 as one unrolled group: their fetches, then their centers,
        // then the subtractions and FMAs (with unroll 1, one feature a group: the source's order).
        const auto features = [&](std::int64_t first, std::int64_t count) {
          std::vector<V<float>> f;
          for (std::int64_t k = 0; k < count; ++k)
            f.push_back(c.texture_load(features_, point_id + (first + k) * npoints_));  // tex1Dfetch
          std::vector<V<float>> center;
          for (std::int64_t k = 0; k < count; ++k)
            center.push_back(c.constant_load(centers_, c.uniform(cluster_base_index + first + k)));
          for (std::int64_t k = 0; k < count; ++k) {
            const V<float> diff = f[std::size_t(k)] - center[std::size_t(k)];
            ans = fma(diff, diff, ans);  // ans += diff * diff
          }
        };
        c.uniform_loop(std::uint64_t(nfeatures_ / unroll_),
                       [&](std::uint64_t g) { features(std::int64_t(g) * unroll_, unroll_); });
        c.uniform_loop(std::uint64_t(nfeatures_ % unroll_), [&](std::uint64_t r) {
          features(nfeatures_ / unroll_ * unroll_ + std::int64_t(r), 1);
        });
        const V<float> dist = ans;
        c.if_(dist < min_dist, [&] {
          min_dist = dist;
          index = static_cast<int>(i);
        });
      });
    });
    c.if_(has_point, [&] { c.store(membership_, point_id, index); });
  }

  std::int64_t npoints_, nfeatures_, nclusters_;
  std::uint64_t seed_;
  std::int64_t unroll_;
  std::int64_t perdim_ = 0;
  std::vector<float> feature_values_, centers_;
  std::vector<int> membership_values_;
  Array<float> features_;
  Array<int> membership_;
};

}  // namespace

LibraryEntry rodinia_kmeans_kmeansPoint() {
  return {
      "rodinia/kmeans_kmeansPoint",
      "Rodinia 3.1 kmeans (CUDA), kernel kmeansPoint; GV100 study input: -o -i 819200.txt (819,200 points x "
      "34 features), 5 clusters (the program's default range), the first launch",
      {{"points", 819200, 1, 1 << 26, "points (lines of the input file)"},
       {"features", 34, 1, 1024, "features per point"},
       {"clusters", 5, 1, 32, "cluster centers (constant memory holds at most 32 x 34)"},
       {"seed", 1, 0, std::int64_t(1) << 62, "seed of the generated features"},
       {"unroll", 1, 1, 8,
        "features a group: the group's fetches, then its centers, then its FMAs (nvcc's sm_70 SASS: 4; 1: "
        "the source's order, each fetch waited for before the next)"}},
      [](const Args& a) { return std::make_unique<KmeansPoint>(a); }};
}

}  // namespace numagpu::kernels
