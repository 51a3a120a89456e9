// Trace replay through the whole system: the coalescer, CTA barriers, and the real Accel-Sim sample.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/health.hpp"
#include "small_system.hpp"
#include "system/system.hpp"
#include "trace/convert.hpp"
#include "trace/trace.hpp"
#include "workload/program.hpp"

namespace numagpu {
namespace {

using testing::small_spec;

std::uint64_t sum_over_sms(const stats::Registry& r, unsigned sockets, unsigned sms, const char* leaf) {
  std::uint64_t n = 0;
  for (unsigned s = 0; s < sockets; ++s) {
    for (unsigned m = 0; m < sms; ++m) {
      const auto* c =
          r.find_counter("system.socket" + std::to_string(s) + ".sm" + std::to_string(m) + "." + leaf);
      if (c) n += c->value();
    }
  }
  return n;
}

TEST(Coalescer, DistinctLinesInFirstTouchOrder) {
  Step s;
  // 32 threads x 4 B, consecutive from a line boundary: 128 B, one line.
  std::vector<std::uint64_t> a;
  for (int t = 0; t < 32; ++t)
    a.push_back(0x1000 + 4 * t);
  coalesce(a, 4, 128, s);
  ASSERT_EQ(s.line_count, 1u);
  EXPECT_EQ(s.lines[0], 0x1000u);
  // 32 threads 128 B apart, in reverse: 32 lines, in the order the threads touch them.
  Step t;
  a.clear();
  for (int i = 31; i >= 0; --i)
    a.push_back(0x8000 + 128 * i);
  coalesce(a, 4, 128, t);
  ASSERT_EQ(t.line_count, 32u);
  EXPECT_EQ(t.lines[0], 0x8000u + 128 * 31);
  EXPECT_EQ(t.lines[31], 0x8000u);
  // A 16 B access at 0x78 spans 0x78..0x87: lines 0x0 and 0x80; a repeat adds nothing.
  Step u;
  coalesce({0x78, 0x78, 0x80}, 16, 128, u);
  ASSERT_EQ(u.line_count, 2u);
  EXPECT_EQ(u.lines[0], 0x0u);
  EXPECT_EQ(u.lines[1], 0x80u);
}

// The coalescer's sectors (32 B, bit i = bytes [32 i, 32 i + 32) of the line). 32 threads x 4 B from 0x1000:
// the whole line, all four sectors (1111). 8 threads x 4 B from 0x1020: bytes 0x20..0x3f, sector 1 alone
// (0010). A 16 B access at 0x78 (0x78..0x87): sector 3 of line 0x0 (1000) and sector 0 of line 0x80 (0001);
// the 4 B access at 0x80 adds nothing to line 0x80; one at 0xc4 adds sector 2 (0101).
TEST(Replay, CoalescerGivesEachLineTheSectorsItsThreadsTouch) {
  std::vector<std::uint64_t> a;
  for (int t = 0; t < 32; ++t)
    a.push_back(0x1000 + 4 * t);
  Step s;
  coalesce(a, 4, 128, s);
  ASSERT_EQ(s.line_count, 1u);
  EXPECT_EQ(s.sectors[0], 0b1111);
  a.resize(8);
  for (int t = 0; t < 8; ++t)
    a[t] = 0x1020 + 4 * t;
  Step t;
  coalesce(a, 4, 128, t);
  ASSERT_EQ(t.line_count, 1u);
  EXPECT_EQ(t.sectors[0], 0b0010);
  Step u;
  coalesce({0x78, 0x80}, 16, 128, u);
  coalesce({0xc4}, 4, 128, u);
  ASSERT_EQ(u.line_count, 2u);
  EXPECT_EQ(u.sectors[0], 0b1000);
  EXPECT_EQ(u.sectors[1], 0b0101);
}

// tests/data/replay/kernel-1-barrier.traceg: one CTA of 3 warps. Warp 0 waits at a barrier, then loads
// 32 x 4 B from 0x7f5000000000 (one line); warp 1 computes 4 cycles, then reaches the barrier; warp 2 exits
// at once (an exited warp no longer counts for the barrier, or the CTA would hang). So: 2 barrier arrivals,
// 1 line request, 4 + 1 + 1 + 1 = 7 instructions issued (EXIT is not an instruction the SM issues), and the
// load cannot issue before warp 1's 4 MOVs (cycles 0-3, one instruction per cycle with warps 0 and 2 not
// competing) have let it reach the barrier.
TEST(Replay, BarrierWaitsForTheCtasWarpsAndIgnoresExitedOnes) {
  SystemSpec spec = small_spec(1);
  KernelSpec k;
  k.name = "barrier";
  k.trace_path = std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernel-1-barrier.traceg";
  spec.kernels = {k};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  System& sys = *run.system;
  EXPECT_TRUE(sys.dispatcher().finished());
  EXPECT_EQ(sum_over_sms(reg, 1, 4, "barriers"), 2u);
  EXPECT_EQ(sum_over_sms(reg, 1, 4, "loads"), 1u);
  EXPECT_EQ(sum_over_sms(reg, 1, 4, "instructions"), 7u);
  const auto* lat = reg.find_average("system.socket0.sm0.load_latency");
  ASSERT_NE(lat, nullptr);
  ASSERT_EQ(lat->count(), 1u);
  // The kernel ends after the load returns: at least the 4 MOV cycles plus one load's round trip.
  EXPECT_GE(sys.finish_cycle(), 4u + Cycles(lat->mean()));
}

// The real Accel-Sim sample (shared/data/accelsim): 55 CTAs x 4 warps, 7260 trace lines of which 220 are
// EXIT (grep -c ' EXIT '), each the last instruction of its warp with a full mask (grep ' EXIT ' | awk
// '{print $2}' | sort | uniq -c: 220 ffffffff), so 7040 issued instructions; 440 LDG and 440 STG, every one
// with a full mask, 16 B per thread, base+stride 16 from a 128 B-aligned base (the line-count awk of
// ReplayExit.VectorAddReplaysItsBoundsCheckedWarps below: LDG 440 instructions / 1760 lines, STG 440 / 1760):
// 512 B = 4 lines each, so 1760 line loads and 1760 line stores. Run on 4 sockets with the protocol checker.
TEST(Replay, AccelSimSampleReplaysWithTheCountedRequests) {
  // The folder named by NUMAGPU_ACCELSIM_SAMPLE_DIR, else shared/data/accelsim beside the repository (as in
  // tests/unit/trace/real_sample_test.cpp).
  const char* override_dir = std::getenv("NUMAGPU_ACCELSIM_SAMPLE_DIR");
  const std::filesystem::path dir = override_dir != nullptr ? std::filesystem::path(override_dir)
                                                            : std::filesystem::path(NUMAGPU_SOURCE_DIR) /
                                                                  ".." / "shared" / "data" / "accelsim";
  if (!std::filesystem::exists(dir / "kernelslist.g")) {
    // In CI the sample must be there: a skipped test would leave a green run that checked nothing.
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") FAIL() << "CI=true and no Accel-Sim sample at " << dir;
    GTEST_SKIP() << "no Accel-Sim sample at " << dir;
  }
  SystemSpec spec = small_spec(4);
  KernelSpec k;
  k.name = "sample";
  k.trace_path = (dir / "kernel-593-ctx_0x55c28dad19e0.traceg").string();
  spec.kernels = {k};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  System& sys = *run.system;
  EXPECT_EQ(sum_over_sms(reg, 4, 4, "instructions"), 7040u);
  EXPECT_EQ(sum_over_sms(reg, 4, 4, "loads"), 1760u);
  EXPECT_EQ(sum_over_sms(reg, 4, 4, "stores"), 1760u);
  EXPECT_EQ(sum_over_sms(reg, 4, 4, "ctas"), 55u);
  EXPECT_EQ(sys.trace_warnings().size(), 2u);  // the impossible -nregs and -binary version = 0
}

// The shared real-trace folders: the Accel-Sim sample (NUMAGPU_ACCELSIM_SAMPLE_DIR, else shared/data/accelsim
// beside the repository) and accelsim-more (NUMAGPU_ACCELSIM_MORE_DIR, else the sample folder's sibling
// accelsim-more). A test needing an absent trace skips with a message (fails under CI=true, as .ci/run sets).
std::filesystem::path sample_dir() {
  const char* override_dir = std::getenv("NUMAGPU_ACCELSIM_SAMPLE_DIR");
  return override_dir != nullptr
             ? std::filesystem::path(override_dir)
             : std::filesystem::path(NUMAGPU_SOURCE_DIR) / ".." / "shared" / "data" / "accelsim";
}

std::filesystem::path more_dir() {
  const char* override_dir = std::getenv("NUMAGPU_ACCELSIM_MORE_DIR");
  if (override_dir != nullptr) return override_dir;
  std::filesystem::path sample = sample_dir().lexically_normal();
  if (!sample.has_filename()) sample = sample.parent_path();  // a trailing '/'
  return sample.parent_path() / "accelsim-more";
}

bool have_or_skip(const std::filesystem::path& file, std::string& why) {
  if (std::filesystem::exists(file)) return true;
  why = "no real trace at " + file.string() + " (set NUMAGPU_ACCELSIM_MORE_DIR)";
  return false;
}

#define REQUIRE_REAL_TRACE(file)                                                       \
  do {                                                                                 \
    std::string why;                                                                   \
    if (!have_or_skip(file, why)) {                                                    \
      const char* ci = std::getenv("CI");                                              \
      if (ci != nullptr && std::string(ci) == "true") FAIL() << "CI=true and " << why; \
      GTEST_SKIP() << why;                                                             \
    }                                                                                  \
  } while (0)

struct ReplayCounts {
  std::uint64_t instructions, loads, stores, barriers, ctas;
  std::vector<std::string> warnings;
  std::uint64_t thread_instructions;
};

ReplayCounts replay(const std::string& trace_path, unsigned sockets = 1) {
  SystemSpec spec = small_spec(sockets);
  spec.sm.max_warps = 64;  // the real traces have CTAs of 32 warps
  KernelSpec k;
  k.name = "replay";
  k.trace_path = trace_path;
  spec.kernels = {k};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  EXPECT_TRUE(run.ok) << run.diagnostics;
  EXPECT_TRUE(run.system->dispatcher().finished());
  return ReplayCounts{
      sum_over_sms(reg, sockets, 4, "instructions"), sum_over_sms(reg, sockets, 4, "loads"),
      sum_over_sms(reg, sockets, 4, "stores"),       sum_over_sms(reg, sockets, 4, "barriers"),
      sum_over_sms(reg, sockets, 4, "ctas"),         run.system->trace_warnings(),
      sum_over_sms(reg, sockets, 4, "thread_instructions")};
}

// tests/data/replay/kernel-3-exit.traceg: one CTA of 80 threads, so warps 0 and 1 have 32 threads and warp 2
// has 16 (lanes 0-15). A warp ends when its last live thread exits; EXIT is not issued.
//   warp 0: MOV, EXIT 00000000 (empty: nobody leaves), LDG 32 x 4 B at 0x7f5000000000 (one line),
//           EXIT 0000ffff (partial: lanes 0-15 leave), STG by lanes 16-31, 16 x 4 B from 0x7f5000001040
//           (0x1040..0x107f: one line), EXIT ffff0000 (the last 16 leave: the warp ends)
//           -> 3 instructions, 1 line load, 1 line store;
//   warp 1: MOV, EXIT ffffffff (full) -> 1 instruction;
//   warp 2: MOV, STG 16 x 4 B at 0x7f5000002000 (one line), EXIT 0000ffff (all 16 threads that exist leave:
//           the warp ends although lanes 16-31 are not named), then an LDG no thread is left to run
//           -> 2 instructions, 1 line store; the LDG is dropped with one warning.
// In all: 6 instructions, 1 line load, 2 line stores. (Ending each warp at its first EXIT gives 4, 0 and 1.)
TEST(ReplayExit, AWarpEndsWhenItsLastLiveThreadExits) {
  const std::string path = std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernel-3-exit.traceg";
  const ReplayCounts c = replay(path);
  EXPECT_EQ(c.instructions, 6u);
  EXPECT_EQ(c.loads, 1u);
  EXPECT_EQ(c.stores, 2u);
  // Active threads from the masks: warp 0 MOV 32 + LDG 32 + STG 16, warp 1 MOV 32, warp 2 MOV 16 + STG 16.
  EXPECT_EQ(c.thread_instructions, 80u + 32u + 32u);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], path + ": 1 instruction(s) after the EXIT of a warp's last live thread ignored");
}

