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

// What a kernel's statement decides as a whole: the array that chose, LASP's scheduler (its batch when it
// batches), CRB's insertion, and H-CODA's batch.
struct Chosen {
  std::string winner;
  CtaPolicy policy = CtaPolicy::kContiguous;
  std::uint32_t batch = 0;  // kBatch only
  RemoteInsert remote_insert = RemoteInsert::kTwice;
  std::uint32_t hcoda_batch = 1;
  bool operator==(const Chosen& o) const {
    return winner == o.winner && policy == o.policy && batch == o.batch && remote_insert == o.remote_insert &&
           hcoda_batch == o.hcoda_batch;
  }
};
void PrintTo(const Chosen& c, std::ostream* os) {
  *os << "{" << c.winner << ", policy " << static_cast<int>(c.policy) << ", batch " << c.batch << ", "
      << runtime::name(c.remote_insert) << ", H-CODA batch " << c.hcoda_batch << "}";
}
Chosen chosen(const Stated& s) {
  const runtime::CtaScheduleParams& p = s.decision.schedule;
  return {s.decision.winner, p.policy, p.policy == CtaPolicy::kBatch ? p.batch : 0, s.decision.remote_insert,
          s.hcoda.batch};
}

// The first launch of each kernel name of `app`, as LASP decides it on 4 x 4 chiplets. The walk runs no CTA:
// a host program that checks what its kernels computed (`host_checks`: CoMD's atom count after re-binning)
// stops at its first check, and the launches until then are kept.
std::map<std::string, Stated> first_launches(const std::string& app, const std::string& args,
                                             const std::string& input = "", bool host_checks = false) {
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
  try {
    a->host();
  } catch (const KernelError&) {
    if (!host_checks) throw;
  }
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
  // compute_step_factor reads the variables at i + v * nelr (the largest of its three arrays: row 1 strided
  // by nelr, stride-aware) and areas and step_factors at i (row 1, no loop: kernel-wide). Its CTAs read 768 B
  // of each: MinTBBatch 4096 / gcd(4096, 768) = 16, and the batch ceil(1,347 / 16) = 85 CTAs a socket
  // rounds up to 96.
  const Stated& factor = cfd.at("compute_step_factor");
  EXPECT_EQ(factor.decision.winner, "variables");
  EXPECT_EQ(factor["variables"].stride_bytes, 258624u * 4);
  EXPECT_EQ(factor["areas"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(factor["areas"].placement, PlacementPolicy::kKernelWide);
  EXPECT_EQ(factor.decision.schedule.policy, CtaPolicy::kBatch);
  EXPECT_EQ(factor.decision.schedule.batch, 96u);
  EXPECT_EQ(factor.hcoda.batch, 16u);
  // The copy is euler3d.cu's cudaMemcpy, which LADM's pass never sees: no statement, LASP's default
  // (contiguous CTAs) and H-CODA's batches of one CTA.
  EXPECT_EQ(cfd.at("copy").decision.winner, "");
  EXPECT_EQ(cfd.at("copy").decision.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(cfd.at("copy").hcoda.batch, 1u);
}

TEST(LaspStatements, NwAndLudStrideByAMatrixRowFromTheirBlocksOrigins) {
  // rodinia/nw at n = 64: (65 x 65)-int matrices; needle_cuda_shared_1's first launch (diagonal 1) has one
  // CTA. reference[index + cols ty] and matrix[index + ty cols]: blockIdx.x in the invariant group (1-D
  // grid), cols x ty in the variant group: row 1 strided by 65 ints (260 B, narrower than 16 sockets x 4 KiB:
  // plain page interleaving). A CTA's 16 threads read 64 B a row: MinTBBatch 4096 / 64 = 64, and the batch
  // (ceil(1 / 16) = 1 CTA a socket) rounds up to 64. The two arrays are equal: reference (first) decides.
  const Stated needle = first_launches("rodinia/nw", "n=64").at("needle_cuda_shared_1");
  EXPECT_EQ(needle.decision.winner, "reference");
  EXPECT_EQ(needle["reference"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(needle["matrix"].placement, PlacementPolicy::kPageInterleave);
  EXPECT_EQ(needle.decision.schedule.policy, CtaPolicy::kBatch);
  EXPECT_EQ(needle.decision.schedule.batch, 64u);
  EXPECT_EQ(needle.decision.remote_insert, RemoteInsert::kTwice);
  EXPECT_EQ(needle.hcoda.batch, 64u);

  // rodinia/lud at n = 64. lud_diagonal (one CTA) reads m[offset n + offset + tx + i n]: no block id, n x m:
  // neither NL nor a 2-D sharing: unclassified, kernel-wide. lud_perimeter's row and column blocks hold
  // blockIdx.x and move a row of 64 floats (256 B) per i: row 1 page-interleaved, 3 CTAs in batches of 64.
  // lud_internal (3 x 3 CTAs) writes its own block at both block ids, no loop: row 1 kernel-wide.
  const auto lud = first_launches("rodinia/lud", "n=64");
  EXPECT_EQ(lud.at("lud_diagonal")["m"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(lud.at("lud_diagonal").decision.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(lud.at("lud_perimeter")["m"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(lud.at("lud_perimeter")["m"].placement, PlacementPolicy::kPageInterleave);
  EXPECT_EQ(lud.at("lud_perimeter").decision.schedule.batch, 64u);
  EXPECT_EQ(lud.at("lud_internal")["m"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(lud.at("lud_internal")["m"].placement, PlacementPolicy::kKernelWide);
  EXPECT_EQ(lud.at("lud_internal").decision.remote_insert, RemoteInsert::kTwice);
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
  // reduce's first launch (8 CTAs over the 4,096 sums, mul = 1) reads sums[(tx + 512 bx) mul]: row 1 without
  // a loop, 2 KiB a CTA: H-CODA's batch 2, and LASP's align-aware batch ceil(8 / 16) = 1 rounded up to 2.
  const Stated& reduce = srad.at("reduce");
  EXPECT_EQ(reduce.decision.winner, "sums");
  EXPECT_EQ(reduce["sums2"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(reduce.decision.schedule.batch, 2u);
  EXPECT_EQ(reduce.hcoda.batch, 2u);
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

TEST(LaspStatements, SpmvJdsStepsByATableAndIsUnclassified) {
  testing::TempGraph k4(kK4);
  // parboil/spmv on K4: 4 rows of 4 entries (3 neighbours and the diagonal), 4 diagonals padded to 32 rows:
  // data and index 128 entries each. data[jds_ptr[k] + ix]: the loop's offset read from a table, no row of
  // Table II: unclassified, so LASP's kernel-wide CTAs and RTWICE; data (first of the two largest) decides.
  // A CTA reads 192 consecutive entries (768 B): H-CODA's batch 4096 / gcd(4096, 768) = 16. perm[ix]: row 1;
  // x[index[j]]: gathered.
  const Stated spmv = first_launches("parboil/spmv", "layers=1 iterations=1", k4.path()).at("spmv_jds");
  EXPECT_EQ(spmv.decision.winner, "data");
  EXPECT_EQ(spmv["data"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(spmv["index"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(spmv["perm"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(spmv["x"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(spmv.decision.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(spmv.decision.remote_insert, RemoteInsert::kTwice);
  EXPECT_EQ(spmv.hcoda.batch, 16u);
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

TEST(LaspStatements, ProxiesStateTheirGridsTheirMeshesAndTheirAtoms) {
  // proxy/hpgmg at n = 128 in one box of 128^3 (6 levels, 128 down to 4 cells a box). initialize's first
  // launch (level 0): a grid of 4 x 32 x 1 CTAs of 32 x 4 threads; every grid at (i + 1) + (j + 1) 130 +
  // 130^2 + k 130^2: both block ids invariant, k x 16,900 doubles (135,200 B, at least 16 sockets x 4 KiB):
  // row 1 stride-aware. A CTA row reads 32 doubles (256 B): MinTBBatch 16; 128 / 16 = 8 CTAs a socket round
  // up to 16. exchange_boundary's x splits its cells by divisions: unclassified, contiguous.
  const auto hpgmg = first_launches("proxy/hpgmg", "n=128 box=128 cycles=1 smooths=1");
  const Stated& init = hpgmg.at("initialize");
  EXPECT_EQ(init.decision.winner, "x_128");
  EXPECT_EQ(init["Dinv_128"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(init["x_128"].placement, PlacementPolicy::kStrideAware);
  EXPECT_EQ(init["x_128"].stride_bytes, 135200u);
  EXPECT_EQ(init.decision.schedule.batch, 16u);
  EXPECT_EQ(hpgmg.at("exchange_boundary")["x_128"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(hpgmg.at("exchange_boundary").decision.schedule.policy, CtaPolicy::kContiguous);
  // restriction (level 0 to 1): the fine residual moves two fine planes, 270,400 B, a step: stride-aware.
  // The first interpolation runs from the coarsest level (4 cells a box) after its 4 x smooths = 4 sweeps
  // from zero_vector's x (each sweep swaps the buffers, so x is current again); the coarse parent read at
  // k / 2: unclassified.
  EXPECT_EQ(hpgmg.at("restriction").decision.winner, "res_128");
  EXPECT_EQ(hpgmg.at("restriction")["res_128"].stride_bytes, 270400u);
  EXPECT_EQ(hpgmg.at("interpolation")["x_4"].locality, LocalityClass::kUnclassified);

  // proxy/lulesh at s = 8: 512 elements, 729 nodes. CalcVolumeForceForElems' corner forces (4 KiB each, the
  // largest) at e + k 512: row 1 strided by 4,096 B, narrower than 16 sockets x 4 KiB: page interleaving;
  // 8 CTAs of 64 with 512 B datablocks: MinTBBatch 8, the batch ceil(8 / 16) = 1 rounded up to 8.
  // AddNodeForcesFromElems reads them at the corners nodeElemCornerList names: gathered, so kernel-wide;
  // the corner list itself is each thread's own run (ITL). CalcKinematicsForElems: nodelist (16 KiB, the
  // largest) strided by 2,048 B: page-interleaved, batches of 4096 / 256 = 16. CalcMinDtOneBlock's single
  // CTA reads the blocks' minima with no block id: unclassified.
  const auto lulesh = first_launches("proxy/lulesh", "s=8 iterations=1");
  const Stated& force = lulesh.at("CalcVolumeForceForElems");
  EXPECT_EQ(force.decision.winner, "fx_elem");
  EXPECT_EQ(force["fx_elem"].placement, PlacementPolicy::kPageInterleave);
  EXPECT_EQ(force["x"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(force.decision.schedule.batch, 8u);
  const Stated& gather = lulesh.at("AddNodeForcesFromElems");
  EXPECT_EQ(gather.decision.winner, "fx_elem");
  EXPECT_EQ(gather["fx_elem"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(gather["nodeElemCornerList"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(gather.decision.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(lulesh.at("CalcKinematicsForElems").decision.winner, "nodelist");
  EXPECT_EQ(lulesh.at("CalcKinematicsForElems").decision.schedule.batch, 16u);
  EXPECT_EQ(lulesh.at("CalcMinDtOneBlock")["dtcourant_block"].locality, LocalityClass::kUnclassified);

  // proxy/comd at nx = 4: a box of 4 x 5.257 / 2.315 = 9.08 sigma, 3 link cells a side (2.5 sigma each), 27
  // CTAs. compute_force reads r mostly at the neighbour boxes (CoMD's nbrBoxes table): gathered, the largest
  // with f, stated first: kernel-wide, RTWICE. advance_velocity reads p and f at the thread's own atom:
  // row 1, 64 atoms x 24 B = 1,536 B a CTA: MinTBBatch 4096 / gcd(4096, 1536) = 8, and the batch
  // ceil(27 / 16) = 2 rounded up to 8.
  const auto comd = first_launches("proxy/comd", "nx=4 steps=1", "", true);
  EXPECT_EQ(comd.at("compute_force").decision.winner, "r0");
  EXPECT_EQ(comd.at("compute_force")["r0"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(comd.at("compute_force")["f"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(comd.at("compute_force").decision.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(comd.at("advance_velocity").decision.winner, "p0");
  EXPECT_EQ(comd.at("advance_velocity").decision.schedule.batch, 8u);
  EXPECT_EQ(comd.at("advance_velocity").hcoda.batch, 8u);
  EXPECT_EQ(comd.at("redistribute")["r1"].locality, LocalityClass::kUnclassified);

  // proxy/miniamr: every grid access takes its block's slot from the block list: unclassified, kernel-wide.
  const auto miniamr = first_launches("proxy/miniamr", "block=4 blocks=2 levels=1 vars=1 steps=1");
  EXPECT_EQ(miniamr.at("stencil").decision.winner, "grid0");
  EXPECT_EQ(miniamr.at("stencil")["grid0"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(miniamr.at("stencil")["block_list"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(miniamr.at("exchange").decision.schedule.policy, CtaPolicy::kContiguous);
}

TEST(LaspStatements, RsbenchWalksItsPolesWithinAThread) {
  // proxy/rsbench at 512 lookups on H-M small (68 nuclides, 1,000 poles a nuclide on average): 2 CTAs of
  // 256. poles[nuc max_poles + p], p from the window's start one pole a step: the loop-variant group is
  // exactly p, ITL (row 6); at least 68 x 1,000 poles x 72 B = 4.9 MB, far above the rest (verification:
  // 512 x 8 B), so the kernel is ITL: kernel-wide (contiguous) CTAs, RONCE. mats[mat max_nucs + k]: ITL
  // too; windows at a window computed from E: gathered (row 7); verification[tx + 256 bx]: row 1, no loop,
  // kernel-wide pages. H-CODA: the poles have no datablock of their own, batches of one CTA.
  const Stated rsbench =
      first_launches("proxy/rsbench", "lookups=512 nuclides=68").at("xs_lookup_kernel_baseline");
  EXPECT_EQ(chosen(rsbench), (Chosen{"poles", CtaPolicy::kContiguous, 0, RemoteInsert::kOnce, 1}));
  EXPECT_EQ(rsbench["poles"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(rsbench["mats"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(rsbench["windows"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(rsbench["verification"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(rsbench["verification"].placement, PlacementPolicy::kKernelWide);
}

TEST(LaspStatements, McbsParticlesAreRowOneAndItsMeshIsGathered) {
  // proxy/mcb at 20,000 particles on 64 x 64 zones: 157 CTAs of 128. source and track read every particle
  // array at p = tx + 128 bx (row 1, no loop); x (8 B a particle, 160,000 B) is larger than the mesh's
  // zone_bounds (4 doubles a zone, 131,072 B) and, stated first of the particle doubles, chooses: align-
  // aware, ceil(157 / 16) = 10 CTAs a socket rounded up to a multiple of MinTBBatch 4096 / (128 x 8) = 4:
  // 12. The mesh at the particle's zone: gathered (row 7). RTWICE.
  const auto small = first_launches("proxy/mcb", "particles=20000 nx=64 ny=64 steps=1");
  EXPECT_EQ(chosen(small.at("source")), (Chosen{"x", CtaPolicy::kBatch, 12, RemoteInsert::kTwice, 4}));
  const Stated& track = small.at("track");
  EXPECT_EQ(chosen(track), (Chosen{"x", CtaPolicy::kBatch, 12, RemoteInsert::kTwice, 4}));
  EXPECT_EQ(track["zone"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(track["zone_bounds"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(track["facet_neighbours"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(track["tally"].locality, LocalityClass::kUnclassified);
  // 1,000 particles on the same mesh: x is 8,000 B, zone_bounds (131,072 B) chooses: kernel-wide CTAs,
  // RTWICE, and H-CODA's batches of one CTA (a gathered array has no datablock).
  const Stated sparse = first_launches("proxy/mcb", "particles=1000 nx=64 ny=64 steps=1").at("track");
  EXPECT_EQ(chosen(sparse), (Chosen{"zone_bounds", CtaPolicy::kContiguous, 0, RemoteInsert::kTwice, 1}));
}

TEST(LaspStatements, MiniContactBinsFacesByRecordAndSearchesThroughBuckets) {
  // proxy/minicontact at n = 8: 12 x 64 = 768 faces, 2 x (6 x 64 + 2) = 772 nodes, 1,024 buckets (the
  // power of two at least 768). update_nodes: x and vx at n (row 1): 7 CTAs of 128, 1 a socket rounded up
  // to MinTBBatch 4096 / 1,024 = 4 (H-CODA's batch).
  const auto contact = first_launches("proxy/minicontact", "n=8 steps=1");
  EXPECT_EQ(chosen(contact.at("update_nodes")), (Chosen{"x", CtaPolicy::kBatch, 4, RemoteInsert::kTwice, 4}));
  // face_bounds: the box (6 doubles a face, 36,864 B, the largest) and the 4 node ids (16 B a face) are the
  // face's records at f = tx + 128 bx: row 1, kernel-wide pages; the nodes' coordinates at those ids:
  // gathered. 6 CTAs with 6,144 B box datablocks: MinTBBatch 4096 / gcd(4096, 6144) = 2, and 1 CTA a socket
  // rounds up to 2 (H-CODA the same 2).
  const Stated& bounds = contact.at("face_bounds");
  EXPECT_EQ(chosen(bounds), (Chosen{"box", CtaPolicy::kBatch, 2, RemoteInsert::kTwice, 2}));
  EXPECT_EQ(bounds["box"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(bounds["box"].placement, PlacementPolicy::kKernelWide);
  EXPECT_EQ(bounds["face_nodes"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(bounds["x"].locality, LocalityClass::kUnclassified);
  // scan_block_sums: one CTA, each thread its run of block_sums at tx run + m: ITL, RONCE.
  EXPECT_EQ(contact.at("scan_block_sums")["block_sums"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(chosen(contact.at("scan_block_sums")),
            (Chosen{"block_sums", CtaPolicy::kContiguous, 0, RemoteInsert::kOnce, 1}));
  // scatter_faces: bucket_fill (1,024 ints, above face_bucket's 768) at the face's bucket: gathered,
  // kernel-wide, RTWICE.
  EXPECT_EQ(chosen(contact.at("scatter_faces")),
            (Chosen{"bucket_fill", CtaPolicy::kContiguous, 0, RemoteInsert::kTwice, 1}));
  EXPECT_EQ(contact.at("scatter_faces")["face_bucket"].locality, LocalityClass::kNoLocality);
  // search: a bucket's faces walked from its start one a step (ITL), every face array at those faces
  // (gathered); the box, the largest, chooses: kernel-wide, RTWICE; the step's contact count: a fixed slot.
  const Stated& search = contact.at("search");
  EXPECT_EQ(chosen(search), (Chosen{"box", CtaPolicy::kContiguous, 0, RemoteInsert::kTwice, 1}));
  EXPECT_EQ(search["box"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(search["bucket_faces"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(search["contact_gap"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(search["contacts"].locality, LocalityClass::kUnclassified);
}

TEST(LaspStatements, RabbitctsVolumeIsEachCtasOwnAndItsImageATexture) {
  // proxy/rabbitct at L = 128: a grid of 4 x 4 x 128 CTAs of 32 x 32 (2-D: 512 rows). volume at
  // i + (j + k L) L holds bx and by, no loop: row 1 without a stride, kernel-wide pages. A CTA row reads 32
  // floats (128 B): MinTBBatch 4096 / 128 = 32; 2,048 CTAs / 16 = 128 a socket, a multiple of 32. H-CODA:
  // batches of 32. The image is a texture, which LADM's pass does not see: only the volume is stated.
  const Stated ct = first_launches("proxy/rabbitct", "L=128 projections=1").at("backproject");
  EXPECT_EQ(ct.decision.arrays.size(), 1u);
  EXPECT_EQ(chosen(ct), (Chosen{"volume", CtaPolicy::kBatch, 128, RemoteInsert::kTwice, 32}));
  EXPECT_EQ(ct["volume"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(ct["volume"].placement, PlacementPolicy::kKernelWide);
}

TEST(LaspStatements, WorklistSsspsWalkTheirRunsOrPopOneItemAThread) {
  testing::TempGraph k4(kK4);
  // lonestar/sssp_wln on K4: worklists of one entry an edge (12 ints), as col and weight. drelax's input
  // worklist at id per + m (each thread's run): ITL, stated first of the four equal arrays: kernel-wide,
  // RONCE. col at e from row_ptr[src]: ITL; dist, row_ptr and the output worklist: gathered; wl_size at
  // the argument `in`: a fixed slot, no row on a 1-D grid.
  const Stated wln = first_launches("lonestar/sssp_wln", "layers=1", k4.path()).at("drelax");
  EXPECT_EQ(chosen(wln), (Chosen{"wl_in", CtaPolicy::kContiguous, 0, RemoteInsert::kOnce, 1}));
  EXPECT_EQ(wln["wl_in"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(wln["col"].locality, LocalityClass::kIntraThread);
  EXPECT_EQ(wln["dist"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(wln["wl_out"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(wln["wl_size"].locality, LocalityClass::kUnclassified);

  // lonestar/sssp_wlc on K4: initialize's dist at v = tx + 1024 bx: row 1. drelax3's first launch is
  // iteration 0's push of the source (the walk runs no CTA, so no iteration follows): its input is worklist
  // 1 (wl_out) and its output worklist 0, which the push fills. The input at id = tx + 512 bx: row 1, and
  // the worklists (24 ints, two entries an edge) are the largest, the input stated first: one CTA, rounded
  // up to MinTBBatch 4096 / (512 x 4) = 2 (H-CODA 2), RTWICE. Every edge comes from the CTA's shared window:
  // col, weight and dist gathered.
  const auto wlc = first_launches("lonestar/sssp_wlc", "layers=1", k4.path());
  EXPECT_EQ(wlc.at("initialize")["dist"].locality, LocalityClass::kNoLocality);
  const Stated& relax = wlc.at("drelax3");
  EXPECT_EQ(chosen(relax), (Chosen{"wl_out", CtaPolicy::kBatch, 2, RemoteInsert::kTwice, 2}));
  EXPECT_EQ(relax["wl_out"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(relax["wl_in"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(relax["col"].locality, LocalityClass::kUnclassified);
}

TEST(LaspStatements, DmrStridesItsBadFlagsByTheGridAndGathersItsMesh) {
  // lonestar/dmr on 2,000 points (40,020 triangle slots, 10 x the input's 4,002), 82 CTAs of 256.
  // refine_mark walks isbad at g + m 256 gridDim.x: row 1 strided by 82 x 256 ints = 83,968 B, at least 16
  // sockets x 4 KiB: stride-aware. The triangles' records, the points and the owner marks at triangles
  // found by the walk: gathered; tri_vertices (12 B a slot, 480,240 B, stated before the equal
  // tri_neighbours, above the 100,000 rounds' work counters' 400,000 B) chooses: kernel-wide, RTWICE. The
  // claim arrays are the threads' local memory: unstated. (The walk runs no CTA, so no bad triangle is
  // taken and the host stops before refine_commit.)
  const Stated mark = first_launches("lonestar/dmr", "points=2000").at("refine_mark");
  EXPECT_EQ(chosen(mark), (Chosen{"tri_vertices", CtaPolicy::kContiguous, 0, RemoteInsert::kTwice, 1}));
  EXPECT_EQ(mark["tri_vertices"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(mark["isbad"].locality, LocalityClass::kNoLocality);
  EXPECT_EQ(mark["isbad"].placement, PlacementPolicy::kStrideAware);
  EXPECT_EQ(mark["isbad"].stride_bytes, 83968u);
  EXPECT_THROW(mark["local_claim"], std::out_of_range);
  // 8 CTAs: a stride of 8 x 256 x 4 = 8 KiB, narrower than 16 pages: plain page interleaving.
  const Stated few = first_launches("lonestar/dmr", "points=2000 blocks=8").at("refine_mark");
  EXPECT_EQ(few["isbad"].placement, PlacementPolicy::kPageInterleave);
}

TEST(LaspStatements, BitcoinAndIm2colMatchNoRow) {
  // other/bitcoin writes its results at the constants 0 and 1: no block id, no loop, a 1-D grid: row 7,
  // kernel-wide, RTWICE; H-CODA's batches of one CTA.
  const Stated miner = first_launches("other/bitcoin", "hashes=2 launches=1").at("search");
  EXPECT_EQ(chosen(miner), (Chosen{"results", CtaPolicy::kContiguous, 0, RemoteInsert::kTwice, 1}));
  EXPECT_EQ(miner["results"].locality, LocalityClass::kUnclassified);
  // ml/conv's im2col (1 image, 32 to 32 channels on 32 x 32 maps, 3 x 3): both indices divide Caffe's
  // grid-stride induction variable by the map's width and height: row 7. The column buffer (288 x 1,024
  // floats) is larger than the image (32 x 1,024): kernel-wide, RTWICE; H-CODA batches 4096 / (512 x 4) = 2.
  const Stated im2col = first_launches("ml/conv", "batch=1 cin=32 cout=32 hw=32").at("im2col");
  EXPECT_EQ(chosen(im2col), (Chosen{"col_buffer", CtaPolicy::kContiguous, 0, RemoteInsert::kTwice, 2}));
  EXPECT_EQ(im2col["col_buffer"].locality, LocalityClass::kUnclassified);
  EXPECT_EQ(im2col["bottom"].locality, LocalityClass::kUnclassified);
}

}  // namespace
}  // namespace numagpu::kernels
