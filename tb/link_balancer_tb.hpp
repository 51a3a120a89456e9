// Link balancer testbench pieces: the port mapping of rtl/link_balancer.sv for the lockstep engine, a
// constrained-random stimulus with traffic phases, and a builder for scripted (directed) stimulus.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "policy/link_balancer.hpp"
#include "rtl_loop/rtl_ports.hpp"
#include "tb/lockstep.hpp"

namespace numagpu::tb {

// `Variant` comes from the generated rtl_variants.hpp: its Model is one verilated parameter set.
template <class Variant>
struct LinkBalancerBlock {
  using Model = typename Variant::Model;
  using Ref = policy::LinkBalancer;
  using Params = Ref::Params;
  using Inputs = Ref::Inputs;
  using Outputs = Ref::Outputs;
  static constexpr std::size_t kDecisions = Ref::kNumDecisions;

  static void drive(Model& m, bool reset, const Inputs& in) {
    m.rst_ni = !reset;
    numagpu::rtl_ports::LinkBalancerPorts::drive(m, in);
  }

  static Outputs sample(const Model& m) { return numagpu::rtl_ports::LinkBalancerPorts::outputs(m); }

  static std::vector<Field> output_fields(const Params& p) {
    const unsigned cnt = count_width(p.lanes);
    return {{"lanes_a_o", cnt},         {"lanes_b_o", cnt},
            {"lane_dir_o", p.lanes},    {"lane_quiesce_o", p.lanes},
            {"lane_switch_o", p.lanes}, {"decision_valid_o", 1},
            {"decision_o", 4}};
  }
  static std::vector<std::uint64_t> output_values(const Outputs& o) {
    return {o.lanes_a,
            o.lanes_b,
            o.lane_dir,
            o.lane_quiesce,
            o.lane_switch,
            o.decision_valid,
            static_cast<std::uint64_t>(o.decision)};
  }
  static std::vector<Field> input_fields(const Params&) {
    return {{"rst_ni", 1}, {"kernel_launch_i", 1}, {"busy_a_i", 1}, {"busy_b_i", 1}, {"drained_i", 1}};
  }
  static std::vector<std::uint64_t> input_values(bool reset, const Inputs& in) {
    return {!reset, in.kernel_launch, in.busy_a, in.busy_b, in.drained};
  }
};

// Events the random stimulus must provoke besides the decision codes (the tests require each to be non-zero).
struct LinkBalancerBins {
  std::uint64_t busy_at_threshold = 0;     // a window whose busy count equals the threshold, per direction
  std::uint64_t busy_below_threshold = 0;  // ... equals threshold - 1 (the other side of the comparison)
  std::uint64_t launch_at_window_end = 0;  // a launch in a window's last cycle (no decision may follow)
  std::uint64_t drained_at_once = 0;       // drained in the first quiescing cycle
  std::uint64_t drained_ignored = 0;       // drained while no lane quiesces
  std::uint64_t resets = 0;
};

// Constrained-random traffic in phases of whole windows: idle, one direction saturated, both saturated,
// counts straddling the threshold, unconstrained. Within a window the busy cycles hit a chosen count exactly
// (the generator reads the window position and the counts so far from the reference). Random kernel launches
// (some in a window's last cycle), rare resets, and a drain model: the quiescing lane drains after a random
// delay (0, short, or longer than a window so that windows end during turns), plus spurious drained pulses.
class LinkBalancerRandomStim {
 public:
  using Ref = policy::LinkBalancer;
  using Step = Cycle<Ref::Inputs>;

  LinkBalancerRandomStim(const Ref::Params& p, std::uint64_t seed) : p_(p), rng_(seed) {}

  Step next(std::uint64_t n, const Ref& ref);

  const LinkBalancerBins& bins() const { return bins_; }

 private:
  enum class Phase { kIdle, kSatA, kSatB, kSatBoth, kBoundary, kRandom };

  std::uint32_t uniform(std::uint32_t lo, std::uint32_t hi) {  // inclusive
    return lo >= hi ? lo : std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng_);
  }
  bool chance(std::uint32_t per_million) { return uniform(0, 999999) < per_million; }

  void new_phase() {
    const std::uint32_t x = uniform(0, 99);
    phase_ = x < 10   ? Phase::kIdle
             : x < 30 ? Phase::kSatA
             : x < 50 ? Phase::kSatB
             : x < 70 ? Phase::kSatBoth
             : x < 85 ? Phase::kBoundary
                      : Phase::kRandom;
    // One-sided phases must be able to walk the link all the way to the one-lane floor and sit there.
    phase_windows_ = uniform(1, 3 * p_.lanes + 4);
  }

