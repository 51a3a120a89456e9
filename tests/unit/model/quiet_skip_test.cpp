// Idle time for free (policy/quiet_windows.hpp): a policy block driven the way Link and PartitionDriver drive
// it (by policy/policy_stepper.hpp: whole quiet windows skipped in the fixed point, quiet cycles inside a
// window skipped, everything else stepped) must be indistinguishable from the same block stepped every cycle.
// Checked for the C++ references and, when this numagpu has them, the Verilated RTL in the loop (whose
// in-window skip writes the window counter directly: rtl_loop/fast_forward.hpp).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policy/link_balancer.hpp"
#include "policy/partition_controller.hpp"
#include "policy/policy_impl.hpp"
#include "policy/policy_stepper.hpp"
#include "rtl_loop/rtl_builds.hpp"

namespace numagpu::policy {
namespace {

using Lb = LinkBalancer;
using Pc = PartitionController;

// ------------------------------------------------------------------------------ the references, by hand

// Window of 10 cycles: positions 0..9, the decision at position 9.
TEST(QuietSkip, LinkBalancerSkipsToTheWindowEndAndDecidesThere) {
  Lb::Params p;
  p.sample_cycles = 10;
  Lb lb(p);
  lb.step({});  // position 0
  EXPECT_EQ(lb.window_cycle(), 1u);
  EXPECT_THROW(lb.skip_quiet_cycles(9), std::logic_error);  // would cover position 9, the decision
  lb.skip_quiet_cycles(8);                                  // positions 1..8
  EXPECT_EQ(lb.window_cycle(), 9u);
  const Lb::Outputs out = lb.step({});  // position 9: the window ends, nothing was busy
  EXPECT_TRUE(out.decision_valid);
  EXPECT_EQ(out.decision, Lb::Decision::kNone);
  EXPECT_EQ(lb.counters().windows, 1u);
  EXPECT_THROW(lb.skip_quiet_cycles(1), std::logic_error);  // the decision pulse shows
}

// Busy counts survive a skip: A busy at positions 0 and 8, quiet 1..7 (skipped) and 9, counts 2 of 10 cycles,
// under the 99 % saturation threshold (ceil(0.99 * 10) = 10): decision none, as when stepping.
TEST(QuietSkip, LinkBalancerKeepsItsBusyCountsAcrossASkip) {
  Lb::Params p;
  p.sample_cycles = 10;
  Lb lb(p);
  Lb::Inputs busy;
  busy.busy_a = true;
  lb.step(busy);
  lb.skip_quiet_cycles(7);  // positions 1..7
  lb.step(busy);            // position 8
  const Lb::Outputs out = lb.step({});
  EXPECT_TRUE(out.decision_valid);
  EXPECT_EQ(out.decision, Lb::Decision::kNone);
  EXPECT_EQ(lb.last_busy_a(), 2u);
}

TEST(QuietSkip, LinkBalancerRefusesToSkipDuringATurn) {
  Lb::Params p;
  p.sample_cycles = 10;
  Lb lb(p);
  Lb::Inputs busy;
  busy.busy_a = true;
  for (int i = 0; i < 10; ++i)
    lb.step(busy);  // A busy the whole window: turn a lane toward A
  EXPECT_TRUE(lb.turning());
  lb.step({});  // the pulse ends; the lane is still quiescing (not drained)
  EXPECT_THROW(lb.skip_quiet_cycles(1), std::logic_error);
  EXPECT_FALSE(Lb::quiet_cycles_skippable(lb.outputs()));
}

TEST(QuietSkip, PartitionControllerSkipsToTheWindowEnd) {
  Pc::Params p;
  p.sample_cycles = 10;
  Pc pc(p);
  Pc::Inputs reads;
  reads.read_reqs = 3;
  pc.step(reads);  // position 0: 3 requests
  pc.skip_quiet_cycles(8);
  EXPECT_EQ(pc.window_cycle(), 9u);
  EXPECT_THROW(pc.skip_quiet_cycles(1), std::logic_error);  // position 9 is the decision
  const Pc::Outputs out = pc.step({});
  EXPECT_TRUE(out.decision_valid);
  EXPECT_EQ(pc.last_read_reqs(), 3u);
}

// ------------------------------------------------------------------------------ skipping == stepping

// Sparse traffic of the kind the skip is for: quiet gaps of up to 12,000 cycles, short bursts, long bursts
// that saturate a window (so lanes turn and ways move), and now and then a kernel launch.
template <class Inputs>
std::vector<Inputs> sparse_inputs(
    std::uint64_t cycles, std::uint64_t seed,
    const std::function<void(Inputs&, bool, std::uint64_t, std::mt19937_64&)>& busy) {
  std::mt19937_64 rng(seed);
  std::vector<Inputs> in(cycles);
  std::uint64_t c = std::uniform_int_distribution<std::uint64_t>(0, 3000)(rng);
  while (c < cycles) {
    const std::uint64_t kind = rng() % 10;
    const bool saturating = kind >= 6 && kind < 9;
    const std::uint64_t len = saturating ? 4000 + rng() % 8000 : (kind < 6 ? 1 + rng() % 40 : 1);
    const std::uint64_t burst = rng();  // what the burst does, for all its cycles
    for (std::uint64_t k = 0; k < len && c + k < cycles; ++k) {
      if (kind == 9) {
        in[c + k].kernel_launch = true;
      } else {
        busy(in[c + k], saturating, burst, rng);
      }
    }
    c += len + std::uniform_int_distribution<std::uint64_t>(0, 12000)(rng);
  }
  return in;
}

// Drives `skipping` with the stepper the components use (policy/policy_stepper.hpp: whole quiet windows
// skipped in the fixed point, quiet cycles inside a window skipped, everything else stepped, caught up at
// every launch and every `catch_up_every` cycles) and `stepping` every cycle; compares the outputs at every
// cycle the skipping block is stepped, and everything at the end. Returns the cycles skipped inside windows.
template <class Block>
std::uint64_t expect_same(PolicyImpl<Block>& stepping, std::unique_ptr<PolicyImpl<Block>> skipping_impl,
                          const std::vector<typename Block::Inputs>& in) {
  const std::uint64_t n = in.size();
  // The inputs as an owner of the block sees them.
  struct Owner {
    const std::vector<typename Block::Inputs>& in;
    PolicyImpl<Block>& stepping;
    std::vector<std::uint64_t> next_active;  // first cycle >= c whose inputs are not quiet
    std::uint64_t stepped = 0;               // cycles before this one have been stepped in `stepping`
    bool same = true;

    void step_reference_to(std::uint64_t end) {
      for (; stepped < end; ++stepped)
        stepping.step(in[stepped]);
    }
    std::uint64_t quiet_until(std::uint64_t c, std::uint64_t until) const {
      return std::min(next_active[c], until);
    }
    typename Block::Inputs inputs_of(std::uint64_t c) { return in[c]; }
    void take_outputs(std::uint64_t c, const typename Block::Outputs& out) {
      step_reference_to(c + 1);
      if (!same) return;  // report the first difference only
      EXPECT_EQ(out, stepping.outputs()) << "cycle " << c;
      same = out == stepping.outputs();
    }
  } owner{in, stepping, std::vector<std::uint64_t>(n + 1, n)};
  for (std::uint64_t c = n; c-- > 0;)
    owner.next_active[c] = Block::quiet_inputs(in[c]) ? owner.next_active[c + 1] : c;

  PolicyStepper<Block> skipping(std::move(skipping_impl));
  constexpr std::uint64_t catch_up_every = 7919;
  for (std::uint64_t c = 0; c < n; ++c) {
    if (in[c].kernel_launch) skipping.kernel_launch(c, owner);
    if (c % catch_up_every == 0) skipping.catch_up(c, owner);
  }
  skipping.catch_up(n, owner);
  if (!owner.same) return 0;
  owner.step_reference_to(n);
  // After the last skip the registers are the stepped ones; only the decision pulse may still show from a
  // window-skip (the stepped block pulsed at the last window end too, or did not when it ended inside one).
  EXPECT_EQ(skipping.impl().decisions(), stepping.decisions());
  typename Block::Outputs a = skipping.impl().outputs(), b = stepping.outputs();
  a.decision_valid = b.decision_valid = false;
  EXPECT_EQ(a, b);
  return skipping.quiet_cycles_skipped();
}

Lb::Params paper_link() {
  Lb::Params p;  // the paper's 16-lane link, 5000-cycle windows: one of the in-loop RTL builds
  p.lanes = 16;
  p.sample_cycles = 5000;
  p.switch_cycles = 100;
  p.sat_num = 99;
  p.sat_den = 100;
  return p;
}

Pc::Params paper_socket() {
  return Pc::Params{};  // 16 ways, 5000 cycles, 99/100, 144 B responses, 64 B/cycle: the in-loop RTL build
}

std::vector<Lb::Inputs> link_traffic(std::uint64_t seed) {
  // A saturating burst keeps one direction (or both) busy every cycle; a short one is patchy.
  return sparse_inputs<Lb::Inputs>(
      400000, seed, [](Lb::Inputs& in, bool saturating, std::uint64_t burst, std::mt19937_64& rng) {
        in.busy_a = saturating ? burst % 3 != 1 : rng() % 4 != 0;
        in.busy_b = saturating ? burst % 3 != 0 : rng() % 3 == 0;
        in.drained = rng() % 8 != 0;
      });
}

std::vector<Pc::Inputs> socket_traffic(std::uint64_t seed) {
  // A saturating burst keeps the DRAM busy or sends 3 reads a cycle (2,200 per window saturate the link:
  // 2,200 x 144 B >= 0.99 x 64 B x 5,000), or both.
  return sparse_inputs<Pc::Inputs>(
      400000, seed, [](Pc::Inputs& in, bool saturating, std::uint64_t burst, std::mt19937_64& rng) {
        in.dram_busy = saturating ? burst % 3 != 1 : rng() % 5 != 0;
        in.read_reqs = static_cast<std::uint16_t>(saturating ? (burst % 3 != 0 ? 3 : 0) : rng() % 4);
      });
}

TEST(QuietSkip, LinkBalancerReferenceSkippingEqualsStepping) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    ReferenceImpl<Lb> stepping(paper_link());
    const std::uint64_t skipped =
        expect_same<Lb>(stepping, std::make_unique<ReferenceImpl<Lb>>(paper_link()), link_traffic(seed));
    EXPECT_GT(skipped, 100000u) << "the traffic should leave most cycles quiet";
    EXPECT_GT(stepping.block().counters().turns_completed, 0u) << "the traffic should turn lanes";
  }
}