// The same kernel converted to .ngt keeps every EXIT's mask and the block's 80 threads: the same counts.
TEST(ReplayExit, NgtCarriesTheExitMasksAndTheThreadCount) {
  const std::string ngt = ::testing::TempDir() + "kernel-3-exit_" + std::to_string(::getpid()) + ".ngt";
  trace::convert_accelsim_kernel(std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernel-3-exit.traceg",
                                 ngt);
  const ReplayCounts c = replay(ngt);
  EXPECT_EQ(c.instructions, 6u);
  EXPECT_EQ(c.loads, 1u);
  EXPECT_EQ(c.stores, 2u);
  EXPECT_EQ(c.thread_instructions, 144u);
  std::filesystem::remove(ngt);
}

// A program dumped to .ngt (numagpu workload dump) gives back every warp's steps, step by step.
void expect_dump_replays_identically(const std::string& path) {
  const std::unique_ptr<KernelProgram> a = load_trace_program(path, 128, nullptr);
  // One file per process: ctest runs each test as its own process, several at once (and two build trees' suites
  // may run at once), in the same TempDir().
  const std::string ngt = ::testing::TempDir() + "dumped_" + std::to_string(::getpid()) + ".ngt";
  dump_program(*a, 1, 128, ngt);
  const std::unique_ptr<KernelProgram> b = load_trace_program(ngt, 128, nullptr);
  ASSERT_EQ(a->ctas(), b->ctas());
  ASSERT_EQ(a->warps_per_cta(), b->warps_per_cta());
  std::uint64_t steps = 0;
  for (std::uint32_t cta = 0; cta < a->ctas(); ++cta) {
    for (std::uint32_t w = 0; w < a->warps_per_cta(); ++w) {
      Step sa, sb;
      for (std::uint32_t i = 0;; ++i, ++steps) {
        const bool more = a->step(cta, w, i, sa);
        ASSERT_EQ(more, b->step(cta, w, i, sb)) << "cta " << cta << " warp " << w << " step " << i;
        if (!more) break;
        ASSERT_EQ(int(sa.kind), int(sb.kind));
        ASSERT_EQ(sa.line_count, sb.line_count);
        for (unsigned l = 0; l < sa.line_count; ++l)
          ASSERT_EQ(sa.lines[l], sb.lines[l]);
        if (sa.kind == Step::Kind::kCompute) {
          ASSERT_EQ(sa.cycles, sb.cycles);
        }
      }
    }
  }
  EXPECT_GT(steps, 0u);
  std::filesystem::remove(ngt);
}

