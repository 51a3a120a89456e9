// LinkBalancer: the reference model of one inter-socket link's load balancer (paper §4). It decides, once
// per sample window, whether one of the link's bi-directional lanes should turn around toward a saturated
// direction, and sequences that turn (quiesce until drained, then switch for switch_cycles).
//
// This class is the specification rtl/link_balancer.sv is verified against, bit for bit and cycle for
// cycle: docs/policies.md is the shared contract (ports <-> fields, reset values, exact timing, rules).
// Plain C++ with integer state; the SystemC link model feeds it and applies its outputs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace numagpu::policy {

class LinkBalancer {
 public:
  // Defaults are the paper's: 16 lanes (8 per direction), 5K-cycle windows, 100-cycle turnaround, 99 %.
  struct Params {
    // Limits as in the RTL (docs/policies.md, "Parameter limits").
    std::uint32_t lanes = 16;            // bi-directional lanes; even, 2..64
    std::uint32_t sample_cycles = 5000;  // window length in cycles; 1..2^31-1
    std::uint32_t switch_cycles = 100;   // cycles a drained lane spends switching; 1..2^31-1
    std::uint32_t sat_num = 99;          // saturated: busy * sat_den >= sat_num * sample_cycles; 1..65535
    std::uint32_t sat_den = 100;         // 1..65535

    // Throws std::invalid_argument naming the first parameter out of range.
    void validate() const;
  };

  // One cycle's inputs. Direction A is socket -> switch (egress), B is switch -> socket (ingress).
  struct Inputs {
    bool kernel_launch = false;  // strobe: back to the symmetric split, counters cleared, turn abandoned
    bool busy_a = false;         // direction A carried data on its lanes this cycle
    bool busy_b = false;         // direction B carried data on its lanes this cycle
    bool drained = false;        // the quiescing lane carries nothing any more (ignored otherwise)
  };

  // Decision codes: the RTL's decision_o carries the same values.
  enum class Decision : std::uint8_t {
    kNone = 0,          // neither direction saturated
    kTurnToA = 1,       // A saturated alone: the lowest B lane turns toward A
    kTurnToB = 2,       // B saturated alone: the highest A lane turns toward B
    kRebalanceToA = 3,  // both saturated, B has more lanes: one B lane turns back toward A
    kRebalanceToB = 4,  // both saturated, A has more lanes: one A lane turns back toward B
    kBalanced = 5,      // both saturated, already symmetric
    kBlockedToA = 6,    // A saturated alone, but B is down to its last lane
    kBlockedToB = 7,    // B saturated alone, but A is down to its last lane
    kBusyTurning = 8,   // a turn was still in progress at the window end
  };
  static constexpr std::size_t kNumDecisions = 9;

  enum class TurnState : std::uint8_t { kIdle, kQuiesce, kSwitch };

  // Registered outputs (valid for a whole cycle). Bit i of a mask is lane i.
  struct Outputs {
    std::uint32_t lanes_a = 0;            // active lanes carrying A
    std::uint32_t lanes_b = 0;            // active lanes carrying B
    std::uint64_t lane_dir = 0;           // 0 = A, 1 = B; the turning lane shows the direction it turns to
    std::uint64_t lane_quiesce = 0;       // the (at most one) quiescing lane
    std::uint64_t lane_switch = 0;        // the (at most one) switching lane
    bool decision_valid = false;          // pulses in the first cycle after a window's decision
    Decision decision = Decision::kNone;  // last decision, held until the next one or a reset/launch

    friend bool operator==(const Outputs& x, const Outputs& y) {
      return x.lanes_a == y.lanes_a && x.lanes_b == y.lanes_b && x.lane_dir == y.lane_dir &&
             x.lane_quiesce == y.lane_quiesce && x.lane_switch == y.lane_switch &&
             x.decision_valid == y.decision_valid && x.decision == y.decision;
    }
    friend bool operator!=(const Outputs& x, const Outputs& y) { return !(x == y); }
  };

  // Events that are not decisions; cumulative like the coverage counts.
  struct Counters {
    std::uint64_t windows = 0;          // window ends that took a decision
    std::uint64_t launches = 0;         // kernel launches seen
    std::uint64_t turns_completed = 0;  // lanes that became active in their new direction
    std::uint64_t turns_abandoned = 0;  // turns cut short by a launch or reset
  };

