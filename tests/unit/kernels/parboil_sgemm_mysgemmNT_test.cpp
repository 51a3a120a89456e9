// parboil/sgemm_mysgemmNT: global traffic on a cold cache, derived by hand from the algorithm.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"
#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

testing::Traffic walk(const std::string& args, const std::function<void(const Kernel&)>& after = {}) {
  return testing::walk("parboil/sgemm_mysgemmNT", args, after);
}

// m = 256, n = 32, k = 16: a grid of 256 / 128 x 32 / 16 = 2 x 2 CTAs of 16 x 8 threads (4 warps; warp w
// holds threadIdx.y = 2w and 2w + 1), 16 / 8 = 2 steps along k.
// Lines, each array read whole exactly as stored: A 256 x 16 floats = 16 KiB = 128 lines, B 16 x 32 floats
// = 2 KiB = 16 lines, C 256 x 32 floats = 32 KiB = 256 lines, read and written.
// Per warp and step: one B load of two half-lines (threadIdx.y rows of 16 floats at column n = 16 blockIdx.y:
// 64 B-aligned, so one line each: 2 line requests), 8 A loads of 32 consecutive floats of column i + j
// starting at m = 128 blockIdx.x + 32 w (one line each). Then 16 C loads and 16 C stores of 32 consecutive
// floats (one line each). Memory steps per warp: 2 x (1 + 8) + 16 + 16 = 50; load line requests per warp:
// 2 x (2 + 8) + 16 = 36, all 16 warps: 576. Barriers per warp: two per step, 4.
// Shared memory per warp and step: one store (32 consecutive floats: one pass) and 8 rows x 4 broadcast
// 128-bit loads (one pass each): 33 accesses; all warps: 33 x 2 x 16 = 1,056, as many wavefronts.
TEST(ParboilSgemm, SmallGridReadsEachMatrixOnceWithTheTilesSteps) {
  const testing::Traffic t = walk("m=256 n=32 k=16");
  ASSERT_EQ(t.ctas, 4u);
  ASSERT_EQ(t.warps_per_cta, 4u);
  EXPECT_EQ(t.in(t.loaded, "A"), 128u);
  EXPECT_EQ(t.in(t.loaded, "B"), 16u);
  EXPECT_EQ(t.in(t.loaded, "C"), 256u);
  EXPECT_EQ(t.loaded.size(), 400u);
  EXPECT_EQ(t.stored.size(), 256u);
  EXPECT_EQ(t.in(t.stored, "C"), 256u);
  EXPECT_EQ(t.load_line_visits, 576u);
  for (unsigned w = 0; w < t.barriers.size(); ++w) {
    EXPECT_EQ(t.barriers[w], 4u) << w;
    EXPECT_EQ(t.memory_steps[w], 50u) << w;
  }
  EXPECT_EQ(t.shared_accesses, 1056u);
  EXPECT_EQ(t.shared_wavefronts, 1056u);
}

// The study's size (dataset medium): m = 1024, k = 992, n = 1056; 8 x 66 = 528 CTAs, 124 steps along k.
// Lines: A 1024 x 992 x 4 B / 128 B = 31,744; B 992 x 1056 x 4 / 128 = 32,736; C 1024 x 1056 x 4 / 128 =
// 33,792 read and written. Loaded 31,744 + 32,736 + 33,792 = 98,272 lines; stored 33,792.
// Per warp: 124 x (1 + 8) + 32 = 1,148 memory steps and 2 x 124 = 248 barriers.
TEST(ParboilSgemm, MediumDatasetTraffic) {
  const testing::Traffic t = walk("");
  ASSERT_EQ(t.ctas, 528u);
  EXPECT_EQ(t.loaded.size(), 98272u);
  EXPECT_EQ(t.stored.size(), 33792u);
  EXPECT_TRUE(std::all_of(t.barriers.begin(), t.barriers.end(), [](unsigned n) { return n == 248; }));
  EXPECT_TRUE(
      std::all_of(t.memory_steps.begin(), t.memory_steps.end(), [](unsigned n) { return n == 1148; }));
}