TEST(QuietSkip, PartitionControllerReferenceSkippingEqualsStepping) {
  for (std::uint64_t seed : {4u, 5u, 6u}) {
    ReferenceImpl<Pc> stepping(paper_socket());
    const std::uint64_t skipped =
        expect_same<Pc>(stepping, std::make_unique<ReferenceImpl<Pc>>(paper_socket()), socket_traffic(seed));
    EXPECT_GT(skipped, 100000u);
    const auto& cov = stepping.block().coverage();
    EXPECT_GT(cov[static_cast<std::size_t>(Pc::Decision::kToLocal)] +
                  cov[static_cast<std::size_t>(Pc::Decision::kToRemote)],
              0u)
        << "the traffic should move ways";
  }
}

#ifdef NUMAGPU_HAVE_RTL_LOOP
TEST(QuietSkip, LinkBalancerRtlSkippingEqualsStepping) {
  for (std::uint64_t seed : {1u, 7u}) {
    auto stepping = make_rtl<Lb>(paper_link());
    auto skipping = make_rtl<Lb>(paper_link());
    ASSERT_TRUE(stepping && skipping);
    EXPECT_GT(expect_same<Lb>(*stepping, std::move(skipping), link_traffic(seed)), 100000u);
  }
}

TEST(QuietSkip, PartitionControllerRtlSkippingEqualsStepping) {
  for (std::uint64_t seed : {4u, 8u}) {
    auto stepping = make_rtl<Pc>(paper_socket());
    auto skipping = make_rtl<Pc>(paper_socket());
    ASSERT_TRUE(stepping && skipping);
    EXPECT_GT(expect_same<Pc>(*stepping, std::move(skipping), socket_traffic(seed)), 100000u);
  }
}

