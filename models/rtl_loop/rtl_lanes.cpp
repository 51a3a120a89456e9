// The Verilated link balancer behind policy::PolicyImpl, for every build in rtl_loop_builds.inc.
#include <verilated.h>

#include <sstream>

#include "rtl_loop/fast_forward.hpp"
#include "rtl_loop/rtl_builds.hpp"
#include "rtl_loop/rtl_ports.hpp"

// One Verilated class per build (generated with the list of builds by models/CMakeLists.txt).
#include "rtl_loop_balancer_headers.inc"

// Verilator's runtime expects this symbol when a model calls $time-dependent code; the models here are
// cycle-driven and never read it.
double sc_time_stamp() {
  return 0;
}

namespace numagpu {
namespace {

template <class Top>
class RtlBalancer final : public policy::PolicyImpl<policy::LinkBalancer> {
 public:
  explicit RtlBalancer(std::uint64_t window) : window_(window) {
    top_.rst_ni = 0;
    top_.kernel_launch_i = 0;
    top_.busy_a_i = 0;
    top_.busy_b_i = 0;
    top_.drained_i = 0;
    edge();
    top_.rst_ni = 1;
  }
  ~RtlBalancer() override { top_.final(); }
  RtlBalancer(const RtlBalancer&) = delete;
  RtlBalancer& operator=(const RtlBalancer&) = delete;

  Outputs step(const Inputs& in) override {
    rtl_ports::drive(top_, in);
    edge();
    decisions_ += top_.decision_valid_o;
    return outputs();
  }
  Outputs outputs() const override { return rtl_ports::balancer_outputs(top_); }
  std::uint64_t decisions() const override { return decisions_; }
  std::uint64_t window_cycles() const override { return window_; }
  // In the quiet fixed point the RTL's registers are what they will be after `windows` more quiet windows
  // (the reference's contract, which the lockstep tests hold the RTL to, and tests/integration/
  // idle_skip_test.cpp checks against stepping): only the decision pulses are counted.
  void skip_quiet_windows(std::uint64_t windows) override { decisions_ += windows; }
  void skip_quiet_cycles(std::uint64_t cycles) override {
    rtl_ports::fast_forward_window(top_, top_.rootp->link_balancer__DOT__win_cnt_q, cycles, window_,
                                   policy::LinkBalancer::quiet_cycles_skippable(outputs()), "LinkBalancer");
  }

 private:
  void edge() {
    top_.clk_i = 0;
    top_.eval();
    top_.clk_i = 1;
    top_.eval();
  }

  VerilatedContext context_;
  Top top_{&context_, "link_balancer"};
  std::uint64_t decisions_ = 0;  // decision_valid_o pulses
  std::uint64_t window_;
};

struct BalancerBuild {
  policy::LinkBalancer::Params params;
  std::unique_ptr<policy::PolicyImpl<policy::LinkBalancer>> (*make)(std::uint64_t window);
};

template <class Top>
std::unique_ptr<policy::PolicyImpl<policy::LinkBalancer>> make_balancer(std::uint64_t window) {
  return std::make_unique<RtlBalancer<Top>>(window);
}

const std::vector<BalancerBuild>& balancer_builds() {
  static const std::vector<BalancerBuild> builds = {
#define NUMAGPU_RTL_PARTITION_CTRL(...)
#define NUMAGPU_RTL_BALANCER(top, lanes, sample, switch_cycles, sat_num, sat_den) \
  {{lanes, sample, switch_cycles, sat_num, sat_den}, &make_balancer<top>},
#include "rtl_loop_builds.inc"
#undef NUMAGPU_RTL_BALANCER
#undef NUMAGPU_RTL_PARTITION_CTRL
  };
  return builds;
}

bool same(const policy::LinkBalancer::Params& a, const policy::LinkBalancer::Params& b) {
  return a.lanes == b.lanes && a.sample_cycles == b.sample_cycles && a.switch_cycles == b.switch_cycles &&
         a.sat_num == b.sat_num && a.sat_den == b.sat_den;
}

}  // namespace

std::vector<policy::LinkBalancer::Params> rtl_balancer_builds() {
  std::vector<policy::LinkBalancer::Params> out;
  for (const BalancerBuild& b : balancer_builds())
    out.push_back(b.params);
  return out;
}

std::unique_ptr<policy::PolicyImpl<policy::LinkBalancer>> make_rtl_balancer(
    const policy::LinkBalancer::Params& params) {
  for (const BalancerBuild& b : balancer_builds()) {
    if (same(b.params, params)) return b.make(b.params.sample_cycles);
  }
  return nullptr;
}

std::string describe(const std::vector<policy::LinkBalancer::Params>& builds) {
  std::ostringstream os;
  for (std::size_t i = 0; i < builds.size(); ++i) {
    const policy::LinkBalancer::Params& p = builds[i];
    os << (i ? "; " : "") << "lanes " << p.lanes << ", sample " << p.sample_cycles << ", switch "
       << p.switch_cycles << ", saturation " << p.sat_num << "/" << p.sat_den;
  }
  return os.str();
}

}  // namespace numagpu
