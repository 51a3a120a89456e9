// Cache partition controller testbench pieces: the port mapping of rtl/cache_partition_ctrl.sv for the
// lockstep engine, a constrained-random stimulus with traffic phases, and directed scenarios.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "policy/partition_controller.hpp"
#include "rtl_loop/rtl_ports.hpp"
#include "tb/lockstep.hpp"

namespace numagpu::tb {

template <class Variant>
struct PartitionCtrlBlock {
  using Model = typename Variant::Model;
  using Ref = policy::PartitionController;
  using Params = Ref::Params;
  using Inputs = Ref::Inputs;
  using Outputs = Ref::Outputs;
  static constexpr std::size_t kDecisions = Ref::kNumDecisions;

  static void drive(Model& m, bool reset, const Inputs& in) {
    m.rst_ni = !reset;
    numagpu::rtl_ports::PartitionCtrlPorts::drive(m, in);
  }

  static Outputs sample(const Model& m) { return numagpu::rtl_ports::PartitionCtrlPorts::outputs(m); }

  static std::vector<Field> output_fields(const Params& p) {
    const unsigned cnt = count_width(p.ways);
    return {{"remote_ways_o", cnt},
            {"local_ways_o", cnt},
            {"remote_mask_o", p.ways},
            {"decision_valid_o", 1},
            {"decision_o", 3}};
  }
  static std::vector<std::uint64_t> output_values(const Outputs& o) {
    return {o.remote_ways, o.local_ways, o.remote_mask, o.decision_valid,
            static_cast<std::uint64_t>(o.decision)};
  }
  static std::vector<Field> input_fields(const Params&) {
    return {{"rst_ni", 1}, {"kernel_launch_i", 1}, {"dram_busy_i", 1}, {"read_reqs_i", Variant::kReqW}};
  }
  static std::vector<std::uint64_t> input_values(bool reset, const Inputs& in) {
    return {!reset, in.kernel_launch, in.dram_busy, in.read_reqs};
  }
};

struct PartitionCtrlBins {
  std::uint64_t dram_at_threshold = 0;     // a window with exactly the saturating DRAM busy count
  std::uint64_t dram_below_threshold = 0;  // ... one below it
  std::uint64_t reqs_at_threshold = 0;     // a window with exactly the saturating read request count
  std::uint64_t reqs_below_threshold = 0;  // ... one below it
  std::uint64_t launch_at_window_end = 0;
  std::uint64_t resets = 0;
};

// Constrained-random traffic in phases of whole windows: idle, link-only, DRAM-only, both saturated, counts
// on the thresholds, unconstrained. Within a window the DRAM busy cycles and the read requests (0 .. 2^ReqW-1
// per cycle) add up exactly to the chosen counts. Random launches (some in a window's last cycle), rare
// resets.
class PartitionCtrlRandomStim {
 public:
  using Ref = policy::PartitionController;
  using Step = Cycle<Ref::Inputs>;

  PartitionCtrlRandomStim(const Ref::Params& p, unsigned req_w, std::uint64_t seed)
      : p_(p), max_reqs_((1u << req_w) - 1), rng_(seed) {}

  Step next(std::uint64_t, const Ref& ref) {
    Step c;
    const std::uint32_t s = p_.sample_cycles;
    if (ref.outputs().decision_valid) {
      if (ref.last_dram_busy() == ref.dram_threshold()) ++bins_.dram_at_threshold;
      if (ref.last_dram_busy() + 1 == ref.dram_threshold()) ++bins_.dram_below_threshold;
      if (ref.last_read_reqs() == ref.link_threshold()) ++bins_.reqs_at_threshold;
      if (ref.last_read_reqs() + 1 == ref.link_threshold()) ++bins_.reqs_below_threshold;
    }
    if (ref.window_cycle() == 0) plan_window(ref);

    if (chance(1000000 / (400 * s) + 1)) {
      c.reset = true;
      ++bins_.resets;
      return c;
    }
    const bool last = ref.window_cycle() + 1 == s;
    c.in.kernel_launch = chance(1000000 / (40 * s) + 1) || (last && chance(20000));
    if (c.in.kernel_launch && last) ++bins_.launch_at_window_end;

    const std::uint32_t left = s - ref.window_cycle();
    const std::uint32_t dram_done = ref.dram_busy_count();
    c.in.dram_busy = dram_done < dram_target_ && uniform(0, left - 1) < dram_target_ - dram_done;
    // Requests: any amount that still lets the window reach its target exactly.
    const std::uint64_t done = ref.read_req_count();
    const std::uint64_t need = done < req_target_ ? req_target_ - done : 0;
    const std::uint64_t later = std::uint64_t{max_reqs_} * (left - 1);  // the most the later cycles can add
    const std::uint64_t hi = std::min<std::uint64_t>(max_reqs_, need);
    const std::uint64_t lo = std::min(hi, need > later ? need - later : 0);
    c.in.read_reqs =
        static_cast<std::uint16_t>(uniform(static_cast<std::uint32_t>(lo), static_cast<std::uint32_t>(hi)));
    return c;
  }

