// The SM's timing mechanisms on whole runs: processing blocks (sm.processing_blocks) and the warp scheduler
// (sm.scheduler). Each test runs a reference kernel first and compares a kernel's cycles with it, so the
// launch and the end of a kernel, the same for both, cancel; the expected differences are derived by hand
// from the issue widths, lane counts and the load's latency.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "small_system.hpp"
#include "system/configuration.hpp"
#include "system/system.hpp"

namespace numagpu {
namespace {

using testing::small_spec;

// One CTA whose warp w runs the steps `warps[w]`, then exits.
class Steps : public KernelProgram {
 public:
  explicit Steps(std::vector<std::vector<Step>> warps) : warps_(std::move(warps)) {}
  const std::string& name() const override { return name_; }
  std::uint32_t ctas() const override { return 1; }
  std::uint32_t warps_per_cta() const override { return static_cast<std::uint32_t>(warps_.size()); }
  bool step(std::uint32_t, std::uint32_t warp, std::uint32_t index, Step& out) const override {
    if (index >= warps_[warp].size()) return false;
    out = warps_[warp][index];
    return true;
  }

 private:
  std::string name_ = "steps";
  std::vector<std::vector<Step>> warps_;
};

// CTAs whose warp w of CTA c runs `ctas[c][w]`, then exits (every CTA of as many warps).
class CtaSteps : public KernelProgram {
 public:
  explicit CtaSteps(std::vector<std::vector<std::vector<Step>>> ctas) : ctas_(std::move(ctas)) {}
  const std::string& name() const override { return name_; }
  std::uint32_t ctas() const override { return static_cast<std::uint32_t>(ctas_.size()); }
  std::uint32_t warps_per_cta() const override { return static_cast<std::uint32_t>(ctas_[0].size()); }
  bool step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, Step& out) const override {
    if (index >= ctas_[cta][warp].size()) return false;
    out = ctas_[cta][warp][index];
    return true;
  }

 private:
  std::string name_ = "cta_steps";
  std::vector<std::vector<std::vector<Step>>> ctas_;
};

// A compute step of `n` FP32 instructions that the warp's own clock issues one a cycle.
Step fp32_bundle(std::uint32_t n) {
  Step s;
  s.instructions = n;
  s.cycles = n;
  s.classes[static_cast<unsigned>(InstrClass::kFp32)] = n;
  return s;
}
// One unclassified instruction of one cycle (as a synthetic pattern's compute).
Step one_instruction() {
  return Step{};
}
Step load_line(std::uint64_t line) {
  Step s;
  s.kind = Step::Kind::kLoad;
  s.line_count = 1;
  s.lines[0] = line * 128;
  return s;
}

// A load its warp goes past (sm.nonblocking_loads), and the wait before its value's first reader.
Step scoreboarded_load(std::uint64_t line) {
  Step s = load_line(line);
  s.scoreboarded = true;
  return s;
}
Step wait_through(std::uint32_t load) {
  Step s;
  s.kind = Step::Kind::kWait;
  s.wait_through = load;
  return s;
}

class SmTiming : public ::testing::Test {
 protected:
  // Runs `programs` in order on one SM; returns each kernel's cycles.
  std::vector<double> run(SystemSpec spec, std::vector<std::unique_ptr<KernelProgram>> programs) {
    spec.sms_per_socket = 1;
    const std::size_t n = programs.size();
    System sys("system", Configuration(spec), reg, std::move(programs), diag);
    sys.run();
    EXPECT_TRUE(sys.context().health.ok()) << diag.str();
    EXPECT_TRUE(sys.dispatcher().finished());
    std::vector<double> cycles;
    for (std::size_t k = 0; k < n; ++k) {
      const auto* c = reg.find_scalar("system.runtime.kernel" + std::to_string(k) + ".cycles");
      EXPECT_NE(c, nullptr) << k;
      cycles.push_back(c ? c->value() : 0.0);
    }
    return cycles;
  }
  std::ostringstream diag;
  stats::Registry reg;
};

// A Volta-like SM: issue width 4, 64 FP32 lanes.
SystemSpec volta_like(unsigned blocks) {
  SystemSpec spec = small_spec(1);
  spec.sm.issue_width = 4;
  spec.sm.fp32_lanes = 64;
  spec.sm.processing_blocks = blocks;
  return spec;
}

std::vector<std::unique_ptr<KernelProgram>> fp32_kernels() {
  std::vector<std::unique_ptr<KernelProgram>> p;
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{}}));  // one warp, nothing to do
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{fp32_bundle(64)}}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>(4, {fp32_bundle(64)})));
  return p;
}

