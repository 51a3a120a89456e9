#include "policy/partition_controller.hpp"

#include <stdexcept>
#include <string>

#include "policy/saturation.hpp"

namespace numagpu::policy {

namespace {

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("PartitionController: ") + what);
}

// ceil(a / b) for b >= 1, in 128 bits so that products of three 32-bit parameters cannot wrap.
std::uint64_t ceil_div(Wide a, Wide b) {
  return static_cast<std::uint64_t>((a + b - 1) / b);
}

}  // namespace

void PartitionController::Params::validate() const {
  require(ways >= 2 && ways <= 64, "ways must be in 2..64");
  // The upper limits keep the RTL's elaboration-time threshold arithmetic (64 bits) exact; see
  // docs/policies.md. The RTL rejects the same values.
  require(sample_cycles >= 1 && sample_cycles < (1u << 31), "sample_cycles must be in 1..2^31-1");
  require(sat_num >= 1 && sat_num < (1u << 16), "sat_num must be in 1..65535");
  require(sat_den >= 1 && sat_den < (1u << 16), "sat_den must be in 1..65535");
  require(resp_bytes >= 1 && resp_bytes < (1u << 16), "resp_bytes must be in 1..65535");
  require(ingress_bytes_per_cycle >= 1 && ingress_bytes_per_cycle < (1u << 16),
          "ingress_bytes_per_cycle must be in 1..65535");
}

PartitionController::PartitionController() : PartitionController(Params{}) {}

PartitionController::PartitionController(const Params& params) : params_(params) {
  params_.validate();
  restart();
}

void PartitionController::restart() {
  remote_ways_ = params_.ways / 2;
  window_cycle_ = 0;
  dram_busy_ = 0;
  read_reqs_ = 0;
  decision_valid_ = false;
  decision_ = Decision::kNone;
}

void PartitionController::reset() {
  restart();
}

std::uint64_t PartitionController::dram_threshold() const {
  return ceil_div(Wide{params_.sat_num} * params_.sample_cycles, params_.sat_den);
}

std::uint64_t PartitionController::link_threshold() const {
  return ceil_div(Wide{params_.sat_num} * params_.ingress_bytes_per_cycle * params_.sample_cycles,
                  Wide{params_.resp_bytes} * params_.sat_den);
}

PartitionController::Decision PartitionController::decide(bool link_sat, bool dram_sat) const {
  const std::uint32_t local = params_.ways - remote_ways_;
  const std::uint32_t half = params_.ways / 2;
  if (link_sat && !dram_sat) return local >= 2 ? Decision::kToRemote : Decision::kBlockedToRemote;
  if (dram_sat && !link_sat) return remote_ways_ >= 2 ? Decision::kToLocal : Decision::kBlockedToLocal;
  if (link_sat && dram_sat) {
    if (remote_ways_ < half) return Decision::kEqualizeToRemote;
    if (remote_ways_ > half) return Decision::kEqualizeToLocal;
    return Decision::kBalanced;
  }
  return Decision::kNone;
}

PartitionController::Outputs PartitionController::step(const Inputs& in) {
  decision_valid_ = false;
  if (in.kernel_launch) {
    ++counters_.launches;
    restart();
    return outputs();
  }

  const std::uint32_t dram_busy = dram_busy_ + (in.dram_busy ? 1 : 0);
  const std::uint64_t read_reqs = read_reqs_ + in.read_reqs;
  if (window_cycle_ + 1 < params_.sample_cycles) {
    ++window_cycle_;
    dram_busy_ = dram_busy;
    read_reqs_ = read_reqs;
    return outputs();
  }

  // Window end. The link estimate is the bytes the requests sent in this window will bring back.
  const bool dram_sat = saturated(dram_busy, params_.sample_cycles, params_.sat_num, params_.sat_den);
  const bool link_sat = saturated(Wide{read_reqs} * params_.resp_bytes,
                                  Wide{params_.ingress_bytes_per_cycle} * params_.sample_cycles,
                                  params_.sat_num, params_.sat_den);
  const Decision d = decide(link_sat, dram_sat);
  if (d == Decision::kToRemote || d == Decision::kEqualizeToRemote) ++remote_ways_;
  if (d == Decision::kToLocal || d == Decision::kEqualizeToLocal) --remote_ways_;

  ++coverage_[static_cast<std::size_t>(d)];
  ++counters_.windows;
  decision_valid_ = true;
  decision_ = d;
  last_dram_busy_ = dram_busy;
  last_read_reqs_ = read_reqs;
  window_cycle_ = 0;
  dram_busy_ = 0;
  read_reqs_ = 0;
  return outputs();
}

void PartitionController::skip_quiet_windows(std::uint64_t windows) {
  const bool fixed_point = window_cycle_ == 0 && dram_busy_ == 0 && read_reqs_ == 0 && decision_valid_ &&
                           decision_ == Decision::kNone && last_dram_busy_ == 0 && last_read_reqs_ == 0;
  if (!fixed_point) {
    throw std::logic_error("PartitionController: skip_quiet_windows outside the quiet fixed point");
  }
  coverage_[static_cast<std::size_t>(Decision::kNone)] += windows;
  counters_.windows += windows;
}

void PartitionController::skip_quiet_cycles(std::uint64_t cycles) {
  if (decision_valid_ || cycles >= params_.sample_cycles - window_cycle_) {
    throw std::logic_error("PartitionController: skip_quiet_cycles during a decision pulse or a window end");
  }
  window_cycle_ += static_cast<std::uint32_t>(cycles);
}

PartitionController::Outputs PartitionController::outputs() const {
  Outputs out;
  out.remote_ways = remote_ways_;
  out.local_ways = params_.ways - remote_ways_;
  // Remote ways are the top ones: ways [ways - remote_ways, ways).
  const std::uint64_t all = params_.ways >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params_.ways) - 1;
  const std::uint64_t local = (std::uint64_t{1} << out.local_ways) - 1;  // local_ways <= 63
  out.remote_mask = all & ~local;
  out.decision_valid = decision_valid_;
  out.decision = decision_;
  return out;
}

void PartitionController::clear_coverage() {
  coverage_ = Coverage{};
  counters_ = Counters{};
}

const char* PartitionController::name(Decision d) {
  switch (d) {
    case Decision::kNone:
      return "none";
    case Decision::kToRemote:
      return "to_remote";
    case Decision::kToLocal:
      return "to_local";
    case Decision::kEqualizeToRemote:
      return "equalize_to_remote";
    case Decision::kEqualizeToLocal:
      return "equalize_to_local";
    case Decision::kBalanced:
      return "balanced";
    case Decision::kBlockedToRemote:
      return "blocked_to_remote";
    case Decision::kBlockedToLocal:
      return "blocked_to_local";
  }
  return "?";
}

}  // namespace numagpu::policy
