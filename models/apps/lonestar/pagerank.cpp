// lonestar/pagerank (application): topology-driven, pull-style PageRank on a graph in compressed sparse rows,
// as GPU graph suites write it (Pannotia's and LonestarGPU's pagerank; learned from their descriptions,
// written here anew): each iteration launches contrib (every vertex's rank divided by its degree) and pull
// (every vertex sums the contributions of its neighbours, a loop as long as its degree, so the warps of a
// high-degree region diverge, and sets rank = (1 - d) / n + d sum), a fixed number of `iterations` times as
// Pannotia's does. One thread per vertex, blocks of 256. The graph carries data (addresses); ranks do not.
//
// Input: a METIS graph (default copter2.graph of libmetis-doc, degree up to ~40, extruded to 8 layers:
// 443,808 vertices, 6,412,472 edge entries).
#include "kernels/application.hpp"
#include "kernels/csr_frontier.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;

class PagerankApp : public Application {
 public:
  PagerankApp(const Args& a, const std::string& input)
      : Application(a, input),
        iterations_(a["iterations"]),
        graph_(load_graph(input, std::uint32_t(a["layers"]))) {
    row_.values.assign(graph_.row_ptr.begin(), graph_.row_ptr.end());
    col_.values.assign(graph_.col.begin(), graph_.col.end());
    graph_ = CsrGraph{};  // the arrays hold it now
  }

  void host() override {
    for (std::int64_t it = 0; it < iterations_; ++it) {
      Launch contrib = per_vertex(12, [this](Cta& c, const V<std::int64_t>& v) {
        const V<std::int32_t> degree = c.load(row_, v + 1) - c.load(row_, v);
        c.store(contrib_, v, c.load(rank_, v) / convert<float>(degree));
      });
      // LASP's index terms: every array at v = tx + bx * 256, no loop (Table II row 1).
      contrib.accesses = {lasp_access(row_, runtime::terms::kPerThread, kThreads * 4),
                          lasp_access(rank_, runtime::terms::kPerThread, kThreads * 4),
                          lasp_access(contrib_, runtime::terms::kPerThread, kThreads * 4)};
      launch("contrib", std::move(contrib));
      Launch pull = per_vertex(20, [this](Cta& c, const V<std::int64_t>& v) {
        V<std::int64_t> e = convert<std::int64_t>(c.load(row_, v));
        const V<std::int64_t> end = convert<std::int64_t>(c.load(row_, v + 1));
        V<float> sum(c, 0.0f);
        for_each_edge(c, std::move(e), end, [&](const V<std::int64_t>& edge) {
          sum = sum + c.load(contrib_, convert<std::int64_t>(c.load(col_, edge)));
        });
        c.store(rank_, v, sum * 0.85f + 0.15f / float(n_));
      });
      // LASP's index terms: col[e] for e from row[v] to row[v + 1], one per step: intra-thread locality
      // (row 6, the paper's PageRank); contrib[col[e]]: gathered (row 7); row[v], rank[v]: row 1. col, the
      // largest, chooses: kernel-wide, and RONCE under CRB.
      pull.accesses = {lasp_access(row_, runtime::terms::kPerThread, kThreads * 4),
                       lasp_access(col_, runtime::terms::kOwnRun),
                       lasp_access(contrib_, runtime::terms::kGathered),
                       lasp_access(rank_, runtime::terms::kPerThread, kThreads * 4)};
      launch("pull", std::move(pull));
    }
  }

 private:
  Launch per_vertex(unsigned regs, std::function<void(Cta&, const V<std::int64_t>&)> f) {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((n_ + kThreads - 1) / kThreads), 1, 1};
    l.block = {kThreads, 1, 1};
    l.regs_per_thread = regs;
    l.body = [this, f = std::move(f)](Cta& c) {
      const V<std::int64_t> v = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(v >= n_);
      f(c, v);
    };
    return l;
  }

  std::int64_t iterations_;
  CsrGraph graph_;  // the input, until the arrays hold it
  std::int64_t n_ = graph_.vertices;
  Data<std::int32_t> row_{this, "row_ptr", graph_.row_ptr.size()};
  Data<std::int32_t> col_{this, "col", graph_.edges()};
  Array<float> rank_ = array<float>("rank", std::uint64_t(n_));
  Array<float> contrib_ = array<float>("contrib", std::uint64_t(n_));
};

}  // namespace

ApplicationEntry app_lonestar_pagerank() {
  return {
      "lonestar/pagerank",
      "Pull-style PageRank (Pannotia / LonestarGPU style): contrib and pull per iteration, a fixed number of "
      "iterations, on a METIS mesh graph (default copter2.graph extruded to 8 layers)",
      {{"layers", 8, 1, 64, "copies of the mesh stacked as an extruded volume (kernels/metis_graph.hpp)"},
       {"iterations", 10, 1, 100000, "iterations (2 launches each)"}},
      "/usr/share/doc/libmetis-dev/examples/graphs/copter2.graph",
      [](const Args& a, const std::string& input) { return std::make_unique<PagerankApp>(a, input); }};
}

}  // namespace numagpu::kernels
