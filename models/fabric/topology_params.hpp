// The `topology` section as the user writes it: a preset, or nodes, links and route overrides by name, each
// key declared once beside its field with its default and documentation (config/keys.hpp). The system turns
// it into a Topology (system/derive_spec.hpp). Plain C++.
#pragma once

#include <string>
#include <vector>

#include "common/cycles.hpp"
#include "fabric/topology.hpp"

namespace numagpu {

struct TopologyLinkParams {
  std::string a, b;
  unsigned count = 1;
  unsigned lanes = 16;
  double gbps = 0;
  Cycles latency_cycles = 64;

  template <class Keys>
  void keys(Keys& k) {
    k.string("a", a, "One end: gpuN or switchN").required();
    k.string("b", b, "The other end").required();
    k.integer("count", count, "Parallel links between a and b; their lanes add up").range(1, 64);
    k.integer("lanes", lanes, "Bi-directional lanes per link (half each way at launch)").range(2, 256);
    k.real("gbps", gbps,
           "Bandwidth per link and direction at the symmetric split, exact (not rounded to bytes/cycle)")
        .range(0.001, 100000.0)
        .unit("GB/s")
        .required();
    k.integer("latency_cycles", latency_cycles, "Latency of one traversal of this link")
        .range(0, 100000)
        .unit("cycles");
  }
};

struct RouteParams {
  std::string from, to, via;

  template <class Keys>
  void keys(Keys& k) {
    k.string("from", from, "GPU where the route starts").required();
    k.string("to", to, "Destination GPU").required();
    k.string("via", via, "Neighbour of `from` to go through (an intermediate GPU or a switch)").required();
  }
};

struct TopologyParams {
  bool custom = false;  // preset: switch (false) or custom
  std::string name = "switch";
  unsigned switches = 0;
  Topology::TieBreak tie_break = Topology::TieBreak::kLowest;
  std::vector<TopologyLinkParams> links;
  std::vector<RouteParams> routes;

  template <class Keys>
  void keys(Keys& k) {
    k.choice("preset", custom, {{"switch", false}, {"custom", true}},
             "switch: every socket on one switch through a link built from the `link` section (the paper's "
             "system); custom: the nodes and links listed here");
    k.string("name", name, "Name shown in reports");
    k.integer("switches", switches, "custom: switch (or CPU root) nodes, named switch0, switch1, ...")
        .range(0, 64);
    k.choice("tie_break", tie_break,
             {{"lowest", Topology::TieBreak::kLowest}, {"highest", Topology::TieBreak::kHighest}},
             "Among equally short routes, leave through the neighbour with the lowest or highest node number "
             "(GPUs are numbered before switches)");
    k.list("links", links, "custom: the links, in order (the order fixes port numbers)");
    k.list("routes", routes, "custom: route overrides, by destination");
  }
};

}  // namespace numagpu