  const PartitionCtrlBins& bins() const { return bins_; }

 private:
  enum class Phase { kIdle, kLinkOnly, kDramOnly, kBoth, kBoundary, kRandom };

  std::uint32_t uniform(std::uint32_t lo, std::uint32_t hi) {
    return lo >= hi ? lo : std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng_);
  }
  bool chance(std::uint32_t per_million) { return uniform(0, 999999) < per_million; }

  void plan_window(const Ref& ref) {
    if (phase_windows_ == 0) {
      const std::uint32_t x = uniform(0, 99);
      phase_ = x < 10   ? Phase::kIdle
               : x < 30 ? Phase::kLinkOnly
               : x < 50 ? Phase::kDramOnly
               : x < 70 ? Phase::kBoth
               : x < 85 ? Phase::kBoundary
                        : Phase::kRandom;
      phase_windows_ = uniform(1, 3 * p_.ways + 4);
    }
    --phase_windows_;
    const std::uint32_t s = p_.sample_cycles;
    const std::uint32_t reqs_max = s * max_reqs_;
    const auto dthr = static_cast<std::uint32_t>(std::min<std::uint64_t>(ref.dram_threshold(), s));
    const auto lthr = static_cast<std::uint32_t>(std::min<std::uint64_t>(ref.link_threshold(), reqs_max));
    const auto below = [&](std::uint32_t thr) { return uniform(0, thr == 0 ? 0 : thr - 1); };
    const auto above = [&](std::uint32_t thr, std::uint32_t max) {
      return chance(300000) ? max : uniform(thr, max);
    };
    const auto edge = [&](std::uint32_t thr) { return chance(500000) ? thr : (thr == 0 ? 0 : thr - 1); };
    switch (phase_) {
      case Phase::kIdle:
        dram_target_ = uniform(0, dthr / 2);
        req_target_ = uniform(0, lthr / 2);
        break;
      case Phase::kLinkOnly:
        dram_target_ = below(dthr);
        req_target_ = above(lthr, reqs_max);
        break;
      case Phase::kDramOnly:
        dram_target_ = above(dthr, s);
        req_target_ = below(lthr);
        break;
      case Phase::kBoth:
        dram_target_ = above(dthr, s);
        req_target_ = above(lthr, reqs_max);
        break;
      case Phase::kBoundary:
        dram_target_ = edge(dthr);
        req_target_ = edge(lthr);
        break;
      case Phase::kRandom:
        dram_target_ = uniform(0, s);
        req_target_ = uniform(0, reqs_max);
        break;
    }
  }

  Ref::Params p_;
  std::uint32_t max_reqs_;
  std::mt19937_64 rng_;
  Phase phase_ = Phase::kIdle;
  std::uint32_t phase_windows_ = 0;
  std::uint32_t dram_target_ = 0;
  std::uint32_t req_target_ = 0;
  PartitionCtrlBins bins_;
};

// Scripted stimulus for directed scenarios at any parameter set; aligned with windows as LinkBalancerScript.
class PartitionCtrlScript {
 public:
  using Ref = policy::PartitionController;
  using Step = Cycle<Ref::Inputs>;

  PartitionCtrlScript(const Ref::Params& p, unsigned req_w) : p_(p), max_reqs_((1u << req_w) - 1) {}

