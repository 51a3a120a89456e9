// The Verilated cache partition controller behind policy::PolicyImpl, for every build in
// rtl_loop_builds.inc.
#include <verilated.h>

#include <sstream>

#include "rtl_loop/fast_forward.hpp"
#include "rtl_loop/rtl_builds.hpp"
#include "rtl_loop/rtl_ports.hpp"

// One Verilated class per build (generated with the list of builds by models/CMakeLists.txt).
#include "rtl_loop_partition_headers.inc"

namespace numagpu {
namespace {

template <class Top>
class RtlPartitionCtrl final : public policy::PolicyImpl<policy::PartitionController> {
 public:
  RtlPartitionCtrl(unsigned req_w, std::uint64_t window) : max_reqs_((1u << req_w) - 1), window_(window) {
    top_.rst_ni = 0;
    top_.kernel_launch_i = 0;
    top_.dram_busy_i = 0;
    top_.read_reqs_i = 0;
    edge();
    top_.rst_ni = 1;
  }
  ~RtlPartitionCtrl() override { top_.final(); }
  RtlPartitionCtrl(const RtlPartitionCtrl&) = delete;
  RtlPartitionCtrl& operator=(const RtlPartitionCtrl&) = delete;

  Outputs step(const Inputs& in) override {
    Inputs clamped = in;
    clamped.read_reqs = static_cast<std::uint16_t>(in.read_reqs & max_reqs_);  // ReqW bits; the driver clamps
    rtl_ports::drive(top_, clamped);
    edge();
    decisions_ += top_.decision_valid_o;
    return outputs();
  }
  Outputs outputs() const override { return rtl_ports::partition_ctrl_outputs(top_); }
  std::uint64_t decisions() const override { return decisions_; }
  std::uint64_t window_cycles() const override { return window_; }
  // As for the balancer (rtl_lanes.cpp): in the quiet fixed point only the decision pulses are counted.
  void skip_quiet_windows(std::uint64_t windows) override { decisions_ += windows; }
  void skip_quiet_cycles(std::uint64_t cycles) override {
    rtl_ports::fast_forward_window(top_, top_.rootp->cache_partition_ctrl__DOT__win_cnt_q, cycles, window_,
                                   policy::PartitionController::quiet_cycles_skippable(outputs()),
                                   "PartitionController");
  }

 private:
  void edge() {
    top_.clk_i = 0;
    top_.eval();
    top_.clk_i = 1;
    top_.eval();
  }

  VerilatedContext context_;
  Top top_{&context_, "cache_partition_ctrl"};
  unsigned max_reqs_;
  std::uint64_t decisions_ = 0;  // decision_valid_o pulses
  std::uint64_t window_;
};

struct PartitionBuild {
  policy::PartitionController::Params params;
  unsigned req_w;
  std::unique_ptr<policy::PolicyImpl<policy::PartitionController>> (*make)(unsigned req_w,
                                                                           std::uint64_t window);
};

template <class Top>
std::unique_ptr<policy::PolicyImpl<policy::PartitionController>> make_partition_ctrl(unsigned req_w,
                                                                                     std::uint64_t window) {
  return std::make_unique<RtlPartitionCtrl<Top>>(req_w, window);
}

const std::vector<PartitionBuild>& partition_builds() {
  static const std::vector<PartitionBuild> builds = {
#define NUMAGPU_RTL_BALANCER(...)
#define NUMAGPU_RTL_PARTITION_CTRL(top, ways, sample, sat_num, sat_den, resp, ingress, req_w) \
  {{ways, sample, sat_num, sat_den, resp, ingress}, req_w, &make_partition_ctrl<top>},
#include "rtl_loop_builds.inc"
#undef NUMAGPU_RTL_PARTITION_CTRL
#undef NUMAGPU_RTL_BALANCER
  };
  return builds;
}

bool same(const policy::PartitionController::Params& a, const policy::PartitionController::Params& b) {
  return a.ways == b.ways && a.sample_cycles == b.sample_cycles && a.sat_num == b.sat_num &&
         a.sat_den == b.sat_den && a.resp_bytes == b.resp_bytes &&
         a.ingress_bytes_per_cycle == b.ingress_bytes_per_cycle;
}

}  // namespace

std::vector<policy::PartitionController::Params> rtl_partition_ctrl_builds() {
  std::vector<policy::PartitionController::Params> out;
  for (const PartitionBuild& b : partition_builds())
    out.push_back(b.params);
  return out;
}

std::unique_ptr<policy::PolicyImpl<policy::PartitionController>> make_rtl_partition_ctrl(
    const policy::PartitionController::Params& params) {
  for (const PartitionBuild& b : partition_builds()) {
    if (same(b.params, params)) return b.make(b.req_w, b.params.sample_cycles);
  }
  return nullptr;
}

std::string describe(const std::vector<policy::PartitionController::Params>& builds) {
  std::ostringstream os;
  for (std::size_t i = 0; i < builds.size(); ++i) {
    const policy::PartitionController::Params& p = builds[i];
    os << (i ? "; " : "") << "ways " << p.ways << ", sample " << p.sample_cycles << ", saturation "
       << p.sat_num << "/" << p.sat_den << ", response " << p.resp_bytes << " B, ingress "
       << p.ingress_bytes_per_cycle << " B/cycle";
  }
  return os.str();
}

}  // namespace numagpu
