// rtl/cache_partition_ctrl.sv against policy::PartitionController in lockstep (Verilator --cc), every output
// every cycle: directed scenarios for every rule, then constrained-random traffic, on every parameter set.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "rtl_variants.hpp"
#include "tb/partition_ctrl_tb.hpp"

namespace numagpu::tb {
namespace {

using Pc = policy::PartitionController;
using Decision = Pc::Decision;

template <class Variant>
class PartitionCtrlLockstep : public ::testing::Test {};
using PartitionCtrlVariants = ::testing::Types<pc_default, pc_w2, pc_w4, pc_w5, pc_w16>;
TYPED_TEST_SUITE(PartitionCtrlLockstep, PartitionCtrlVariants, VariantName);

// Decisions a cache of `ways` ways can take: with two ways the split can never move.
bool reachable(Decision d, std::uint32_t ways) {
  if (ways > 2) return true;
  return d == Decision::kNone || d == Decision::kBalanced || d == Decision::kBlockedToRemote ||
         d == Decision::kBlockedToLocal;
}

TYPED_TEST(PartitionCtrlLockstep, DirectedScenarios) {
  using Block = PartitionCtrlBlock<TypeParam>;
  const Pc::Params p = TypeParam::params();
  for (const PartitionCtrlScenario& sc : partition_ctrl_scenarios(p, TypeParam::kReqW)) {
    RunOptions<Block> opt;
    opt.name = std::string(TypeParam::kName) + "_" + sc.name;
    opt.cycles = sc.steps.size() + 2;
    const auto steps = sc.steps;
    const auto r = run_lockstep<Block, ScriptStim<Pc>>(
        p, [steps] { return ScriptStim<Pc>(steps); }, opt);
    ASSERT_TRUE(r.ok) << r.report;
  }
}

TYPED_TEST(PartitionCtrlLockstep, RandomTrafficCoversEveryDecision) {
  using Block = PartitionCtrlBlock<TypeParam>;
  const Pc::Params p = TypeParam::params();
  for (const std::uint64_t seed : kSeeds) {
    RunOptions<Block> opt;
    opt.name = std::string(TypeParam::kName) + "_seed" + std::to_string(seed);
    opt.cycles = random_cycles(p.sample_cycles);
    const auto r = run_lockstep<Block, PartitionCtrlRandomStim>(
        p, [p, seed] { return PartitionCtrlRandomStim(p, TypeParam::kReqW, seed); }, opt);
    ASSERT_TRUE(r.ok) << r.report;
    ASSERT_EQ(r.cycles, opt.cycles);

    std::string line = "[coverage] " + opt.name + " cycles=" + std::to_string(r.cycles);
    for (std::size_t i = 0; i < Pc::kNumDecisions; ++i) {
      const auto d = static_cast<Decision>(i);
      line += std::string(" ") + Pc::name(d) + "=" + std::to_string(r.rtl_decisions[i]);
      EXPECT_EQ(r.rtl_decisions[i], r.ref->coverage(d)) << Pc::name(d);
      if (reachable(d, p.ways)) {
        EXPECT_GT(r.rtl_decisions[i], 0u) << opt.name << ": decision branch never taken: " << Pc::name(d);
      } else {
        EXPECT_EQ(r.rtl_decisions[i], 0u) << opt.name << ": unreachable branch taken: " << Pc::name(d);
      }
    }
    const PartitionCtrlBins& b = r.stim->bins();
    line += " | dram_at_thr=" + std::to_string(b.dram_at_threshold) +
            " dram_below_thr=" + std::to_string(b.dram_below_threshold) +
            " reqs_at_thr=" + std::to_string(b.reqs_at_threshold) +
            " reqs_below_thr=" + std::to_string(b.reqs_below_threshold) +
            " launch_at_end=" + std::to_string(b.launch_at_window_end) +
            " resets=" + std::to_string(b.resets) + " launches=" + std::to_string(r.ref->counters().launches);
    std::printf("%s\n", line.c_str());
    EXPECT_GT(b.dram_at_threshold, 0u);
    EXPECT_GT(b.dram_below_threshold, 0u);
    EXPECT_GT(b.reqs_at_threshold, 0u);
    EXPECT_GT(b.reqs_below_threshold, 0u);
    EXPECT_GT(b.launch_at_window_end, 0u);
    EXPECT_GT(b.resets, 0u);
  }
}

// The checker itself: the reference alone sees one extra read request in a window that sits one request
// below the link threshold, so only the reference moves a way at the window end.
TEST(PartitionCtrlLockstepSelfTest, DivergenceIsReportedWithWaveforms) {
  using Block = PartitionCtrlBlock<pc_w4>;
  const Pc::Params p = pc_w4::params();  // 4 ways, 64-cycle windows: the link threshold is 29 requests
  const Pc ref(p);
  ASSERT_EQ(ref.link_threshold(), 29u);
  const auto steps = PartitionCtrlScript(p, pc_w4::kReqW).window_with(0, 28).windows(1, false, false).build();
  RunOptions<Block> opt;
  opt.name = "pc_w4_selftest";
  opt.cycles = steps.size();
  opt.ref_fault = [](std::uint64_t cycle, Pc::Inputs& in) {
    if (cycle == 40) in.read_reqs = 1;
  };
  const auto r = run_lockstep<Block, ScriptStim<Pc>>(
      p, [steps] { return ScriptStim<Pc>(steps); }, opt);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.mismatch_cycle, 64u);  // the first cycle of the next window
  EXPECT_NE(r.report.find("remote_ways_o: rtl=2 ref=3"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("decision_o: rtl=0 ref=1"), std::string::npos) << r.report;
  const std::string base = vcd_dir() + "/pc_w4_selftest";
  ASSERT_TRUE(std::filesystem::exists(base + ".rtl.vcd")) << r.report;
  ASSERT_TRUE(std::filesystem::exists(base + ".ref.vcd")) << r.report;
  std::printf("%s", r.report.c_str());
}

}  // namespace
}  // namespace numagpu::tb