TEST(ReplayExit, DumpedProgramReplaysIdentically) {
  expect_dump_replays_identically(std::string(NUMAGPU_SOURCE_DIR) +
                                  "/tests/data/replay/kernel-3-exit.traceg");
}

// accelsim-more/vectoradd-100-32: one CTA of 1024 threads (32 warps) adding 100 floats. The counts, from the
// file:
//   grep -cE '^[0-9a-f]{4} ' kernel-1.traceg                 -> 344 instruction lines
//   grep -c ' EXIT ' kernel-1.traceg                        -> 36 EXITs
//   grep ' EXIT ' kernel-1.traceg | awk '{print $2}' | sort | uniq -c
//                      -> 31 ffffffff, 3 00000000, 1 fffffff0, 1 0000000f
// Warps 0-2 pass their bounds check: `@P EXIT` with an empty mask, then 2 LDG, 1 STG and the final EXIT; warp
// 3 (threads 96-127) loses lanes 4-31 at its first EXIT (fffffff0) and its lanes 0-3 run on to the final
// EXIT (0000000f); warps 4-31 leave at once (ffffffff). Every instruction comes before its warp's last EXIT,
// so 344 - 36 = 308 are issued. Line counts: distinct 128 B lines per LDG/STG instruction, summed (fields:
// PC mask dest_num dests opcode src_num srcs mem_width mode addresses; mawk needs the %.0f array keys):
//   awk 'function hex(s, i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s); for (i = 1; i <= length(s); i++)
//          v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
//        NF >= 5 && length($2) == 8 { op = $(4 + $3); sub(/\..*$/, "", op); if (op != "LDG" && op != "STG")
//        next
//          s = 5 + $3; w = s + $s + 1; m = hex($2); n = 0; for (b = 0; b < 32; b++) if (int(m / 2^b) % 2) n++
//          split("", seen); k = 0
//          for (t = 0; t < n; t++) {
//            if ($(w + 1) == 0) a = hex($(w + 2 + t)); else if ($(w + 1) == 1) a = hex($(w + 2)) + t * $(w +
//            3) else if (t == 0) a = hex($(w + 2)); else a += $(w + 2 + t) for (x = int(a / 128); x <= int((a
//            + $w - 1) / 128); x++) {
//              key = sprintf("%.0f", x); if (!(key in seen)) { seen[key] = 1; k++ } } }
//          lines[op] += k; insts[op]++ }
//        END { for (o in lines) print o, insts[o], "instructions", lines[o], "lines" }' kernel-1.traceg
// gives LDG 8 instructions / 8 lines, STG 4 / 4: every access is 4 B per thread from a 128 B-aligned base
// (0x7f2b2d500000, ...200, ...400 plus 128 B per warp), 32 or 4 threads, one line each. So 8 line loads and
// 4 line stores, where ending each warp at its first EXIT replays none.
TEST(ReplayExit, VectorAddReplaysItsBoundsCheckedWarps) {
  const std::filesystem::path file = more_dir() / "vectoradd-100-32" / "kernel-1.traceg";
  REQUIRE_REAL_TRACE(file);
  const ReplayCounts c = replay(file.string());
  EXPECT_EQ(c.instructions, 308u);
  EXPECT_EQ(c.loads, 8u);
  EXPECT_EQ(c.stores, 4u);
  EXPECT_EQ(c.ctas, 1u);
  EXPECT_TRUE(c.warnings.empty());  // a well-formed v4 header (sm_61) and nothing after a warp's last EXIT
  expect_dump_replays_identically(file.string());
}

