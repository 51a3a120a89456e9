#include "policy/link_balancer.hpp"

#include <stdexcept>
#include <string>

#include "policy/saturation.hpp"

namespace numagpu::policy {

namespace {

std::uint64_t low_bits(std::uint32_t n) {
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("LinkBalancer: ") + what);
}

}  // namespace

void LinkBalancer::Params::validate() const {
  require(lanes >= 2 && lanes <= 64 && lanes % 2 == 0, "lanes must be even and in 2..64");
  // The upper limits keep the RTL's elaboration-time threshold arithmetic (64 bits) exact; see
  // docs/policies.md. The RTL rejects the same values.
  require(sample_cycles >= 1 && sample_cycles < (1u << 31), "sample_cycles must be in 1..2^31-1");
  require(switch_cycles >= 1 && switch_cycles < (1u << 31), "switch_cycles must be in 1..2^31-1");
  require(sat_num >= 1 && sat_num < (1u << 16), "sat_num must be in 1..65535");
  require(sat_den >= 1 && sat_den < (1u << 16), "sat_den must be in 1..65535");
}

LinkBalancer::LinkBalancer() : LinkBalancer(Params{}) {}

LinkBalancer::LinkBalancer(const Params& params) : params_(params) {
  params_.validate();
  restart();
}

void LinkBalancer::restart() {
  if (turning()) ++counters_.turns_abandoned;
  lanes_a_ = params_.lanes / 2;
  lanes_b_ = params_.lanes / 2;
  turn_ = TurnState::kIdle;
  turn_to_b_ = false;
  switch_left_ = 0;
  window_cycle_ = 0;
  busy_a_ = 0;
  busy_b_ = 0;
  decision_valid_ = false;
  decision_ = Decision::kNone;
}

void LinkBalancer::reset() {
  restart();
}

std::uint64_t LinkBalancer::saturation_threshold() const {
  const std::uint64_t num = std::uint64_t{params_.sat_num} * params_.sample_cycles;
  return (num + params_.sat_den - 1) / params_.sat_den;
}

LinkBalancer::Decision LinkBalancer::decide(bool sat_a, bool sat_b) const {
  // A lane that is still turning at the window end would make a second concurrent turn; the paper turns one
  // lane per reconfiguration, so the window passes.
  if (turning()) return Decision::kBusyTurning;
  if (sat_a && !sat_b) return lanes_b_ >= 2 ? Decision::kTurnToA : Decision::kBlockedToA;
  if (sat_b && !sat_a) return lanes_a_ >= 2 ? Decision::kTurnToB : Decision::kBlockedToB;
  if (sat_a && sat_b) {
    if (lanes_b_ > lanes_a_) return Decision::kRebalanceToA;
    if (lanes_a_ > lanes_b_) return Decision::kRebalanceToB;
    return Decision::kBalanced;
  }
  return Decision::kNone;
}

void LinkBalancer::begin_turn(bool to_b) {
  // The lane stops counting for its old direction at once: from the next cycle it must carry nothing new.
  if (to_b) {
    --lanes_a_;
  } else {
    --lanes_b_;
  }
  turn_ = TurnState::kQuiesce;
  turn_to_b_ = to_b;
}