// One block: a warp's 64 FP32 instructions take 64 / 4 = 16 cycles of issue and 64 / 2 = 32 of the FP32
// pipe (64 lanes: 2 a cycle), so its own clock's 64 cycles bound it: 64 cycles more than the empty kernel.
// Four such warps: each bundle waits for the issue slots of the one before (16 cycles each), the FP32 pipe is
// busy 4 x 32 = 128 cycles from the first's issue: the last warp's instructions have issued at 128.
TEST_F(SmTiming, OneBlockSharesTheSmsIssueAndLanesAmongAllWarps) {
  const std::vector<double> c = run(volta_like(1), fp32_kernels());
  EXPECT_EQ(c[1] - c[0], 64.0);
  EXPECT_EQ(c[2] - c[0], 128.0);
}

// Four processing blocks: a warp issues through its own block, one slot a cycle and 64 / 4 = 16 FP32 lanes
// (a warp instruction every 2 cycles): one warp's 64 instructions take 128 cycles, twice what the whole SM
// gave it. Four warps, warp slots 0-3 in blocks 0-3, issue side by side: 128 cycles too, the same as one
// block, since the SM's lanes are all busy either way.
TEST_F(SmTiming, AWarpIssuesOnlyThroughItsProcessingBlock) {
  const std::vector<double> c = run(volta_like(4), fp32_kernels());
  EXPECT_EQ(c[1] - c[0], 128.0);
  EXPECT_EQ(c[2] - c[0], 128.0);
}

// The shared-memory pipe is the SM's whatever the blocks: 32 lanes, one warp access a cycle. Two warps in
// blocks 0 and 1 each issue a bundle of 16 shared accesses in the same cycle: the second queues behind the
// first, 32 cycles in all (16 each if each block had its own banks).
TEST_F(SmTiming, TheSharedPipeStaysSmWide) {
  SystemSpec spec = volta_like(4);
  spec.sm.shared_lanes = 32;
  Step shared;
  shared.instructions = 16;
  shared.cycles = 16;
  shared.classes[static_cast<unsigned>(InstrClass::kShared)] = 16;
  std::vector<std::unique_ptr<KernelProgram>> p;
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{}}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>(2, {shared})));
  const std::vector<double> c = run(spec, std::move(p));
  EXPECT_EQ(c[1] - c[0], 32.0);
}

// A CTA launched in the middle of an activation, after some blocks have found no ready warp, is ready at
// once in those blocks too, and the SM must wake for it. One CTA slot (sm.max_ctas 1) of 2 warps: warp 0 in
// block 0, warp 1 in block 1. CTA 0's warp 0 has nothing to do, its warp 1 one instruction; CTA 1's warps
// have nothing to do. Cycle 0 (of the kernel's first issue): block 0 retires CTA 0's warp 0, block 1 issues
// warp 1's instruction. Cycle 1: block 0 has no ready warp; block 1 finds warp 1 done and retires it, CTA 0
// ends and CTA 1 takes the slot: block 1 retires its warp 1 at once, and its warp 0, in block 0, waits for
// cycle 2, when it retires and the kernel ends: 2 cycles more than one warp with nothing to do. (Had the SM
// not woken for block 0, the kernel would never end: the run stops at max_cycles with it unfinished.)
TEST_F(SmTiming, ACtaLaunchedMidCycleWakesTheBlocksAlreadyPassed) {
  SystemSpec spec = volta_like(4);
  spec.sm.max_ctas = 1;
  spec.max_cycles = 100000;  // a lost wake-up leaves the kernel unfinished here
  std::vector<std::unique_ptr<KernelProgram>> p;
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{}}));
  p.push_back(std::make_unique<CtaSteps>(
      std::vector<std::vector<std::vector<Step>>>{{{}, {one_instruction()}}, {{}, {}}}));
  const std::vector<double> c = run(spec, std::move(p));
  EXPECT_EQ(c[1] - c[0], 2.0);
}

// Greedy-then-oldest against loose round-robin, one issue slot a cycle. Warp 0 runs 100 one-cycle
// instructions, warp 1 one load (latency L, the reference kernel's load of another line alone: L more than
// nothing). GTO keeps issuing warp 0, the older, while it is ready: the load issues after its 100
// instructions, at cycle 100, and returns at 100 + L. LRR alternates: warp 0 at cycle 0, the load at cycle 1,
// back to warp 0; the load returns at 1 + L, after warp 0's last instruction (cycle 100, since L > 100 here).
// So the kernel takes 100 cycles more than the lone load under GTO, 1 more under LRR.
std::vector<std::unique_ptr<KernelProgram>> latency_kernels() {
  std::vector<std::unique_ptr<KernelProgram>> p;
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{load_line(1000)}}));
  p.push_back(std::make_unique<Steps>(
      std::vector<std::vector<Step>>{std::vector<Step>(100, one_instruction()), {load_line(2000)}}));
  return p;
}

