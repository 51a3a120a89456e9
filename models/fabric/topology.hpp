// The fabric as data: GPU nodes (sockets), switch nodes, and links between them, with routes computed from
// that description (shortest paths in hops; ties broken by the lowest or highest neighbour index; explicit
// `via` overrides). Plain C++: the system builder turns it into Link and Switch modules.
#pragma once

#include <string>
#include <vector>

#include "fabric/link_spec.hpp"

namespace numagpu {

struct TopologyLink {
  unsigned a = 0, b = 0;  // node ids: 0..gpus-1 are GPUs, gpus.. are switches
  LinkSpec spec;          // lanes already multiplied by the number of parallel links
};

struct RouteOverride {
  unsigned from = 0, to = 0, via = 0;  // node ids; from and to are GPUs
};

class Topology {
 public:
  enum class TieBreak { kLowest, kHighest };

  std::string name = "switch";
  unsigned gpus = 1;
  unsigned switches = 0;
  std::vector<TopologyLink> links;
  TieBreak tie_break = TieBreak::kLowest;
  std::vector<RouteOverride> overrides;

  unsigned nodes() const { return gpus + switches; }
  std::string node_name(unsigned node) const;
  // Node id of "gpuN" / "switchN", or -1.
  int node_id(const std::string& name) const;

  // Fills the route table; throws std::invalid_argument with a one-line reason when a GPU cannot reach
  // another, or an override names a `via` that is not a neighbour of `from` or cannot reach `to`.
  void compute_routes();
  // The link a packet at `node` for GPU `dest` leaves on (index into links), or -1 at dest itself.
  int next_link(unsigned node, unsigned dest) const { return next_[node][dest]; }
  // Links attached to a node, in declaration order (this order fixes port numbers).
  std::vector<unsigned> links_of(unsigned node) const;
  // The position of `link` among links_of(node): the node's link port (slot) for it.
  unsigned link_slot(unsigned node, unsigned link) const;
  // The full path of link indices from GPU `from` to GPU `to`.
  std::vector<unsigned> path(unsigned from, unsigned to) const;

 private:
  std::vector<std::vector<int>> next_;
};

}  // namespace numagpu
