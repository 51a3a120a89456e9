// The policy blocks' ports, mapped once between a Verilated model and the C++ policy's Inputs/Outputs: one
// small traits struct per block, used by the in-loop RTL adapter (rtl_policy.hpp, for every build of the
// table in models/CMakeLists.txt) and by the lockstep testbenches (tb/), so that both read and drive the RTL
// the same way. The port functions are templates over the Verilated class: every parameter build has the
// same ports. A new policy block adds a struct here (and its PortsOf entry) and a block to the build table;
// the adapter and the build lookup are shared.
//
// What a traits struct holds:
//   Block                the C++ reference class (Params, Inputs, Outputs, quiet_cycles_skippable)
//   kTop                 the RTL module (rtl/<kTop>.sv), also the Verilated instance name
//   kRtlParams           every RTL parameter a build states, in the order of the build table's columns
//                        (checked at compile time against the table) and of build()'s arguments
//   Build, build()       one build's full parameter set: the Params plus RTL-only parameters
//   params(), same(), describe()   the Params a build implements, compared and named for messages
//   drive(), outputs()   the port mapping
//   fit()                an input as the build's port widths can take it
//   window_counter()     the window position register, for the in-window fast-forward (fast_forward.hpp)
#pragma once

#include <cstdint>
#include <ostream>

#include "policy/link_balancer.hpp"
#include "policy/partition_controller.hpp"

namespace numagpu::rtl_ports {

// The two outputs every policy block has (docs/policies.md): the decision pulse and the held decision code.
template <class Outputs, class Top>
void sample_decision(Outputs& o, const Top& m) {
  o.decision_valid = m.decision_valid_o != 0;
  o.decision = static_cast<decltype(o.decision)>(m.decision_o);
}

// rtl/link_balancer.sv
struct LinkBalancerPorts {
  using Block = policy::LinkBalancer;
  static constexpr const char* kTop = "link_balancer";
  static constexpr const char* kRtlParams = "Lanes SampleCycles SwitchCycles SatNum SatDen";

  using Build = Block::Params;  // no RTL-only parameter
  static Build build(std::uint32_t lanes, std::uint32_t sample_cycles, std::uint32_t switch_cycles,
                     std::uint32_t sat_num, std::uint32_t sat_den) {
    return Build{lanes, sample_cycles, switch_cycles, sat_num, sat_den};
  }
  static const Block::Params& params(const Build& b) { return b; }
  static bool same(const Block::Params& a, const Block::Params& b) {
    return a.lanes == b.lanes && a.sample_cycles == b.sample_cycles && a.switch_cycles == b.switch_cycles &&
           a.sat_num == b.sat_num && a.sat_den == b.sat_den;
  }
  static void describe(std::ostream& os, const Block::Params& p) {
    os << "lanes " << p.lanes << ", sample " << p.sample_cycles << ", switch " << p.switch_cycles
       << ", saturation " << p.sat_num << "/" << p.sat_den;
  }

  template <class Top>
  static void drive(Top& m, const Block::Inputs& in) {
    m.kernel_launch_i = in.kernel_launch;
    m.busy_a_i = in.busy_a;
    m.busy_b_i = in.busy_b;
    m.drained_i = in.drained;
  }
  template <class Top>
  static Block::Outputs outputs(const Top& m) {
    Block::Outputs o;
    o.lanes_a = m.lanes_a_o;
    o.lanes_b = m.lanes_b_o;
    o.lane_dir = m.lane_dir_o;
    o.lane_quiesce = m.lane_quiesce_o;
    o.lane_switch = m.lane_switch_o;
    sample_decision(o, m);
    return o;
  }
  static Block::Inputs fit(const Block::Inputs& in, const Build&) { return in; }  // all one bit
  template <class Top>
  static auto& window_counter(Top& m) {
    return m.rootp->link_balancer__DOT__u_win_cnt__DOT__cnt_q;
  }
};

// rtl/cache_partition_ctrl.sv
struct PartitionCtrlPorts {
  using Block = policy::PartitionController;
  static constexpr const char* kTop = "cache_partition_ctrl";
  static constexpr const char* kRtlParams =
      "Ways SampleCycles SatNum SatDen RespBytes IngressBytesPerCycle ReqW";

  struct Build {
    Block::Params params;
    unsigned req_w;  // ReqW: width of read_reqs_i (the C++ class takes any count)
  };
  static Build build(std::uint32_t ways, std::uint32_t sample_cycles, std::uint32_t sat_num,
                     std::uint32_t sat_den, std::uint32_t resp_bytes, std::uint32_t ingress_bytes_per_cycle,
                     unsigned req_w) {
    return Build{{ways, sample_cycles, sat_num, sat_den, resp_bytes, ingress_bytes_per_cycle}, req_w};
  }
  static const Block::Params& params(const Build& b) { return b.params; }
  static bool same(const Block::Params& a, const Block::Params& b) {
    return a.ways == b.ways && a.sample_cycles == b.sample_cycles && a.sat_num == b.sat_num &&
           a.sat_den == b.sat_den && a.resp_bytes == b.resp_bytes &&
           a.ingress_bytes_per_cycle == b.ingress_bytes_per_cycle;
  }
  static void describe(std::ostream& os, const Block::Params& p) {
    os << "ways " << p.ways << ", sample " << p.sample_cycles << ", saturation " << p.sat_num << "/"
       << p.sat_den << ", response " << p.resp_bytes << " B, ingress " << p.ingress_bytes_per_cycle
       << " B/cycle";
  }

  // read_reqs is driven as given: the caller keeps it within the RTL's ReqW bits (fit()).
  template <class Top>
  static void drive(Top& m, const Block::Inputs& in) {
    m.kernel_launch_i = in.kernel_launch;
    m.dram_busy_i = in.dram_busy;
    m.read_reqs_i = in.read_reqs;
  }
  template <class Top>
  static Block::Outputs outputs(const Top& m) {
    Block::Outputs o;
    o.remote_ways = m.remote_ways_o;
    o.local_ways = m.local_ways_o;
    o.remote_mask = m.remote_mask_o;
    sample_decision(o, m);
    return o;
  }
  // A Verilated input wider than its port would leak into the logic: keep ReqW bits (the partition driver
  // already reports at most 2^ReqW - 1 requests a cycle, so this never drops one).
  static Block::Inputs fit(const Block::Inputs& in, const Build& b) {
    Block::Inputs out = in;
    out.read_reqs = static_cast<std::uint16_t>(in.read_reqs & ((1u << b.req_w) - 1));
    return out;
  }
  template <class Top>
  static auto& window_counter(Top& m) {
    return m.rootp->cache_partition_ctrl__DOT__u_win_cnt__DOT__cnt_q;
  }
};

// The traits of a block's C++ class, for the build lookup (rtl_builds.hpp).
template <class Block>
struct PortsOf;
template <>
struct PortsOf<policy::LinkBalancer> {
  using type = LinkBalancerPorts;
};
template <>
struct PortsOf<policy::PartitionController> {
  using type = PartitionCtrlPorts;
};

}  // namespace numagpu::rtl_ports
