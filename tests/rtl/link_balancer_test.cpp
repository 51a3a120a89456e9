// policy::LinkBalancer with scripted inputs: every rule, the one-lane floor, kernel launch, and the exact
// turnaround timing. Expected values are derived by hand in the comments (docs/policies.md is the contract).
#include "policy/link_balancer.hpp"

#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace numagpu::policy {
namespace {

using D = LinkBalancer::Decision;
using In = LinkBalancer::Inputs;
using Out = LinkBalancer::Outputs;

LinkBalancer::Params params(std::uint32_t lanes, std::uint32_t sample, std::uint32_t sw,
                            std::uint32_t num = 99, std::uint32_t den = 100) {
  LinkBalancer::Params p;
  p.lanes = lanes;
  p.sample_cycles = sample;
  p.switch_cycles = sw;
  p.sat_num = num;
  p.sat_den = den;
  return p;
}

In busy(bool a, bool b, bool drained = true) {
  In in;
  in.busy_a = a;
  in.busy_b = b;
  in.drained = drained;
  return in;
}

In launch() {
  In in;
  in.kernel_launch = true;
  in.busy_a = in.busy_b = in.drained = true;  // all to be discarded
  return in;
}

// Steps `n` cycles with the same inputs; returns the outputs after the last.
Out run(LinkBalancer& lb, std::uint64_t n, const In& in) {
  Out out = lb.outputs();
  for (std::uint64_t i = 0; i < n; ++i)
    out = lb.step(in);
  return out;
}

TEST(LinkBalancerTest, ResetStateIsSymmetric) {
  const LinkBalancer lb;  // 16 lanes: lanes 0..7 carry A, 8..15 carry B
  const Out o = lb.outputs();
  EXPECT_EQ(o.lanes_a, 8u);
  EXPECT_EQ(o.lanes_b, 8u);
  EXPECT_EQ(o.lane_dir, 0xFF00u);
  EXPECT_EQ(o.lane_quiesce, 0u);
  EXPECT_EQ(o.lane_switch, 0u);
  EXPECT_FALSE(o.decision_valid);
  EXPECT_EQ(o.decision, D::kNone);
  EXPECT_EQ(lb.saturation_threshold(), 4950u);  // ceil(99 * 5000 / 100)
}

TEST(LinkBalancerTest, ParametersAreValidated) {
  EXPECT_THROW(LinkBalancer(params(3, 10, 1)), std::invalid_argument);   // odd
  EXPECT_THROW(LinkBalancer(params(0, 10, 1)), std::invalid_argument);   // no lanes
  EXPECT_THROW(LinkBalancer(params(66, 10, 1)), std::invalid_argument);  // wider than the lane masks
  EXPECT_THROW(LinkBalancer(params(4, 0, 1)), std::invalid_argument);
  EXPECT_THROW(LinkBalancer(params(4, 10, 0)), std::invalid_argument);
  EXPECT_THROW(LinkBalancer(params(4, 10, 1, 0, 100)), std::invalid_argument);
  EXPECT_THROW(LinkBalancer(params(4, 10, 1, 99, 0)), std::invalid_argument);
  // Upper limits shared with the RTL's elaboration checks (docs/policies.md, "Parameter limits").
  EXPECT_THROW(LinkBalancer(params(4, 1u << 31, 1)), std::invalid_argument);
  EXPECT_THROW(LinkBalancer(params(4, 10, 1u << 31)), std::invalid_argument);
  EXPECT_THROW(LinkBalancer(params(4, 10, 1, 1u << 16, 100)), std::invalid_argument);
  EXPECT_THROW(LinkBalancer(params(4, 10, 1, 99, 1u << 16)), std::invalid_argument);
  EXPECT_NO_THROW(LinkBalancer(params(4, (1u << 31) - 1, 1, 65535, 65535)));
  EXPECT_NO_THROW(LinkBalancer(params(2, 1, 1)));
  EXPECT_NO_THROW(LinkBalancer(params(64, 10, 1)));
}

// The exact example of docs/policies.md: 4 lanes, 4-cycle windows, 2-cycle switch; 99 % of 4 cycles needs
// all 4 (ceil(3.96)). A busy always, B never; drained first high in cycle 6.
TEST(LinkBalancerTest, TurnTimingQuiesceThenSwitch) {
  LinkBalancer lb(params(4, 4, 2));
  // Cycles 0..3: window 0; the decision lands at the edge ending cycle 3.
  for (int c = 0; c <= 2; ++c) {
    const Out o = lb.step(busy(true, false, false));  // outputs of cycle c+1
    EXPECT_EQ(o.lanes_a, 2u);
    EXPECT_FALSE(o.decision_valid);
  }
  Out o = lb.step(busy(true, false, false));  // outputs of cycle 4
  EXPECT_TRUE(o.decision_valid);
  EXPECT_EQ(o.decision, D::kTurnToA);
  EXPECT_EQ(o.lanes_a, 2u);            // the turning lane joins A only when active
  EXPECT_EQ(o.lanes_b, 1u);            // ... but leaves B at once
  EXPECT_EQ(o.lane_quiesce, 0b0100u);  // lane 2, the lowest B lane
  EXPECT_EQ(o.lane_switch, 0u);
  EXPECT_EQ(o.lane_dir, 0b1000u);         // lane 2 shows its destination, A
  o = lb.step(busy(true, false, false));  // cycle 4 not drained -> cycle 5 quiescing
  EXPECT_FALSE(o.decision_valid);
  EXPECT_EQ(o.lane_quiesce, 0b0100u);
  o = lb.step(busy(true, false, false));  // cycle 5 not drained -> cycle 6 quiescing
  EXPECT_EQ(o.lane_quiesce, 0b0100u);
  o = lb.step(busy(true, false, true));  // cycle 6 drained -> cycle 7 switching (1st of 2)
  EXPECT_EQ(o.lane_quiesce, 0u);
  EXPECT_EQ(o.lane_switch, 0b0100u);
  EXPECT_EQ(lb.switch_remaining(), 1u);
  EXPECT_EQ(o.lanes_a + o.lanes_b, 3u);
  o = lb.step(busy(true, false, true));  // cycle 8: switching (2nd); window 1 (cycles 4..7) ended in a turn
  EXPECT_EQ(o.lane_switch, 0b0100u);
  EXPECT_TRUE(o.decision_valid);
  EXPECT_EQ(o.decision, D::kBusyTurning);
  o = lb.step(busy(true, false, true));  // cycle 9: lane 2 active in A
  EXPECT_EQ(o.lane_switch, 0u);
  EXPECT_EQ(o.lanes_a, 3u);
  EXPECT_EQ(o.lanes_b, 1u);
  EXPECT_EQ(o.lane_dir, 0b1000u);
  EXPECT_FALSE(o.decision_valid);
  EXPECT_EQ(o.decision, D::kBusyTurning);   // held
  o = run(lb, 3, busy(true, false, true));  // cycles 9..11 -> cycle 12: B is at its floor
  EXPECT_TRUE(o.decision_valid);
  EXPECT_EQ(o.decision, D::kBlockedToA);
  EXPECT_EQ(o.lanes_a, 3u);
  EXPECT_EQ(o.lanes_b, 1u);
  EXPECT_EQ(lb.counters().turns_completed, 1u);
}

// drained in the very first quiescing cycle: the quiesce lasts one cycle.
TEST(LinkBalancerTest, DrainedAtOnceQuiescesOneCycle) {
  LinkBalancer lb(params(4, 4, 3));
  Out o = run(lb, 4, busy(false, true));  // window 0 saturates B -> cycle 4: lane 1 (highest A) quiesces
  EXPECT_EQ(o.decision, D::kTurnToB);
  EXPECT_EQ(o.lane_quiesce, 0b0010u);
  EXPECT_EQ(o.lane_dir, 0b1110u);  // lane 1 shows its destination, B
  EXPECT_EQ(o.lanes_a, 1u);
  EXPECT_EQ(o.lanes_b, 2u);
  o = lb.step(busy(false, true));  // cycle 4 drained -> cycles 5, 6, 7 switching
  EXPECT_EQ(o.lane_switch, 0b0010u);
  o = run(lb, 2, busy(false, true));  // cycle 7
  EXPECT_EQ(o.lane_switch, 0b0010u);
  o = lb.step(busy(false, true));  // cycle 8: active in B; window 1 (4..7) saw the turn
  EXPECT_EQ(o.lane_switch, 0u);
  EXPECT_EQ(o.lanes_a, 1u);
  EXPECT_EQ(o.lanes_b, 3u);
  EXPECT_EQ(o.lane_dir, 0b1110u);
  EXPECT_EQ(o.decision, D::kBusyTurning);
}

TEST(LinkBalancerTest, DrainedIsIgnoredWithoutAQuiescingLane) {
  LinkBalancer lb(params(4, 4, 2));
  const Out o = run(lb, 12, busy(false, false, true));
  EXPECT_EQ(o.lanes_a, 2u);
  EXPECT_EQ(o.lanes_b, 2u);
  EXPECT_EQ(o.lane_switch, 0u);
  EXPECT_EQ(lb.coverage(D::kNone), 3u);
}

// The threshold is an integer comparison: with 100-cycle windows, 99/100 needs 99 busy cycles.
TEST(LinkBalancerTest, SaturationIsExactAtTheThreshold) {
  LinkBalancer lb(params(8, 100, 1));
  EXPECT_EQ(lb.saturation_threshold(), 99u);
  Out o = run(lb, 98, busy(true, false));
  o = run(lb, 2, busy(false, false));  // 98 busy of 100: not saturated
  EXPECT_EQ(o.decision, D::kNone);
  o = run(lb, 99, busy(true, false));
  o = run(lb, 1, busy(false, false));  // 99 busy: saturated
  EXPECT_EQ(o.decision, D::kTurnToA);
  EXPECT_EQ(lb.last_busy_a(), 99u);
  // 9/10 of 7 cycles is 6.3: 7 busy cycles needed, 6 are not enough.
  LinkBalancer odd(params(8, 7, 1, 9, 10));
  EXPECT_EQ(odd.saturation_threshold(), 7u);
  o = run(odd, 6, busy(false, true));
  o = run(odd, 1, busy(false, false));
  EXPECT_EQ(o.decision, D::kNone);
}

// One-sided saturation walks the link one lane per window to the floor, then is blocked. 8 lanes (4/4),
// 8-cycle windows, 1-cycle switch, drained at once: the turn decided at the end of window k quiesces in cycle
// 8(k+1), switches in 8(k+1)+1 and is active from 8(k+1)+2, well inside window k+1.
TEST(LinkBalancerTest, OneSidedSaturationWalksToTheFloor) {
  LinkBalancer lb(params(8, 8, 1));
  std::vector<D> seen;
  for (int c = 0; c < 8 * 6; ++c) {
    const Out o = lb.step(busy(true, false));  // outputs of cycle c + 1
    if (o.decision_valid) seen.push_back(o.decision);
    if (c + 1 == 9) {
      EXPECT_EQ(o.lanes_a, 4u);  // switching
    }
    if (c + 1 == 10) {
      EXPECT_EQ(o.lanes_a, 5u);  // active in A
    }
  }
  EXPECT_EQ(seen, (std::vector<D>{D::kTurnToA, D::kTurnToA, D::kTurnToA, D::kBlockedToA, D::kBlockedToA,
                                  D::kBlockedToA}));
  EXPECT_EQ(lb.lanes_a(), 7u);
  EXPECT_EQ(lb.lanes_b(), 1u);
  EXPECT_EQ(lb.outputs().lane_dir, 0b1000'0000u);  // only lane 7 still carries B
}

TEST(LinkBalancerTest, OneSidedSaturationTowardBStopsAtOneALane) {
  LinkBalancer lb(params(8, 8, 1));
  std::vector<D> seen;
  for (int c = 0; c < 8 * 5; ++c) {
    const Out o = lb.step(busy(false, true));
    if (o.decision_valid) seen.push_back(o.decision);
  }
  EXPECT_EQ(seen, (std::vector<D>{D::kTurnToB, D::kTurnToB, D::kTurnToB, D::kBlockedToB, D::kBlockedToB}));
  EXPECT_EQ(lb.lanes_a(), 1u);
  EXPECT_EQ(lb.lanes_b(), 7u);
  EXPECT_EQ(lb.outputs().lane_dir, 0b1111'1110u);
}

// Both saturated on an asymmetric link: one lane per window back toward symmetric, then nothing.
TEST(LinkBalancerTest, BothSaturatedRebalancesTowardSymmetric) {
  LinkBalancer lb(params(8, 8, 1));
  run(lb, 16, busy(true, false));  // two windows: 6/2
  ASSERT_EQ(lb.lanes_a(), 5u);     // the second turn is still in flight (cycle 16: quiescing)
  run(lb, 2, busy(true, true));    // cycles 16, 17: the turn completes -> 6/2
  ASSERT_EQ(lb.lanes_a(), 6u);
  std::vector<D> seen;
  for (int c = 0; c < 6 + 8 * 3; ++c) {
    const Out o = lb.step(busy(true, true));
    if (o.decision_valid) seen.push_back(o.decision);
  }
  // Window 2 (cycles 16..23): 6 > 2 -> toward B; window 3: 5 > 3 -> toward B; windows 4, 5: 4 == 4.
  EXPECT_EQ(seen, (std::vector<D>{D::kRebalanceToB, D::kRebalanceToB, D::kBalanced, D::kBalanced}));
  run(lb, 8, busy(true, true));
  EXPECT_EQ(lb.outputs().decision, D::kBalanced);
  EXPECT_EQ(lb.lanes_a(), 4u);
  EXPECT_EQ(lb.lanes_b(), 4u);
}

TEST(LinkBalancerTest, BothSaturatedRebalancesTowardA) {
  LinkBalancer lb(params(4, 8, 1));
  run(lb, 8, busy(false, true));  // -> 1/3 after the turn
  run(lb, 8, busy(true, true));   // window 1: 1 < 3 -> a B lane turns back toward A
  EXPECT_EQ(lb.outputs().decision, D::kRebalanceToA);
  EXPECT_EQ(lb.outputs().lane_quiesce, 0b0010u);  // lane 1, the lowest B lane
  run(lb, 8, busy(true, true));
  EXPECT_EQ(lb.outputs().decision, D::kBalanced);
  EXPECT_EQ(lb.lanes_a(), 2u);
}

TEST(LinkBalancerTest, NeitherSaturatedDoesNothing) {
  LinkBalancer lb(params(4, 10, 1));
  In half;
  for (int c = 0; c < 30; ++c) {
    half.busy_a = c % 2 == 0;
    half.busy_b = c % 3 == 0;
    lb.step(half);
  }
  EXPECT_EQ(lb.coverage(D::kNone), 3u);
  EXPECT_EQ(lb.lanes_a(), 2u);
}

// A window that ends during a turn takes no decision, so at most one lane turns at a time.
TEST(LinkBalancerTest, WindowsEndingDuringATurnPass) {
  LinkBalancer lb(params(8, 4, 2));
  run(lb, 4, busy(true, false, false));  // turn starts; never drained
  const Out o = run(lb, 12, busy(true, false, false));
  EXPECT_EQ(lb.coverage(D::kBusyTurning), 3u);
  EXPECT_EQ(o.lanes_a, 4u);
  EXPECT_EQ(o.lanes_b, 3u);
  EXPECT_EQ(o.lane_quiesce, 0b0001'0000u);  // still lane 4
}

TEST(LinkBalancerTest, KernelLaunchAbandonsATurnAndRestoresSymmetry) {
  LinkBalancer lb(params(4, 4, 5));
  run(lb, 4, busy(true, false, false));  // lane 2 quiescing
  Out o = lb.step(launch());
  EXPECT_EQ(o.lanes_a, 2u);
  EXPECT_EQ(o.lanes_b, 2u);
  EXPECT_EQ(o.lane_quiesce, 0u);
  EXPECT_EQ(o.lane_dir, 0b1100u);
  EXPECT_EQ(o.decision, D::kNone);  // the held decision is cleared too
  EXPECT_EQ(lb.window_cycle(), 0u);
  EXPECT_EQ(lb.counters().turns_abandoned, 1u);
  // Same while switching.
  run(lb, 4, busy(true, false, true));   // lane 2 quiescing ...
  o = lb.step(busy(true, false, true));  // ... and switching
  ASSERT_EQ(o.lane_switch, 0b0100u);
  o = lb.step(launch());
  EXPECT_EQ(o.lane_switch, 0u);
  EXPECT_EQ(o.lanes_a + o.lanes_b, 4u);
  EXPECT_EQ(lb.counters().turns_abandoned, 2u);
  EXPECT_EQ(lb.counters().launches, 2u);
}

// A launch discards the inputs of its own cycle: in the window's last cycle it suppresses the decision, and
// its busy cycle does not count in the next window.
TEST(LinkBalancerTest, KernelLaunchDiscardsItsCycle) {
  LinkBalancer lb(params(4, 4, 1));
  run(lb, 3, busy(true, false));
  Out o = lb.step(launch());  // would have been the window's 4th busy cycle
  EXPECT_FALSE(o.decision_valid);
  EXPECT_EQ(lb.coverage(D::kTurnToA), 0u);
  run(lb, 3, busy(true, false));
  o = lb.step(busy(false, false));  // 3 busy of 4: not saturated (the launch's busy was not counted)
  EXPECT_TRUE(o.decision_valid);
  EXPECT_EQ(o.decision, D::kNone);
}

TEST(LinkBalancerTest, ResetBehavesLikeALaunchAndKeepsCoverage) {
  LinkBalancer lb(params(4, 4, 1));
  run(lb, 4, busy(true, false, false));
  lb.reset();
  EXPECT_EQ(lb.outputs().lanes_b, 2u);
  EXPECT_FALSE(lb.turning());
  EXPECT_EQ(lb.coverage(D::kTurnToA), 1u);
  lb.clear_coverage();
  EXPECT_EQ(lb.coverage(D::kTurnToA), 0u);
}

TEST(LinkBalancerTest, TwoLanesNeverTurn) {
  LinkBalancer lb(params(2, 3, 1));
  run(lb, 3, busy(true, false));
  EXPECT_EQ(lb.outputs().decision, D::kBlockedToA);
  run(lb, 3, busy(false, true));
  EXPECT_EQ(lb.outputs().decision, D::kBlockedToB);
  run(lb, 3, busy(true, true));
  EXPECT_EQ(lb.outputs().decision, D::kBalanced);
  EXPECT_EQ(lb.lanes_a(), 1u);
  EXPECT_EQ(lb.lanes_b(), 1u);
}

TEST(LinkBalancerTest, OneCycleWindowsDecideEveryCycle) {
  LinkBalancer lb(params(4, 1, 1));
  Out o = lb.step(busy(true, false));  // window = cycle 0 -> cycle 1: lane 2 quiescing, drained -> ...
  EXPECT_EQ(o.decision, D::kTurnToA);
  o = lb.step(busy(true, false));  // cycle 1: drained; window passes (turning)
  EXPECT_EQ(o.decision, D::kBusyTurning);
  EXPECT_EQ(o.lane_switch, 0b0100u);
  o = lb.step(busy(true, false));  // cycle 2: last switching cycle -> active in cycle 3
  EXPECT_EQ(o.lanes_a, 3u);
  o = lb.step(busy(true, false));
  EXPECT_EQ(o.decision, D::kBlockedToA);
}

// Invariants of docs/policies.md over random inputs (the formal proof covers the RTL; this covers the C++).
TEST(LinkBalancerTest, InvariantsHoldUnderRandomInputs) {
  for (const std::uint32_t lanes : {2u, 4u, 16u, 64u}) {
    LinkBalancer lb(params(lanes, 5, 2));
    std::mt19937 rng(lanes);
    for (int c = 0; c < 200000; ++c) {
      In in;
      in.busy_a = rng() % 8 != 0;
      in.busy_b = rng() % 3 == 0;
      in.drained = rng() % 4 == 0;
      in.kernel_launch = rng() % 997 == 0;
      const std::uint32_t before_a = lb.lanes_a(), before_b = lb.lanes_b();
      const Out o = lb.step(in);
      const std::uint32_t turning = lb.turning() ? 1 : 0;
      ASSERT_GE(o.lanes_a, 1u);
      ASSERT_GE(o.lanes_b, 1u);
      ASSERT_EQ(o.lanes_a + o.lanes_b + turning, lanes);
      const std::uint64_t all = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
      const std::uint64_t active = all & ~o.lane_quiesce & ~o.lane_switch;
      ASSERT_EQ(static_cast<std::uint32_t>(__builtin_popcountll(active & ~o.lane_dir)), o.lanes_a);
      ASSERT_EQ(static_cast<std::uint32_t>(__builtin_popcountll(active & o.lane_dir)), o.lanes_b);
      ASSERT_EQ(static_cast<std::uint32_t>(__builtin_popcountll(o.lane_quiesce | o.lane_switch)), turning);
      if (!in.kernel_launch) {
        ASSERT_LE(o.lanes_a, before_a + 1);
        ASSERT_LE(before_a, o.lanes_a + 1);
        ASSERT_LE(o.lanes_b, before_b + 1);
        ASSERT_LE(before_b, o.lanes_b + 1);
      }
    }
  }
}

TEST(LinkBalancerTest, DecisionNamesAreDistinct) {
  for (std::size_t i = 0; i < LinkBalancer::kNumDecisions; ++i) {
    for (std::size_t j = i + 1; j < LinkBalancer::kNumDecisions; ++j) {
      EXPECT_STRNE(LinkBalancer::name(static_cast<D>(i)), LinkBalancer::name(static_cast<D>(j)));
    }
  }
}

}  // namespace
}  // namespace numagpu::policy
