// parboil/mri-q_ComputeQ: cold-cache traffic and instruction counts, by hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// Dataset large: 262,144 voxels, 1,024 CTAs of 256 threads (8 warps). Each thread reads x, y, z, Qr, Qi at
// its voxel and writes Qr, Qi: five 1 MiB float arrays read once, 5 x 8,192 = 40,960 lines, in 8,192 warps
// x 5 = 40,960 single-line load steps; Qr and Qi written: 16,384 lines, the same lines as read. No barrier.
// The samples (constant memory) add no global traffic, so 2 of them stand for the reference's 1,024 per
// launch: the same traffic, without computing 262,144 x 1,024 sincosf (11.7 s in Release, over two minutes
// under the sanitizers).
TEST(MriQ, ReadsFiveArraysAndWritesQ) {
  const testing::Traffic t = walk("parboil/mri-q_ComputeQ", "numk=2");
  EXPECT_EQ(t.ctas, 1024u);
  EXPECT_EQ(t.warps_per_cta, 8u);
  EXPECT_EQ(t.loaded.size(), 40960u);
  EXPECT_EQ(t.load_steps, 40960u);
  EXPECT_EQ(t.load_line_visits, 40960u);
  EXPECT_EQ(t.stored.size(), 16384u);
  EXPECT_EQ(t.in(t.stored, "Qr"), 8192u);
  EXPECT_EQ(t.in(t.stored, "Qi"), 8192u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{0}));
}

// The work per warp of a launch of 1,024 samples (numK even: no peeled sample): 512 iterations of two
// samples, each sample 20 fp32, 5 int, 2 sfu (the FRND and F2I of sincosf's quadrant: a rounding and a
// conversion, on the XU), 1 branch; each iteration 4 int more and its loop branch. Before: the index (an
// int add, threadIdx + blockIdx x 256, 1), numK % 2 (1). fp32: 1,024 x 20 = 20,480; sfu: 2,048 (sincosf's
// fast path is otherwise fp32 polynomials); branches 1,024 + 512 = 1,536; int 1 + 1 + 1,024 x 5 + 512 x 4
// = 7,170.
TEST(MriQ, ChargesEachSampleToEveryWarp) {
  const testing::Traffic t = walk("parboil/mri-q_ComputeQ", "numx=256 launch=1");
  ASSERT_EQ(t.ctas, 1u);
  EXPECT_EQ(t.of(InstrClass::kFp32), 8u * 20480);
  EXPECT_EQ(t.of(InstrClass::kBranch), 8u * 1536);
  EXPECT_EQ(t.of(InstrClass::kInt), 8u * 7170);
  EXPECT_EQ(t.of(InstrClass::kSfu), 8u * 2048);
}

}  // namespace
}  // namespace numagpu::kernels
