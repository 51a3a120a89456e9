// The microbenchmark kernels of numagpu bench-sm (models/kernels/ubench/, docs/microbenchmarks.md): what each
// issues, counted by hand, and the timing a dependent chain gets from the SIMT engine.
#include <gtest/gtest.h>

#include "kernels/cpp_program.hpp"
#include "traffic.hpp"

namespace numagpu::kernels {
namespace {

using testing::walk;

// ops: every thread runs `chains` chains of `length` steps, one instruction of the op's class a step for
// every warp. op 0 (FFMA), 2 CTAs of 2 warps, 3 chains of 10: 2 x 2 x 3 x 10 = 120 fp32 instructions and
// nothing else. op 10 is a round trip I2F, F2I: 2 sfu a step; op 11 float-double-float: 2 fp64 a step; op 9
// one tensor instruction a step.
TEST(Ubench, OpsIssueOneInstructionOfTheOpsClassAStep) {
  const auto ffma = walk("ubench/ops", "op=0 length=10 chains=3 threads=64 ctas=2");
  EXPECT_EQ(ffma.of(InstrClass::kFp32), 120u);
  EXPECT_EQ(ffma.of(InstrClass::kInt) + ffma.of(InstrClass::kSfu) + ffma.load_steps, 0u);
  EXPECT_EQ(walk("ubench/ops", "op=10 length=5").of(InstrClass::kSfu), 10u);
  EXPECT_EQ(walk("ubench/ops", "op=11 length=5").of(InstrClass::kFp64), 10u);
  EXPECT_EQ(walk("ubench/ops", "op=9 length=7").of(InstrClass::kTensor), 7u);
  EXPECT_EQ(walk("ubench/ops", "op=12 length=7").of(InstrClass::kInt), 7u);
}

// op 17: FFMA chains whose every FFMA has its three sources in one register bank: one warp, 2 chains of 5
// steps issue 10 FFMAs, each stating one conflict (Step::register_bank_conflicts).
TEST(Ubench, ABankConflictedFfmaStatesItsConflict) {
  const CppKernelProgram p("ops", make_kernel("ubench/ops", "op=17 length=5 chains=2", testing::kTrafficBase),
                           128);
  Step s;
  std::uint64_t fp32 = 0, conflicts = 0;
  for (std::uint32_t i = 0; p.step(0, 0, i, s); ++i) {
    fp32 += s.classes[static_cast<unsigned>(InstrClass::kFp32)];
    conflicts += s.register_bank_conflicts;
  }
  EXPECT_EQ(fp32, 10u);
  EXPECT_EQ(conflicts, 10u);
}

// With dependent latencies a chain's steps wait for one another: one warp, one FFMA chain of 10 at 4 cycles
// issues at cycles 0, 4, ..., 36 and its clock ends at 37; two chains interleave (a, b, a, b, ...): each
// step of a chain waits 4 cycles after its own last, and the other chain's issue fills one of them, so the
// last issues at 36 + 1 and the clock ends at 38.
TEST(Ubench, AChainOfOpsTakesTheLatencyAStep) {
  Latencies lat{};
  lat[static_cast<unsigned>(InstrClass::kFp32)] = 4;
  auto cycles = [&lat](const std::string& args) {
    const CppKernelProgram p("ops", make_kernel("ubench/ops", args, testing::kTrafficBase), 128, lat);
    Step s;
    std::uint64_t total = 0;
    for (std::uint32_t i = 0; p.step(0, 0, i, s); ++i)
      total += s.cycles;
    return total;
  };
  EXPECT_EQ(cycles("op=0 length=10"), 37u);
  EXPECT_EQ(cycles("op=0 length=10 chains=2"), 38u);
}

// A signed integer division by a run-time value is nvcc's 24-instruction sequence with dependent latencies:
// the result's instruction and 20 more int, 3 sfu (docs/kernels.md, "Timing"). Two divisions: 42 int, 6 sfu.
TEST(Ubench, AnIntegerDivisionStepIsTheWholeSequence) {
  Latencies lat{};
  lat[static_cast<unsigned>(InstrClass::kInt)] = 4;
  const CppKernelProgram p("idiv", make_kernel("ubench/ops", "op=13 length=2", testing::kTrafficBase), 128,
                           lat);
  const testing::Traffic t = walk(p, {});
  EXPECT_EQ(t.of(InstrClass::kInt), 42u);
  EXPECT_EQ(t.of(InstrClass::kSfu), 6u);
}

// pchase, 4 KiB at a 128 B stride: 32 lines. Warm: once around (32 loads), then 10 timed: 42 loads by one
// thread, one line each, 32 distinct. Cold: the 10 timed loads alone, 10 distinct lines.
TEST(Ubench, PointerChaseWalksOneLineALoad) {
  const auto warm = walk("ubench/pchase", "footprint_kib=4 stride=128 steps=10 warm=1");
  EXPECT_EQ(warm.load_steps, 42u);
  EXPECT_EQ(warm.load_line_visits, 42u);
  EXPECT_EQ(warm.loaded.size(), 32u);
  const auto cold = walk("ubench/pchase", "footprint_kib=4 stride=128 steps=10 warm=0");
  EXPECT_EQ(cold.load_steps, 10u);
  EXPECT_EQ(cold.loaded.size(), 10u);
}

// stream, 16 KiB = 4096 floats = 128 lines. per_cta: each of 2 CTAs of 4 warps reads all of it, a warp one
// 128 B line a load: 4096 / 128 threads = 32 chunks, so 32 loads a warp a pass; 2 passes: 2 x 4 x 64 = 512
// loads, 128 distinct lines. The grid sharing it (per_cta 0): 256 threads, 16 chunks a pass, 8 warps x 16 x 2
// = 256 loads, the same 128 lines.
TEST(Ubench, StreamReadsEachLineOnceAPass) {
  const auto per_cta = walk("ubench/stream", "footprint_kib=16 passes=2 threads=128 ctas=2 per_cta=1");
  EXPECT_EQ(per_cta.load_steps, 512u);
  EXPECT_EQ(per_cta.load_line_visits, 512u);
  EXPECT_EQ(per_cta.loaded.size(), 128u);
  const auto shared = walk("ubench/stream", "footprint_kib=16 passes=2 threads=128 ctas=2 per_cta=0");
  EXPECT_EQ(shared.load_steps, 256u);
  EXPECT_EQ(shared.loaded.size(), 128u);
}

// sum: each load's value is added (one FADD a load, 256 for the grid-shared stream above: 8 warps x 16 x 2);
// sum=0 issues the same 256 loads and no FADD (nothing reads them: docs/microbenchmarks.md, Gaps).
TEST(Ubench, StreamWithoutSumIssuesItsLoadsAlone) {
  const std::string args = "footprint_kib=16 passes=2 threads=128 ctas=2 per_cta=0";
  const auto summed = walk("ubench/stream", args);
  EXPECT_EQ(summed.of(InstrClass::kFp32), 256u);
  const auto alone = walk("ubench/stream", args + " sum=0");
  EXPECT_EQ(alone.load_steps, 256u);
  EXPECT_EQ(alone.loaded.size(), 128u);
  EXPECT_EQ(alone.of(InstrClass::kFp32), 0u);
}

// shared: one store and `length` loads a warp, each with `ways` passes through the banks. 3 loads: 4
// accesses; 1-way 4 passes, 4-way 16, 32-way 128.
TEST(Ubench, SharedAccessesTakeTheirConflictsPasses) {
  for (const unsigned ways : {1u, 4u, 32u}) {
    const auto t = walk("ubench/shared", "ways=" + std::to_string(ways) + " length=3");
    EXPECT_EQ(t.shared_accesses, 4u) << ways;
    EXPECT_EQ(t.shared_wavefronts, 4u * ways) << ways;
  }
}

// shared with `width` and `broadcast` (one warp, 3 loads and the store that names the words), by hand with
// sm.shared_access_phases: LDS.64 consecutive 2 passes, LDS.128 consecutive 4, LDS.128 broadcast 2 (lanes
// pair up), LDS.64 broadcast 1, LDS broadcast 1. The store that names the words is a 4-byte one of lane l's
// first word: words 2 l (width 8) put words 0 and 32 in bank 0, 2 passes; words 4 l (width 16) words 0, 32,
// 64, 96, 4 passes; a broadcast's, every lane on word 0, 1. Without phases the broadcast LDS.128 is 1 pass. A
// wide load with a conflict, or a width other than 4, 8 or 16, is refused.
TEST(Ubench, WideAndBroadcastSharedLoadsTakeTheirPhases) {
  Latencies phases{};
  phases[kSharedPhases] = 1;
  const auto wavefronts = [](const std::string& args, const Latencies& l) {
    const CppKernelProgram p("shared",
                             make_kernel("ubench/shared", args + " length=3", testing::kTrafficBase), 128, l);
    Step s;
    for (std::uint32_t i = 0; p.step(0, 0, i, s); ++i) {
    }
    EXPECT_EQ(p.totals().shared_accesses, 4u) << args;
    return p.totals().shared_wavefronts;
  };
  EXPECT_EQ(wavefronts("width=8", phases), 2u + 3u * 2u);
  EXPECT_EQ(wavefronts("width=16", phases), 4u + 3u * 4u);
  EXPECT_EQ(wavefronts("width=16 broadcast=1", phases), 1u + 3u * 2u);
  EXPECT_EQ(wavefronts("width=8 broadcast=1", phases), 1u + 3u * 1u);
  EXPECT_EQ(wavefronts("width=4 broadcast=1", phases), 1u + 3u * 1u);
  EXPECT_EQ(wavefronts("width=16 broadcast=1", Latencies{}), 1u + 3u * 1u);
  EXPECT_THROW(make_kernel("ubench/shared", "width=16 ways=2", testing::kTrafficBase), KernelError);
  EXPECT_THROW(make_kernel("ubench/shared", "width=12", testing::kTrafficBase), KernelError);
}

// atomic: `length` atomics a warp. 2 CTAs of 2 warps, 3 each: 12 atomic steps. One address: one line; one
// address a thread: 128 threads x 4 B = 4 lines.
TEST(Ubench, AtomicsHitOneAddressOrOneAThread) {
  const auto same = walk("ubench/atomic", "distinct=0 length=3 threads=64 ctas=2");
  EXPECT_EQ(same.atomic_steps, 12u);
  EXPECT_EQ(same.atomic.size(), 1u);
  const auto distinct = walk("ubench/atomic", "distinct=1 length=3 threads=64 ctas=2");
  EXPECT_EQ(distinct.atomic_steps, 12u);
  EXPECT_EQ(distinct.atomic.size(), 4u);
}

// interleave: each warp a load and `work` FFMAs an iteration. 2 warps, 3 iterations of 5: 6 loads, 30 fp32.
// Without a footprint the CTA reads its own 64 floats (2 lines) each time; with 1 KiB it walks 1024 / 256 = 4
// chunks of 64 floats, 8 lines, and 8 iterations go around twice: 16 loads, 8 distinct lines.
TEST(Ubench, InterleaveAlternatesALoadAndItsWork) {
  const auto own = walk("ubench/interleave", "iterations=3 work=5 threads=64 footprint_kib=0");
  EXPECT_EQ(own.load_steps, 6u);
  EXPECT_EQ(own.loaded.size(), 2u);
  EXPECT_EQ(own.of(InstrClass::kFp32), 30u);
  const auto walked = walk("ubench/interleave", "iterations=8 work=0 threads=64 footprint_kib=1");
  EXPECT_EQ(walked.load_steps, 16u);
  EXPECT_EQ(walked.loaded.size(), 8u);
}

// barrier: `count` barrier steps for every warp; empty: nothing at all.
TEST(Ubench, BarrierAndEmptyKernels) {
  EXPECT_EQ(walk("ubench/barrier", "count=5 threads=64").barrier_counts(), std::set<unsigned>{5});
  const auto empty = walk("ubench/empty", "ctas=3 threads=32");
  EXPECT_EQ(empty.ctas, 3u);
  EXPECT_EQ(empty.barrier_counts(), std::set<unsigned>{0});
  EXPECT_EQ(empty.memory_steps, std::vector<unsigned>(3, 0));
  std::uint64_t instructions = 0;
  for (const std::uint64_t n : empty.instructions)
    instructions += n;
  EXPECT_EQ(instructions, 0u);
}

// A bad argument is one line naming it (the kernel's own checks).
TEST(Ubench, BadArgumentsAreRefused) {
  EXPECT_THROW(make_kernel("ubench/ops", "threads=48", testing::kTrafficBase), KernelError);
  EXPECT_THROW(make_kernel("ubench/shared", "ways=3", testing::kTrafficBase), KernelError);
  EXPECT_THROW(make_kernel("ubench/pchase", "stride=12", testing::kTrafficBase), KernelError);
}

}  // namespace
}  // namespace numagpu::kernels
