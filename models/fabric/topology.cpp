#include "fabric/topology.hpp"

#include <deque>
#include <limits>
#include <stdexcept>

namespace numagpu {

std::string Topology::node_name(unsigned node) const {
  return node < gpus ? "gpu" + std::to_string(node) : "switch" + std::to_string(node - gpus);
}

int Topology::node_id(const std::string& name) const {
  auto index = [&name](const char* prefix, unsigned count) -> int {
    const std::string p(prefix);
    if (name.compare(0, p.size(), p) != 0 || name.size() == p.size()) return -1;
    unsigned v = 0;
    for (std::size_t i = p.size(); i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9' || v > 100000) return -1;
      v = v * 10 + unsigned(name[i] - '0');
    }
    return v < count ? int(v) : -1;
  };
  if (int g = index("gpu", gpus); g >= 0) return g;
  if (int s = index("switch", switches); s >= 0) return int(gpus) + s;
  return -1;
}

std::vector<unsigned> Topology::links_of(unsigned node) const {
  std::vector<unsigned> out;
  for (unsigned l = 0; l < links.size(); ++l) {
    if (links[l].a == node || links[l].b == node) out.push_back(l);
  }
  return out;
}

unsigned Topology::link_slot(unsigned node, unsigned link) const {
  unsigned slot = 0;
  for (unsigned l = 0; l < link; ++l)
    slot += links[l].a == node || links[l].b == node ? 1 : 0;
  return slot;
}

void Topology::compute_routes() {
  const unsigned n = nodes();
  constexpr unsigned kFar = std::numeric_limits<unsigned>::max();
  next_.assign(n, std::vector<int>(gpus, -1));
  for (unsigned dest = 0; dest < gpus; ++dest) {
    // Hop distance of every node to dest (breadth first over the undirected link graph).
    std::vector<unsigned> dist(n, kFar);
    std::deque<unsigned> frontier{dest};
    dist[dest] = 0;
    while (!frontier.empty()) {
      const unsigned u = frontier.front();
      frontier.pop_front();
      for (unsigned l : links_of(u)) {
        const unsigned v = links[l].a == u ? links[l].b : links[l].a;
        if (dist[v] == kFar) {
          dist[v] = dist[u] + 1;
          frontier.push_back(v);
        }
      }
    }
    for (unsigned node = 0; node < n; ++node) {
      if (node == dest || dist[node] == kFar) continue;
      // Among the neighbours one hop closer, the lowest (or highest) node id; first declared link on a tie.
      int best_link = -1;
      unsigned best_node = 0;
      for (unsigned l : links_of(node)) {
        const unsigned v = links[l].a == node ? links[l].b : links[l].a;
        if (dist[v] + 1 != dist[node]) continue;
        const bool better = best_link < 0 || (tie_break == TieBreak::kLowest ? v < best_node : v > best_node);
        if (better) {
          best_link = int(l);
          best_node = v;
        }
      }
      next_[node][dest] = best_link;
    }
    for (unsigned g = 0; g < gpus; ++g) {
      if (dist[g] == kFar) {
        throw std::invalid_argument(node_name(g) + " cannot reach " + node_name(dest) +
                                    " through the links given");
      }
    }
  }
  for (const RouteOverride& o : overrides) {
    int direct = -1;
    for (unsigned l : links_of(o.from)) {
      const unsigned v = links[l].a == o.from ? links[l].b : links[l].a;
      if (v == o.via) {
        direct = int(l);
        break;
      }
    }
    if (direct < 0) {
      throw std::invalid_argument("route " + node_name(o.from) + " -> " + node_name(o.to) + " via " +
                                  node_name(o.via) + ": " + node_name(o.via) + " is not a neighbour of " +
                                  node_name(o.from));
    }
    next_[o.from][o.to] = direct;
  }
  // Overrides must not create loops: every GPU pair's path must end at its destination.
  for (unsigned from = 0; from < gpus; ++from) {
    for (unsigned to = 0; to < gpus; ++to)
      (void)path(from, to);
  }
}

std::vector<unsigned> Topology::path(unsigned from, unsigned to) const {
  std::vector<unsigned> hops;
  unsigned node = from;
  while (node != to) {
    const int l = next_.at(node).at(to);
    if (l < 0 || hops.size() > nodes()) {
      throw std::invalid_argument("the routes from " + node_name(from) + " to " + node_name(to) + " loop");
    }
    hops.push_back(unsigned(l));
    node = links[l].a == node ? links[l].b : links[l].a;
  }
  return hops;
}

}  // namespace numagpu
