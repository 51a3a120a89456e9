// The applications (models/apps/): their host loops (launch sequences, decided on executed data) and the
// traffic of one launch each, counted by hand on small inputs; and the application framework itself
// (shared arrays bound into library kernels, the runner's hand-over).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "app_walk.hpp"

namespace numagpu::kernels {
namespace {

using testing::AppWalk;
using testing::Steps;
using testing::TempGraph;
using testing::Traffic;
using testing::walk_app;

std::vector<std::string> repeat(std::initializer_list<std::string> names, int times) {
  std::vector<std::string> r;
  for (int i = 0; i < times; ++i)
    r.insert(r.end(), names);
  return r;
}

// hotspot on 64 x 64 (a grid is 16 KiB = 128 lines), pyramid 2, 4 steps: two launches. The first reads power
// and temp0 and writes temp1, the second reads temp1 and writes temp0: the grids swap, and both launches use
// the application's arrays (every line of each grid is read or written once: the library kernel's tiles
// cover the grid).
TEST(Apps, HotspotSwapsTheTemperatureGridsBetweenLaunches) {
  const AppWalk w = walk_app("rodinia/hotspot", "rows=64 cols=64 pyramid=2 steps=4");
  ASSERT_EQ(w.names(), repeat({"calculate_temp"}, 2));
  const Traffic& t0 = w.launches[0].traffic;
  const Traffic& t1 = w.launches[1].traffic;
  EXPECT_EQ(t0.in(t0.loaded, "power"), 128u);
  EXPECT_EQ(t0.in(t0.loaded, "temp0"), 128u);
  EXPECT_EQ(t0.in(t0.stored, "temp1"), 128u);
  EXPECT_EQ(t0.in(t0.stored, "temp0"), 0u);
  EXPECT_EQ(t1.in(t1.loaded, "temp1"), 128u);
  EXPECT_EQ(t1.in(t1.stored, "temp0"), 128u);
}

TEST(Apps, HotspotRefusesStepsThatAreNotWholeLaunches) {
  EXPECT_THROW(make_app("rodinia/hotspot", "steps=5 pyramid=2", "", testing::kTrafficBase), KernelError);
}

// cfd on two elements sharing a face (graph "2 1"): nelr = 192 (one CTA of 6 warps); elements 2..191 are
// padding, copies of element 1. One iteration: initialize, copy, step factor, then 3 x (flux, time step).
// compute_flux per warp: 5 loads of its elements' variables; per face the neighbour index and 3 normal
// components (4 x 4); face 0 has a neighbour for every thread (0 <-> 1, the padding's is 0): 5 gathered
// loads; faces 1..3 are walls (-1): none. 26 load steps a warp, 156 in all; 5 stores a warp, 30. Lines:
// each variable, neighbour slot and normal component is 192 x 4 B = 6 lines: variables 5 x 6, neighbours
// 4 x 6, normals 12 x 6 = 126 loaded (the gathered ones fall in the variables' first lines); fluxes 5 x 6 =
// 30 stored.
TEST(Apps, CfdFluxOfTwoElementsCountedByHand) {
  const TempGraph mesh("2 1\n2\n1\n");
  const AppWalk w = walk_app("rodinia/cfd", "iterations=1", mesh.path());
  std::vector<std::string> expected = {"initialize_variables", "copy", "compute_step_factor"};
  const std::vector<std::string> rk = repeat({"compute_flux", "time_step"}, 3);
  expected.insert(expected.end(), rk.begin(), rk.end());
  ASSERT_EQ(w.names(), expected);
  const Traffic& flux = w.launches[3].traffic;
  EXPECT_EQ(flux.steps(), (Steps{1u, 156u, 30u}));
  EXPECT_EQ(flux.loaded.size(), 126u);
  EXPECT_EQ(flux.in(flux.loaded, "normals"), 72u);
  EXPECT_EQ(flux.stored.size(), 30u);
  EXPECT_EQ(flux.in(flux.stored, "fluxes"), 30u);
  // time_step: the step factors (6 lines), old variables and fluxes (30 each) in, variables (30) out.
  const Traffic& ts = w.launches[4].traffic;
  EXPECT_EQ(ts.loaded.size(), 66u);
  EXPECT_EQ(ts.in(ts.stored, "variables"), 30u);
}

TEST(Apps, CfdRefusesAnElementOfFiveFaces) {
  const TempGraph star("6 5\n2 3 4 5 6\n1\n1\n1\n1\n1\n");
  EXPECT_THROW(make_app("rodinia/cfd", "", star.path(), testing::kTrafficBase), KernelError);
}

// SSSP on a triangle 1-2 (weight 1), 2-3 (1), 1-3 (5), from vertex 1 (0-based 0). Iteration 1 relaxes 0:
// costs 1 and 5. Iteration 2 relaxes 1 and 2: vertex 2 improves to 2 (via 1), the flag rises. Iteration 3
// relaxes 2: nothing improves, the host stops: 6 launches, costs {0, 1, 2}. A shortest path found only in a
// later iteration: the loop depends on what the atomics computed.
TEST(Apps, SsspRelaxesUntilNoDistanceChanges) {
  const TempGraph triangle("3 3 1\n2 1 3 5\n1 1 3 1\n1 5 2 1\n");
  std::vector<std::int32_t> cost;
  const AppWalk w = walk_app("lonestar/sssp", "layers=1", triangle.path(),
                             [&](const Application& a) { cost = *a.contents<std::int32_t>("cost"); });
  EXPECT_EQ(w.names(), repeat({"SSSP1", "SSSP2"}, 3));
  EXPECT_EQ(cost, (std::vector<std::int32_t>{0, 1, 2}));
  // SSSP1 of iteration 1: warp 0 loads the mask (1 step); only thread 0 is in it: it clears its mask entry
  // (1 store), loads its cost and its two row bounds (3 loads), then per edge (2) the neighbour and the
  // weight (2 loads) and an atomicMin.
  const Traffic& r = w.launches[0].traffic;
  EXPECT_EQ(r.load_steps, 1u + 3u + 2u * 2u);
  EXPECT_EQ(r.atomic_steps, 2u);
  EXPECT_EQ(r.store_steps, 1u);
}

// Weights of 1 are weights when the header's fmt says the file has them: on the triangle 1-2, 2-3, 1-3, all
// of weight 1, iteration 1 relaxes vertex 0 (costs 1 and 1), iteration 2 relaxes 1 and 2 and improves
// nothing: 4 launches, costs {0, 1, 1}. (Taken for an unweighted graph, the edges got weights in 1..100 from
// the seed.)
TEST(Apps, SsspReadsWeightsOfOneAsTheFileStatesThem) {
  const TempGraph ones("3 3 1\n2 1 3 1\n1 1 3 1\n1 1 2 1\n");
  std::vector<std::int32_t> cost;
  const AppWalk w = walk_app("lonestar/sssp", "layers=1", ones.path(),
                             [&](const Application& a) { cost = *a.contents<std::int32_t>("cost"); });
  EXPECT_EQ(w.names(), repeat({"SSSP1", "SSSP2"}, 2));
  EXPECT_EQ(cost, (std::vector<std::int32_t>{0, 1, 1}));
}

std::string app_error(const std::string& app, const std::string& args, const std::string& input) {
  try {
    make_app(app, args, input, testing::kTrafficBase);
  } catch (const KernelError& e) {
    return e.what();
  }
  return "";
}

// Distances are int32 with "unreached" at 2^30 - 1. The 3-vertex graph of issue 44: 1-2 weighs 2^30 - 2,
// 2-3 weighs 2^31 - 1; cost[1] + w(2,3) overflowed to a negative cost for vertex 3, which lowered vertex 2's
// by 2 per iteration (about 5 x 10^8 iterations). A weight above 2^30 is refused at its line (3: vertex 2's,
// the first to list 2^31 - 1); with weights of 2^30 a path 1-2-3 reaches 2^31 > 2^30 - 2: refused too (vertex
// 2 at 2^30 is already beyond).
TEST(Apps, SsspRefusesWeightsItsDistancesCannotHold) {
  const TempGraph overflow("3 2 1\n2 1073741822\n1 1073741822 3 2147483647\n2 2147483647\n");
  EXPECT_EQ(app_error("lonestar/sssp", "layers=1", overflow.path()),
            "input " + overflow.path() +
                ":3: an edge weight of 2147483647, more than 1073741824 (lonestar/sssp adds weights to int32 "
                "distances below 2^30)");
  const TempGraph far("3 2 1\n2 1073741824\n1 1073741824 3 1073741824\n2 1073741824\n");
  EXPECT_EQ(
      app_error("lonestar/sssp", "layers=1", far.path()),
      "input " + far.path() +
          ": vertex 3 is at distance 2147483648 from vertex 1, beyond the 2^30 - 2 that lonestar/sssp's "
          "int32 distances hold");
  // Just within: 1-2 and 2-3 of 2^29 - 1 put vertex 3 at 2^30 - 2.
  const TempGraph within("3 2 1\n2 536870911\n1 536870911 3 536870911\n2 536870911\n");
  std::vector<std::int32_t> cost;
  walk_app("lonestar/sssp", "layers=1", within.path(),
           [&](const Application& a) { cost = *a.contents<std::int32_t>("cost"); });
  EXPECT_EQ(cost, (std::vector<std::int32_t>{0, 536870911, 1073741822}));
}

// A graph without edges would leave the application's edge arrays empty (0 bytes have no place in memory):
// refused at the input.
TEST(Apps, AGraphWithoutEdgesIsRefusedAtTheInput) {
  const TempGraph one("1 0\n\n");
  for (const std::string app : {"rodinia/bfs", "lonestar/sssp", "lonestar/mst", "lonestar/pagerank"})
    EXPECT_EQ(
        app_error(app, "layers=1", one.path()),
        "input " + one.path() + ": a graph without edges (1 vertex); the application needs at least one")
        << app;
}

// A host program that never stops: the runner hands out its launch bound's worth of launches, then unwinds
// it and says why; checks.max_launches (the runner's max_launches) overrides the application's own bound.
class EndlessApp : public Application {
 public:
  EndlessApp() : Application(Args({}, "", testing::kTrafficBase), "") {
    set_launch_bound(5, "five, for the test");
  }
  void host() override {
    for (;;)
      launch("spin", one_thread_per_item(32, 32, 8));
  }
};

TEST(Apps, RunnerStopsAHostLoopAtItsLaunchBound) {
  ApplicationRunner own("endless", std::make_unique<EndlessApp>(), testing::kTrafficLine);
  int launches = 0;
  while (own.next())
    ++launches;
  EXPECT_EQ(launches, 5);
  EXPECT_EQ(
      own.cut_short(),
      "application 'endless' stopped at its launch bound: its host program asked for launch 6 ('spin') "
      "after 5 (the application's own bound, five, for the test; checks.max_launches sets another): its "
      "loop did not converge");
  ApplicationRunner set("endless", std::make_unique<EndlessApp>(), testing::kTrafficLine, {}, {}, 3);
  launches = 0;
  while (set.next())
    ++launches;
  EXPECT_EQ(launches, 3);
  EXPECT_NE(set.cut_short().find("after 3 (checks.max_launches)"), std::string::npos);
  // A host program that ends by itself is not cut short.
  ApplicationRunner hotspot(
      "app", make_app("rodinia/hotspot", "rows=64 cols=64 pyramid=2 steps=6", "", testing::kTrafficBase),
      testing::kTrafficLine);
  while (hotspot.next()) {
  }
  EXPECT_EQ(hotspot.cut_short(), "");
}

// The bounds of the data-driven loops hold on the tests' graphs: the triangle's SSSP (n = 3) took 6 launches
// of 2 (3 + 1) = 8; the MST graph (n = 10, L = ceil(log2 10) = 4) took 15 of 4 (4 + 5) + 3 = 39.
TEST(Apps, DataDrivenLoopsDeclareTheirLaunchBounds) {
  const TempGraph triangle("3 3 1\n2 1 3 5\n1 1 3 1\n1 5 2 1\n");
  EXPECT_EQ(make_app("lonestar/sssp", "layers=1", triangle.path(), testing::kTrafficBase)->launch_bound(),
            8u);
  EXPECT_EQ(make_app("rodinia/bfs", "layers=1", triangle.path(), testing::kTrafficBase)->launch_bound(), 8u);
  const TempGraph g(
      "10 11 1\n2 4 3 1\n1 4 3 2 4 5\n1 1 2 2 4 8 5 9\n2 5 3 8 5 3\n4 3 3 9\n7 7\n6 7\n9 2 10 2\n8 2 10 2\n"
      "8 2 9 2\n");
  EXPECT_EQ(make_app("lonestar/mst", "layers=1", g.path(), testing::kTrafficBase)->launch_bound(), 39u);
  EXPECT_EQ(make_app("rodinia/hotspot", "rows=64 cols=64", "", testing::kTrafficBase)->launch_bound(), 0u);
}

// nw of 32 symbols: 2 x 2 blocks of 16: needle_cuda_shared_1 with 1 then 2 CTAs, needle_cuda_shared_2 with 1.
// Each CTA (16 threads, one warp): loads the corner (thread 0), 16 reference rows, the west column and the
// north row: 19 load steps; stores 16 rows; barriers 3 + 16 + 15 = 34.
TEST(Apps, NwSweepsTheAntiDiagonalsOfBlocks) {
  const AppWalk w = walk_app("rodinia/nw", "n=32");
  ASSERT_EQ(w.names(), (std::vector<std::string>{"needle_cuda_shared_1", "needle_cuda_shared_1",
                                                 "needle_cuda_shared_2"}));
  EXPECT_EQ(w.launches[1].traffic.ctas, 2u);
  const Traffic& t = w.launches[0].traffic;
  EXPECT_EQ(t.load_steps, 19u);
  EXPECT_EQ(t.store_steps, 16u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{34}));
}

// spmv on a path 1-2-3 plus the diagonal: row lengths 2, 3, 2, sorted 1, 0, 2; one warp with bound 3;
// diagonals 0 and 1 hold 3 rows, diagonal 2 one, each padded to 32 entries: 96 entries, 3 lines of index and
// 3 of data. Each of the 3 active threads runs 3 iterations (index, data, x: 9 load steps) and loads its
// perm entry: 10 load steps; one store step. Lines: index 3, data 3, x 1, perm 1; y 1 stored.
TEST(Apps, SpmvJdsOfAPathCountedByHand) {
  const TempGraph path("3 2\n2\n1 3\n2\n");
  const AppWalk w = walk_app("parboil/spmv", "layers=1 iterations=2", path.path());
  ASSERT_EQ(w.names(), repeat({"spmv_jds"}, 2));
  const Traffic& t = w.launches[0].traffic;
  EXPECT_EQ(t.load_steps, 10u);
  EXPECT_EQ(t.store_steps, 1u);
  EXPECT_EQ(t.in(t.loaded, "index"), 3u);
  EXPECT_EQ(t.in(t.loaded, "data"), 3u);
  EXPECT_EQ(t.loaded.size(), 8u);
  EXPECT_EQ(t.stored.size(), 1u);
}

// The runner hands launches over one at a time and ends with the host program; a kernel left with an
// unbound array is refused (it would have no place in the application's address space).
TEST(Apps, RunnerHandsOverEveryLaunchThenEnds) {
  ApplicationRunner runner(
      "app", make_app("rodinia/hotspot", "rows=64 cols=64 pyramid=2 steps=6", "", testing::kTrafficBase),
      testing::kTrafficLine);
  int launches = 0;
  while (const KernelProgram* p = runner.next()) {
    EXPECT_EQ(runner.launch_name(), "calculate_temp");
    EXPECT_EQ(p->ctas(), 36u);  // ceil(64 / 12)^2
    ++launches;
  }
  EXPECT_EQ(launches, 3);
  EXPECT_EQ(runner.next(), nullptr);
}

TEST(Apps, RunnerStoppedEarlyUnwindsTheHostProgram) {
  auto runner = std::make_unique<ApplicationRunner>(
      "app", make_app("rodinia/hotspot", "rows=64 cols=64 pyramid=2 steps=6", "", testing::kTrafficBase),
      testing::kTrafficLine);
  ASSERT_NE(runner->next(), nullptr);
  runner.reset();  // joins the host thread, blocked in its first launch
  SUCCEED();
}

// srad on a 32 x 32 image (Ne = 1,024, 2 blocks of 512): the host's reduction launches reduce over 2 blocks
// (no = 1,024, mul = 1), then over the 2 partial sums in one block (no = 2, mul = 512), then stops (one block
// was left). The second reduce: threads 0 and 1 load sums[0] and sums[512] (and sums2): 2 load steps, 2 lines
// each array; its block is partial (nf = 2, df = 2): thread df - 1 = 1 stores the totals to sums[0] and
// sums2[0]: 2 store steps, 2 lines.
TEST(Apps, SradReducesUntilOneBlockIsLeft) {
  const AppWalk w = walk_app("rodinia/srad", "rows=32 cols=32 iterations=1");
  ASSERT_EQ(w.names(), (std::vector<std::string>{"extract", "prepare", "reduce", "reduce", "srad", "srad2",
                                                 "compress"}));
  EXPECT_EQ(w.launches[2].traffic.ctas, 2u);
  const Traffic& r = w.launches[3].traffic;
  EXPECT_EQ(r.ctas, 1u);
  EXPECT_EQ(r.load_steps, 2u);
  EXPECT_EQ(r.in(r.loaded, "sums"), 2u);
  EXPECT_EQ(r.in(r.loaded, "sums2"), 2u);
  EXPECT_EQ(r.store_steps, 2u);
  EXPECT_EQ(r.stored.size(), 2u);
}

// lud of a 48 x 48 matrix (3 x 3 blocks): block steps at 0 and 16, each diagonal, perimeter, internal, then a
// last diagonal: 7 launches; the perimeters have 2 and 1 CTAs, the internals 2 x 2 and 1. The last internal
// (block (2, 2), offset 16): 8 warps of two 16-thread rows, each loading its perimeter-row element, its
// perimeter-column element and its own, then storing it: 24 load steps, 8 store steps. Lines (rows are 192
// B): every 16-float row segment lies in one line; the perimeter rows 16..31 at columns 32..47 are 16 lines.
// Rows 32..47 at columns 16..31 and 32..47 (bytes 64..191 from the row's start): an even row starts on a line
// boundary, so the two segments are in two lines; an odd row starts 64 B into a line, so both fall in the
// next line: 8 x 2 + 8 x 1 = 24. Loaded 16 + 24 = 40 lines, stored 16.
TEST(Apps, LudShrinksItsGridsBlockStepByBlockStep) {
  const AppWalk w = walk_app("rodinia/lud", "n=48");
  ASSERT_EQ(w.names(),
            (std::vector<std::string>{"lud_diagonal", "lud_perimeter", "lud_internal", "lud_diagonal",
                                      "lud_perimeter", "lud_internal", "lud_diagonal"}));
  EXPECT_EQ(w.launches[1].traffic.ctas, 2u);
  EXPECT_EQ(w.launches[2].traffic.ctas, 4u);
  EXPECT_EQ(w.launches[4].traffic.ctas, 1u);
  const Traffic& t = w.launches[5].traffic;
  EXPECT_EQ(t.steps(), (Steps{1u, 24u, 8u}));
  EXPECT_EQ(t.loaded.size(), 40u);
  EXPECT_EQ(t.stored.size(), 16u);
}

// BabelStream on 2^18 doubles (2 MiB, 16,384 lines an array), one iteration: copy, mul, add, triad, dot.
// copy reads a whole and writes c whole; triad reads b and c, writes a; dot's 256 CTAs of 1,024 threads
// stride over 262,144 elements: exactly one trip each, reading a and b whole (each of a CTA's 32 warps loads
// a and b: 64 load steps a CTA), and thread 0 of each writes its partial sum (256 doubles: 16 lines).
TEST(Apps, StreamRunsTheFiveKernelsPerIteration) {
  const AppWalk w = walk_app("other/stream", "elements=262144 iterations=1");
  ASSERT_EQ(w.names(), (std::vector<std::string>{"copy", "mul", "add", "triad", "dot"}));
  const Traffic& copy = w.launches[0].traffic;
  EXPECT_EQ(copy.in(copy.loaded, "a"), 16384u);
  EXPECT_EQ(copy.in(copy.stored, "c"), 16384u);
  EXPECT_EQ(copy.loaded.size(), 16384u);
  const Traffic& triad = w.launches[3].traffic;
  EXPECT_EQ(triad.loaded.size(), 2u * 16384u);
  EXPECT_EQ(triad.in(triad.stored, "a"), 16384u);
  const Traffic& dot = w.launches[4].traffic;
  EXPECT_EQ(dot.ctas, 256u);
  EXPECT_EQ(dot.load_steps, 256u * 64u);
  EXPECT_EQ(dot.loaded.size(), 2u * 16384u);
  EXPECT_EQ(dot.store_steps, 256u);
  EXPECT_EQ(dot.stored.size(), 16u);
}

// PageRank on the triangle with a pendant (degrees 2, 2, 3, 1), 2 iterations: contrib, pull, contrib, pull.
// pull: one warp with 4 active threads loads its two row bounds (2 steps), then loops as long as the largest
// degree, 3: per trip the neighbour index and its contribution (2 steps): 8 load steps; one store. Lines:
// row_ptr, col, contrib: one each (all smaller than a line); rank stored: one.
TEST(Apps, PagerankPullLoopsAsLongAsTheLargestDegreeOfTheWarp) {
  const TempGraph g("4 4\n2 3\n1 3\n1 2 4\n3\n");
  const AppWalk w = walk_app("lonestar/pagerank", "layers=1 iterations=2", g.path());
  ASSERT_EQ(w.names(), repeat({"contrib", "pull"}, 2));
  const Traffic& t = w.launches[1].traffic;
  EXPECT_EQ(t.load_steps, 2u + 3u * 2u);
  EXPECT_EQ(t.store_steps, 1u);
  EXPECT_EQ(t.loaded.size(), 3u);
  EXPECT_EQ(t.in(t.stored, "rank"), 1u);
}

// CoMD on 4^3 FCC unit cells (256 atoms; box 4 x 5.257 / 2.315 = 9.08 sigma, 3 link cells a side of 3.03
// sigma = 1.333 lattice units). One step: compute_force, then advance_velocity, advance_position,
// clear_counts, redistribute, compute_force, advance_velocity.
//
// advance_position (launch 2), counted by hand: in lattice units an axis's atom planes are at 0.25, 0.75, ...
// 3.75 (displaced by at most 0.022), so cell 0 of an axis holds the planes {0.25, 0.75, 1.25} (2 of the
// basis' .25 kind, "even", 1 of the .75 kind, "odd"), cell 1 {1.75, 2.25} (1 even, 1 odd), cell 2 {2.75,
// 3.25, 3.75} (1 even, 2 odd). An FCC site has an even number of odd coordinates, so cell (A, B, C) holds
// E_A E_B E_C + E_A O_B O_C + O_A E_B O_C + O_A O_B E_C atoms: 14 (4 cells), 13 (4), 9 (12), 6 (6), 4 (1):
// 256 in all, every cell in warp 0 of its CTA. Every CTA's two warps load its count (54 load steps, all in
// the counts' one line); each cell's warp loads p and r and stores r per component: 27 x 6 load and 27 x 3
// store steps. A cell's slots start at a multiple of 64 x 24 B (12 lines), its n atoms' r take ceil(24 n /
// 128) lines: 3, 3, 2, 2, 1 for the sizes above, 4 x 3 + 4 x 3 + 12 x 2 + 6 x 2 + 1 = 61 lines of r and 61
// of p.
//
// The forces computed on the GPU after the re-binning match a brute-force all-pairs sum over the
// minimum images on the host (the cutoff branch and the cells' neighbourhoods decided on executed data), the
// re-binning kept every atom once, and the forces sum to zero (Newton's third law).
TEST(Apps, ComdStepMatchesAllPairsForces) {
  std::vector<double> r, f;
  std::vector<std::int32_t> gid, count;
  const AppWalk w = walk_app("proxy/comd", "nx=4 steps=1", "", [&](const Application& a) {
    r = *a.contents<double>("r1");
    f = *a.contents<double>("f");
    gid = *a.contents<std::int32_t>("gid1");
    count = *a.contents<std::int32_t>("n_atoms1");
  });
  ASSERT_EQ(w.names(),
            (std::vector<std::string>{"compute_force", "advance_velocity", "advance_position", "clear_counts",
                                      "redistribute", "compute_force", "advance_velocity"}));
  const Traffic& t = w.launches[2].traffic;
  EXPECT_EQ(t.steps(), (Steps{27u, 54u + 27u * 6u, 27u * 3u}));
  EXPECT_EQ(t.in(t.loaded, "r0"), 61u);
  EXPECT_EQ(t.in(t.loaded, "p0"), 61u);
  EXPECT_EQ(t.in(t.loaded, "n_atoms0"), 1u);
  EXPECT_EQ(t.loaded.size(), 123u);
  EXPECT_EQ(t.in(t.stored, "r0"), 61u);
  EXPECT_EQ(t.stored.size(), 61u);

  ASSERT_EQ(count.size(), 27u);
  std::vector<std::size_t> atoms;  // slots holding an atom
  std::vector<int> seen(256, 0);
  for (std::size_t b = 0; b < 27; ++b)
    for (std::int32_t s = 0; s < count[b]; ++s) {
      atoms.push_back(b * 64 + std::size_t(s));
      ASSERT_GE(gid[atoms.back()], 0);
      ++seen[std::size_t(gid[atoms.back()])];
    }
  EXPECT_EQ(atoms.size(), 256u);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 256);
  const double box = 4 * 5.257 / 2.315;
  double total[3] = {0, 0, 0}, largest = 0;
  for (std::size_t i : atoms) {
    double expect[3] = {0, 0, 0};
    for (std::size_t j : atoms) {
      double d[3], r2 = 0;
      for (int k = 0; k < 3; ++k) {
        d[k] = r[3 * i + k] - r[3 * j + k];
        d[k] -= box * std::round(d[k] / box);
        r2 += d[k] * d[k];
      }
      if (j == i || r2 > 2.5 * 2.5) continue;
      const double ir2 = 1 / r2, ir6 = ir2 * ir2 * ir2, fr = 24 * ir6 * ir2 * (2 * ir6 - 1);
      for (int k = 0; k < 3; ++k)
        expect[k] += fr * d[k];
    }
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(f[3 * i + k], expect[k], 1e-9 * (1 + std::abs(expect[k])));
      total[k] += f[3 * i + k];
      largest = std::max(largest, std::abs(f[3 * i + k]));
    }
  }
  EXPECT_GT(largest, 1e-3);
  for (double s : total)
    EXPECT_NEAR(s, 0.0, 1e-9);
}