  void plan_window(const Ref& ref) {
    if (phase_windows_ == 0) new_phase();
    --phase_windows_;
    const std::uint32_t s = p_.sample_cycles;
    const auto thr = static_cast<std::uint32_t>(std::min<std::uint64_t>(ref.saturation_threshold(), s));
    const auto below = [&] { return uniform(0, thr == 0 ? 0 : thr - 1); };
    const auto above = [&] { return chance(500000) ? s : uniform(thr, s); };
    const auto edge = [&] { return chance(500000) ? thr : (thr == 0 ? 0 : thr - 1); };
    switch (phase_) {
      case Phase::kIdle:
        target_a_ = uniform(0, thr / 2);
        target_b_ = uniform(0, thr / 2);
        break;
      case Phase::kSatA:
        target_a_ = above();
        target_b_ = below();
        break;
      case Phase::kSatB:
        target_a_ = below();
        target_b_ = above();
        break;
      case Phase::kSatBoth:
        target_a_ = above();
        target_b_ = above();
        break;
      case Phase::kBoundary:
        target_a_ = edge();
        target_b_ = edge();
        break;
      case Phase::kRandom:
        target_a_ = uniform(0, s);
        target_b_ = uniform(0, s);
        break;
    }
  }

  // Busy in this cycle so that the window ends with exactly `target` busy cycles (selection sampling).
  bool busy_for(std::uint32_t target, std::uint32_t so_far, std::uint32_t cycles_left) {
    if (so_far >= target) return false;
    return uniform(0, cycles_left - 1) < target - so_far;
  }

  Ref::Params p_;
  std::mt19937_64 rng_;
  Phase phase_ = Phase::kIdle;
  std::uint32_t phase_windows_ = 0;
  std::uint32_t target_a_ = 0;
  std::uint32_t target_b_ = 0;
  bool quiescing_ = false;
  std::uint32_t quiesce_age_ = 0;
  std::uint32_t drain_delay_ = 0;
  LinkBalancerBins bins_;
};

inline LinkBalancerRandomStim::Step LinkBalancerRandomStim::next(std::uint64_t, const Ref& ref) {
  Step c;
  const Ref::Outputs out = ref.outputs();
  const std::uint32_t s = p_.sample_cycles;
  if (out.decision_valid) {
    const std::uint64_t thr = ref.saturation_threshold();
    for (const std::uint32_t busy : {ref.last_busy_a(), ref.last_busy_b()}) {
      if (busy == thr) ++bins_.busy_at_threshold;
      if (busy + 1 == thr) ++bins_.busy_below_threshold;
    }
  }
  if (ref.window_cycle() == 0) plan_window(ref);

  // Rare resets; launches about every 40 windows, and sometimes exactly in a window's last cycle.
  if (chance(1000000 / (400 * s) + 1)) {
    c.reset = true;
    ++bins_.resets;
    return c;
  }
  const bool last = ref.window_cycle() + 1 == s;
  c.in.kernel_launch = chance(1000000 / (40 * s) + 1) || (last && chance(20000));
  if (c.in.kernel_launch && last) ++bins_.launch_at_window_end;

  const std::uint32_t left = s - ref.window_cycle();
  c.in.busy_a = busy_for(target_a_, ref.busy_a_count(), left);
  c.in.busy_b = busy_for(target_b_, ref.busy_b_count(), left);

  if (ref.turn_state() == Ref::TurnState::kQuiesce) {
    if (!quiescing_) {
      quiescing_ = true;
      quiesce_age_ = 0;
      const std::uint32_t x = uniform(0, 99);
      drain_delay_ = x < 30 ? 0 : x < 75 ? uniform(1, 8) : uniform(9, 2 * s + 8);
    } else {
      ++quiesce_age_;
    }
    c.in.drained = quiesce_age_ >= drain_delay_;
    if (c.in.drained && quiesce_age_ == 0) ++bins_.drained_at_once;
  } else {
    quiescing_ = false;
    c.in.drained = chance(100000);
    if (c.in.drained) ++bins_.drained_ignored;
  }
  return c;
}

// Builds scripted stimulus for directed scenarios that hold for any parameter set. Scripts start at a window
// boundary; windows() and window_with() add whole windows and launch() restarts the window, so a script
// built from them stays aligned with the block's windows.
class LinkBalancerScript {
 public:
  using Ref = policy::LinkBalancer;
  using Step = Cycle<Ref::Inputs>;

