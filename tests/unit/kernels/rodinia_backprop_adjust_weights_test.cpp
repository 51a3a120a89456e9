// rodinia/backprop_adjust_weights: global traffic on a cold cache against counts derived by hand from the
// kernel (comments), at the GV100 study's size (in = 65,536, hid = 16).
#include <gtest/gtest.h>

#include "kernels/library.hpp"
#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

// Shapes as layerforward: 4,096 CTAs of 16 x 16 threads (8 warps), the weights (in + 1) x (hid + 1) =
// 65,537 x 17 floats (lines 0 .. 34,816), every line of which `index` touches (see layerforward's test).
// Loads: hidden_delta_cuda[tx + 1] (17 floats, elements 1 .. 16: line 0) = 1 line; ly = input_cuda[16 by +
// ty + 1] (elements 1 .. 65,536, bytes 4 .. 262,147) = 2,049 lines; oldw and w at `index` = 34,817 lines
// each (the bias row's index tx + 1, elements 1 .. 16, lies in line 0 of each, already counted): 1 + 2,049
// + 2 x 34,817 = 71,684 lines. Stores: w and oldw, 34,817 lines each = 69,634.
// Barriers per warp: 1. Memory steps per warp: the first statement loads delta, ly, oldw, w and stores w
// (5), the second loads delta, ly, oldw again and stores oldw (4) = 9; warp 0 of CTA 0 (ty = 0, 1, by = 0)
// also runs the bias row with its 16 ty == 0 threads: delta, oldw, w, store w (4) and delta, oldw, store
// oldw (3) = 16.
TEST(RodiniaBackprop, AdjustWeightsReadsAndWritesBothWeightMatrices) {
  const testing::Traffic w = testing::walk("rodinia/backprop_adjust_weights", "");
  ASSERT_EQ(w.ctas, 4096u);
  EXPECT_EQ(w.in(w.loaded, "hidden_delta_cuda"), 1u);
  EXPECT_EQ(w.in(w.loaded, "input_cuda"), 2049u);
  EXPECT_EQ(w.in(w.loaded, "input_prev_weights_cuda"), 34817u);
  EXPECT_EQ(w.in(w.loaded, "input_hidden_cuda"), 34817u);
  EXPECT_EQ(w.loaded.size(), 71684u);
  EXPECT_EQ(w.in(w.stored, "input_hidden_cuda"), 34817u);
  EXPECT_EQ(w.in(w.stored, "input_prev_weights_cuda"), 34817u);
  EXPECT_EQ(w.stored.size(), 69634u);
  std::printf("backprop_adjust_weights reference size: generation %.2f s for %llu CTAs\n",
              w.generation_seconds, static_cast<unsigned long long>(w.ctas));
  for (std::size_t i = 0; i < w.barriers.size(); ++i) {
    ASSERT_EQ(w.barriers[i], 1u) << i;
    ASSERT_EQ(w.memory_steps[i], i == 0 ? 16u : 9u) << i;
  }
}

}  // namespace
}  // namespace numagpu::kernels
