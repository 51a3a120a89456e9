// rodinia/srad_v1_srad: global traffic on a cold cache, derived by hand, and the neighbours the index
// arrays dictate.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

testing::Traffic walk(const std::string& args, const std::function<void(const Kernel&)>& after = {}) {
  return testing::walk("rodinia/srad_v1_srad", args, after);
}

// A 40 x 30 image: Ne = 1,200 elements, ceil(1200 / 512) = 3 CTAs of 16 warps; CTA 2 holds elements
// 1,024 .. 1,199 (176 threads: warps 0..5 have elements).
// Every thread with an element reads its pixel, so the image is read whole: 1,200 x 4 B = 4,800 B = 37.5,
// 38 lines; its neighbours lie in the image too. iN and iS (40 ints, 160 B: 2 lines each) are read at every
// row, jW and jE (30 ints, 120 B: 1 line each) at every column: 38 + 2 x 2 + 2 x 1 = 44 lines loaded. The
// four derivative arrays and the coefficient are written whole: 5 x 38 = 190 lines.
// Per warp with an element: 9 loads (the pixel, four index reads, four neighbours) and 5 stores, no barrier.
TEST(RodiniaSrad, SmallImageTraffic) {
  const testing::Traffic t = walk("rows=40 cols=30");
  ASSERT_EQ(t.ctas, 3u);
  ASSERT_EQ(t.warps_per_cta, 16u);
  EXPECT_EQ(t.in(t.loaded, "I"), 38u);
  EXPECT_EQ(t.in(t.loaded, "iN"), 2u);
  EXPECT_EQ(t.in(t.loaded, "iS"), 2u);
  EXPECT_EQ(t.in(t.loaded, "jW"), 1u);
  EXPECT_EQ(t.in(t.loaded, "jE"), 1u);
  EXPECT_EQ(t.loaded.size(), 44u);
  for (const char* out : {"dN", "dS", "dW", "dE", "c"})
    EXPECT_EQ(t.in(t.stored, out), 38u) << out;
  EXPECT_EQ(t.stored.size(), 190u);
  for (unsigned w = 0; w < t.memory_steps.size(); ++w) {
    const bool has_element = w / 16 < 2 || w % 16 <= 5;
    EXPECT_EQ(t.memory_steps[w], has_element ? 14u : 0u) << w;
    EXPECT_EQ(t.barriers[w], 0u);
  }
}

// The study's image, 502 x 458: Ne = 229,916; ceil(229916 / 512) = 450 CTAs, the last with 229,916 - 449 x
// 512 = 28 threads (warp 0 only). Image: 229,916 x 4 B = 919,664 B = 7,184.9, 7,185 lines; iN, iS: 502
// ints = 2,008 B, 16 lines each; jW, jE: 458 ints = 1,832 B, 15 lines each. Loaded 7,185 + 32 + 30 =
// 7,247 lines; stored 5 x 7,185 = 35,925.
TEST(RodiniaSrad, ReferenceImageTraffic) {
  const testing::Traffic t = walk("");
  ASSERT_EQ(t.ctas, 450u);
  EXPECT_EQ(t.in(t.loaded, "I"), 7185u);
  EXPECT_EQ(t.loaded.size(), 7247u);
  EXPECT_EQ(t.stored.size(), 35925u);
  for (unsigned w = 0; w < t.memory_steps.size(); ++w)
    ASSERT_EQ(t.memory_steps[w], (w / 16 < 449 || w % 16 == 0) ? 14u : 0u) << w;
}

// The derivatives are differences with the neighbours the index arrays give, clamped at the borders:
// north of row 0 and south of row Nr - 1 are the pixel itself (derivative 0), west of column 0 and east of
// column Nc - 1 likewise. Column-major: north is ei - 1, south ei + 1, west ei - Nr, east ei + Nr. The
// coefficient is saturated to [0, 1].
TEST(RodiniaSrad, DerivativesUseTheClampedNeighbours) {
  const std::int64_t nr = 40, nc = 30;
  std::map<std::string, std::vector<float>> arrays;
  walk("rows=40 cols=30 seed=3", [&arrays](const Kernel& k) {
    for (const char* name : {"I", "dN", "dS", "dW", "dE", "c"})
      arrays[name] = *k.contents<float>(name);
  });
  const std::vector<float>& img = arrays["I"];
  const std::vector<float>& dn = arrays["dN"];
  const std::vector<float>& ds = arrays["dS"];
  const std::vector<float>& dw = arrays["dW"];
  const std::vector<float>& de = arrays["dE"];
  const std::vector<float>& coeff = arrays["c"];
  for (std::int64_t col = 0; col < nc; ++col) {
    for (std::int64_t row = 0; row < nr; ++row) {
      const std::uint64_t e = std::uint64_t(col * nr + row);
      const float jc = img[e];
      EXPECT_EQ(dn[e], row == 0 ? 0.0f : img[e - 1] - jc) << row << "," << col;
      EXPECT_EQ(ds[e], row == nr - 1 ? 0.0f : img[e + 1] - jc) << row << "," << col;
      EXPECT_EQ(dw[e], col == 0 ? 0.0f : img[e - std::uint64_t(nr)] - jc) << row << "," << col;
      EXPECT_EQ(de[e], col == nc - 1 ? 0.0f : img[e + std::uint64_t(nr)] - jc) << row << "," << col;
      EXPECT_GE(coeff[e], 0.0f);
      EXPECT_LE(coeff[e], 1.0f);
    }
  }
  // The image is exp(pixel / 255) of 8-bit pixels: within [1, e].
  for (float v : img) {
    EXPECT_GE(v, 1.0f);
    EXPECT_LE(v, 2.7182819f);
  }
}

}  // namespace
}  // namespace numagpu::kernels