// LULESH on 2^3 elements (27 nodes, h = 1.125 / 2), one time step: the nine kernels in LULESH's order.
//
// AddNodeForcesFromElems, counted by hand: one CTA of 128 threads, 27 active in warp 0 (warps 1-3 leave at
// once). Warp 0 loads nodeElemStart[n] and [n + 1] (2 load steps), then loops as long as its largest corner
// count, 8 (the centre node), each trip loading the corner index and its three forces: 2 + 8 x 4 = 34 load
// steps, 3 stores. Lines: nodeElemStart 28 ints (1 line), nodeElemCornerList 64 ints (2), each of fx/fy/
// fz_elem 64 doubles (4, all corners are some node's): 15 loaded; fx, fy, fz 27 doubles (2 lines each): 6
// stored.
// ApplyAccelerationBoundaryConditionsForNodes: 9 threads in one warp, 3 load steps of the symmetry lists (27
// ints: 1 line) and 3 stores: xdd at the x = 0 nodes 0, 3, ..., 24 (2 lines), ydd at 0-2, 9-11, 18-20 (bytes
// 0-167: 2 lines), zdd at 0-8 (72 bytes: 1 line): 5 lines stored.
//
// Computed values: only element 0 has pressure p0 = (2/3) e0 / h^3 (Sedov's energy e0 = 3.948746e7 x
// (2/45)^3), so node 1 (x = h on the y = 0 and z = 0 planes) is pushed along x by a quarter of element 0's x
// face, p0 h^2 / 4, its mass is 2 x h^3 / 8 (elements 0 and 1), its y and z accelerations are zeroed by
// the planes: xd = p0 / h dt0 with LULESH's first step dt0 = 0.5 h / sqrt(2 e0), x = h + xd dt0. Node 2 (x =
// 2h) touches no pressurized element and stays at rest; node 0 (the origin) lies on all three planes.
TEST(Apps, LuleshStepGathersCornerForcesThroughTheIndirection) {
  std::vector<double> x, xd, yd, dtmin;
  const AppWalk w = walk_app("proxy/lulesh", "s=2 iterations=1", "", [&](const Application& a) {
    x = *a.contents<double>("x");
    xd = *a.contents<double>("xd");
    yd = *a.contents<double>("yd");
    dtmin = *a.contents<double>("dt_min");
  });
  ASSERT_EQ(w.names(), (std::vector<std::string>{
                           "CalcVolumeForceForElems", "AddNodeForcesFromElems", "CalcAccelerationForNodes",
                           "ApplyAccelerationBoundaryConditionsForNodes", "CalcVelocityAndPositionForNodes",
                           "CalcKinematicsForElems", "ApplyMaterialPropertiesAndEOS",
                           "CalcTimeConstraintsForElems", "CalcMinDtOneBlock"}));
  const Traffic& t = w.launches[1].traffic;
  EXPECT_EQ(t.load_steps, 34u);
  EXPECT_EQ(t.store_steps, 3u);
  EXPECT_EQ(t.in(t.loaded, "nodeElemStart"), 1u);
  EXPECT_EQ(t.in(t.loaded, "nodeElemCornerList"), 2u);
  EXPECT_EQ(t.in(t.loaded, "fx_elem"), 4u);
  EXPECT_EQ(t.loaded.size(), 15u);
  EXPECT_EQ(t.stored.size(), 6u);
  const Traffic& b = w.launches[3].traffic;
  EXPECT_EQ(b.load_steps, 3u);
  EXPECT_EQ(b.store_steps, 3u);
  EXPECT_EQ(b.in(b.stored, "xdd"), 2u);
  EXPECT_EQ(b.in(b.stored, "ydd"), 2u);
  EXPECT_EQ(b.in(b.stored, "zdd"), 1u);

  const double h = 1.125 / 2, e0 = 3.948746e7 * std::pow(2.0 / 45.0, 3), p0 = 2.0 / 3.0 * e0 / (h * h * h);
  const double dt0 = 0.5 * h / std::sqrt(2 * e0), v1 = p0 / h * dt0;
  EXPECT_NEAR(xd[1], v1, 1e-9 * v1);
  EXPECT_NEAR(x[1], h + v1 * dt0, 1e-12);
  EXPECT_EQ(yd[1], 0.0);
  EXPECT_EQ(xd[2], 0.0);
  EXPECT_EQ(xd[0], 0.0);
  // Element 0 expanded and has a sound speed: the Courant minimum is finite and positive.
  EXPECT_GT(dtmin[0], 0.0);
  EXPECT_LT(dtmin[0], 1.0);
}

