// lonestar/mst (application): minimum spanning forest by Boruvka's algorithm with atomics, the GPU
// formulation of Vineet, Harish, Patidar and Narayanan ("Fast minimum spanning tree for large graphs on the
// GPU", HPG 2009) and of LonestarGPU's mst (component-based Boruvka with atomicMin on packed keys; learned
// from the paper's and LonestarGPU's descriptions, written here anew). Every vertex has a component
// representative comp[v] (initially itself). Each round, one thread per vertex in every kernel:
//   reset_min: each component's minimum key back to infinity;
//   find_min: each vertex walks its edges and, for every edge leaving its component, atomicMin's the
//     component's minimum with the edge's packed key, weight x 2^32 + the undirected edge's id (the id breaks
//     ties, the same from both ends, so the chosen edges form no cycle longer than a mutual pair);
//   take_edge: each representative with an outgoing edge marks that edge as in the tree, records the
//     component at its other end as its partner and raises the flag; one without keeps partner -1;
//   hook: each representative hooks onto its partner (comp[r] = partner), except the smaller of a mutual
//     pair, which stays the representative (reading only the partners: no race with the writes);
//   jump (pointer jumping, comp[v] = comp[comp[v]]), repeated by the host while it changed something.
// The host runs rounds while take_edge raised the flag: at the end there is one component per connected
// component, and the marked edges are the minimum spanning forest. Graph, keys, components, partners, the
// tree marks and the flags carry data: the loops decide on executed data. Blocks of 256 threads
// (LonestarGPU's usual block size).
//
// Input: a METIS graph (default copter2.graph of libmetis-doc extruded to `layers` layers, as
// lonestar/sssp's) with its edge weights if its header's fmt says it has them, else uniform in 1..100 from a
// splitmix64 hash of the edge's two ends and `seed` (sssp's scheme: each undirected edge one weight). A
// weight must not be negative (weights are ints: below 2^31; a key, weight x 2^32 + id, stays below 2^63: no
// overflow).
#include <limits>
#include <tuple>

#include "kernels/application.hpp"
#include "kernels/csr_frontier.hpp"
#include "kernels/generate.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;
constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