  explicit LinkBalancerScript(const Ref::Params& p) : p_(p) {}

  LinkBalancerScript& cycles(std::uint64_t n, bool busy_a, bool busy_b, bool drained = true) {
    for (std::uint64_t i = 0; i < n; ++i) {
      Step s;
      s.in.busy_a = busy_a;
      s.in.busy_b = busy_b;
      s.in.drained = drained;
      steps_.push_back(s);
    }
    return *this;
  }
  LinkBalancerScript& windows(std::uint64_t n, bool busy_a, bool busy_b, bool drained = true) {
    return cycles(n * p_.sample_cycles, busy_a, busy_b, drained);
  }
  // One window with exactly `a` and `b` busy cycles (at its start).
  LinkBalancerScript& window_with(std::uint32_t a, std::uint32_t b, bool drained = true) {
    for (std::uint32_t i = 0; i < p_.sample_cycles; ++i)
      cycles(1, i < a, i < b, drained);
    return *this;
  }
  LinkBalancerScript& launch(bool busy = true) {
    Step s;
    s.in.kernel_launch = true;
    s.in.busy_a = s.in.busy_b = s.in.drained = busy;  // must all be discarded
    steps_.push_back(s);
    return *this;
  }
  LinkBalancerScript& reset() {
    Step s;
    s.reset = true;
    steps_.push_back(s);
    return *this;
  }
  std::vector<Step> build() const { return steps_; }

 private:
  Ref::Params p_;
  std::vector<Step> steps_;
};

struct LinkBalancerScenario {
  const char* name;
  std::vector<Cycle<policy::LinkBalancer::Inputs>> steps;
};

// Directed scenarios for every rule, usable at any parameter set (the lockstep tests run each on every
// verilated variant; tests/rtl/link_balancer_test.cpp checks the same rules with hand-derived values).
inline std::vector<LinkBalancerScenario> link_balancer_scenarios(const policy::LinkBalancer::Params& p) {
  using Script = LinkBalancerScript;
  const std::uint64_t walk = 2 * p.lanes + 4;  // windows enough to reach the floor even if turns span windows
  const auto thr = static_cast<std::uint32_t>(std::min<std::uint64_t>(
      (std::uint64_t{p.sat_num} * p.sample_cycles + p.sat_den - 1) / p.sat_den, p.sample_cycles));
  std::vector<LinkBalancerScenario> v;
  v.push_back({"walk_to_a_floor", Script(p).windows(walk, true, false).windows(2, false, false).build()});
  v.push_back({"walk_to_b_floor", Script(p).windows(walk, false, true).windows(2, false, false).build()});
  v.push_back({"rebalance_to_b", Script(p).windows(walk, true, false).windows(walk, true, true).build()});
  v.push_back({"rebalance_to_a", Script(p).windows(walk, false, true).windows(walk, true, true).build()});
  v.push_back({"slow_drain_spans_windows", Script(p)
                                               .windows(1, true, false, false)
                                               .windows(3, true, false, false)
                                               .cycles(1, true, false, true)
                                               .windows(3, true, false, false)
                                               .build()});
  v.push_back({"launch_while_quiescing", Script(p)
                                             .windows(1, true, false, false)
                                             .cycles(2, true, false, false)
                                             .launch()
                                             .windows(2, true, false)
                                             .build()});
  v.push_back({"launch_while_switching", Script(p)
                                             .windows(1, true, false, false)
                                             .cycles(1, true, false, true)
                                             .launch()
                                             .windows(2, false, true)
                                             .build()});
  v.push_back({"launch_in_last_window_cycle",
               Script(p).cycles(p.sample_cycles - 1, true, false).launch().windows(2, true, false).build()});
  v.push_back({"reset_mid_turn", Script(p)
                                     .windows(1, false, true, false)
                                     .cycles(1, true, true)
                                     .reset()
                                     .windows(2, true, true)
                                     .build()});
  v.push_back({"threshold_edges", Script(p)
                                      .window_with(thr, thr == 0 ? 0 : thr - 1)
                                      .window_with(thr == 0 ? 0 : thr - 1, thr)
                                      .window_with(thr, thr)
                                      .window_with(thr == 0 ? 0 : thr - 1, thr == 0 ? 0 : thr - 1)
                                      .build()});
  v.push_back({"idle", Script(p).windows(3, false, false).build()});
  return v;
}

}  // namespace numagpu::tb