// MST (Boruvka) on a hand-made weighted graph of three connected components: vertices 1-5 with edges 1-2 (4),
// 1-3 (1), 2-3 (2), 2-4 (5), 3-4 (8), 3-5 (9), 4-5 (3), whose spanning tree is 1-3, 2-3, 4-5, 2-4 (11); the
// pair 6-7 (7); and the triangle 8-9-10 of three equal weights 2 (a tree of two edges, 4): the minimum
// spanning forest weighs 22 in 7 edges. Round 1: 1 and 3 pick 1-3 (mutual: 1 stays the representative), 2
// picks 2-3 and hooks onto 3 (a chain 2 -> 3 -> 1), 4 and 5 pick 4-5, 6 and 7 pick 6-7; in the triangle the
// ties go to the smaller edge id (8's entries come first): 8 and 9 pick 8-9, 10 picks 8-10. One jump moves 2
// to 1, a second changes nothing. Round 2: components {1..5}'s halves both pick 2-4 (5 < 8 < 9); 5 needs one
// jump. Round 3 finds no outgoing edge: take_edge leaves the flag down and the host stops.
//
// take_edge of round 2, counted by hand: one warp of 10 threads loads comp (1 step); the representatives 1,
// 4, 6, 8 load their minimum key (1); 1 and 4 have one: they load the edge's source and its component, the
// edge's other end and its component (4 steps) and store the partner, the tree mark and the flag (3 stores);
// 6 and 8 store partner -1 (1 store): 6 load and 4 store steps.
TEST(Apps, MstBoruvkaFindsTheMinimumSpanningForest) {
  const TempGraph g(
      "10 11 1\n2 4 3 1\n1 4 3 2 4 5\n1 1 2 2 4 8 5 9\n2 5 3 8 5 3\n4 3 3 9\n7 7\n6 7\n9 2 10 2\n8 2 10 2\n"
      "8 2 9 2\n");
  std::vector<std::int32_t> weight, comp;
  std::vector<std::uint8_t> in_mst;
  const AppWalk w = walk_app("lonestar/mst", "layers=1", g.path(), [&](const Application& a) {
    weight = *a.contents<std::int32_t>("weight");
    comp = *a.contents<std::int32_t>("comp");
    in_mst = *a.contents<std::uint8_t>("in_mst");
  });
  std::vector<std::string> expected =
      repeat({"reset_min", "find_min", "take_edge", "hook", "jump", "jump"}, 2);
  expected.insert(expected.end(), {"reset_min", "find_min", "take_edge"});
  ASSERT_EQ(w.names(), expected);
  std::int64_t total = 0, edges = 0;
  for (std::size_t e = 0; e < in_mst.size(); ++e)
    if (in_mst[e]) {
      total += weight[e];
      ++edges;
    }
  EXPECT_EQ(total, 22);
  EXPECT_EQ(edges, 7);
  EXPECT_EQ(comp, (std::vector<std::int32_t>{0, 0, 0, 0, 0, 5, 5, 7, 7, 7}));
  const Traffic& t = w.launches[8].traffic;
  EXPECT_EQ(t.load_steps, 6u);
  EXPECT_EQ(t.store_steps, 4u);
}

