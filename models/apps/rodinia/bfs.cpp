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

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 512;  // MAX_THREADS_PER_BLOCK

class BfsApp : public Application {
 public:
  BfsApp(const Args& a, const std::string& input)
      : Application(a, input), graph_(load_graph(input, std::uint32_t(a["layers"]))) {
    n_ = graph_.vertices;
    nodes_data_.resize(2 * std::size_t(n_));
    for (std::int64_t v = 0; v < n_; ++v) {
      nodes_data_[2 * v] = std::int32_t(graph_.row_ptr[v]);
      nodes_data_[2 * v + 1] = std::int32_t(graph_.row_ptr[v + 1] - graph_.row_ptr[v]);
    }
    edges_data_.assign(graph_.col.begin(), graph_.col.end());
    graph_ = CsrGraph{};  // the arrays hold it now
    mask_data_.assign(n_, 0);
    updating_data_.assign(n_, 0);
    visited_data_.assign(n_, 0);
    over_data_.assign(1, 0);
    nodes_ = array<std::int32_t>("graph_nodes", nodes_data_.size(), 0, 0, &nodes_data_);
    edges_ = array<std::int32_t>("graph_edges", edges_data_.size(), 0, 0, &edges_data_);
    mask_ = array<std::uint8_t>("graph_mask", std::uint64_t(n_), 0, 0, &mask_data_);
    updating_ = array<std::uint8_t>("updating_graph_mask", std::uint64_t(n_), 0, 0, &updating_data_);
    visited_ = array<std::uint8_t>("graph_visited", std::uint64_t(n_), 0, 0, &visited_data_);
    cost_ = array<std::int32_t>("cost", std::uint64_t(n_));
    over_ = array<std::uint8_t>("over", 1, 0, 0, &over_data_);
    // Each iteration's frontier is one level further from the source: at most n levels, and one iteration
    // that finds nothing new. Two launches an iteration.
    set_launch_bound(2 * std::uint64_t(n_ + 1), "2 (n + 1) = " + std::to_string(2 * (n_ + 1)) +
                                                    " for n = " + std::to_string(n_) + " vertices");
  }

  void host() override {
    const std::int64_t source = 0;
    mask_data_[source] = 1;
    visited_data_[source] = 1;
    do {
      over_data_[0] = 0;  // cudaMemcpy(d_over, &stop = false)
      launch("Kernel", kernel1());
      launch("Kernel2", kernel2());
    } while (over_data_[0]);  // cudaMemcpy(&stop, d_over)
  }

 private:
  Launch shape(unsigned regs) const { return one_thread_per_item(n_, kThreads, regs); }

  Launch kernel1() {
    Launch l = shape(16);
    l.body = [this](Cta& c) {
      const V<std::int64_t> tid = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(tid >= n_);
      const V<std::uint8_t> frontier = c.load(mask_, tid);
      c.if_(frontier != 0, [&] {
        c.store(mask_, tid, V<std::uint8_t>(c, 0));
        V<std::int64_t> i = convert<std::int64_t>(c.load(nodes_, tid * 2));
        const V<std::int64_t> end = i + convert<std::int64_t>(c.load(nodes_, tid * 2 + 1));
        c.while_([&] { return i < end; },
                 [&] {
                   const V<std::int64_t> id = convert<std::int64_t>(c.load(edges_, i));
                   c.if_(c.load(visited_, id) == 0, [&] {
                     c.store(cost_, id, c.load(cost_, tid) + 1);
                     c.store(updating_, id, V<std::uint8_t>(c, 1));
                   });
                   i = i + 1;
                 });
      });
    };
    return l;
  }

  Launch kernel2() {
    Launch l = shape(8);
    l.body = [this](Cta& c) {
      const V<std::int64_t> tid = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.exit_if(tid >= n_);
      c.if_(c.load(updating_, tid) != 0, [&] {
        const V<std::uint8_t> one(c, 1);
        c.store(mask_, tid, one);
        c.store(visited_, tid, one);
        c.store(over_, V<std::int64_t>(c, 0), one);
        c.store(updating_, tid, V<std::uint8_t>(c, 0));
      });
    };
    return l;
  }

  CsrGraph graph_;
  std::int64_t n_ = 0;
  std::vector<std::int32_t> nodes_data_, edges_data_;
  std::vector<std::uint8_t> mask_data_, updating_data_, visited_data_, over_data_;
  Array<std::int32_t> nodes_, edges_, cost_;
  Array<std::uint8_t> mask_, updating_, visited_, over_;
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