// accelsim-more/matrixmul-32-32: one CTA of 32 x 32 threads (32 warps), tiled through shared memory.
//   grep -cE '^[0-9a-f]{4} ' kernel-1.traceg                 -> 4416 instruction lines
//   grep ' EXIT ' kernel-1.traceg | awk '{print $2}' | sort | uniq -c   -> 32 ffffffff (one per warp, last)
//   grep ' BAR' kernel-1.traceg | awk '{print $2, $4}' | sort | uniq -c -> 64 ffffffff BAR.SYNC
// and the line-count awk of the test above: LDG 64 instructions / 64 lines, STG 32 / 32 (4 B per thread,
// 32 threads, 128 B-aligned: one line each). So 4416 - 32 = 4384 issued instructions, 64 line loads, 32 line
// stores and 64 barrier arrivals (2 per warp).
TEST(ReplayExit, MatrixMulReplaysWithTheCountedRequests) {
  const std::filesystem::path file = more_dir() / "matrixmul-32-32" / "kernel-1.traceg";
  REQUIRE_REAL_TRACE(file);
  const ReplayCounts c = replay(file.string());
  EXPECT_EQ(c.instructions, 4384u);
  EXPECT_EQ(c.loads, 64u);
  EXPECT_EQ(c.stores, 32u);
  EXPECT_EQ(c.barriers, 64u);
  EXPECT_EQ(c.ctas, 1u);
  EXPECT_TRUE(c.warnings.empty());
  expect_dump_replays_identically(file.string());
}

