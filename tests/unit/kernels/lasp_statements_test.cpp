// What the applications state for LASP (Launch::accesses, LADM §III-C) and what LASP decides from it at
// their launches: each application's host program is run without the timing model, every launch's
// statement read and handed to runtime::decide_kernel with the application's arrays, on the LADM paper's
// 4 GPUs x 4 chiplets with 4 KiB pages. The expected class of each array is read off the kernel's index
// expression by hand (comments); the decisions follow from Table II (docs/runtime-policies.md).
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "app_walk.hpp"
#include "kernels/application.hpp"
#include "runtime/lasp.hpp"

namespace numagpu::kernels {
namespace {

using runtime::CtaPolicy;
using runtime::LocalityClass;
using runtime::PlacementPolicy;
using runtime::RemoteInsert;

struct Stated {
  runtime::KernelDecision decision;
  runtime::CtaScheduleParams hcoda;  // H-CODA's batches for the same statement
  std::map<std::string, runtime::ArrayDecision> by_array;
  const runtime::ArrayDecision& operator[](const std::string& array) const {
    const auto it = by_array.find(array);
    if (it == by_array.end()) throw std::out_of_range("not stated: " + array);
    return it->second;
  }
};

// The first launch of each kernel name of `app`, as LASP decides it on 4 x 4 chiplets.
std::map<std::string, Stated> first_launches(const std::string& app, const std::string& args,
                                             const std::string& input = "") {
  std::unique_ptr<Application> a = make_app(app, args, input, testing::kTrafficBase);
  std::map<std::string, Stated> r;
  const runtime::Machine machine{4, 4};
  a->set_launcher([&](const std::string& name, std::unique_ptr<Kernel> k) {
    if (r.count(name)) return;
    const Launch l = k->launch();
    const runtime::KernelShape shape{runtime::Grid{l.grid.x, l.grid.y, l.grid.z}, machine, 4096};
    Stated s;
    s.decision = runtime::decide_kernel(l.accesses, a->allocations(), shape);
    s.hcoda = runtime::hcoda_schedule(l.accesses, a->allocations(), shape);
    for (const runtime::ArrayDecision& d : s.decision.arrays)
      s.by_array[d.array] = d;
    r[name] = s;
  });
  a->host();
  return r;
}

// K4, the complete graph on 4 vertices (METIS, 1-based): every vertex has 3 neighbours, so the edge array
// (12 entries) is larger than the per-vertex ones (4 or 5): the edges choose the kernel's scheduler.
constexpr const char* kK4 = "4 6\n2 3 4\n1 3 4\n1 2 4\n1 2 3\n";

TEST(LaspStatements, StreamIsNoLocalityAndItsDotIsStrided) {
  // 2^20 doubles an array (8 MiB), TBSIZE 1024: copy has 1024 CTAs, each its own 8 KiB of a and c (row 1,
  // no loop): kernel-wide placement; the align-aware batch is ceil(1024 / 16) = 64 CTAs, a multiple of
  // MinTBBatch = 4096 / gcd(4096, 8192) = 1. a and c are equal: a, stated first, chooses. RTWICE.
  const auto launches = first_launches("other/stream", "elements=1048576 iterations=1");
  const Stated& copy = launches.at("copy");
  EXPECT_EQ(copy.decision.winner, "a");
  EXPECT_EQ(copy["a"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(copy["c"].placement, PlacementPolicy::kKernelWide);
  EXPECT_EQ(copy.decision.schedule.policy, CtaPolicy::kBatch);
  EXPECT_EQ(copy.decision.schedule.batch, 64u);
  EXPECT_EQ(copy.decision.remote_insert, RemoteInsert::kTwice);
  // dot: 256 CTAs stride through a and b by TBSIZE x DOT_NUM_BLOCKS = 262,144 doubles (2 MiB) per trip:
  // stride-aware (2 MiB is at least 16 sockets x 4 KiB), batches of 256 / 16 = 16 CTAs.
  const Stated& dot = launches.at("dot");
  EXPECT_EQ(dot["a"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(dot["b"].placement, PlacementPolicy::kStrideAware);
  EXPECT_EQ(dot["b"].stride_bytes, 2u << 20);
  EXPECT_EQ(dot.decision.schedule.batch, 16u);
}

TEST(LaspStatements, StencilMovesAPlaneAndBackpropSharesAGridRow) {
  // parboil/stencil at 128 x 128 x 8: a grid of 2 x 32 CTAs (64 x 4 points each). x + (y + k ny) nx moves
  // a whole 128 x 128 plane (64 KiB) per z step: row 1 strided, stride-aware (64 KiB is 16 sockets x 4 KiB).
  // A CTA reads 64 floats (256 B) of a row: MinTBBatch 4096 / 256 = 16, and ceil(64 / 16) = 4 CTAs a socket
  // round up to one batch of 16.
  // A copy: the map first_launches returns is a temporary, gone at the end of this statement.
  const Stated stencil =
      first_launches("parboil/stencil", "nx=128 ny=128 nz=8 iterations=1").at("block2D_hybrid_coarsen_x");
  EXPECT_EQ(stencil["A0"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(stencil["A0"].placement, PlacementPolicy::kStrideAware);
  EXPECT_EQ(stencil["Anext"].stride_bytes, 64u << 10);
  EXPECT_EQ(stencil.decision.schedule.batch, 16u);
  // rodinia/backprop with 1,024 inputs: a grid of 1 x 64 CTAs; the weights' index holds blockIdx.y only and
  // no loop: row 2 (a grid row shares, no motion): row-based placement of the 1,025 x 17 weights and, on
  // 4 GPUs of 4 chiplets, the hierarchical row binding. hidden_delta[tx + 1] holds no block id: unclassified.
  const auto backprop = first_launches("rodinia/backprop", "in=1024 epochs=1");
  const Stated& forward = backprop.at("layerforward");
  EXPECT_EQ(forward.decision.winner, "input_hidden_cuda");
  EXPECT_EQ(forward["input_hidden_cuda"].locality, LocalityClass::kRowSharedMoveRow);
  EXPECT_EQ(forward["input_hidden_cuda"].placement, PlacementPolicy::kRowBased);
  EXPECT_EQ(forward.decision.schedule.policy, CtaPolicy::kHierarchical);
  EXPECT_EQ(forward.decision.schedule.hierarchy_unit, runtime::HierarchyUnit::kRows);
  EXPECT_EQ(backprop.at("adjust_weights")["hidden_delta_cuda"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(backprop.at("adjust_weights").decision.remote_insert, RemoteInsert::kTwice);
}

TEST(LaspStatements, CfdReadsItsArraysByVariableAndItsNeighboursGathered) {
  // rodinia/cfd on its reference mesh (mdual.graph: 258,569 elements, nelr = 258,624, 1,347 CTAs of 192).
  // Every per-element array is read at i + v * nelr (v a variable, a neighbour or a normal's component):
  // row 1 strided by nelr floats (1,034,496 B, at least 16 sockets x 4 KiB): stride-aware. compute_flux's
  // largest array is the normals (12 floats an element): align-aware, RTWICE; the variables it reads mostly
  // at the neighbours' numbers are gathered. initialize_variables states the variables first, so they are
  // placed stride-aware there.
  const std::string mesh = "/usr/share/doc/libmetis-dev/examples/graphs/mdual.graph";
  if (!std::ifstream(mesh)) GTEST_SKIP() << mesh << " is missing (Debian package libmetis-dev)";
  const auto cfd = first_launches("rodinia/cfd", "iterations=1", mesh);
  EXPECT_EQ(cfd.at("initialize_variables")["variables"].placement, PlacementPolicy::kStrideAware);
  EXPECT_EQ(cfd.at("initialize_variables")["variables"].stride_bytes, 258624u * 4);
  const Stated& flux = cfd.at("compute_flux");
  EXPECT_EQ(flux.decision.winner, "normals");
  EXPECT_EQ(flux["normals"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(flux["normals"].placement, PlacementPolicy::kStrideAware);
  EXPECT_EQ(flux["variables"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(flux.decision.schedule.policy, CtaPolicy::kBatch);
  EXPECT_EQ(flux.decision.remote_insert, RemoteInsert::kTwice);
  EXPECT_EQ(cfd.at("time_step")["step_factors"].placement, PlacementPolicy::kKernelWide);
}

TEST(LaspStatements, SradsElementWiseKernelsGiveHcodaItsPageAlignedBatches) {
  // rodinia/srad's own element-wise kernels read 512 floats (2 KiB) of each array per CTA at ei = tx + 512
  // bx: row 1, no loop. Stated, H-CODA runs them in batches of 4096 / 2048 = 2 CTAs, a page each (unstated,
  // batches of one CTA would put the two halves of every page on two sockets).
  const auto srad = first_launches("rodinia/srad", "rows=64 cols=64 iterations=1");
  for (const char* kernel : {"extract", "prepare", "srad2", "compress"}) {
    EXPECT_EQ(srad.at(kernel)["I"].locality, LocalityClass::kNoLocality) << kernel;
    EXPECT_EQ(srad.at(kernel).hcoda.batch, 2u) << kernel;
  }
  EXPECT_EQ(srad.at("srad2")["c"].locality, LocalityClass::kNoLocality);
}

TEST(LaspStatements, GraphKernelsWalkTheirEdgesWithinAThread) {
  testing::TempGraph k4(kK4);
  // pagerank's pull: col[e] from row_ptr[v] to row_ptr[v + 1], one edge a step: ITL (row 6); it is the
  // largest array (12 ints against 5, 4 and 4): kernel-wide CTAs and RONCE. contrib[col[e]] is gathered
  // (row 7); rank[v] row 1. contrib (the kernel before it): row_ptr, 5 ints, chooses row 1 and RTWICE.
  const auto pagerank = first_launches("lonestar/pagerank", "layers=1 iterations=1", k4.path());
  const Stated& pull = pagerank.at("pull");
  EXPECT_EQ(pull.decision.winner, "col");
  EXPECT_EQ(pull["col"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(pull["contrib"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(pull["rank"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(pull.decision.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(pull.decision.remote_insert, RemoteInsert::kOnce);
  EXPECT_EQ(pagerank.at("contrib").decision.winner, "row_ptr");
  EXPECT_EQ(pagerank.at("contrib").decision.remote_insert, RemoteInsert::kTwice);

  // bfs's Kernel: graph_edges (12 ints) is larger than graph_nodes (8 ints): ITL, RONCE; the flags and
  // costs read at a neighbour's id are unclassified. Kernel2 touches the masks at tid only: row 1, RTWICE.
  const auto bfs = first_launches("rodinia/bfs", "layers=1", k4.path());
  const Stated& expand = bfs.at("Kernel");
  EXPECT_EQ(expand.decision.winner, "graph_edges");
  EXPECT_EQ(expand["graph_nodes"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(expand["graph_visited"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(expand.decision.remote_insert, RemoteInsert::kOnce);
  EXPECT_EQ(bfs.at("Kernel2")["graph_visited"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(bfs.at("Kernel2").decision.remote_insert, RemoteInsert::kTwice);

  // sssp's SSSP1: col and weight (12 ints each) walked by edge: ITL, col (stated first) chooses; RONCE.
  const auto sssp = first_launches("lonestar/sssp", "layers=1", k4.path());
  EXPECT_EQ(sssp.at("SSSP1").decision.winner, "col");
  EXPECT_EQ(sssp.at("SSSP1")["weight"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(sssp.at("SSSP1")["updating_cost"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(sssp.at("SSSP1").decision.remote_insert, RemoteInsert::kOnce);
  EXPECT_EQ(sssp.at("SSSP2").decision.remote_insert, RemoteInsert::kTwice);

  // mst's find_min walks col, weight and edge_id by edge: ITL, RONCE; take_edge reads them at the chosen
  // edge only: gathered, so the kernel is unclassified: kernel-wide, RTWICE. (The walk runs no CTA, so the
  // host stops after take_edge: nothing raised its flag.)
  const auto mst = first_launches("lonestar/mst", "layers=1", k4.path());
  EXPECT_EQ(mst.at("find_min").decision.winner, "col");
  EXPECT_EQ(mst.at("find_min")["edge_id"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(mst.at("find_min").decision.remote_insert, RemoteInsert::kOnce);
  EXPECT_EQ(mst.at("take_edge").decision.winner, "src");
  EXPECT_EQ(mst.at("take_edge")["src"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(mst.at("take_edge").decision.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(mst.at("take_edge").decision.remote_insert, RemoteInsert::kTwice);
}

TEST(LaspStatements, KmeansInvertMappingIsIntraThreadOverTheStridedCopy) {
  // 16,384 points x 34 features: 64 CTAs of 256 on an 8 x 8 grid (2-D). feature_d[p * 34 + i] walks a
  // point's own features: ITL; feature_flipped_d[p + i * 16384] moves 16,384 floats (64 KiB) a trip: row 1
  // strided, stride-aware (64 KiB is 16 sockets x 4 KiB). Equal sizes: feature_d (first) chooses,
  // kernel-wide and RONCE. kmeansPoint reads the flipped array the same way: row 1, RTWICE.
  const auto kmeans = first_launches("rodinia/kmeans", "points=16384 features=34 clusters=5 iterations=1");
  const Stated& invert = kmeans.at("invert_mapping");
  EXPECT_EQ(invert.decision.winner, "feature_d");
  EXPECT_EQ(invert["feature_d"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(invert["feature_flipped_d"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(invert["feature_flipped_d"].placement, PlacementPolicy::kStrideAware);
  EXPECT_EQ(invert["feature_flipped_d"].stride_bytes, 64u << 10);
  EXPECT_EQ(invert.decision.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(invert.decision.remote_insert, RemoteInsert::kOnce);
  EXPECT_EQ(kmeans.at("kmeansPoint").decision.remote_insert, RemoteInsert::kTwice);
}

}  // namespace
}  // namespace numagpu::kernels
