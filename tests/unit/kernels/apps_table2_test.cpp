// The applications added for the rest of the paper's Table 2 (issue 49): their launch sequences decided on
// executed data, CTA counts, traffic of tiny instances counted by hand, and the values they compute.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>

#include "app_walk.hpp"

namespace numagpu::kernels {
namespace {

using testing::AppWalk;
using testing::Steps;
using testing::TempGraph;
using testing::Traffic;
using testing::walk_app;

// The triangle of apps_test.cpp: 1-2 (weight 1), 2-3 (1), 1-3 (5); vertex lines list 2 then 3, 1 then 3,
// 1 then 2.
const char* const kTriangle = "3 3 1\n2 1 3 5\n1 1 3 1\n1 5 2 1\n";

// sssp_wln with one block of 256 threads. Iteration 1: the worklist {0}; thread 0 relaxes 0->1 (alt 1) and
// 0->2 (alt 5), both lower than infinity: pushes 1 and 2. Iteration 2: {1, 2}, one item a thread; thread 0
// (vertex 1, dist 1) finds 1->2 at 2 < 5 and pushes 2; thread 1 (vertex 2, dist 5) improves nothing.
// Iteration 3: {2} improves nothing: the host stops after 3 launches, distances {0, 1, 2}.
TEST(AppsTable2, SsspWlnRelaxesItsWorklistUntilNothingIsPushed) {
  const TempGraph triangle(kTriangle);
  std::vector<std::int32_t> dist;
  const AppWalk w = walk_app("lonestar/sssp_wln", "layers=1 blocks=1", triangle.path(),
                             [&](const Application& a) { dist = *a.contents<std::int32_t>("dist"); });
  EXPECT_EQ(w.names(), (std::vector<std::string>{"drelax", "drelax", "drelax"}));
  EXPECT_EQ(dist, (std::vector<std::int32_t>{0, 1, 2}));
  // Iteration 1: 1 CTA of 8 warps, each loading the worklist's size (8 steps); warp 0 alone has an item: the
  // item, its two row bounds (3), and per edge (2) the destination, dist[src], the weight, dist[dst] (4 x 2);
  // per edge an atomicMin and the push's atomicAdd (2 x 2), and the pushed item's store (2).
  const Traffic& t = w.launches[0].traffic;
  EXPECT_EQ(t.ctas, 1u);
  EXPECT_EQ(t.load_steps, 8u + 3u + 8u);
  EXPECT_EQ(t.atomic_steps, 4u);
  EXPECT_EQ(t.store_steps, 2u);
}

// The default grid is LonestarGPU's MAXNBLOCKS for a 15-SM GPU: 60 CTAs, whatever the worklist holds.
TEST(AppsTable2, SsspWlnRunsAFixedGrid) {
  const TempGraph triangle(kTriangle);
  const AppWalk w = walk_app("lonestar/sssp_wln", "layers=1", triangle.path());
  for (const auto& l : w.launches)
    EXPECT_EQ(l.traffic.ctas, 60u);
}

// sssp_wlc: initialize, the source's push, then the iterations of sssp_wln's example (the same relaxations,
// every thread of a step reading before any atomic of it): 3, so 5 launches and distances {0, 1, 2}.
TEST(AppsTable2, SsspWlcBalancesEdgesOverTheCtaAndPushesOncePerCta) {
  const TempGraph triangle(kTriangle);
  std::vector<std::int32_t> dist;
  const AppWalk w = walk_app("lonestar/sssp_wlc", "layers=1", triangle.path(),
                             [&](const Application& a) { dist = *a.contents<std::int32_t>("dist"); });
  EXPECT_EQ(w.names(), (std::vector<std::string>{"initialize", "drelax3", "drelax3", "drelax3", "drelax3"}));
  EXPECT_EQ(dist, (std::vector<std::int32_t>{0, 1, 2}));
  // Iteration 1 (launch 2): ceil(1 / 512) = 1 CTA of 16 warps, each loading the size (16 steps); warp 0
  // pops the item and its row bounds (3); its threads 0 and 1 take the two edges of the window: column,
  // weight, dist[dst], dist[src] (4 steps). One atomicMin step (warp 0), one atomicAdd for the CTA's two
  // pushes (thread 511, warp 15), one store step of the two items (warp 0). Barriers per warp: the degrees'
  // scan (2), the window's fill (2), the pushes' scan (2) and the base's broadcast (1).
  const Traffic& t = w.launches[2].traffic;
  EXPECT_EQ(t.ctas, 1u);
  EXPECT_EQ(t.load_steps, 16u + 3u + 4u);
  EXPECT_EQ(t.atomic_steps, 2u);
  EXPECT_EQ(t.store_steps, 1u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{7}));
  // The second iteration pushes one item: 2 items in, 4 edges in the window; still one CTA.
  EXPECT_EQ(w.launches[3].traffic.ctas, 1u);
}

// A vertex that is not reached stays at infinity in both variants; a second component is never pushed.
TEST(AppsTable2, SsspWorklistVariantsLeaveUnreachedVerticesInfinite) {
  const TempGraph two("4 2 1\n2 3\n1 3\n4 2\n3 2\n");  // 1-2 (3), 3-4 (2)
  for (const std::string app : {"lonestar/sssp_wln", "lonestar/sssp_wlc"}) {
    std::vector<std::int32_t> dist;
    walk_app(app, "layers=1", two.path(),
             [&](const Application& a) { dist = *a.contents<std::int32_t>("dist"); });
    EXPECT_EQ(dist, (std::vector<std::int32_t>{0, 3, (1 << 30) - 1, (1 << 30) - 1})) << app;
  }
}

// RSBench with one pole and one window a nuclide: the window's range is [0, 0], and the original's loop
// (i < end) visits no pole, so the poles are never read and each lookup's cross sections are E times the
// concentration-weighted window backgrounds: elastic = total - absorption is below total, so the verification
// value (the largest's index, 1..4) is never 4. 300 lookups: ceil(300 / 256) = 2 CTAs; the verification
// array (8 B a lookup, 2,400 B) is 19 lines stored; the 12 materials' counts (48 B) one line loaded.
TEST(AppsTable2, RsbenchWithoutPolesStoresOneVerificationValuePerLookup) {
  std::vector<std::int64_t> verification;
  const AppWalk w =
      walk_app("proxy/rsbench", "lookups=300 nuclides=68 poles=1 windows=1", "",
               [&](const Application& a) { verification = *a.contents<std::int64_t>("verification"); });
  ASSERT_EQ(w.names(), (std::vector<std::string>{"xs_lookup_kernel_baseline"}));
  const Traffic& t = w.launches[0].traffic;
  EXPECT_EQ(t.ctas, 2u);
  EXPECT_EQ(t.in(t.stored, "verification"), 19u);
  EXPECT_EQ(t.stored.size(), 19u);
  EXPECT_EQ(t.in(t.loaded, "num_nucs"), 1u);
  EXPECT_EQ(t.in(t.loaded, "poles"), 0u);
  ASSERT_EQ(verification.size(), 300u);
  for (std::int64_t v : verification) {
    EXPECT_GE(v, 1);
    EXPECT_LE(v, 3);
  }
}

// With poles in the windows the pole loop runs: the poles are read, and every verification value is 1..4.
TEST(AppsTable2, RsbenchReadsThePolesOfEachWindow) {
  std::vector<std::int64_t> verification;
  const AppWalk w =
      walk_app("proxy/rsbench", "lookups=64 nuclides=68 poles=8 windows=2", "",
               [&](const Application& a) { verification = *a.contents<std::int64_t>("verification"); });
  const Traffic& t = w.launches[0].traffic;
  EXPECT_EQ(t.ctas, 1u);
  EXPECT_GT(t.in(t.loaded, "poles"), 0u);
  for (std::int64_t v : verification) {
    EXPECT_GE(v, 1);
    EXPECT_LE(v, 4);
  }
}

TEST(AppsTable2, RsbenchRefusesAnotherNuclideCount) {
  EXPECT_THROW(make_app("proxy/rsbench", "nuclides=100", "", testing::kTrafficBase), KernelError);
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

// MCB-like transport, 300 particles: ceil(300 / 128) = 3 CTAs a launch. The source writes each particle's
// five doubles (x, y, ux, uy, weight: 2,400 B, 19 lines each), two int32 (zone, alive: 1,200 B, 10 lines
// each) and its random-number state (8 B: 19 lines): 5 x 19 + 2 x 10 + 19 = 134 lines.
TEST(AppsTable2, McbSourcesEveryParticleOnce) {
  const AppWalk w = walk_app("proxy/mcb", "particles=300 nx=8 ny=8 steps=1");
  ASSERT_EQ(w.names(), (std::vector<std::string>{"source", "track"}));
  const Traffic& t = w.launches[0].traffic;
  EXPECT_EQ(t.ctas, 3u);
  EXPECT_EQ(t.in(t.stored, "x"), 19u);
  EXPECT_EQ(t.in(t.stored, "zone"), 10u);
  EXPECT_EQ(t.stored.size(), 134u);
  EXPECT_EQ(w.launches[1].traffic.ctas, 3u);
}

// An MCB run's tallies summed and its living particles counted.
struct McbEnd {
  double tally = 0;
  std::int64_t alive = 0;
};
McbEnd run_mcb(const std::string& args) {
  McbEnd r;
  walk_app("proxy/mcb", args, "", [&](const Application& a) {
    for (double t : *a.contents<double>("tally"))
      r.tally += t;
    const std::vector<std::int32_t>& alive = *a.contents<std::int32_t>("alive");
    r.alive = std::count(alive.begin(), alive.end(), 1);
  });
  return r;
}

// Without absorption and with reflecting edges no particle dies, so every one travels the census distance
// (8 zones) each step and the track-length tallies sum to particles x steps x 8 = 300 x 2 x 8 = 4,800.
TEST(AppsTable2, McbTalliesConserveTrackLength) {
  const McbEnd r = run_mcb("particles=300 nx=8 ny=8 steps=2 absorb_in=0 absorb_out=0 reflect=1");
  EXPECT_NEAR(r.tally, 4800.0, 1e-6);
  EXPECT_EQ(r.alive, 300);
}

// On a 2 x 2 mesh (the particles start inside it) without reflection, a particle that has not collided
// leaves it within 2 sqrt(2) < 8 zones of travel: some escape (alive 0) and the tallies sum to less.
TEST(AppsTable2, McbParticlesEscapeAnOpenMesh) {
  const McbEnd r = run_mcb("particles=300 nx=2 ny=2 steps=1 absorb_in=0 absorb_out=0");
  EXPECT_LT(r.tally, 2400.0);
  EXPECT_LT(r.alive, 300);
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

// CoMD with EAM on 5^3 FCC unit cells (500 atoms; 5 x 3.615 / 4.95 = 3.65: 3 link cells a side): the force
// is three kernels, at the start and in the step. Every atom's density sums its first three shells (12 at
// the nearest-neighbour distance r0 with rho 1, 6 at sqrt(2) r0 with e^-0.83 = 0.44, 24 at sqrt(3) r0 with
// e^-1.46 = 0.23: 12 + 2.6 + 5.5 = 20.1; the fourth shell, at 5.11, is beyond the cutoff), moved a little by
// the displacements (up to 0.05 a coordinate): between 18 and 22. Pair and embedding forces are equal and
// opposite for the two atoms of a pair, so the forces sum to zero (to rounding).
TEST(AppsTable2, ComdEamComputesDensitiesAndBalancedForces) {
  std::vector<double> rhobar, f;
  std::vector<std::int32_t> gid;
  const AppWalk w = walk_app("proxy/comd", "nx=5 steps=1 eam=1", "", [&](const Application& a) {
    rhobar = *a.contents<double>("rhobar");
    f = *a.contents<double>("f");
    gid = *a.contents<std::int32_t>("gid1");  // the step's re-bin moved the atoms into set 1
  });
  EXPECT_EQ(w.names(),
            (std::vector<std::string>{"EAM_Force_1", "EAM_Force_2", "EAM_Force_3", "advance_velocity",
                                      "advance_position", "clear_counts", "redistribute", "EAM_Force_1",
                                      "EAM_Force_2", "EAM_Force_3", "advance_velocity"}));
  EXPECT_EQ(w.launches[0].traffic.ctas, 27u);
  double sum[3] = {0, 0, 0}, magnitude = 0;
  int atoms = 0;
  for (std::size_t s = 0; s < gid.size(); ++s) {
    if (gid[s] < 0) continue;
    ++atoms;
    EXPECT_GT(rhobar[s], 18.0);
    EXPECT_LT(rhobar[s], 22.0);
    for (int k = 0; k < 3; ++k) {
      sum[k] += f[3 * s + k];
      magnitude += std::abs(f[3 * s + k]);
    }
  }
  EXPECT_EQ(atoms, 500);
  EXPECT_GT(magnitude, 0.0);
  for (double s : sum)
    EXPECT_LT(std::abs(s), 1e-9 * magnitude);
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

// RabbitCT on 32^3 voxels of 8 mm (origin -124 mm), one projection (angle 0: the source at x = 750 mm):
// (1, 1, 32) = 32 CTAs of 32 x 32. Voxel (16, 16, 16) sits at (4, 4, 4) mm: w' = 750 - 4 = 746, u = 1200 /
// 0.32 x 4 / 746 + 623.5 = 643.6, v = 499.6, on the detector; the images hold 1, so it gets 1 / 746^2. Voxel
// (0, 0, 0) at (-124, -124, -124): w' = 874, v = 3750 x -124 / 874 + 479.5 = -52.5, below the detector:
// nothing. Every voxel the launch stores it also loaded first (a read-modify-write).
TEST(AppsTable2, RabbitctBackProjectsOneProjection) {
  std::vector<float> volume;
  const AppWalk w = walk_app("proxy/rabbitct", "L=32 projections=1", "",
                             [&](const Application& a) { volume = *a.contents<float>("volume"); });
  ASSERT_EQ(w.names(), (std::vector<std::string>{"backproject"}));
  const Traffic& t = w.launches[0].traffic;
  EXPECT_EQ(t.ctas, 32u);
  EXPECT_EQ(t.warps_per_cta, 32u);
  EXPECT_NEAR(volume[16 + (16 + 16 * 32) * 32], 1.0 / (746.0 * 746.0), 1e-12);
  EXPECT_EQ(volume[0], 0.0f);
  EXPECT_EQ(t.in(t.stored, "volume"), t.in(t.loaded, "volume"));
  EXPECT_GT(t.in(t.stored, "volume"), 0u);
}

// Two projections add up: the central voxel gets the weights of both angles (the second 200 / 496 degrees
// on, where it still projects onto the detector).
TEST(AppsTable2, RabbitctAccumulatesProjections) {
  std::vector<float> one, two;
  walk_app("proxy/rabbitct", "L=32 projections=1", "",
           [&](const Application& a) { one = *a.contents<float>("volume"); });
  const AppWalk w = walk_app("proxy/rabbitct", "L=32 projections=2", "",
                             [&](const Application& a) { two = *a.contents<float>("volume"); });
  EXPECT_EQ(w.launches.size(), 2u);
  const std::size_t centre = 16 + (16 + 16 * 32) * 32;
  EXPECT_GT(two[centre], one[centre] * 1.9f);
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

// The miner on Bitcoin's genesis header: nonce 2083236893 is the genesis block's, whose hash ends in
// 40 zero bits (000000000019d6...e26f read backwards), so hash[7] == 0; any other nonce passes with
// probability 2^-32. One CTA of 256 threads, 1 nonce each, from 2083236893 - 100: thread 100 finds it,
// stores the flag and the nonce (2 store steps of one warp: thread 100 is in warp 3), and nothing else is
// stored or loaded.
TEST(AppsTable2, BitcoinFindsTheGenesisNonce) {
  std::vector<std::uint32_t> results;
  const AppWalk w = walk_app("other/bitcoin", "blocks=1 hashes=1 launches=1 base=2083236793", "",
                             [&](const Application& a) { results = *a.contents<std::uint32_t>("results"); });
  ASSERT_EQ(w.names(), (std::vector<std::string>{"search"}));
  const Traffic& t = w.launches[0].traffic;
  EXPECT_EQ(t.ctas, 1u);
  EXPECT_EQ(results, (std::vector<std::uint32_t>{1, 2083236893u}));
  EXPECT_EQ(t.store_steps, 2u);
  EXPECT_EQ(t.load_steps, 0u);
  // Two compressions a nonce, 1,384 integer instructions each, in each of the 8 warps.
  EXPECT_GE(t.of(InstrClass::kInt), 8u * 2u * 1384u);
}

// Without the genesis nonce in range nothing is found (the 2^-32 chance aside: 256 x 4 nonces checked).
TEST(AppsTable2, BitcoinFindsNothingElseNearby) {
  std::vector<std::uint32_t> results;
  walk_app("other/bitcoin", "blocks=1 hashes=4 launches=1 base=1000", "",
           [&](const Application& a) { results = *a.contents<std::uint32_t>("results"); });
  EXPECT_EQ(results, (std::vector<std::uint32_t>{0, 0}));
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

// hpgmg with n = 16 in boxes of 8: 2^3 = 8 boxes; levels of 8^3 and 4^3 cells a box, each box with its
// ghost layer (10^3 and 6^3 cells), 9 grids of doubles a level: 9 x 8 x (1000 + 216) x 8 B = 700,416 B.
// The set-up writes each level's grids (initialize, twice). One V-cycle of one smooth: on level 8 an exchange
// and a smooth, the exchange and the residual, the restriction, zero_vector of level 4; 4 sweeps (exchange,
// smooth) on level 4; the interpolation and a sweep on level 8.
TEST(AppsTable2, HpgmgVCycleExchangesGhostsBetweenBoxes) {
  std::uint64_t bytes = 0;
  const AppWalk w = walk_app("proxy/hpgmg", "n=16 box=8 cycles=1 smooths=1", "", [&](const Application& a) {
    for (const auto& r : a.allocations())
      bytes += r.bytes;
  });
  std::vector<std::string> expected = {"initialize",        "initialize", "exchange_boundary", "smooth",
                                       "exchange_boundary", "residual",   "restriction",       "zero_vector"};
  for (int s = 0; s < 4; ++s)
    expected.insert(expected.end(), {"exchange_boundary", "smooth"});
  expected.insert(expected.end(), {"interpolation", "exchange_boundary", "smooth"});
  ASSERT_EQ(w.names(), expected);
  EXPECT_EQ(bytes, 700416u);
  // The exchange: a CTA of 256 threads (8 warps) per box and neighbour, 8 x 26 = 208. A face is 64 cells
  // (warps 0 and 1: 2 load and 2 store steps), an edge 8 and a corner 1 (warp 0: 1 and 1): per box 6 x 2 +
  // 12 + 8 = 32 of each, 256 in all; the cells copied, 6 x 64 + 12 x 8 + 8 = 488, are the 10^3 - 8^3 ghosts.
  const Traffic& e = w.launches[2].traffic;
  EXPECT_EQ(e.steps(), (Steps{208u, 256u, 256u}));
  // The smooth on level 8: (1, 2, 8) = 16 CTAs of 8 x 4 threads (one warp), each thread walking 8 cells of
  // its column: a cell's operator loads x, alpha and, per direction, two betas and two neighbours (14), then
  // rhs, x, x_prev and Dinv (4): 18 load steps and 1 store a cell: 16 x 8 x 18 = 2,304 and 128.
  const Traffic& s = w.launches[3].traffic;
  EXPECT_EQ(s.steps(), (Steps{16u, 2304u, 128u}));
  // The residual: the operator's 14 and rhs: 16 x 8 x 15 = 1,920 loads; the restriction on level 4: 8 CTAs
  // of 4 x 4 threads, 4 cells a column, 8 children each: 8 x 4 x 8 = 256 loads, 32 stores; zero_vector 32
  // stores; the interpolation on level 8: 16 x 8 cells a thread x 2 loads = 256, and 128 stores.
  EXPECT_EQ(w.launches[5].traffic.load_steps, 1920u);
  EXPECT_EQ(w.launches[6].traffic.load_steps, 256u);
  EXPECT_EQ(w.launches[6].traffic.store_steps, 32u);
  EXPECT_EQ(w.launches[7].traffic.store_steps, 32u);
  EXPECT_EQ(w.launches[16].traffic.load_steps, 256u);
  EXPECT_EQ(w.launches[16].traffic.store_steps, 128u);
  // initialize on level 8: 16 CTAs of one warp, 8 cells a thread, 7 grids written: 896 store steps.
  EXPECT_EQ(w.launches[0].traffic.store_steps, 16u * 8u * 7u);
  // The exchange reads other boxes: box 0's -x face comes from box 1 (the box grid is periodic, 2 wide).
  EXPECT_GT(e.in(e.loaded, "x_8"), 0u);
}

TEST(AppsTable2, HpgmgRefusesBoxesThatDoNotTile) {
  EXPECT_THROW(make_app("proxy/hpgmg", "n=24 box=16", "", testing::kTrafficBase), KernelError);
  EXPECT_THROW(make_app("proxy/hpgmg", "n=24 box=12", "", testing::kTrafficBase), KernelError);
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

// Lulesh-Unstruct: LULESH on an unstructured mesh's numbering. With s = 4 and mesh = 2 the cube is 8 blocks
// of 2 x 2 x 2 elements; the first block taken is numbered first: its 8 elements are elements 0..7, and
// their corners, first met there, are the block's 3 x 3 x 3 = 27 nodes, numbered 0..26.
TEST(AppsTable2, LuleshUnstructNumbersABlockAtATime) {
  std::vector<std::int32_t> nodelist;
  walk_app("proxy/lulesh", "s=4 iterations=1 mesh=2", "",
           [&](const Application& a) { nodelist = *a.contents<std::int32_t>("nodelist"); });
  const std::size_t ne = 64;
  ASSERT_EQ(nodelist.size(), 8 * ne);
  std::set<std::int32_t> first;
  for (std::size_t c = 0; c < 8; ++c)
    for (std::size_t e = 0; e < 8; ++e)
      first.insert(nodelist[c * ne + e]);
  EXPECT_EQ(first.size(), 27u);
  EXPECT_EQ(*first.begin(), 0);
  EXPECT_EQ(*first.rbegin(), 26);
  // The lattice's numbering has corner 1 at corner 0 + 1 for every element; an unstructured one does not.
  std::size_t lattice = 0;
  for (std::size_t e = 0; e < ne; ++e)
    lattice += nodelist[ne + e] == nodelist[e] + 1;
  EXPECT_LT(lattice, ne);
}

// The numbering moves data, not physics: two steps of the Sedov problem on both numberings give the same
// node positions and element relative volumes (as sets: each run numbers them differently), to rounding (the
// node gather sums a node's corners in another order).
TEST(AppsTable2, LuleshUnstructComputesTheSameStepsAsTheLattice) {
  struct End {
    std::vector<std::array<double, 3>> nodes;
    std::vector<double> e;  // the relative volumes
  };
  auto run = [](const std::string& args) {
    End r;
    walk_app("proxy/lulesh", args, "", [&](const Application& a) {
      const auto &x = *a.contents<double>("x"), &y = *a.contents<double>("y"), &z = *a.contents<double>("z");
      for (std::size_t n = 0; n < x.size(); ++n)
        r.nodes.push_back({x[n], y[n], z[n]});
      r.e = *a.contents<double>("v");
    });
    std::sort(r.nodes.begin(), r.nodes.end());
    std::sort(r.e.begin(), r.e.end());
    return r;
  };
  const End lattice = run("s=6 iterations=2"), unstruct = run("s=6 iterations=2 mesh=2 seed=7");
  ASSERT_EQ(lattice.nodes.size(), unstruct.nodes.size());
  for (std::size_t n = 0; n < lattice.nodes.size(); ++n)
    for (std::size_t d = 0; d < 3; ++d)
      EXPECT_NEAR(lattice.nodes[n][d], unstruct.nodes[n][d], 1e-12);
  ASSERT_EQ(lattice.e.size(), unstruct.e.size());
  EXPECT_GT(lattice.e.back(), 1.0);  // the blast's element has expanded
  for (std::size_t i = 0; i < lattice.e.size(); ++i)
    EXPECT_NEAR(lattice.e[i], unstruct.e[i], 1e-12);
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

struct ContactEnd {
  std::vector<std::int32_t> face, contacts;
  std::vector<double> gap;
};
ContactEnd run_minicontact(const std::string& args, AppWalk* walk = nullptr) {
  ContactEnd r;
  const AppWalk w = walk_app("proxy/minicontact", args, "", [&](const Application& a) {
    r.face = *a.contents<std::int32_t>("contact_face");
    r.gap = *a.contents<double>("contact_gap");
    r.contacts = *a.contents<std::int32_t>("contacts");
  });
  if (walk) *walk = w;
  return r;
}

// Two cubes of 2 x 2 x 2 faces, 0.2 apart (tolerance 0.25), body 1 offset by half a face in y and z. Body
// 1's -x side has nodes at y, z in {0.5, 1.5, 2.5}: the 4 with y, z <= 2 face the interior of one face each
// of body 0's +x side (its faces 4 + v n + u: the second side of the first axis, after the 4 of x = 0), so
// 4 contacts onto faces 4, 5, 6, 7. Body 0's +x side has nodes at y, z in {0, 1, 2}: the 4 with y, z >= 1
// face one face each of body 1's -x side (faces 24..27, body 1's first side), so 4 more. Every other node
// is at least half a face from the other body. Each contact's gap is 0.2.
TEST(AppsTable2, MiniContactFindsTheFacingNodesOnce) {
  AppWalk w;
  const ContactEnd r = run_minicontact("n=2 steps=1 gap=20 tol=25 closing=0", &w);
  EXPECT_EQ(w.names(),
            (std::vector<std::string>{"update_nodes", "clear_buckets", "face_bounds", "scan_buckets",
                                      "scan_block_sums", "add_block_offsets", "scatter_faces", "search"}));
  EXPECT_EQ(r.contacts, (std::vector<std::int32_t>{8}));
  std::multiset<std::int32_t> faces;
  for (std::size_t n = 0; n < r.face.size(); ++n)
    if (r.face[n] >= 0) {
      faces.insert(r.face[n]);
      EXPECT_NEAR(r.gap[n], 0.2, 1e-12);
    }
  EXPECT_EQ(faces, (std::multiset<std::int32_t>{4, 5, 6, 7, 24, 25, 26, 27}));
  // face_bounds: 12 x 4 = 48 faces, one CTA. It reads the 48 x 4 node indices (768 B: 6 lines) and every
  // node's coordinates (each of the 2 x (6 x 4 + 2) = 52 nodes is a corner of a face: 416 B, 4 lines an
  // axis); it stores 6 doubles a face (2,304 B: 18 lines) and a bucket a face (192 B: 2 lines).
  const testing::Traffic& t = w.launches[2].traffic;
  EXPECT_EQ(t.ctas, 1u);
  EXPECT_EQ(t.in(t.loaded, "face_nodes"), 6u);
  EXPECT_EQ(t.in(t.loaded, "x"), 4u);
  EXPECT_EQ(t.in(t.stored, "box"), 18u);
  EXPECT_EQ(t.in(t.stored, "face_bucket"), 2u);
}

// 0.4 apart and closing by 0.1 a step: after the first step's motion 0.3 (beyond the tolerance), after the
// second's 0.2: no contact, then the 8 above.
TEST(AppsTable2, MiniContactFindsContactsOnceTheBodiesAreWithinTheTolerance) {
  const ContactEnd r = run_minicontact("n=2 steps=2 gap=40 tol=25 closing=10");
  EXPECT_EQ(r.contacts, (std::vector<std::int32_t>{0, 8}));
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

// DMR on the bare square (points=0): its two triangles are right isosceles (45, 45, 90 degrees), none bad,
// so the first marking finds no work and the host stops after one launch. One CTA of 8 warps: each loads
// the triangle count (8 steps); warp 0's threads 0 and 1 hold triangles 0 and 1 and load their bad flags
// (1 step); neither is bad, so no deleted flag is read, and every thread exits before marking.
TEST(AppsTable2, DmrStopsWhenNoTriangleIsBad) {
  const AppWalk w = walk_app("lonestar/dmr", "points=0 blocks=1");
  EXPECT_EQ(w.names(), (std::vector<std::string>{"refine_mark"}));
  const testing::Traffic& t = w.launches[0].traffic;
  EXPECT_EQ(t.load_steps, 9u);
  EXPECT_EQ(t.atomic_steps, 0u);
  EXPECT_EQ(t.store_steps, 0u);
}

// The refined mesh, checked against what a refined Delaunay mesh of the unit square is: every triangle
// counter-clockwise with all angles at least 30 degrees, their areas summing to the square's 1, neighbour
// pointers that agree both ways, boundary edges on the square's sides, and each edge locally Delaunay (the
// vertex across it outside the circumcircle).
void check_refined(const std::string& args, std::size_t* rounds = nullptr) {
  std::vector<double> px, py;
  std::vector<std::int32_t> v, n, count;
  const AppWalk w = walk_app("lonestar/dmr", args, "", [&](const Application& a) {
    px = *a.contents<double>("px");
    py = *a.contents<double>("py");
    v = *a.contents<std::int32_t>("tri_vertices");
    n = *a.contents<std::int32_t>("tri_neighbours");
    count = *a.contents<std::int32_t>("counts");
  });
  if (rounds) *rounds = w.launches.size() / 2;
  ASSERT_GE(w.launches.size(), 3u) << "the input has bad triangles";
  EXPECT_EQ(w.names().back(), "refine_mark");
  const double cos30 = std::sqrt(3.0) / 2;
  double area = 0;
  std::size_t live = 0;
  auto vx = [&](std::int64_t t, int e) { return px[std::size_t(v[std::size_t(t * 3 + e % 3)])]; };
  auto vy = [&](std::int64_t t, int e) { return py[std::size_t(v[std::size_t(t * 3 + e % 3)])]; };
  for (std::int64_t t = 0; t < count[0]; ++t) {
    ++live;
    const double a2 =
        (vx(t, 1) - vx(t, 0)) * (vy(t, 2) - vy(t, 0)) - (vy(t, 1) - vy(t, 0)) * (vx(t, 2) - vx(t, 0));
    ASSERT_GT(a2, 0) << "triangle " << t;
    area += a2 / 2;
    for (int i = 0; i < 3; ++i) {
      const double ux = vx(t, i + 1) - vx(t, i), uy = vy(t, i + 1) - vy(t, i), wx = vx(t, i + 2) - vx(t, i),
                   wy = vy(t, i + 2) - vy(t, i);
      EXPECT_LE(ux * wx + uy * wy, cos30 * std::sqrt((ux * ux + uy * uy) * (wx * wx + wy * wy)) + 1e-12)
          << "triangle " << t << " has an angle under 30 degrees";
    }
    for (int e = 0; e < 3; ++e) {
      const std::int32_t nb = n[std::size_t(t * 3 + e)];
      const std::int32_t a = v[std::size_t(t * 3 + e)], b = v[std::size_t(t * 3 + (e + 1) % 3)];
      if (nb < 0) {  // on the square's boundary: both ends on one side
        const bool side = (px[a] == 0 && px[b] == 0) || (px[a] == 1 && px[b] == 1) ||
                          (py[a] == 0 && py[b] == 0) || (py[a] == 1 && py[b] == 1);
        EXPECT_TRUE(side) << "triangle " << t << " edge " << e;
        continue;
      }
      ASSERT_LT(nb, count[0]) << "triangle " << t;
      int back = -1;
      for (int f = 0; f < 3; ++f)
        if (v[std::size_t(nb * 3 + f)] == b && v[std::size_t(nb * 3 + (f + 1) % 3)] == a) back = f;
      ASSERT_GE(back, 0);
      EXPECT_EQ(n[std::size_t(nb * 3 + back)], t);
      // Local Delaunay: nb's third vertex is not strictly inside t's circumcircle.
      const std::int32_t o = v[std::size_t(nb * 3 + (back + 2) % 3)];
      const double ax = vx(t, 0) - px[o], ay = vy(t, 0) - py[o], bx = vx(t, 1) - px[o], by = vy(t, 1) - py[o],
                   cx = vx(t, 2) - px[o], cy = vy(t, 2) - py[o];
      const double det = (ax * ax + ay * ay) * (bx * cy - cx * by) -
                         (bx * bx + by * by) * (ax * cy - cx * ay) +
                         (cx * cx + cy * cy) * (ax * by - bx * ay);
      EXPECT_LE(det, 1e-12) << "edge " << e << " of triangle " << t;
    }
  }
  EXPECT_NEAR(area, 1.0, 1e-9);
  EXPECT_GT(live, 0u);
}

TEST(AppsTable2, DmrRefinesRandomPointsToAQualityMesh) {
  std::size_t rounds = 0;
  check_refined("points=300 blocks=1", &rounds);
  EXPECT_GT(rounds, 1u);
}

// With more threads than bad triangles, cavities overlap and the marks decide: the result is still a
// refined Delaunay mesh.
TEST(AppsTable2, DmrResolvesOverlappingCavitiesByMarking) {
  check_refined("points=300 blocks=4 seed=3");
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

// n = 20: 4,800 faces in 8,192 buckets, so the scan spans 8 CTAs and the offsets of 7 of them matter; the
// facing nodes are 2 n^2 = 800 as in the 2 x 2 case, and each bucket's start is the sum of the counts before.
TEST(AppsTable2, MiniContactScansBucketsAcrossCtas) {
  std::vector<std::int32_t> count, start;
  std::vector<std::int32_t> contacts;
  walk_app("proxy/minicontact", "n=20 steps=1 gap=20 tol=25 closing=0", "", [&](const Application& a) {
    count = *a.contents<std::int32_t>("bucket_count");
    start = *a.contents<std::int32_t>("bucket_start");
    contacts = *a.contents<std::int32_t>("contacts");
  });
  EXPECT_EQ(contacts, (std::vector<std::int32_t>{800}));
  ASSERT_EQ(count.size(), 8192u);
  std::int32_t sum = 0;
  for (std::size_t b = 0; b < count.size(); ++b) {
    ASSERT_EQ(start[b], sum) << "bucket " << b;
    sum += count[b];
  }
  EXPECT_EQ(sum, 4800);
}

}  // namespace
}  // namespace numagpu::kernels

namespace numagpu::kernels {
namespace {

// CoMD-Wa (warp_atom) against CoMD-Ta (thread_atom) on the 500-atom lattice of the EAM test above: the atom
// list is built before each force (the start's and the step's), EAM_Force_1 and 3 run a warp an atom, 4 a
// CTA of 128: ceil(500 / 4) = 125 CTAs. The same pairs are summed in another order, so every density, force
// and energy equals thread_atom's to rounding.
TEST(AppsTable2, ComdWarpAtomComputesWhatThreadAtomDoes) {
  struct End {
    std::vector<double> rhobar, f, p;
  };
  auto run = [](const std::string& args, AppWalk& w) {
    End r;
    w = walk_app("proxy/comd", args, "", [&](const Application& a) {
      r.rhobar = *a.contents<double>("rhobar");
      r.f = *a.contents<double>("f");
      r.p = *a.contents<double>("p1");
    });
    return r;
  };
  AppWalk ta, wa;
  const End thread_atom = run("nx=5 steps=1 eam=1", ta), warp_atom = run("nx=5 steps=1 eam=1 warp=1", wa);
  EXPECT_EQ(wa.names(),
            (std::vector<std::string>{"build_atom_list", "EAM_Force_1", "EAM_Force_2", "EAM_Force_3",
                                      "advance_velocity", "advance_position", "clear_counts", "redistribute",
                                      "build_atom_list", "EAM_Force_1", "EAM_Force_2", "EAM_Force_3",
                                      "advance_velocity"}));
  EXPECT_EQ(wa.launches[1].traffic.ctas, 125u);
  ASSERT_EQ(thread_atom.f.size(), warp_atom.f.size());
  for (std::size_t i = 0; i < thread_atom.rhobar.size(); ++i)
    EXPECT_NEAR(thread_atom.rhobar[i], warp_atom.rhobar[i], 1e-9) << "slot " << i;
  for (std::size_t i = 0; i < thread_atom.f.size(); ++i) {
    EXPECT_NEAR(thread_atom.f[i], warp_atom.f[i], 1e-9) << "component " << i;
    EXPECT_NEAR(thread_atom.p[i], warp_atom.p[i], 1e-9) << "component " << i;
  }
}

TEST(AppsTable2, ComdWarpAtomNeedsEam) {
  EXPECT_THROW(make_app("proxy/comd", "nx=5 warp=1", "", testing::kTrafficBase), KernelError);
}

}  // namespace
}  // namespace numagpu::kernels
