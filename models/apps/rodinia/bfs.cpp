// rodinia/bfs (application): Rodinia 3.1 bfs (learned from its CUDA source, bfs.cu and kernel.cu/kernel2.cu,
// written here anew) on a real unstructured mesh: breadth-first search from vertex 0, level by level. The
// host launches Kernel (every vertex of the frontier mask visits its neighbours: each unvisited one gets
// cost + 1 and joins the updating mask) and Kernel2 (the updating mask becomes the next frontier, marked
// visited, and raises the `over` flag), and repeats while Kernel2 raised the flag: the number of launches is
// the graph's depth from the source, found by running it. Grid: ceil(n / 512) CTAs of 512 threads (the
// source's MAX_THREADS_PER_BLOCK), one vertex a thread. The masks, the visited flags, the graph and the flag
// carry data (they steer branches and addresses); the costs are addresses only.
//
// Input: a METIS graph (default mdual.graph of libmetis-doc, the dual graph of a 3-D finite-element mesh:
// 258,569 vertices, 513,132 edges), extruded to `layers` layers (kernels/metis_graph.hpp) to reach the
// suite's footprint: every layer is the file's mesh, each vertex linked to itself in the layers next to it,
// as a mesh extruded into a volume. Nodes are Rodinia's {starting, no_of_edges} pairs of ints, edges ints,
// masks bools (bytes), costs ints.
#include "kernels/application.hpp"
#include "kernels/csr_frontier.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 512;  // MAX_THREADS_PER_BLOCK

class BfsApp : public Application {
 public:
  BfsApp(const Args& a, const std::string& input)
      : Application(a, input), graph_(load_graph(input, std::uint32_t(a["layers"]))) {
    for (std::int64_t v = 0; v < n_; ++v) {
      nodes_.values[2 * v] = std::int32_t(graph_.row_ptr[v]);
      nodes_.values[2 * v + 1] = std::int32_t(graph_.row_ptr[v + 1] - graph_.row_ptr[v]);
    }
    edges_.values.assign(graph_.col.begin(), graph_.col.end());
    graph_ = CsrGraph{};  // the arrays hold it now
    const auto [launches, reason] = CsrFrontier::launch_bound(n_);
    set_launch_bound(launches, reason);
  }

  void host() override {
    const std::int64_t source = 0;
    mask_.values[source] = 1;
    visited_.values[source] = 1;
    frontier_.repeat_while_raised([&] {
      launch("Kernel", kernel1());
      launch("Kernel2", kernel2());
    });
  }

 private:
  Launch shape(unsigned regs) const { return one_thread_per_item(n_, kThreads, regs); }

  Launch kernel1() {
    Launch l = shape(16);
    l.body = [this](Cta& c) {
      const V<std::int64_t> tid = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(tid >= n_);
      frontier_.expand(c, tid, [&] {
        V<std::int64_t> i = convert<std::int64_t>(c.load(nodes_, tid * 2));
        const V<std::int64_t> end = i + convert<std::int64_t>(c.load(nodes_, tid * 2 + 1));
        for_each_edge(c, std::move(i), end, [&](const V<std::int64_t>& e) {
          const V<std::int64_t> id = convert<std::int64_t>(c.load(edges_, e));
          c.if_(c.load(visited_, id) == 0, [&] {
            c.store(cost_, id, c.load(cost_, tid) + 1);
            c.store(updating_, id, V<std::uint8_t>(c, 1));
          });
        });
      });
    };
    // LASP's index terms: graph_nodes[2 tid], graph_mask[tid]: one element (pair) per thread, no loop
    // (Table II row 1); graph_edges[e] for e from the node's start, one per step: intra-thread locality
    // (row 6, the paper's BFS); the flags and costs at a neighbour's id: gathered (row 7). The edges, the
    // largest, choose: kernel-wide, and RONCE under CRB.
    using runtime::terms::kGathered, runtime::terms::kPerThread;
    l.accesses = {lasp_access(nodes_, kPerThread, kThreads * 8),
                  lasp_access(mask_, kPerThread, kThreads),
                  lasp_access(edges_, runtime::terms::kOwnRun),
                  lasp_access(visited_, kGathered),
                  lasp_access(cost_, kGathered),
                  lasp_access(updating_, kGathered)};
    return l;
  }

  Launch kernel2() {
    Launch l = shape(8);
    l.body = [this](Cta& c) {
      const V<std::int64_t> tid = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(tid >= n_);
      c.if_(c.load(updating_, tid) != 0, [&] {
        frontier_.join(c, tid);
        c.store(visited_, tid, V<std::uint8_t>(c, 1));
        frontier_.raise(c);
        c.store(updating_, tid, V<std::uint8_t>(c, 0));
      });
    };
    // LASP's index terms: every mask at tid, no loop (row 1): 512 one-byte flags per CTA.
    using runtime::terms::kPerThread;
    l.accesses = {lasp_access(updating_, kPerThread, kThreads), lasp_access(mask_, kPerThread, kThreads),
                  lasp_access(visited_, kPerThread, kThreads)};
    return l;
  }

  CsrGraph graph_;  // the input, until the arrays hold it
  std::int64_t n_ = graph_.vertices;
  Data<std::int32_t> nodes_{this, "graph_nodes", 2 * std::uint64_t(n_)};
  Data<std::int32_t> edges_{this, "graph_edges", graph_.col.size()};
  Data<std::uint8_t> mask_{this, "graph_mask", std::uint64_t(n_)};
  Data<std::uint8_t> updating_{this, "updating_graph_mask", std::uint64_t(n_)};
  Data<std::uint8_t> visited_{this, "graph_visited", std::uint64_t(n_)};
  Array<std::int32_t> cost_ = array<std::int32_t>("cost", std::uint64_t(n_));
  Data<std::uint8_t> over_{this, "over", 1};
  CsrFrontier frontier_{mask_, over_};
};

}  // namespace

ApplicationEntry app_rodinia_bfs() {
  return {
      "rodinia/bfs",
      "Rodinia 3.1 bfs (Kernel, Kernel2 until no vertex was reached) on a METIS mesh graph (default "
      "mdual.graph, 258,569 vertices), extruded to `layers` layers",
      {{"layers", 4, 1, 64, "copies of the mesh stacked as an extruded volume (kernels/metis_graph.hpp)"}},
      "/usr/share/doc/libmetis-dev/examples/graphs/mdual.graph",
      [](const Args& a, const std::string& input) { return std::make_unique<BfsApp>(a, input); }};
}

}  // namespace numagpu::kernels
