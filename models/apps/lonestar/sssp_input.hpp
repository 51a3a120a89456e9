// The weighted graph of the SSSP applications (lonestar/sssp and its worklist variants sssp_wln, sssp_wlc):
// a METIS graph extruded to `layers`, with the file's edge weights if its header's fmt says it has them
// (even if all are 1), else weights uniform in 1..100 from a splitmix64 stream of `seed` (each undirected
// edge one weight, the same from both ends). Distances are int32 with "unreached" at 2^30 - 1: a weight
// above 2^30 is refused at its line, and a graph whose shortest paths from vertex 1 reach 2^30 - 1 is
// refused (its far vertices would read as unreached), so cost + weight never overflows.
#pragma once

#include <limits>
#include <queue>

#include "kernels/application.hpp"
#include "kernels/generate.hpp"

namespace numagpu::kernels::sssp {

constexpr std::int32_t kInfinity = std::numeric_limits<std::int32_t>::max() / 2;  // 2^30 - 1
constexpr std::uint64_t kMaxWeight = std::uint64_t(1) << 30;

// The largest finite distance from vertex 0 (Dijkstra; weights are not negative), and its vertex.
inline std::pair<std::int64_t, std::uint32_t> farthest(const CsrGraph& g) {
  std::vector<std::int64_t> dist(g.vertices, std::numeric_limits<std::int64_t>::max());
  using Item = std::pair<std::int64_t, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  dist[0] = 0;
  queue.push({0, 0});
  Item far{0, 0};
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d != dist[v]) continue;
    far = std::max(far, Item{d, v});
    for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
      const std::int64_t nd = d + g.weight[e];
      if (nd < dist[g.col[e]]) {
        dist[g.col[e]] = nd;
        queue.push({nd, g.col[e]});
      }
    }
  }
  return far;
}

// The graph of application `app` (its name in the errors) from its `layers` and `seed` arguments.
inline CsrGraph weighted_graph(const Args& a, const std::string& input, const std::string& app) {
  CsrGraph g = load_graph(input, std::uint32_t(a["layers"]),
                          {kMaxWeight, "(" + app + " adds weights to int32 distances below 2^30)"});
  const std::int64_t n = g.vertices;
  if (g.has_edge_weights && a.given("seed"))
    throw KernelError("argument 'seed': " + input +
                      " gives its edge weights (fmt), so no weights are made up");
  if (g.has_edge_weights) {
    // No path can reach 2^30 - 1 when n - 1 edges of the heaviest weight stay below it; else find out.
    const std::int64_t heaviest = g.weight.empty() ? 0 : *std::max_element(g.weight.begin(), g.weight.end());
    if (heaviest * (n - 1) >= kInfinity) {
      const auto [d, v] = farthest(g);
      if (d >= kInfinity)
        throw KernelError("input " + input + ": vertex " + std::to_string(v + 1) + " is at distance " +
                          std::to_string(d) + " from vertex 1, beyond the 2^30 - 2 that " + app +
                          "'s int32 distances hold");
    }
  } else {  // one weight per undirected edge: hash of its two ends
    const std::uint64_t seed = std::uint64_t(a["seed"]);
    for (std::uint32_t v = 0; v < g.vertices; ++v) {
      for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
        const std::uint64_t lo = std::min(v, g.col[e]), hi = std::max(v, g.col[e]);
        SplitMix64 r(seed ^ (lo * 0x9E3779B97F4A7C15ull + hi));
        g.weight[e] = std::int32_t(1 + r.next() % 100);
      }
    }
  }
  return g;
}

// The arguments every SSSP application takes.
inline std::vector<ArgSpec> graph_args(std::int64_t layers) {
  return {
      {"layers", layers, 1, 64, "copies of the mesh stacked as an extruded volume (kernels/metis_graph.hpp)"},
      {"seed", 1, 0, std::int64_t(1) << 62, "seed of the edge weights (graphs without weights)"}};
}

}  // namespace numagpu::kernels::sssp