// One block with one issue slot a cycle (the default SM is the paper's two blocks of one slot each).
SystemSpec one_slot(WarpScheduler scheduler) {
  SystemSpec spec = small_spec(1);
  spec.sm.issue_width = 1;
  spec.sm.processing_blocks = 1;
  spec.sm.scheduler = scheduler;
  return spec;
}

TEST_F(SmTiming, GreedyThenOldestRunsTheOldestWarpFirst) {
  SystemSpec spec = one_slot(WarpScheduler::kGto);
  const std::vector<double> c = run(spec, latency_kernels());
  ASSERT_GT(c[0], 100.0);  // the load's latency exceeds warp 0's work (the derivation's assumption)
  EXPECT_EQ(c[1] - c[0], 100.0);
}

TEST_F(SmTiming, LooseRoundRobinAlternatesWarps) {
  SystemSpec spec = one_slot(WarpScheduler::kLrr);
  const std::vector<double> c = run(spec, latency_kernels());
  ASSERT_GT(c[0], 100.0);
  EXPECT_EQ(c[1] - c[0], 1.0);
}

// Greedy-then-round-robin (the paper's Table 1) against greedy-then-oldest: they differ in whom they pick
// when the greedy warp stalls while an older and a younger warp are ready. One slot a cycle, three warps
// (warp 0 the oldest): warp 0 issues one instruction that keeps it busy 3 cycles, then a load of line A;
// warp 1 ten one-cycle instructions, then one that keeps it busy 100 cycles; warp 2 a hundred one-cycle
// instructions. Cycle 0: warp 0 (ready again at 3). Cycle 1: warp 0 is busy, both pick warp 1 (the oldest
// ready, and the next after warp 0), which stays greedy: its instructions at cycles 1-11 (ready again at
// 111). Cycle 12: warps 0 and 2 are ready. GTO picks warp 0, the oldest: load A at cycle 12, then warp 2's
// hundred instructions (cycles 13-112) while the load is out. GTRR picks warp 2, the next after warp 1: its
// hundred instructions at cycles 12-111, then (cycle 112) the next ready warp after warp 2, wrapping around:
// warp 0, whose load A issues at 112. With a load's latency over 101 cycles the load's issue decides the
// end: 12 cycles after the lone load's kernel under GTO, 112 under GTRR.
std::vector<std::unique_ptr<KernelProgram>> greedy_stall_kernels() {
  Step busy3 = one_instruction();
  busy3.cycles = 3;
  Step busy100 = one_instruction();
  busy100.cycles = 100;
  std::vector<Step> warp1(10, one_instruction());
  warp1.push_back(busy100);
  std::vector<std::unique_ptr<KernelProgram>> p;
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{load_line(1000)}}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{
      {busy3, load_line(3000)}, warp1, std::vector<Step>(100, one_instruction())}));
  return p;
}

TEST_F(SmTiming, GreedyThenRoundRobinTakesTheWarpAfterTheStalledOne) {
  const std::vector<double> gtrr = run(one_slot(WarpScheduler::kGtrr), greedy_stall_kernels());
  ASSERT_GT(gtrr[0], 120.0);  // the load's latency exceeds warp 2's work (the derivation's assumption)
  EXPECT_EQ(gtrr[1] - gtrr[0], 112.0);
}

TEST_F(SmTiming, GreedyThenOldestTakesTheOldestWarpAfterTheStalledOne) {
  const std::vector<double> gto = run(one_slot(WarpScheduler::kGto), greedy_stall_kernels());
  ASSERT_GT(gto[0], 120.0);
  EXPECT_EQ(gto[1] - gto[0], 12.0);
}

// The register scoreboard (sm.nonblocking_loads). The reference kernel is one load of a cold line alone: it
// issues at t0 and its data is back at t0 + L, when the warp ends. The kernel measured: a warp loads another
// cold line, runs 100 one-cycle instructions that do not read it, waits for the load (a kWait step, no issue
// slot) and runs one instruction that reads it. With the scoreboard the load issues at t0 and the 100
// instructions at t0 + 1 .. t0 + 100; the wait at t0 + 101 holds the warp until t0 + L (L > 101), the reader
// issues then and the warp ends at t0 + L + 1: 1 cycle more than the reference. Without it the warp waits at
// the load: the 100 instructions issue at t0 + L .. t0 + L + 99, the reader at t0 + L + 100 (the wait step is
// passed over: nothing is pending), and the warp ends at t0 + L + 101: 101 cycles more.
std::vector<std::unique_ptr<KernelProgram>> scoreboard_kernels() {
  std::vector<Step> warp{scoreboarded_load(2000)};
  warp.insert(warp.end(), 100, one_instruction());
  warp.push_back(wait_through(1));
  warp.push_back(one_instruction());
  std::vector<std::unique_ptr<KernelProgram>> p;
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{load_line(1000)}}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{warp}));
  return p;
}