// MST on a star of 2^18 leaves: leaf k's entry has its reverse at position k - 2 of the hub's list of 2^18;
// scanning for it took 2^35 / 2 = 1.7 x 10^10 steps in all (about 20 s; with 2^17 leaves it measured 5 s).
// The entries sorted by (vertex, neighbour) find it by bisection, the same entry: the hub's entries come
// first (hub -> leaf k is entry k - 2, leaf k -> hub entry 2^18 + k - 2, the id the smaller: k - 2).
TEST(Apps, MstFindsReverseEdgesOfAHighDegreeVertexQuickly) {
  const std::uint32_t leaves = 1u << 18;
  std::string text = std::to_string(leaves + 1) + " " + std::to_string(leaves) + "\n";
  for (std::uint32_t k = 2; k <= leaves + 1; ++k)
    text += std::to_string(k) + (k <= leaves ? " " : "\n");
  for (std::uint32_t k = 0; k < leaves; ++k)
    text += "1\n";
  const TempGraph star(text);
  const auto start = std::chrono::steady_clock::now();
  const std::unique_ptr<Application> app =
      make_app("lonestar/mst", "layers=1", star.path(), testing::kTrafficBase);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  const std::vector<std::int32_t>& id = *app->contents<std::int32_t>("edge_id");
  ASSERT_EQ(id.size(), 2u * leaves);
  bool same = true;
  for (std::uint32_t e = 0; e < leaves; ++e)
    same = same && id[e] == std::int32_t(e) && id[leaves + e] == std::int32_t(e);
  EXPECT_TRUE(same);
}

