// rtl/link_balancer.sv against policy::LinkBalancer in lockstep (Verilator --cc), every output every cycle:
// directed scenarios for every rule, then constrained-random traffic, on every verilated parameter set.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "rtl_variants.hpp"
#include "tb/link_balancer_tb.hpp"

namespace numagpu::tb {
namespace {

using Lb = policy::LinkBalancer;
using Decision = Lb::Decision;

template <class Variant>
class LinkBalancerLockstep : public ::testing::Test {};
using LinkBalancerVariants = ::testing::Types<lb_default, lb_l2, lb_l4, lb_l8, lb_l16>;
TYPED_TEST_SUITE(LinkBalancerLockstep, LinkBalancerVariants, VariantName);

// Decisions a link of `lanes` lanes can take: with two lanes nothing can ever turn.
bool reachable(Decision d, std::uint32_t lanes) {
  if (lanes > 2) return true;
  return d == Decision::kNone || d == Decision::kBalanced || d == Decision::kBlockedToA ||
         d == Decision::kBlockedToB;
}

TYPED_TEST(LinkBalancerLockstep, DirectedScenarios) {
  using Block = LinkBalancerBlock<TypeParam>;
  const Lb::Params p = TypeParam::params();
  for (const LinkBalancerScenario& sc : link_balancer_scenarios(p)) {
    RunOptions<Block> opt;
    opt.name = std::string(TypeParam::kName) + "_" + sc.name;
    opt.cycles = sc.steps.size() + 2;  // and two idle cycles to see the last decision land
    const auto steps = sc.steps;
    const auto r = run_lockstep<Block, ScriptStim<Lb>>(
        p, [steps] { return ScriptStim<Lb>(steps); }, opt);
    ASSERT_TRUE(r.ok) << r.report;
  }
}

TYPED_TEST(LinkBalancerLockstep, RandomTrafficCoversEveryDecision) {
  using Block = LinkBalancerBlock<TypeParam>;
  const Lb::Params p = TypeParam::params();
  for (const std::uint64_t seed : kSeeds) {
    RunOptions<Block> opt;
    opt.name = std::string(TypeParam::kName) + "_seed" + std::to_string(seed);
    opt.cycles = random_cycles(p.sample_cycles);
    const auto r = run_lockstep<Block, LinkBalancerRandomStim>(
        p, [p, seed] { return LinkBalancerRandomStim(p, seed); }, opt);
    ASSERT_TRUE(r.ok) << r.report;
    ASSERT_EQ(r.cycles, opt.cycles);

    // Functional coverage: every reachable decision branch, seen on the RTL's own decision_o, and equal to
    // the reference's counters (both count the same window ends).
    std::string line = "[coverage] " + opt.name + " cycles=" + std::to_string(r.cycles);
    for (std::size_t i = 0; i < Lb::kNumDecisions; ++i) {
      const auto d = static_cast<Decision>(i);
      line += std::string(" ") + Lb::name(d) + "=" + std::to_string(r.rtl_decisions[i]);
      EXPECT_EQ(r.rtl_decisions[i], r.ref->coverage(d)) << Lb::name(d);
      if (reachable(d, p.lanes)) {
        EXPECT_GT(r.rtl_decisions[i], 0u) << opt.name << ": decision branch never taken: " << Lb::name(d);
      } else {
        EXPECT_EQ(r.rtl_decisions[i], 0u) << opt.name << ": unreachable branch taken: " << Lb::name(d);
      }
    }
    const LinkBalancerBins& b = r.stim->bins();
    const Lb::Counters& k = r.ref->counters();
    line += " | at_thr=" + std::to_string(b.busy_at_threshold) +
            " below_thr=" + std::to_string(b.busy_below_threshold) +
            " launch_at_end=" + std::to_string(b.launch_at_window_end) +
            " drained_at_once=" + std::to_string(b.drained_at_once) +
            " drained_ignored=" + std::to_string(b.drained_ignored) + " resets=" + std::to_string(b.resets) +
            " launches=" + std::to_string(k.launches) + " turns_done=" + std::to_string(k.turns_completed) +
            " turns_abandoned=" + std::to_string(k.turns_abandoned);
    std::printf("%s\n", line.c_str());
    EXPECT_GT(b.busy_at_threshold, 0u);
    EXPECT_GT(b.busy_below_threshold, 0u);
    EXPECT_GT(b.launch_at_window_end, 0u);
    EXPECT_GT(b.drained_ignored, 0u);
    EXPECT_GT(b.resets, 0u);
    EXPECT_GT(k.launches, 0u);
    if (p.lanes > 2) {
      EXPECT_GT(b.drained_at_once, 0u);
      EXPECT_GT(k.turns_completed, 0u);
      EXPECT_GT(k.turns_abandoned, 0u);
    }
  }
}

// The checker itself: a divergence must be caught at the right cycle, reported with both sides, and written
// as waveforms. The reference alone sees `drained` two cycles early, so it starts switching while the RTL
// still quiesces.
TEST(LinkBalancerLockstepSelfTest, DivergenceIsReportedWithWaveforms) {
  using Block = LinkBalancerBlock<lb_l4>;
  const Lb::Params p = lb_l4::params();  // 4 lanes, 64-cycle windows, 5-cycle switch
  // Window 0 (cycles 0..63) saturates A: lane 2 quiesces from cycle 64. drained is low until cycle 70.
  const auto steps = LinkBalancerScript(p)
                         .windows(1, true, false, false)
                         .cycles(6, true, false, false)
                         .windows(1, true, false, true)
                         .build();
  RunOptions<Block> opt;
  opt.name = "lb_l4_selftest";
  opt.cycles = steps.size();
  opt.ref_fault = [](std::uint64_t cycle, Lb::Inputs& in) {
    if (cycle == 66) in.drained = true;  // reference: switching from cycle 67
  };
  const auto r = run_lockstep<Block, ScriptStim<Lb>>(
      p, [steps] { return ScriptStim<Lb>(steps); }, opt);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.mismatch_cycle, 67u);
  EXPECT_NE(r.report.find("lane_quiesce_o: rtl=4 ref=0"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("lane_switch_o: rtl=0 ref=4"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("cycle 66: rst_ni=1 kernel_launch_i=0 busy_a_i=1 busy_b_i=0 drained_i=0"),
            std::string::npos)
      << r.report;
  const std::string base = vcd_dir() + "/lb_l4_selftest";
  ASSERT_TRUE(std::filesystem::exists(base + ".rtl.vcd")) << r.report;
  ASSERT_TRUE(std::filesystem::exists(base + ".ref.vcd")) << r.report;
  EXPECT_GT(std::filesystem::file_size(base + ".rtl.vcd"), 0u);
  std::printf("%s", r.report.c_str());
}

}  // namespace
}  // namespace numagpu::tb