class MstApp : public Application {
 public:
  MstApp(const Args& a, const std::string& input)
      : Application(a, input), graph_(load_graph(input, std::uint32_t(a["layers"]))) {
    CsrGraph& g = graph_;
    if (g.has_edge_weights && a.given("seed"))
      throw KernelError("argument 'seed': " + input +
                        " gives its edge weights (fmt), so no weights are made up");
    const bool weighted = g.has_edge_weights;  // as the header's fmt says (weights of 1 are weights)
    const std::uint64_t seed = std::uint64_t(a["seed"]);
    for (std::uint32_t v = 0; v < g.vertices; ++v)
      for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e)
        src_.values[e] = std::int32_t(v);
    // The reverse of entry v -> u: the first entry of u's list that is v. Scanning u's list costs the sum of
    // the degrees squared: fine for a mesh, 10^10 steps for a vertex of 10^5 neighbours (a star, or duplicate
    // edges). Above a few times the entries, the entries sorted by (vertex, neighbour, position) find it by
    // bisection instead (the same entry).
    std::uint64_t scan_steps = 0;
    for (std::uint32_t u = 0; u < g.vertices; ++u)
      scan_steps += std::uint64_t(g.row_ptr[u + 1] - g.row_ptr[u]) * (g.row_ptr[u + 1] - g.row_ptr[u]);
    std::vector<std::uint32_t> by_pair;
    if (scan_steps > 64 * std::uint64_t(g.col.size()) + (std::uint64_t(1) << 20)) {
      by_pair.resize(g.col.size());
      for (std::uint32_t f = 0; f < by_pair.size(); ++f)
        by_pair[f] = f;
      std::sort(by_pair.begin(), by_pair.end(), [&](std::uint32_t a, std::uint32_t b) {
        return std::tie(src_.values[a], g.col[a], a) < std::tie(src_.values[b], g.col[b], b);
      });
    }
    const auto reverse_of = [&](std::uint32_t v, std::uint32_t u) {
      if (by_pair.empty()) {
        for (std::uint32_t f = g.row_ptr[u]; f < g.row_ptr[u + 1]; ++f)
          if (g.col[f] == v) return f;
        return g.row_ptr[u + 1];
      }
      const auto it =
          std::lower_bound(by_pair.begin(), by_pair.end(), std::make_pair(u, v),
                           [&](std::uint32_t f, const std::pair<std::uint32_t, std::uint32_t>& key) {
                             return std::make_pair(std::uint32_t(src_.values[f]), g.col[f]) < key;
                           });
      return it != by_pair.end() && std::uint32_t(src_.values[*it]) == u && g.col[*it] == v
                 ? *it
                 : g.row_ptr[u + 1];
    };
    for (std::uint32_t v = 0; v < g.vertices; ++v) {
      for (std::uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
        const std::uint32_t u = g.col[e];
        if (!weighted) {
          const std::uint64_t lo = std::min(v, u), hi = std::max(v, u);
          SplitMix64 r(seed ^ (lo * 0x9E3779B97F4A7C15ull + hi));
          g.weight[e] = std::int32_t(1 + r.next() % 100);
        } else if (g.weight[e] < 0) {
          throw KernelError("input " + input + ": a negative edge weight (vertex " + std::to_string(v + 1) +
                            ")");
        }
        // The undirected edge's id: the smaller of its two entries (the reverse found in u's list).
        // Each end must list the edge, with one weight: otherwise the two ends would rank it differently and
        // the chosen edges could close a cycle (pointer jumping would never end).
        const std::uint32_t rev = reverse_of(v, u);
        if (rev == g.row_ptr[u + 1] || (weighted && rev < e && g.weight[rev] != g.weight[e]))
          throw KernelError("input " + input + ": the edge " + std::to_string(v + 1) + "-" +
                            std::to_string(u + 1) + " is not listed by both ends with the same weight");
        eid_.values[e] = std::int32_t(std::min(e, rev));
      }
    }
    row_.values.assign(g.row_ptr.begin(), g.row_ptr.end());
    col_.values.assign(g.col.begin(), g.col.end());
    weight_.values = std::move(g.weight);
    graph_ = CsrGraph{};  // the arrays hold it now
    for (std::int64_t v = 0; v < n_; ++v)
      comp_.values[std::size_t(v)] = std::int32_t(v);
    // Each round with an outgoing edge merges every such component with another: at most L = ceil(log2 n)
    // of them, then one without (3 launches). A round is 4 launches and its jumps: each halves the depth of
    // the components' trees (at most n), ending with one that changes nothing: at most L + 1.
    std::uint64_t l = 0;
    while ((std::uint64_t(1) << l) < std::uint64_t(n_))
      ++l;
    const std::uint64_t bound = l * (4 + l + 1) + 3;
    set_launch_bound(bound, "L (L + 5) + 3 = " + std::to_string(bound) +
                                " for L = ceil(log2 n), n = " + std::to_string(n_) + " vertices");
  }

  void host() override {
    for (;;) {
      launch("reset_min", reset_min());
      launch("find_min", find_min());
      flag_.values[0] = 0;
      launch("take_edge", take_edge());
      if (!flag_.values[0]) break;  // no component has an outgoing edge
      launch("hook", hook());
      do {
        flag_.values[0] = 0;
        launch("jump", jump());
      } while (flag_.values[0]);
    }
  }

 private:
  Launch shape(unsigned regs) const { return one_thread_per_item(n_, kThreads, regs); }
  V<std::int64_t> vertex(Cta& c) const {
    const V<std::int64_t> v = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
    c.exit_if(v >= n_);
    return v;
  }
  // The representative's own entries only (comp[v] == v).
  V<bool> is_root(Cta& c, const V<std::int64_t>& v) const {
    return convert<std::int64_t>(c.load(comp_, v)) == v;
  }

  Launch reset_min() {
    Launch l = shape(8);
    l.body = [this](Cta& c) {
      const V<std::int64_t> v = vertex(c);
      c.store(min_, v, V<std::uint64_t>(c, kNone));
    };
    // LASP's index terms: min_key[v], v = tx + 256 bx: row 1, no loop.
    l.accesses = {lasp_access(min_, runtime::terms::kPerThread, kThreads * 8)};
    return l;
  }

  Launch find_min() {
    Launch l = shape(24);
    l.body = [this](Cta& c) {
      const V<std::int64_t> v = vertex(c);
      const V<std::int32_t> mine = c.load(comp_, v);
      V<std::int64_t> e = convert<std::int64_t>(c.load(row_, v));
      const V<std::int64_t> end = convert<std::int64_t>(c.load(row_, v + 1));
      for_each_edge(c, std::move(e), end, [&](const V<std::int64_t>& edge) {
        const V<std::int64_t> u = convert<std::int64_t>(c.load(col_, edge));
        c.if_(c.load(comp_, u) != mine, [&] {
          const V<std::uint64_t> key =
              convert<std::uint64_t>(c.load(weight_, edge)) * (std::uint64_t(1) << 32) +
              convert<std::uint64_t>(c.load(eid_, edge));
          c.atomic_min(min_, convert<std::int64_t>(mine), key);
        });
      });
    };
    // LASP's index terms: col, weight and edge_id[e] for e from row_ptr[v], one per step: intra-thread
    // locality (row 6); comp is read mostly at a neighbour's number and min_key written at the component's:
    // gathered (row 7); row_ptr[v]: row 1. col, the first of the three largest, chooses: kernel-wide, RONCE.
    using runtime::terms::kGathered, runtime::terms::kOwnRun;
    l.accesses = {lasp_access(row_, runtime::terms::kPerThread, kThreads * 4),
                  lasp_access(col_, kOwnRun),
                  lasp_access(weight_, kOwnRun),
                  lasp_access(eid_, kOwnRun),
                  lasp_access(comp_, kGathered),
                  lasp_access(min_, kGathered)};
    return l;
  }

  Launch take_edge() {
    Launch l = shape(20);
    l.body = [this](Cta& c) {
      const V<std::int64_t> v = vertex(c);
      c.exit_if(!is_root(c, v));
      const V<std::uint64_t> key = c.load(min_, v);
      c.if_else(
          key != kNone,
          [&] {
            const V<std::int64_t> id =
                map(key, InstrClass::kInt, [](std::uint64_t k) { return std::int64_t(k & 0xFFFFFFFFu); });
            const V<std::int32_t> a = c.load(comp_, convert<std::int64_t>(c.load(src_, id)));
            const V<std::int32_t> b = c.load(comp_, convert<std::int64_t>(c.load(col_, id)));
            c.store(partner_, v, select(convert<std::int64_t>(a) == v, b, a));
            c.store(mst_, id, V<std::uint8_t>(c, 1));
            c.store(flag_, V<std::int64_t>(c, 0), V<std::uint8_t>(c, 1));
          },
          [&] { c.store(partner_, v, V<std::int32_t>(c, -1)); });
    };
    // LASP's index terms: min_key[v], partner[v]: row 1; src, col and in_mst at the chosen edge, comp at its
    // ends: gathered (row 7). src, the largest stated first, chooses: kernel-wide, RTWICE.
    using runtime::terms::kGathered, runtime::terms::kPerThread;
    l.accesses = {lasp_access(src_, kGathered),
                  lasp_access(col_, kGathered),
                  lasp_access(mst_, kGathered),
                  lasp_access(comp_, kGathered),
                  lasp_access(min_, kPerThread, kThreads * 8),
                  lasp_access(partner_, kPerThread, kThreads * 4)};
    return l;
  }

  Launch hook() {
    Launch l = shape(16);
    l.body = [this](Cta& c) {
      const V<std::int64_t> v = vertex(c);
      c.exit_if(!is_root(c, v));
      const V<std::int32_t> s = c.load(partner_, v);
      c.if_(s >= 0, [&] {
        const V<std::int64_t> s64 = convert<std::int64_t>(s);
        const V<bool> mutual = convert<std::int64_t>(c.load(partner_, s64)) == v;
        c.if_(!(mutual && v < s64), [&] { c.store(comp_, v, s); });
      });
    };
    // LASP's index terms: partner and comp at v (row 1; partner is read once more at the partner's number).
    using runtime::terms::kPerThread;
    l.accesses = {lasp_access(partner_, kPerThread, kThreads * 4),
                  lasp_access(comp_, kPerThread, kThreads * 4)};
    return l;
  }

  Launch jump() {
    Launch l = shape(12);
    l.body = [this](Cta& c) {
      const V<std::int64_t> v = vertex(c);
      const V<std::int32_t> p = c.load(comp_, v);
      const V<std::int32_t> pp = c.load(comp_, convert<std::int64_t>(p));
      c.if_(p != pp, [&] {
        c.store(comp_, v, pp);
        c.store(flag_, V<std::int64_t>(c, 0), V<std::uint8_t>(c, 1));
      });
    };
    // LASP's index terms: comp at v (row 1; read once more at the parent's number).
    l.accesses = {lasp_access(comp_, runtime::terms::kPerThread, kThreads * 4)};
    return l;
  }

  CsrGraph graph_;  // the input, until the arrays hold it
  std::int64_t n_ = graph_.vertices;
  Data<std::int32_t> row_{this, "row_ptr", graph_.row_ptr.size()};
  Data<std::int32_t> col_{this, "col", graph_.edges()};
  Data<std::int32_t> weight_{this, "weight", graph_.edges()};
  Data<std::int32_t> src_{this, "src", graph_.edges()};
  Data<std::int32_t> eid_{this, "edge_id", graph_.edges()};
  Data<std::int32_t> comp_{this, "comp", std::uint64_t(n_)};
  Data<std::uint64_t> min_{this, "min_key", std::uint64_t(n_), kNone};
  Data<std::int32_t> partner_{this, "partner", std::uint64_t(n_), -1};
  Data<std::uint8_t> mst_{this, "in_mst", graph_.edges()};
  Data<std::uint8_t> flag_{this, "flag", 1};
};

}  // namespace

ApplicationEntry app_lonestar_mst() {
  return {"lonestar/mst",
          "Minimum spanning forest by Boruvka with atomicMin on packed weight/edge keys (Vineet et al., "
          "LonestarGPU's mst): per round reset_min, find_min, take_edge, hook and pointer jumping until no "
          "change, until no component has an outgoing edge, on a METIS mesh graph (default copter2.graph "
          "extruded to 2 layers)",
          {{"layers", 2, 1, 64, "copies of the mesh stacked as an extruded volume (kernels/metis_graph.hpp)"},
           {"seed", 1, 0, std::int64_t(1) << 62, "seed of the edge weights (graphs without weights)"}},
          "/usr/share/doc/libmetis-dev/examples/graphs/copter2.graph",
          [](const Args& a, const std::string& input) { return std::make_unique<MstApp>(a, input); }};
}

}  // namespace numagpu::kernels