  // One window with exactly `dram` busy cycles and `reqs` read requests (packed at its start).
  PartitionCtrlScript& window_with(std::uint32_t dram, std::uint64_t reqs) {
    for (std::uint32_t i = 0; i < p_.sample_cycles; ++i) {
      Step s;
      s.in.dram_busy = i < dram;
      const std::uint64_t now = std::min<std::uint64_t>(reqs, max_reqs_);
      s.in.read_reqs = static_cast<std::uint16_t>(now);
      reqs -= now;
      steps_.push_back(s);
    }
    return *this;
  }
  // `n` windows with the DRAM and/or the link (estimate) saturated at full load, or idle.
  PartitionCtrlScript& windows(std::uint64_t n, bool link, bool dram) {
    for (std::uint64_t i = 0; i < n; ++i) {
      window_with(dram ? p_.sample_cycles : 0, link ? std::uint64_t{p_.sample_cycles} * max_reqs_ : 0);
    }
    return *this;
  }
  PartitionCtrlScript& cycles(std::uint32_t n, bool link, bool dram) {
    for (std::uint32_t i = 0; i < n; ++i) {
      Step s;
      s.in.dram_busy = dram;
      s.in.read_reqs = static_cast<std::uint16_t>(link ? max_reqs_ : 0);
      steps_.push_back(s);
    }
    return *this;
  }
  PartitionCtrlScript& launch() {
    Step s;
    s.in.kernel_launch = true;
    s.in.dram_busy = true;  // must be discarded
    s.in.read_reqs = static_cast<std::uint16_t>(max_reqs_);
    steps_.push_back(s);
    return *this;
  }
  PartitionCtrlScript& reset() {
    Step s;
    s.reset = true;
    steps_.push_back(s);
    return *this;
  }
  std::vector<Step> build() const { return steps_; }

 private:
  Ref::Params p_;
  std::uint32_t max_reqs_;
  std::vector<Step> steps_;
};

struct PartitionCtrlScenario {
  const char* name;
  std::vector<Cycle<policy::PartitionController::Inputs>> steps;
};

inline std::vector<PartitionCtrlScenario> partition_ctrl_scenarios(
    const policy::PartitionController::Params& p, unsigned req_w) {
  using Script = PartitionCtrlScript;
  const policy::PartitionController ref(p);
  const std::uint64_t walk = p.ways + 2;
  const std::uint64_t reqs_max = std::uint64_t{p.sample_cycles} * ((1u << req_w) - 1);
  const auto dthr =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(ref.dram_threshold(), p.sample_cycles));
  const std::uint64_t lthr = std::min<std::uint64_t>(ref.link_threshold(), reqs_max);
  const auto minus1 = [](std::uint64_t x) { return x == 0 ? 0 : x - 1; };
  std::vector<PartitionCtrlScenario> v;
  v.push_back({"link_to_floor", Script(p, req_w).windows(walk, true, false).build()});
  v.push_back({"dram_to_floor", Script(p, req_w).windows(walk, false, true).build()});
  v.push_back({"equalize_from_remote",
               Script(p, req_w).windows(walk, true, false).windows(walk, true, true).build()});
  v.push_back(
      {"equalize_from_local", Script(p, req_w).windows(walk, false, true).windows(walk, true, true).build()});
  v.push_back(
      {"launch_in_last_window_cycle",
       Script(p, req_w).cycles(p.sample_cycles - 1, true, false).launch().windows(2, true, false).build()});
  v.push_back({"launch_mid_window", Script(p, req_w)
                                        .windows(2, true, false)
                                        .cycles(p.sample_cycles / 2, true, false)
                                        .launch()
                                        .windows(2, false, true)
                                        .build()});
  v.push_back({"reset_mid_window", Script(p, req_w)
                                       .windows(2, false, true)
                                       .cycles(p.sample_cycles / 2, false, true)
                                       .reset()
                                       .windows(2, true, true)
                                       .build()});
  v.push_back({"threshold_edges", Script(p, req_w)
                                      .window_with(dthr, minus1(lthr))
                                      .window_with(minus1(dthr), lthr)
                                      .window_with(dthr, lthr)
                                      .window_with(minus1(dthr), minus1(lthr))
                                      .build()});
  v.push_back({"idle", Script(p, req_w).windows(3, false, false).build()});
  return v;
}

}  // namespace numagpu::tb