// MiniAMR with 2^3 blocks of 4^3 cells at level 0, one level of refinement, one variable, one step. The
// sphere (centre (0.2, 0.3, 0.37), radius 0.25) crosses the level-0 blocks with i = 0 (nearest distances^2 0,
// 0.04, 0.0169, 0.0569 < 0.0625) and none with i = 1 (0.09 or more): those 4 split (one split launch of 32
// CTAs, one a child), leaving 4 level-0 blocks and 32 level-1 blocks, already 2:1 balanced. Faces (36 x 6 =
// 216 exchange CTAs of one 16-thread warp): a level-0 block has its -x face on 4 finer blocks, 2 same-level
// faces (y and z) and 3 on the boundary: 4 finer, 8 same; a level-1 block has one same-level x face (32), and
// of its 2 y faces those not at j = 0 or 3 are same-level (64 - 16 = 48), z alike (48), and the 16 with fine
// i = 1 have a coarser +x face: 136 same, 16 coarser, 4 finer, the other 60 boundary. Every CTA loads its
// block and the face type (432 load steps); a same-level face loads the neighbour and its cell (2 each), a
// coarser one the neighbour, the quarter and the cell (3), a finer one its neighbour and the 4 fine cells
// (5): 432 + 272 + 48 + 20 = 772 load steps; each non-boundary face stores its ghosts: 156 store steps.
// split: per child its parent, slot and octant (3) and one load and store per plane (4): 7 and 4 a CTA.
TEST(Apps, MiniamrRefinesAroundTheSphereAndExchangesAcrossLevels) {
  const AppWalk w = walk_app("proxy/miniamr", "block=4 blocks=2 levels=1 vars=1 steps=1 refine_every=1");
  ASSERT_EQ(w.names(), (std::vector<std::string>{"split", "exchange", "stencil"}));
  const Traffic& s = w.launches[0].traffic;
  EXPECT_EQ(s.steps(), (Steps{32u, 32u * 7u, 32u * 4u}));
  const Traffic& x = w.launches[1].traffic;
  EXPECT_EQ(x.steps(), (Steps{216u, 772u, 156u}));
  // stencil: 36 CTAs, each its block (1), the planes z = 0 and 1 (2), then per plane 5 loads and a store.
  const Traffic& st = w.launches[2].traffic;
  EXPECT_EQ(st.steps(), (Steps{36u, 36u * (1u + 2u + 4u * 5u), 36u * 4u}));
}