// An SM holds max_warps / warps_per_cta CTAs: a trace whose CTA (here 96 threads = 3 warps) needs more warps
// than the SM has is refused when the system loads it, not run in one oversized slot (a SystemSpec built
// without the configuration, whose check names the key, still gets this one).
TEST(ReplayMaxWarps, SystemRefusesATraceCtaLargerThanTheSm) {
  SystemSpec spec = small_spec(1);
  spec.sm.max_warps = 2;
  KernelSpec k;
  k.name = "barrier";
  k.trace_path = std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernel-1-barrier.traceg";
  spec.kernels = {k};
  stats::Registry reg;
  std::ostringstream diag;
  try {
    System sys("system", spec, reg, diag);
    ADD_FAILURE() << "a CTA of 3 warps was accepted on an SM of 2";
  } catch (const trace::TraceError& e) {
    EXPECT_EQ(std::string(e.what()),
              k.trace_path + ": a CTA of 3 warps exceeds sm.max_warps (2): it would never fit on an SM");
  }
}

// A trace header is only a claim: a grid of 65536 x 257 = 16842752 CTAs, one more row than the 2^24 =
// 16777216 numagpu replays (the bound of workload.kernels.ctas), is refused before a slot is allocated for
// each CTA (24 B each: 400 MB for this grid, and 96 GB for the largest grid a header can name).
TEST(Replay, GridLargerThanTheReplayLimitIsRefused) {
  std::string text;
  {
    std::ifstream in(std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernel-2-compute.traceg");
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
  }
  const std::string grid = "-grid dim = (1,1,1)";
  ASSERT_NE(text.find(grid), std::string::npos);
  text.replace(text.find(grid), grid.size(), "-grid dim = (65536,257,1)");
  const std::string path = ::testing::TempDir() + "huge_grid_" + std::to_string(::getpid()) + ".traceg";
  std::ofstream(path) << text;
  try {
    load_trace_program(path, 128, nullptr);
    ADD_FAILURE() << "accepted a grid of 16842752 CTAs";
  } catch (const trace::TraceError& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": grid of 16842752 CTAs is more than the 16777216 numagpu replays");
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace numagpu

namespace numagpu {
namespace {

// tests/data/replay/kernel-2-compute.traceg: one CTA of 2 warps, 8 one-cycle MOVs each, then EXIT. With one
// issue slot, greedy-then-oldest runs warp 0 in cycles 0-7 and warp 1 in cycles 8-15; the SM finds both
// exited at cycle 16. With two slots both warps issue every cycle: done at cycle 8. The idle cycles of the
// single-slot SM are none (it issues every cycle until the end).
Cycles compute_only(unsigned width, stats::Registry& reg) {
  SystemSpec spec = testing::small_spec(1);
  spec.sm.issue_width = width;
  spec.sm.processing_blocks = 1;  // the slots are the SM's (the default is the paper's 2 blocks)
  spec.sm.scheduler = WarpScheduler::kGto;
  KernelSpec k;
  k.name = "compute";
  k.trace_path = std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernel-2-compute.traceg";
  spec.kernels = {k};
  std::ostringstream diag;
  System sys("system", spec, reg, diag);
  sys.run();
  EXPECT_TRUE(sys.context().health.ok()) << diag.str();
  EXPECT_EQ(sum_over_sms(reg, 1, 4, "instructions"), 16u);
  return sys.finish_cycle();
}

TEST(IssueWidth, OneSlotIssuesOneWarpInstructionPerCycle) {
  stats::Registry reg;
  EXPECT_EQ(compute_only(1, reg), 16u);
}

TEST(IssueWidth, TwoSlotsIssueTwoWarpsPerCycle) {
  stats::Registry reg;
  EXPECT_EQ(compute_only(2, reg), 8u);
}

// The isolated load of SystemTest.IsolatedLoadSeesTheSumOfHopLatencies: issued at cycle 1, data back during
// cycle 174 (173 cycles of latency); the SM issues nothing in cycles 2..173 while its only warp waits: 172
// stall cycles charged to memory.
TEST(Stalls, CyclesWaitingOnALoadAreChargedToMemory) {
  SystemSpec spec = testing::small_spec(1);
  spec.kernels = {testing::stream_kernel("one", 1, 1, 1)};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(reg.find_counter("system.socket0.sm0.stall_cycles.memory")->value(), 172u);
  EXPECT_EQ(reg.find_counter("system.socket0.sm0.stall_cycles.compute")->value(), 0u);
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
