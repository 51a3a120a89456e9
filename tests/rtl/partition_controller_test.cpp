// policy::PartitionController with scripted inputs: every rule, the one-way floors, kernel launch and the
// exact decision timing. Expected values are derived by hand in the comments (docs/policies.md).
#include "policy/partition_controller.hpp"

#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace numagpu::policy {
namespace {

using D = PartitionController::Decision;
using In = PartitionController::Inputs;
using Out = PartitionController::Outputs;

// Default thresholds, resp 144 B and ingress 64 B/cycle, 99/100.
PartitionController::Params params(std::uint32_t ways, std::uint32_t sample) {
  PartitionController::Params p;
  p.ways = ways;
  p.sample_cycles = sample;
  return p;
}

In traffic(bool dram, std::uint16_t reqs) {
  In in;
  in.dram_busy = dram;
  in.read_reqs = reqs;
  return in;
}

Out run(PartitionController& pc, std::uint64_t n, const In& in) {
  Out out = pc.outputs();
  for (std::uint64_t i = 0; i < n; ++i)
    out = pc.step(in);
  return out;
}

// The decisions of `windows` windows of identical traffic.
std::vector<D> decisions(PartitionController& pc, int windows, const In& in) {
  std::vector<D> seen;
  for (std::uint64_t c = 0; c < windows * std::uint64_t{pc.params().sample_cycles}; ++c) {
    const Out o = pc.step(in);
    if (o.decision_valid) seen.push_back(o.decision);
  }
  return seen;
}

TEST(PartitionControllerTest, ResetStateIsTheEqualSplit) {
  const PartitionController pc;
  const Out o = pc.outputs();
  EXPECT_EQ(o.remote_ways, 8u);
  EXPECT_EQ(o.local_ways, 8u);
  EXPECT_EQ(o.remote_mask, 0xFF00u);  // remote lines allocate into the top ways
  EXPECT_FALSE(o.decision_valid);
  EXPECT_EQ(o.decision, D::kNone);
  // ceil(99 * 5000 / 100) busy cycles; 99 * 64 * 5000 / (144 * 100) = 2200 requests exactly.
  EXPECT_EQ(pc.dram_threshold(), 4950u);
  EXPECT_EQ(pc.link_threshold(), 2200u);
}

TEST(PartitionControllerTest, OddWaysRoundTheRemoteHalfDown) {
  const PartitionController pc(params(5, 10));
  EXPECT_EQ(pc.outputs().remote_ways, 2u);
  EXPECT_EQ(pc.outputs().local_ways, 3u);
  EXPECT_EQ(pc.outputs().remote_mask, 0b11000u);
}

TEST(PartitionControllerTest, ParametersAreValidated) {
  PartitionController::Params p;
  p.ways = 1;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  p.ways = 65;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  p = {};
  p.sample_cycles = 0;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  p = {};
  p.sat_num = 0;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  p = {};
  p.sat_den = 0;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  p = {};
  p.resp_bytes = 0;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  p = {};
  p.ingress_bytes_per_cycle = 0;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  // Upper limits shared with the RTL's elaboration checks (docs/policies.md, "Parameter limits").
  p = {};
  p.sample_cycles = 1u << 31;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  p = {};
  p.resp_bytes = 1u << 16;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  p = {};
  p.ingress_bytes_per_cycle = 1u << 16;
  EXPECT_THROW(PartitionController{p}, std::invalid_argument);
  p = {};
  p.ways = 64;
  EXPECT_NO_THROW(PartitionController{p});
}

// 100-cycle windows: DRAM saturates at 99 busy cycles; the link estimate at 99*64*100 / (144*100) = 44
// requests (exactly: 44 * 144 * 100 == 99 * 64 * 100).
TEST(PartitionControllerTest, SaturationIsExactAtTheThresholds) {
  PartitionController pc(params(16, 100));
  EXPECT_EQ(pc.dram_threshold(), 99u);
  EXPECT_EQ(pc.link_threshold(), 44u);
  run(pc, 43, traffic(false, 1));
  Out o = run(pc, 57, traffic(false, 0));  // 43 requests
  EXPECT_EQ(o.decision, D::kNone);
  run(pc, 44, traffic(false, 1));
  o = run(pc, 56, traffic(false, 0));  // 44 requests
  EXPECT_EQ(o.decision, D::kToRemote);
  EXPECT_EQ(pc.last_read_reqs(), 44u);
  run(pc, 98, traffic(true, 0));
  o = run(pc, 2, traffic(false, 0));  // 98 busy cycles
  EXPECT_EQ(o.decision, D::kNone);
  run(pc, 99, traffic(true, 0));
  o = run(pc, 1, traffic(false, 0));  // 99 busy cycles
  EXPECT_EQ(o.decision, D::kToLocal);
}

// Several requests per cycle all count: 10-cycle windows saturate at ceil(99*64*10 / 14400) = ceil(4.4) = 5.
TEST(PartitionControllerTest, RequestsPerCycleAccumulate) {
  PartitionController pc(params(4, 10));
  EXPECT_EQ(pc.link_threshold(), 5u);
  run(pc, 1, traffic(false, 3));
  run(pc, 1, traffic(false, 1));
  Out o = run(pc, 8, traffic(false, 0));  // 4 requests
  EXPECT_EQ(o.decision, D::kNone);
  run(pc, 1, traffic(false, 3));
  run(pc, 1, traffic(false, 2));
  o = run(pc, 8, traffic(false, 0));  // 5 requests
  EXPECT_EQ(o.decision, D::kToRemote);
}

// The decision lands at the edge that ends the window: visible, with the new split and mask, in the first
// cycle of the next window, for that cycle only as decision_valid.
TEST(PartitionControllerTest, DecisionTiming) {
  PartitionController pc(params(4, 10));
  Out o = run(pc, 9, traffic(false, 1));  // outputs of cycle 9, the window's last cycle
  EXPECT_FALSE(o.decision_valid);
  EXPECT_EQ(o.remote_ways, 2u);
  EXPECT_EQ(o.remote_mask, 0b1100u);
  o = pc.step(traffic(false, 1));  // outputs of cycle 10
  EXPECT_TRUE(o.decision_valid);
  EXPECT_EQ(o.decision, D::kToRemote);
  EXPECT_EQ(o.remote_ways, 3u);
  EXPECT_EQ(o.local_ways, 1u);
  EXPECT_EQ(o.remote_mask, 0b1110u);
  o = pc.step(traffic(false, 0));  // cycle 11: the pulse is over, the code is held
  EXPECT_FALSE(o.decision_valid);
  EXPECT_EQ(o.decision, D::kToRemote);
}

TEST(PartitionControllerTest, LinkSaturationMovesWaysToRemoteUntilOneLocalWay) {
  PartitionController pc(params(16, 10));
  const auto seen = decisions(pc, 9, traffic(false, 3));  // 8 -> 15 remote in 7 windows, then blocked
  std::vector<D> expect(7, D::kToRemote);
  expect.push_back(D::kBlockedToRemote);
  expect.push_back(D::kBlockedToRemote);
  EXPECT_EQ(seen, expect);
  EXPECT_EQ(pc.remote_ways(), 15u);
  EXPECT_EQ(pc.outputs().remote_mask, 0xFFFEu);
}

TEST(PartitionControllerTest, DramSaturationMovesWaysToLocalUntilOneRemoteWay) {
  PartitionController pc(params(16, 10));
  const auto seen = decisions(pc, 8, traffic(true, 0));  // 8 -> 1 remote in 7 windows, then blocked
  std::vector<D> expect(7, D::kToLocal);
  expect.push_back(D::kBlockedToLocal);
  EXPECT_EQ(seen, expect);
  EXPECT_EQ(pc.remote_ways(), 1u);
  EXPECT_EQ(pc.outputs().remote_mask, 0x8000u);
}

TEST(PartitionControllerTest, BothSaturatedStepTowardEqualFromEitherSide) {
  PartitionController pc(params(8, 10));
  decisions(pc, 3, traffic(false, 3));  // remote 4 -> 7
  ASSERT_EQ(pc.remote_ways(), 7u);
  EXPECT_EQ(decisions(pc, 4, traffic(true, 3)),
            (std::vector<D>{D::kEqualizeToLocal, D::kEqualizeToLocal, D::kEqualizeToLocal, D::kBalanced}));
  decisions(pc, 3, traffic(true, 0));  // remote 4 -> 1
  ASSERT_EQ(pc.remote_ways(), 1u);
  EXPECT_EQ(decisions(pc, 4, traffic(true, 3)),
            (std::vector<D>{D::kEqualizeToRemote, D::kEqualizeToRemote, D::kEqualizeToRemote, D::kBalanced}));
  EXPECT_EQ(pc.remote_ways(), 4u);
}

TEST(PartitionControllerTest, NeitherSaturatedDoesNothing) {
  PartitionController pc(params(8, 10));
  EXPECT_EQ(decisions(pc, 3, traffic(false, 0)), (std::vector<D>{D::kNone, D::kNone, D::kNone}));
  In half;
  half.read_reqs = 0;
  for (int c = 0; c < 10; ++c) {
    half.dram_busy = c % 2 == 0;  // 5 of 10 busy, 0 requests
    pc.step(half);
  }
  EXPECT_EQ(pc.outputs().decision, D::kNone);
  EXPECT_EQ(pc.remote_ways(), 4u);
}

TEST(PartitionControllerTest, KernelLaunchRestoresTheEqualSplit) {
  PartitionController pc(params(8, 10));
  decisions(pc, 2, traffic(false, 3));
  ASSERT_EQ(pc.remote_ways(), 6u);
  In l;
  l.kernel_launch = true;
  l.dram_busy = true;
  l.read_reqs = 3;
  Out o = pc.step(l);
  EXPECT_EQ(o.remote_ways, 4u);
  EXPECT_EQ(o.decision, D::kNone);
  EXPECT_EQ(pc.window_cycle(), 0u);
  EXPECT_EQ(pc.read_req_count(), 0u);  // the launch cycle's requests are discarded
  EXPECT_EQ(pc.dram_busy_count(), 0u);
  // In a window's last cycle the launch suppresses the decision.
  run(pc, 9, traffic(false, 3));
  o = pc.step(l);
  EXPECT_FALSE(o.decision_valid);
  EXPECT_EQ(o.remote_ways, 4u);
  EXPECT_EQ(pc.counters().launches, 2u);
  EXPECT_EQ(pc.counters().windows, 2u);
}

TEST(PartitionControllerTest, ResetBehavesLikeALaunchAndKeepsCoverage) {
  PartitionController pc(params(8, 10));
  decisions(pc, 2, traffic(true, 0));
  pc.reset();
  EXPECT_EQ(pc.remote_ways(), 4u);
  EXPECT_EQ(pc.coverage(D::kToLocal), 2u);
  pc.clear_coverage();
  EXPECT_EQ(pc.coverage(D::kToLocal), 0u);
}

TEST(PartitionControllerTest, TwoWaysNeverMove) {
  PartitionController pc(params(2, 10));
  EXPECT_EQ(decisions(pc, 1, traffic(false, 3)), (std::vector<D>{D::kBlockedToRemote}));
  EXPECT_EQ(decisions(pc, 1, traffic(true, 0)), (std::vector<D>{D::kBlockedToLocal}));
  EXPECT_EQ(decisions(pc, 1, traffic(true, 3)), (std::vector<D>{D::kBalanced}));
  EXPECT_EQ(pc.remote_ways(), 1u);
}

TEST(PartitionControllerTest, InvariantsHoldUnderRandomInputs) {
  for (const std::uint32_t ways : {2u, 3u, 16u, 64u}) {
    PartitionController pc(params(ways, 7));
    std::mt19937 rng(ways);
    for (int c = 0; c < 200000; ++c) {
      In in;
      in.dram_busy = rng() % 4 != 0;
      in.read_reqs = static_cast<std::uint16_t>(rng() % 4);
      in.kernel_launch = rng() % 1009 == 0;
      const std::uint32_t before = pc.remote_ways();
      const Out o = pc.step(in);
      ASSERT_GE(o.remote_ways, 1u);
      ASSERT_LE(o.remote_ways, ways - 1);
      ASSERT_EQ(o.remote_ways + o.local_ways, ways);
      ASSERT_EQ(static_cast<std::uint32_t>(__builtin_popcountll(o.remote_mask)), o.remote_ways);
      ASSERT_EQ(o.remote_mask >> o.local_ways << o.local_ways, o.remote_mask);  // all above the local ways
      if (!in.kernel_launch) {
        ASSERT_LE(o.remote_ways, before + 1);
        ASSERT_LE(before, o.remote_ways + 1);
        if (o.remote_ways != before) {
          ASSERT_TRUE(o.decision_valid);  // only at a window end
        }
      }
    }
  }
}

}  // namespace
}  // namespace numagpu::policy