TEST_F(SmTiming, AWarpGoesPastALoadUntilAnInstructionReadsIt) {
  SystemSpec spec = small_spec(1);
  spec.sm.nonblocking_loads = true;
  const std::vector<double> c = run(spec, scoreboard_kernels());
  ASSERT_GT(c[0], 101.0);  // the load's latency exceeds the independent work (the derivation's assumption)
  EXPECT_EQ(c[1] - c[0], 1.0);
}

TEST_F(SmTiming, WithoutTheScoreboardAWarpWaitsAtEachLoad) {
  SystemSpec spec = small_spec(1);
  spec.sm.nonblocking_loads = false;
  const std::vector<double> c = run(spec, scoreboard_kernels());
  ASSERT_GT(c[0], 101.0);
  EXPECT_EQ(c[1] - c[0], 101.0);
}

// The texture pipeline (sm.texture_latency, Step::texture). Four kernels of one warp, each load of its own
// cold line (so each misses alike) and each waited at: a global load; a texture fetch; a texture fetch then a
// global load; two global loads. A texture fetch's request leaves the SM texture_latency cycles after its
// issue and then takes what a global load's takes, so the second kernel is texture_latency (37) cycles longer
// than the first, and the third 37 longer than the fourth (only the fetch pays it, not the load after it).
// With texture_latency 0 a texture fetch is a global load: no difference.
std::vector<std::unique_ptr<KernelProgram>> texture_kernels() {
  auto fetch = [](std::uint64_t line) {
    Step s = load_line(line);
    s.texture = true;
    return s;
  };
  std::vector<std::unique_ptr<KernelProgram>> p;
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{load_line(4000)}}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{fetch(5000)}}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{fetch(6000), load_line(7000)}}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{load_line(8000), load_line(9000)}}));
  return p;
}

TEST_F(SmTiming, ATextureFetchPassesTheTexturePipelineFirst) {
  SystemSpec spec = small_spec(1);
  spec.sm.texture_latency = 37;
  const std::vector<double> c = run(spec, texture_kernels());
  EXPECT_EQ(c[1] - c[0], 37.0);
  EXPECT_EQ(c[2] - c[3], 37.0);
}

TEST_F(SmTiming, WithoutATexturePipelineATextureFetchIsAGlobalLoad) {
  SystemSpec spec = small_spec(1);
  spec.sm.texture_latency = 0;
  const std::vector<double> c = run(spec, texture_kernels());
  EXPECT_EQ(c[1], c[0]);
  EXPECT_EQ(c[2], c[3]);
}

// A warp with more scoreboarded loads in flight than its ring holds (Sm::kPendingLoads, 32): 40 loads of
// cold lines, a wait for the last and one instruction, against the same 40 loads each waited at. L is a
// lone cold load's latency (the reference kernel's cycles less an empty kernel's). Loads 1..32 issue at t0 ..
// t0 + 31; load 33 waits for load 1 (back at t0 + L or later), so the last load is back at t0 + 2L or
// later: the kernel takes at least L + 1 more than the reference. Loads 33..40 issue as loads 1..8 come
// back, so unless the memory delays each by a whole L it ends before t0 + 3L: less than 2L more. Waited at
// one by one, the 40 loads take at least 40 L: 39 L more than the reference.
std::vector<std::unique_ptr<KernelProgram>> many_loads_kernels(std::uint32_t loads) {
  std::vector<Step> warp;
  for (std::uint32_t i = 0; i < loads; ++i)
    warp.push_back(scoreboarded_load(3000 + i));
  warp.push_back(wait_through(loads));
  warp.push_back(one_instruction());
  std::vector<Step> blocking;
  for (std::uint32_t i = 0; i < loads; ++i)
    blocking.push_back(load_line(5000 + i));
  std::vector<std::unique_ptr<KernelProgram>> p;
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{load_line(1000)}}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{warp}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{blocking}));
  p.push_back(std::make_unique<Steps>(std::vector<std::vector<Step>>{{}}));
  return p;
}

TEST_F(SmTiming, MoreLoadsInFlightThanTheRingHoldsWaitForTheOldest) {
  SystemSpec spec = small_spec(1);
  spec.sm.nonblocking_loads = true;
  const std::vector<double> c = run(spec, many_loads_kernels(40));
  const double latency = c[0] - c[3];
  ASSERT_GT(latency, 40.0);  // the loads issue faster than they come back (the derivation's assumption)
  EXPECT_GE(c[1] - c[0], latency + 1);
  EXPECT_LT(c[1] - c[0], 2 * latency);
  EXPECT_GE(c[2] - c[0], 39 * latency);
}

}  // namespace
}  // namespace numagpu