  using Coverage = std::array<std::uint64_t, kNumDecisions>;

  // Validates the parameters (std::invalid_argument) and starts in the reset state.
  LinkBalancer();  // default Params
  explicit LinkBalancer(const Params& params);

  // One rising edge with rst_ni low. Coverage and counters are kept.
  void reset();
  // One rising edge: consumes this cycle's inputs, returns the outputs of the next cycle.
  Outputs step(const Inputs& in);
  // The outputs of the current cycle.
  Outputs outputs() const;
  // `windows` whole windows of quiet inputs (no busy cycle, no launch) from the quiet fixed point: the first
  // cycle of a window after a quiet window that decided "none", with no turn in progress. Nothing changes
  // but the window and coverage counts (the same as stepping them). Throws std::logic_error elsewhere.
  void skip_quiet_windows(std::uint64_t windows);
  // `cycles` cycles of quiet inputs inside a window: no turn in progress, no decision pulse showing, and the
  // window's last cycle not among them. The window position advances and nothing else changes (the same as
  // stepping them: busy counts add nothing, lanes and decision hold). Throws std::logic_error elsewhere.
  void skip_quiet_cycles(std::uint64_t cycles);
  // Whether outputs `out` allow skip_quiet_cycles (no lane turning, no decision pulse): the drivers can tell
  // from the outputs alone, for the RTL as for this model.
  static bool quiet_cycles_skippable(const Outputs& out) {
    return out.lane_quiesce == 0 && out.lane_switch == 0 && !out.decision_valid;
  }
  // Whether a cycle's inputs are quiet (no launch, neither direction busy): what the skips above assume.
  // `drained` does not count: it matters only while a lane quiesces, and then nothing is skipped.
  static bool quiet_inputs(const Inputs& in) { return !in.kernel_launch && !in.busy_a && !in.busy_b; }

  const Params& params() const { return params_; }
  std::uint32_t lanes_a() const { return lanes_a_; }
  std::uint32_t lanes_b() const { return lanes_b_; }
  TurnState turn_state() const { return turn_; }
  bool turning() const { return turn_ != TurnState::kIdle; }
  bool turn_to_b() const { return turn_to_b_; }
  // Switching cycles left after the current one (0 in the last switching cycle, or when not switching).
  std::uint32_t switch_remaining() const { return switch_left_; }
  // Position in the current window, 0 .. sample_cycles-1.
  std::uint32_t window_cycle() const { return window_cycle_; }
  // Busy cycles counted so far in the current window.
  std::uint32_t busy_a_count() const { return busy_a_; }
  std::uint32_t busy_b_count() const { return busy_b_; }
  // Busy counts of the last completed window (what its decision saw); 0 before the first.
  std::uint32_t last_busy_a() const { return last_busy_a_; }
  std::uint32_t last_busy_b() const { return last_busy_b_; }
  // Smallest busy count that saturates a direction: ceil(sat_num * sample_cycles / sat_den).
  std::uint64_t saturation_threshold() const;

  const Coverage& coverage() const { return coverage_; }
  std::uint64_t coverage(Decision d) const { return coverage_[static_cast<std::size_t>(d)]; }
  const Counters& counters() const { return counters_; }
  void clear_coverage();

  static const char* name(Decision d);

 private:
  void restart();  // reset/launch: symmetric, idle, window cleared
  Decision decide(bool sat_a, bool sat_b) const;
  void begin_turn(bool to_b);

  Params params_;
  std::uint32_t lanes_a_ = 0;
  std::uint32_t lanes_b_ = 0;
  TurnState turn_ = TurnState::kIdle;
  bool turn_to_b_ = false;
  std::uint32_t switch_left_ = 0;
  std::uint32_t window_cycle_ = 0;
  std::uint32_t busy_a_ = 0;
  std::uint32_t busy_b_ = 0;
  std::uint32_t last_busy_a_ = 0;
  std::uint32_t last_busy_b_ = 0;
  bool decision_valid_ = false;
  Decision decision_ = Decision::kNone;
  Coverage coverage_{};
  Counters counters_;
};

}  // namespace numagpu::policy
