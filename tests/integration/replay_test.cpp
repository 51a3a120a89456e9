// Trace replay through the whole system: the coalescer, CTA barriers, and the real Accel-Sim sample.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/health.hpp"
#include "small_system.hpp"
#include "system/system.hpp"
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
// EXIT (grep -c ' EXIT '), so 7040 issued instructions; 440 LDG and 440 STG, every one with a full mask,
// 16 B per thread, base+stride 16 from a 128 B-aligned base (checked with awk and Python over the file):
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
  const std::string path = ::testing::TempDir() + "huge_grid.traceg";
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