LinkBalancer::Outputs LinkBalancer::step(const Inputs& in) {
  decision_valid_ = false;
  if (in.kernel_launch) {
    ++counters_.launches;
    restart();
    return outputs();
  }

  // Everything below is a function of the state during this cycle and of this cycle's inputs, as in the RTL:
  // the window decision first (it sees the turn and lane counts of this cycle), then the turn's progress.
  // The two never act on the same turn: a decision can only start a turn when none is in progress.
  const std::uint32_t busy_a = busy_a_ + (in.busy_a ? 1 : 0);
  const std::uint32_t busy_b = busy_b_ + (in.busy_b ? 1 : 0);
  const bool window_end = window_cycle_ + 1 == params_.sample_cycles;
  const std::uint64_t window = params_.sample_cycles;
  const Decision d = window_end ? decide(saturated(busy_a, window, params_.sat_num, params_.sat_den),
                                         saturated(busy_b, window, params_.sat_num, params_.sat_den))
                                : Decision::kNone;

  if (turn_ == TurnState::kQuiesce && in.drained) {
    turn_ = TurnState::kSwitch;
    switch_left_ = params_.switch_cycles - 1;
  } else if (turn_ == TurnState::kSwitch) {
    if (switch_left_ == 0) {
      if (turn_to_b_) {
        ++lanes_b_;
      } else {
        ++lanes_a_;
      }
      turn_ = TurnState::kIdle;
      turn_to_b_ = false;
      ++counters_.turns_completed;
    } else {
      --switch_left_;
    }
  }

  if (!window_end) {
    ++window_cycle_;
    busy_a_ = busy_a;
    busy_b_ = busy_b;
    return outputs();
  }

  if (d == Decision::kTurnToA || d == Decision::kRebalanceToA) begin_turn(false);
  if (d == Decision::kTurnToB || d == Decision::kRebalanceToB) begin_turn(true);
  ++coverage_[static_cast<std::size_t>(d)];
  ++counters_.windows;
  decision_valid_ = true;
  decision_ = d;
  last_busy_a_ = busy_a;
  last_busy_b_ = busy_b;
  window_cycle_ = 0;
  busy_a_ = 0;
  busy_b_ = 0;
  return outputs();
}

void LinkBalancer::skip_quiet_windows(std::uint64_t windows) {
  const bool fixed_point = window_cycle_ == 0 && !turning() && busy_a_ == 0 && busy_b_ == 0 &&
                           decision_valid_ && decision_ == Decision::kNone && last_busy_a_ == 0 &&
                           last_busy_b_ == 0;
  if (!fixed_point) throw std::logic_error("LinkBalancer: skip_quiet_windows outside the quiet fixed point");
  coverage_[static_cast<std::size_t>(Decision::kNone)] += windows;
  counters_.windows += windows;
}

void LinkBalancer::skip_quiet_cycles(std::uint64_t cycles) {
  if (turning() || decision_valid_ || cycles >= params_.sample_cycles - window_cycle_) {
    throw std::logic_error("LinkBalancer: skip_quiet_cycles during a turn, a decision pulse or a window end");
  }
  window_cycle_ += static_cast<std::uint32_t>(cycles);
}

LinkBalancer::Outputs LinkBalancer::outputs() const {
  Outputs out;
  out.lanes_a = lanes_a_;
  out.lanes_b = lanes_b_;
  // Layout (docs/policies.md): A lanes at the bottom, B lanes at the top, the turning lane between them.
  const std::uint32_t first_b = params_.lanes - lanes_b_;
  out.lane_dir = low_bits(params_.lanes) & ~low_bits(first_b);
  if (turning()) {
    const std::uint64_t lane = std::uint64_t{1} << lanes_a_;
    if (turn_to_b_) out.lane_dir |= lane;
    if (turn_ == TurnState::kQuiesce) {
      out.lane_quiesce = lane;
    } else {
      out.lane_switch = lane;
    }
  }
  out.decision_valid = decision_valid_;
  out.decision = decision_;
  return out;
}

void LinkBalancer::clear_coverage() {
  coverage_ = Coverage{};
  counters_ = Counters{};
}

const char* LinkBalancer::name(Decision d) {
  switch (d) {
    case Decision::kNone:
      return "none";
    case Decision::kTurnToA:
      return "turn_to_a";
    case Decision::kTurnToB:
      return "turn_to_b";
    case Decision::kRebalanceToA:
      return "rebalance_to_a";
    case Decision::kRebalanceToB:
      return "rebalance_to_b";
    case Decision::kBalanced:
      return "balanced";
    case Decision::kBlockedToA:
      return "blocked_to_a";
    case Decision::kBlockedToB:
      return "blocked_to_b";
    case Decision::kBusyTurning:
      return "busy_turning";
  }
  return "?";
}

}  // namespace numagpu::policy