// rtl.waves: a block that dumps its waveforms still skips quiet time outside the dump window and steps it
// inside (rtl_policy.hpp), so its outputs are those of stepping, and the dump has every cycle of the window:
// two timestamps per cycle (clock low at c x 1000 ps, rising edge 500 ps later, at 1 GHz).
TEST(QuietSkip, RtlWithWavesSkipsOutsideTheWindowAndDumpsEveryCycleInside) {
  constexpr std::uint64_t kStart = 123456, kCycles = 20000;  // mid-window start; spans several windows
  RtlWaves waves(RtlWaveWindow{true, kStart, kCycles}, 1000);
  auto stepping = make_rtl<Lb>(paper_link());
  auto skipping = make_rtl<Lb>(paper_link(), &waves, "link_test");
  ASSERT_TRUE(stepping && skipping);
  EXPECT_GT(expect_same<Lb>(*stepping, std::move(skipping), link_traffic(9)), 100000u);
  ASSERT_EQ(waves.files().count("rtl_link_test.vcd"), 1u);
  const std::string& vcd = waves.files().at("rtl_link_test.vcd");
  std::vector<std::uint64_t> stamps;
  std::istringstream in(vcd);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] == '#') stamps.push_back(std::stoull(line.substr(1)));
  ASSERT_EQ(stamps.size(), 2 * kCycles);
  EXPECT_EQ(stamps.front(), kStart * 1000);
  EXPECT_EQ(stamps.back(), (kStart + kCycles - 1) * 1000 + 500);
  for (std::size_t i = 1; i < stamps.size(); ++i)
    ASSERT_EQ(stamps[i] - stamps[i - 1], 500u) << "a cycle missing from the dump at " << stamps[i - 1];
}

TEST(QuietSkip, RtlRefusesToSkipOverTheWindowEnd) {
  auto lb = make_rtl<Lb>(paper_link());
  lb->step({});
  EXPECT_THROW(lb->skip_quiet_cycles(4999), std::logic_error);  // positions 1..4999 include the end
  lb->skip_quiet_cycles(4998);
  EXPECT_TRUE(lb->step({}).decision_valid);
}
#endif

}  // namespace
}  // namespace numagpu::policy