TEST(Apps, UnknownNamesAndArgumentsAreRefused) {
  EXPECT_THROW(make_app("rodinia/nope", "", "", testing::kTrafficBase), KernelError);
  EXPECT_THROW(make_app("rodinia/nw", "n=33", "", testing::kTrafficBase), KernelError);
  EXPECT_THROW(make_app("rodinia/nw", "size=3", "", testing::kTrafficBase), KernelError);
  // An application that reads no file refuses one.
  EXPECT_THROW(make_app("rodinia/nw", "", "/etc/hostname", testing::kTrafficBase), KernelError);
  // CoMD needs at least 3 link cells a side (nx = 3 would give 2): nx starts at 4.
  EXPECT_THROW(make_app("proxy/comd", "nx=3", "", testing::kTrafficBase), KernelError);
  // MiniAMR's blocks have an even side (a child is half its parent).
  EXPECT_THROW(make_app("proxy/miniamr", "block=5", "", testing::kTrafficBase), KernelError);
  // ... and a mesh whose refinements outgrow its block slots is refused with its arguments: 100 slots leave
  // 36 beside the 64 level-0 blocks (blocks of 0.25), but the sphere's surface points at x = 0.45, y = 0.55,
  // y = 0.05, z = 0.62 and z = 0.12 lie in 5 different blocks, whose splits need 40.
  EXPECT_THROW(make_app("proxy/miniamr", "blocks=4 levels=2 max_blocks=100", "", testing::kTrafficBase),
               KernelError);
  // MST refuses an edge whose two ends give it different weights (they would rank it differently).
  const TempGraph uneven("2 1 1\n2 3\n1 4\n");
  EXPECT_THROW(make_app("lonestar/mst", "layers=1", uneven.path(), testing::kTrafficBase), KernelError);
  // An argument given twice: the second does not silently win.
  EXPECT_EQ(app_error("rodinia/nw", "n=32 n=64", ""), "argument 'n' is given twice ('n=32', then 'n=64')");
  // ... and one that means nothing for the input: the seed of made-up weights for a file that has weights.
  const TempGraph weighted("2 1 1\n2 3\n1 3\n");
  for (const std::string app : {"lonestar/sssp", "lonestar/mst"})
    EXPECT_EQ(
        app_error(app, "layers=1 seed=7", weighted.path()),
        "argument 'seed': " + weighted.path() + " gives its edge weights (fmt), so no weights are made up")
        << app;
}

// MST on the triangle with every weight 1 (fmt 1): every key is 1 x 2^32 + the edge's id, so the ids decide:
// the tree is two edges of weight 1 (total 2). Weights made up from the seed would weigh 2..200.
TEST(Apps, MstReadsWeightsOfOneAsTheFileStatesThem) {
  const TempGraph ones("3 3 1\n2 1 3 1\n1 1 3 1\n1 1 2 1\n");
  std::vector<std::int32_t> weight;
  std::vector<std::uint8_t> in_mst;
  walk_app("lonestar/mst", "layers=1", ones.path(), [&](const Application& a) {
    weight = *a.contents<std::int32_t>("weight");
    in_mst = *a.contents<std::uint8_t>("in_mst");
  });
  EXPECT_EQ(weight, (std::vector<std::int32_t>(6, 1)));
  EXPECT_EQ(std::count(in_mst.begin(), in_mst.end(), std::uint8_t(1)), 2);
}

}  // namespace
}  // namespace numagpu::kernels
