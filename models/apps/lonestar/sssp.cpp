// lonestar/sssp (application): single-source shortest paths by topology-driven Bellman-Ford with atomics,
// the GPU algorithm of Harish and Narayanan ("Accelerating large graph algorithms on the GPU using CUDA",
// HiPC 2007; the companion of Rodinia's BFS, and the baseline of LonestarGPU's sssp; learned from the paper's
// description, written here anew). Two kernels per iteration, one thread per vertex, until no distance
// changed: SSSP1, each vertex in the mask relaxes its out-edges with atomicMin(&updating_cost[nb], cost[v] +
// weight[e]) and leaves the mask; SSSP2, each vertex whose updating cost fell below its cost takes it,
// joins the mask and raises the flag, and every vertex's updating cost is reset to its cost. The number of
// launches is found by running it: it depends on the weights and the graph. Graph, weights, costs, masks and
// flag carry data (they steer branches and the atomics' effect); blocks of 512 threads, as Rodinia's BFS.
//
// Input: a METIS graph (default copter2.graph of libmetis-doc extruded to 2 layers: 110,952 vertices,
// 1,519,904 edge entries), weighted as lonestar/sssp_input.hpp says.
//
// Distances are int32, as the original's, with "unreached" at 2^30 - 1: a finite distance is at most
// 2^30 - 2, so cost + weight stays below 2^31 (no overflow in SSSP1's sum) when a weight is at most 2^30
// (refused above that, at the file's line), and a graph whose shortest paths reach 2^30 - 1 is refused (its
// far vertices would read as unreached). With those, Bellman-Ford settles every distance in at most
// n - 1 iterations and sees no change in the next: at most 2 n launches (the launch bound,
// checks.max_launches).
#include "kernels/csr_frontier.hpp"
#include "sssp_input.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 512;
using sssp::kInfinity;

class SsspApp : public Application {
 public:
  SsspApp(const Args& a, const std::string& input)
      : Application(a, input), graph_(sssp::weighted_graph(a, input, "lonestar/sssp")) {
    CsrGraph& g = graph_;
    row_.values.assign(g.row_ptr.begin(), g.row_ptr.end());
    col_.values.assign(g.col.begin(), g.col.end());
    weight_.values = std::move(g.weight);
    graph_ = CsrGraph{};  // the arrays hold it now
    const auto [launches, reason] = CsrFrontier::launch_bound(n_);
    set_launch_bound(launches, reason);
  }

  void host() override {
    cost_.values[0] = updating_.values[0] = 0;
    mask_.values[0] = 1;
    frontier_.repeat_while_raised([&] {
      launch("SSSP1", relax());
      launch("SSSP2", settle());
    });
  }

 private:
  Launch shape(unsigned regs) const { return one_thread_per_item(n_, kThreads, regs); }

  Launch relax() {
    Launch l = shape(20);
    l.body = [this](Cta& c) {
      const V<std::int64_t> v = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(v >= n_);
      frontier_.expand(c, v, [&] {
        const V<std::int32_t> cost = c.load(cost_, v);
        V<std::int64_t> e = convert<std::int64_t>(c.load(row_, v));
        const V<std::int64_t> end = convert<std::int64_t>(c.load(row_, v + 1));
        for_each_edge(c, std::move(e), end, [&](const V<std::int64_t>& edge) {
          const V<std::int64_t> nb = convert<std::int64_t>(c.load(col_, edge));
          c.atomic_min(updating_, nb, cost + c.load(weight_, edge));
        });
      });
    };
    return l;
  }

  Launch settle() {
    Launch l = shape(12);
    l.body = [this](Cta& c) {
      const V<std::int64_t> v = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(v >= n_);
      V<std::int32_t> cost = c.load(cost_, v);
      const V<std::int32_t> updating = c.load(updating_, v);
      c.if_(cost > updating, [&] {
        c.store(cost_, v, updating);
        frontier_.join(c, v);
        frontier_.raise(c);
        cost = updating;
      });
      c.store(updating_, v, cost);
    };
    return l;
  }

  CsrGraph graph_;  // the input, until the arrays hold it
  std::int64_t n_ = graph_.vertices;
  Data<std::int32_t> row_{this, "row_ptr", graph_.row_ptr.size()};
  Data<std::int32_t> col_{this, "col", graph_.edges()};
  Data<std::int32_t> weight_{this, "weight", graph_.edges()};
  Data<std::int32_t> cost_{this, "cost", std::uint64_t(n_), kInfinity};
  Data<std::int32_t> updating_{this, "updating_cost", std::uint64_t(n_), kInfinity};
  Data<std::uint8_t> mask_{this, "mask", std::uint64_t(n_)};
  Data<std::uint8_t> over_{this, "over", 1};
  CsrFrontier frontier_{mask_, over_};
};

}  // namespace

ApplicationEntry app_lonestar_sssp() {
  return {"lonestar/sssp",
          "SSSP, topology-driven Bellman-Ford with atomicMin (Harish and Narayanan's GPU algorithm, "
          "LonestarGPU's baseline): SSSP1 and SSSP2 until no distance changes, on a METIS mesh graph "
          "(default copter2.graph extruded to 2 layers)",
          sssp::graph_args(2), "/usr/share/doc/libmetis-dev/examples/graphs/copter2.graph",
          [](const Args& a, const std::string& input) { return std::make_unique<SsspApp>(a, input); }};
}

}  // namespace numagpu::kernels
