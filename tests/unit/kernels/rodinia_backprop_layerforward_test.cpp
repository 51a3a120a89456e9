// rodinia/backprop_layerforward: global traffic on a cold cache against counts derived by hand from the
// kernel (comments), at the GV100 study's size (in = 65,536, hid = 16).
#include <gtest/gtest.h>

#include "kernels/library.hpp"
#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

// Shapes: in / 16 = 4,096 CTAs (grid 1 x 4096) of 16 x 16 threads = 8 warps; warp w holds ty = 2w, 2w + 1.
//
// Lines: input_cuda has in + 1 = 65,537 floats; the threads with tx == 0 read elements 16 by + ty + 1 =
// 1 .. 65,536, bytes 4 .. 262,147: lines 0 .. 2,048 = 2,049 lines. The weights, (in + 1) x (hid + 1) =
// 65,537 x 17 = 1,114,129 floats (4,456,516 B, lines 0 .. 34,816), are read at index 272 by + 17 ty + tx
// + 18 = rows 1 .. 65,536, columns 1 .. 16, i.e. every element from 18 to 1,114,128 but those of column 0
// (one in 17): no 32-float line is left untouched, so all 34,817 lines are read, and written back.
// hidden_partial_sum[by * 16 + ty] covers 65,536 floats = 262,144 B = 2,048 lines, written.
// Loads: 2,049 + 34,817 = 36,866 lines; stores: 34,817 + 2,048 = 36,865 lines.
// Barriers per warp: 3 before the reduction, 4 in it (power_two = 2, 4, 8, 16), 1 after the write-back = 8.
// Memory steps per warp: the input (every warp has two tx == 0 threads), the weight load, the weight store,
// the partial-sum store = 4.
TEST(RodiniaBackprop, LayerforwardTouchesEveryWeightLineOnce) {
  const testing::Traffic w = testing::walk("rodinia/backprop_layerforward", "");
  ASSERT_EQ(w.ctas, 4096u);
  ASSERT_EQ(w.warps_per_cta, 8u);
  EXPECT_EQ(w.in(w.loaded, "input_cuda"), 2049u);
  EXPECT_EQ(w.in(w.loaded, "input_hidden_cuda"), 34817u);
  EXPECT_EQ(w.loaded.size(), 36866u);
  EXPECT_EQ(w.in(w.stored, "input_hidden_cuda"), 34817u);
  EXPECT_EQ(w.in(w.stored, "hidden_partial_sum"), 2048u);
  EXPECT_EQ(w.stored.size(), 36865u);
  std::printf("backprop_layerforward reference size: generation %.2f s for %llu CTAs\n", w.generation_seconds,
              static_cast<unsigned long long>(w.ctas));
  for (std::size_t i = 0; i < w.barriers.size(); ++i) {
    ASSERT_EQ(w.barriers[i], 8u) << i;
    ASSERT_EQ(w.memory_steps[i], 4u) << i;
  }
}

}  // namespace
}  // namespace numagpu::kernels
