// rodinia/kmeans_kmeansPoint: global traffic on a cold cache, derived by hand, and the memberships the
// generated data dictate.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

testing::Traffic walk(const std::string& args, const std::function<void(const Kernel&)>& after = {}) {
  return testing::walk("rodinia/kmeans_kmeansPoint", args, after);
}

// 2,000 points of 34 features, 5 clusters: ceil(2000 / 256) = 8 blocks of points; the smallest square
// holding them is 3 x 3 = 9 CTAs of 256 threads (8 warps). CTA 7 holds points 1792 .. 1999 (208 threads:
// warps 0..5 full, warp 6 with 16 threads, warp 7 none); CTA 8 starts at point 2048: no point.
// Lines: every point reads all its features, so the loads cover the whole transposed feature array,
// 2000 x 34 x 4 B = 272,000 B = 2,125 lines; the membership stores cover 2000 x 4 B = 8,000 B: 62.5, so 63
// lines.
// Memory steps per warp with a point: 5 clusters x 34 features loads + 1 store = 171; none without.
// Load line requests: feature row j starts at 8000 j B, which is 64 B past a line boundary for odd j, so a
// full warp's 32 floats (128 B from a point that is a multiple of 32) take 1 line for the 17 even features
// and 2 for the 17 odd ones: 51 per cluster, 255 per warp. The 16-thread warp (points 1984 .. 1999, 64 B
// from 7,936 = 62 x 128 B) takes one line for every feature: 170. Full warps: 7 CTAs x 8 + 6 = 62;
// 62 x 255 + 170 = 15,980.
TEST(RodiniaKmeans, SmallInputReadsEveryFeatureAndStoresEveryMembership) {
  const testing::Traffic t = walk("points=2000");
  ASSERT_EQ(t.ctas, 9u);
  ASSERT_EQ(t.warps_per_cta, 8u);
  EXPECT_EQ(t.in(t.loaded, "features"), 2125u);
  EXPECT_EQ(t.loaded.size(), 2125u);
  EXPECT_EQ(t.in(t.stored, "membership"), 63u);
  EXPECT_EQ(t.stored.size(), 63u);
  EXPECT_EQ(t.load_line_visits, 15980u);
  for (unsigned w = 0; w < t.memory_steps.size(); ++w) {
    const unsigned cta = w / 8, warp = w % 8;
    const bool has_point = cta < 7 || (cta == 7 && warp <= 6);
    EXPECT_EQ(t.memory_steps[w], has_point ? 171u : 0u) << "cta " << cta << " warp " << warp;
    EXPECT_EQ(t.barriers[w], 0u);
  }
}

// The feature loop's order, with the register scoreboard (nonblocking loads): a fetch's value is waited for
// (a kWait step) only where the subtraction first reads it. unroll=1, the source's order: each fetch is
// waited for before the next is issued, so one is in flight. unroll=4, nvcc's sm_70 SASS (4 TLD, 4 LDC, then
// the FADD/FFMA pairs): 4 fetches issue before the first wait. 34 features = 8 groups of 4 and 2 one at a
// time: a cluster's 34 fetches either way (170 loads a warp with a point, as above).
TEST(RodiniaKmeans, UnrolledByFourAWarpHasFourFetchesInFlight) {
  for (const int unroll : {1, 4}) {
    std::unique_ptr<Kernel> k =
        make_kernel("rodinia/kmeans_kmeansPoint", "points=256 unroll=" + std::to_string(unroll), 1 << 20);
    Latencies l{};  // the scoreboard works with dependent latencies: the GV100's fp32 and int, 4
    l[static_cast<unsigned>(InstrClass::kFp32)] = 4;
    l[static_cast<unsigned>(InstrClass::kInt)] = 4;
    l[kNonblockingLoads] = 1;
    const CppKernelProgram p("kmeans", std::move(k), 128, l);
    Step s;
    unsigned loads = 0, most_in_a_row = 0, in_a_row = 0;
    for (std::uint32_t i = 0; p.step(0, 0, i, s); ++i) {
      if (s.kind == Step::Kind::kLoad) {
        ++loads;
        most_in_a_row = std::max(most_in_a_row, ++in_a_row);
      }
      if (s.kind == Step::Kind::kWait) in_a_row = 0;
    }
    EXPECT_EQ(loads, 170u) << unroll;
    EXPECT_EQ(most_in_a_row, unsigned(unroll)) << unroll;
  }
}

// The data steer the memberships: each point's stored index is its nearest center (the first on a tie).
// The centers are the first 5 points, so points 0 .. 4 (distance 0 to themselves, > 0 to the others unless
// two random 34-byte points coincide) belong to clusters 0 .. 4; every other point's membership is checked
// against the nearest center computed here from the generated features.
TEST(RodiniaKmeans, MembershipIsTheNearestCenter) {
  std::vector<float> features;
  std::vector<int> membership;
  walk("points=2000 seed=7", [&](const Kernel& k) {
    if (const auto* f = k.contents<float>("features")) features = *f;
    if (const auto* m = k.contents<int>("membership")) membership = *m;
  });
  ASSERT_FALSE(features.empty());
  ASSERT_FALSE(membership.empty());
  const std::int64_t n = 2000, nf = 34, nc = 5;
  for (int i = 0; i < nc; ++i)
    EXPECT_EQ(membership[std::uint64_t(i)], i);
  std::vector<int> used(nc, 0);
  for (std::int64_t p = 0; p < n; ++p) {
    int best = -1;
    float best_dist = std::numeric_limits<float>::max();
    for (std::int64_t i = 0; i < nc; ++i) {
      float d = 0;
      for (std::int64_t j = 0; j < nf; ++j) {
        const float diff = features[std::uint64_t(j * n + p)] - features[std::uint64_t(j * n + i)];
        d += diff * diff;
      }
      if (d < best_dist) best_dist = d, best = int(i);
    }
    ASSERT_EQ(membership[std::uint64_t(p)], best) << "point " << p;
    ++used[std::uint64_t(best)];
  }
  // Uniform features: every center wins some points (the warps diverge at `dist < min_dist`).
  for (int i = 0; i < nc; ++i)
    EXPECT_GT(used[std::uint64_t(i)], 0) << i;
}

// The study's input: 819,200 points, 34 features, 5 clusters. 3,200 blocks of points in a 57 x 57 grid
// (3,249 CTAs; 49 without a point). Features: 819,200 x 34 x 4 B / 128 B = 870,400 lines; membership:
// 819,200 x 4 B / 128 B = 25,600 lines. Feature rows start at multiples of 3,276,800 B = 25,600 lines, so
// each warp load is one line: 3,200 CTAs x 8 warps x 5 x 34 = 4,352,000 load requests. Memory steps per
// warp: 171 in the first 3,200 CTAs, 0 in the others.
TEST(RodiniaKmeans, ReferenceInputTraffic) {
  const testing::Traffic t = walk("");
  ASSERT_EQ(t.ctas, 57u * 57u);
  EXPECT_EQ(t.loaded.size(), 870400u);
  EXPECT_EQ(t.stored.size(), 25600u);
  EXPECT_EQ(t.load_line_visits, 4352000u);
  for (unsigned w = 0; w < t.memory_steps.size(); ++w)
    ASSERT_EQ(t.memory_steps[w], w / 8 < 3200 ? 171u : 0u) << w;
}

}  // namespace
}  // namespace numagpu::kernels