// What warp 0 of the one CTA of m = 128, n = 16 issues for k = 8 or 16 (one or two steps along k), walked
// step by step: instructions by class, register-bank conflicts, and the global loads before its first FP32
// instruction.
struct WarpIssue {
  std::array<std::uint64_t, kInstrClasses> classes{};
  std::uint64_t bank_conflicts = 0, loads = 0, loads_before_first_fp32 = 0;
};
WarpIssue warp0(std::int64_t k, bool dependent) {
  Latencies l{};
  if (dependent) {  // the GV100's latencies, with the load scoreboard
    l[static_cast<unsigned>(InstrClass::kFp32)] = 4;
    l[static_cast<unsigned>(InstrClass::kInt)] = 4;
    l[static_cast<unsigned>(InstrClass::kShared)] = 19;
    l[kNonblockingLoads] = 1;
  }
  CppKernelProgram p(
      "sgemm",
      make_kernel("parboil/sgemm_mysgemmNT", "m=128 n=16 k=" + std::to_string(k), std::uint64_t(1) << 32),
      128, l);
  WarpIssue r;
  bool fp32_seen = false;
  Step s;
  for (std::uint32_t i = 0; p.step(0, 0, i, s); ++i) {
    if (s.kind == Step::Kind::kCompute) {
      for (unsigned c = 0; c < kInstrClasses; ++c)
        r.classes[c] += s.classes[c];
      r.bank_conflicts += s.register_bank_conflicts;
      fp32_seen = fp32_seen || s.classes[static_cast<unsigned>(InstrClass::kFp32)] > 0;
    }
    if (s.kind == Step::Kind::kLoad) {
      ++r.loads;
      if (!fp32_seen) ++r.loads_before_first_fp32;
    }
  }
  return r;
}

// One step along k (k = 16 less k = 8): its FP32, integer and shared instructions, its loads and its
// register-bank conflicts; and the loads before the first FFMA of the first step.
struct StepMix {
  std::uint64_t fp32, int_, shared, loads, bank_conflicts, loads_before_first_fp32;
  bool operator==(const StepMix& o) const {
    return std::tie(fp32, int_, shared, loads, bank_conflicts, loads_before_first_fp32) ==
           std::tie(o.fp32, o.int_, o.shared, o.loads, o.bank_conflicts, o.loads_before_first_fp32);
  }
};
StepMix step_mix(bool dependent) {
  const WarpIssue one = warp0(8, dependent), two = warp0(16, dependent);
  const auto step = [&](InstrClass c) {
    return two.classes[static_cast<unsigned>(c)] - one.classes[static_cast<unsigned>(c)];
  };
  return {step(InstrClass::kFp32),
          step(InstrClass::kInt),
          step(InstrClass::kShared),
          two.loads - one.loads,
          two.bank_conflicts - one.bank_conflicts,
          one.loads_before_first_fp32};
}

// With dependent latencies (the GV100) a step along k issues the SASS of nvcc for sm_70 (docs/kernels.md,
// "sgemm against its SASS"): its loop body of 192 instructions less the two NOPs: 128 FFMA (fp32); 17
// integer (MOV, IADD3 + IMAD + IMAD.WIDE.U32 for B, IMAD + IMAD.WIDE for A's row 0, IADD3 + IMAD +
// IMAD.WIDE for row 1, six IMAD.WIDE for rows 2-7, IADD3 + ISETP for the counter); 32 LDS.128 and 1 STS
// (shared); 9 LDG. One FFMA a step has its three sources in one register bank. B's load and A's rows 0 to
// 5 are issued before the first FFMA: 7 loads (B, rows 0-3, the three LDS.128, rows 4 and 5).
TEST(ParboilSgemm, WithDependentLatenciesAStepIssuesTheSassInstructionMix) {
  EXPECT_EQ(step_mix(true), (StepMix{128, 17, 33, 9, 1, 7}));
}

// Without dependent latencies (the paper system) the step is the source's as before: B's index n + (ty + i)
// ldb is 3 integer instructions, each of the 8 A indices m + (i + j) lda one; no address instructions, no
// bank conflicts, and all 8 loads of A (and B's) before the first FFMA.
TEST(ParboilSgemm, WithoutDependentLatenciesAStepIsTheSources) {
  EXPECT_EQ(step_mix(false), (StepMix{128, 11, 33, 9, 0, 9}));
}

}  // namespace
}  // namespace numagpu::kernels
