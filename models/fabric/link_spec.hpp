// The links' and the switch's parameters. LinkParams is the `link` section as the user writes it (lanes in
// total, the socket-to-socket latency, a mode by name), each key declared once beside its field with its
// default and documentation (config/keys.hpp); LinkSpec is what one Link module is built from (lanes after
// doubling, a lane's rate as an exact fraction, one traversal's latency), derived by the system
// (system/derive_spec.hpp). BalancerSpec and SwitchSpec are the same in both forms. Plain C++, no SystemC.
#pragma once

#include <cstdint>
#include <string>

#include "common/cycles.hpp"
#include "policy/link_balancer.hpp"

namespace numagpu {

struct LinkSpec {
  unsigned lanes = 16;              // bi-directional lanes in total
  std::uint64_t lane_rate_num = 8;  // bytes per cycle per lane = num / den
  std::uint64_t lane_rate_den = 1;
  Cycles latency = 64;  // one traversal
  unsigned queue_depth = 64;
  std::string dir_names[2] = {"dir0", "dir1"};  // statistics names of direction 0 and 1
};

// static: half the lanes each way; dynamic: the link balancer turns lanes; double_bandwidth: static with
// twice the lanes (the paper's upper bound).
enum class LinkMode { kStatic, kDynamic, kDoubleBandwidth };

// The link balancer's own settings; its lane count comes from each link. The defaults are the paper's, as
// the reference policy states them (the RTL's parameters are checked against the same class).
struct BalancerSpec {
  Cycles sample_cycles = policy::LinkBalancer::Params{}.sample_cycles;
  Cycles switch_cycles = policy::LinkBalancer::Params{}.switch_cycles;
  unsigned saturation_percent =
      policy::LinkBalancer::Params{}.sat_num * 100 / policy::LinkBalancer::Params{}.sat_den;
};

struct LinkParams {
  unsigned lanes = 16;
  unsigned lane_bytes = 8;
  Cycles latency_cycles = 128;  // socket to socket, over two links
  unsigned header_bytes = 16;
  LinkMode mode = LinkMode::kStatic;
  BalancerSpec balancer;
  unsigned queue_depth = 64;

  template <class Keys>
  void keys(Keys& k) {
    k.integer("lanes", lanes, "Bi-directional lanes; half serve each direction (an even number, at least 2)")
        .range(2, 256);
    k.integer("lane_bytes", lane_bytes, "Bytes a lane moves per cycle").range(1, 1024).unit("B/cycle");
    k.integer("latency_cycles", latency_cycles,
              "Socket-to-socket latency through the switch, excluding serialization: half on each of the two "
              "links")
        .range(0, 100000)
        .unit("cycles");
    k.integer("header_bytes", header_bytes,
              "Packet header; read requests and write acks are a header, data packets add a line")
        .range(1, 1024)
        .unit("B");
    k.choice("mode", mode,
             {{"static", LinkMode::kStatic},
              {"dynamic", LinkMode::kDynamic},
              {"double_bandwidth", LinkMode::kDoubleBandwidth}},
             "static: half the lanes each way; dynamic: the link balancer turns lanes toward a saturated "
             "direction; double_bandwidth: static with twice the lanes (the paper's upper bound)");
    k.integer("switch_cycles", balancer.switch_cycles,
              "Cycles a drained lane needs to turn around (dynamic mode)")
        .range(1, 1000000)
        .unit("cycles");
    k.integer("sample_cycles", balancer.sample_cycles,
              "Link balancer window: it decides once per window (dynamic mode)")
        .range(1, 100000000)
        .unit("cycles");
    k.integer("saturation_percent", balancer.saturation_percent,
              "A direction busy at least this share of a window is saturated")
        .range(1, 100)
        .unit("%");
    k.integer("queue_depth", queue_depth,
              "Requests waiting per direction before senders are back-pressured (responses are never held)")
        .range(1, 4096);
  }
};

struct SwitchSpec {
  unsigned ports = 1;  // one per attached link, in topology order (set by the system, not a key)
  Cycles latency = 0;
  unsigned queue_depth = 64;

  template <class Keys>
  void keys(Keys& k) {
    k.integer("latency_cycles", latency, "Extra latency through the switch").range(0, 100000).unit("cycles");
    k.integer("queue_depth", queue_depth, "Requests waiting per output before links are back-pressured")
        .range(1, 4096);
  }
};

}  // namespace numagpu
