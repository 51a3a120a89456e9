// example/saxpy, the complete example of docs/kernels.md (the test docs_kernels_example_is_the_library_file
// keeps the two identical).
#include <gtest/gtest.h>

#include <set>

#include "kernels/cpp_program.hpp"

namespace numagpu::kernels {
namespace {

// n = 1,000: ceil(1000 / 256) = 4 CTAs of 8 warps. The last CTA has 1000 - 768 = 232 threads in range:
// its warps 0-6 have all 32 (224 threads), warp 7 has 8 (threads 992-999). So all 32 warps of the grid keep
// an active thread after the exit, and each loads x, loads y and stores y: 32 x 3 = 96 memory steps. Each
// array holds ceil(1000 x 4 / 128) = 32 lines: 64 distinct lines loaded (x and y), 32 stored.
TEST(KernelLibrary, ExampleSaxpyTouchesEachLineOnce) {
  CppKernelProgram p("saxpy", make_kernel("example/saxpy", "n=1000", std::uint64_t(1) << 32), 128);
  ASSERT_EQ(p.ctas(), 4u);
  std::set<std::uint64_t> loaded, stored;
  unsigned memory_steps = 0, fp32_in_steps = 0;
  for (std::uint32_t cta = 0; cta < p.ctas(); ++cta) {
    for (std::uint32_t w = 0; w < p.warps_per_cta(); ++w) {
      Step s;
      for (std::uint32_t i = 0; p.step(cta, w, i, s); ++i) {
        if (s.kind == Step::Kind::kCompute) {
          // The steps the SM takes carry their instructions by class, adding up to the step's count.
          unsigned classified = 0;
          for (std::uint32_t n : s.classes)
            classified += n;
          EXPECT_EQ(classified, s.instructions);
          fp32_in_steps += s.classes[static_cast<unsigned>(InstrClass::kFp32)];
        }
        if (s.kind == Step::Kind::kCompute || s.kind == Step::Kind::kBarrier) continue;
        ++memory_steps;
        for (unsigned l = 0; l < s.line_count; ++l)
          (s.kind == Step::Kind::kLoad ? loaded : stored).insert(s.lines[l]);
      }
    }
  }
  EXPECT_EQ(loaded.size(), 64u);
  EXPECT_EQ(stored.size(), 32u);
  EXPECT_EQ(memory_steps, 96u);
  // One fma per warp with an active thread: 32 warps.
  EXPECT_EQ(p.totals().instructions[static_cast<unsigned>(InstrClass::kFp32)], 32u);
  EXPECT_EQ(fp32_in_steps, 32u);  // and the SM sees the same 32 in the steps
}

}  // namespace
}  // namespace numagpu::kernels
