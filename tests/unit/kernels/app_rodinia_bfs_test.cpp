// rodinia/bfs (application): the host loop runs until the frontier is empty, deciding on the data the
// kernels computed, and one Kernel launch's traffic counted by hand.
#include <gtest/gtest.h>

#include "app_walk.hpp"

namespace numagpu::kernels {
namespace {

using testing::TempGraph;
using testing::walk_app;

// A path 1-2-3-4-5 (0-based 0..4), source 0: iteration k (k = 1..4) reaches vertex k, so Kernel2 raises the
// flag four times; in the fifth iteration the frontier {4} reaches nothing (3 is visited), Kernel2 finds no
// updated vertex and the host stops: 5 iterations, 10 launches alternating Kernel and Kernel2, every vertex
// visited. A loop that did not read the executed flag would stop after one iteration or never.
TEST(AppBfs, LaunchesLevelByLevelUntilTheFrontierIsEmpty) {
  const TempGraph path("5 4\n2\n1 3\n2 4\n3 5\n4\n");
  std::vector<std::uint8_t> visited;
  const testing::AppWalk w = walk_app("rodinia/bfs", "layers=1", path.path(), [&](const Application& a) {
    visited = *a.contents<std::uint8_t>("graph_visited");
  });
  std::vector<std::string> expected;
  for (int i = 0; i < 5; ++i)
    expected.insert(expected.end(), {"Kernel", "Kernel2"});
  EXPECT_EQ(w.names(), expected);
  EXPECT_EQ(visited, std::vector<std::uint8_t>(5, 1));
}

// A star: vertex 1 linked to 2..5 (0-based 0 to 1..4). The first Kernel: one CTA of 512 threads (16 warps);
// only warp 0 has threads below n = 5, and only thread 0 is in the frontier. Its loads: the mask (1 step),
// its node's start and count (2), then per neighbour the edge, the neighbour's visited flag and its own cost
// (3 x 4); its stores: the mask (1), then per neighbour cost and updating flag (2 x 4). Lines: every array is
// smaller than a line, so each array touched is one line: loads of mask, nodes, edges, visited, cost (5
// lines), stores to mask, cost, updating (3 lines). Warps 1..15 exit at once and issue nothing.
TEST(AppBfs, FirstKernelOfAStarVisitsEachNeighbourOnce) {
  const TempGraph star("5 4\n2 3 4 5\n1\n1\n1\n1\n");
  const testing::AppWalk w = walk_app("rodinia/bfs", "layers=1", star.path());
  ASSERT_EQ(w.names(), (std::vector<std::string>{"Kernel", "Kernel2", "Kernel", "Kernel2"}));
  const testing::Traffic& k1 = w.launches[0].traffic;
  EXPECT_EQ(k1.ctas, 1u);
  EXPECT_EQ(k1.warps_per_cta, 16u);
  EXPECT_EQ(k1.load_steps, 1u + 2u + 3u * 4u);
  EXPECT_EQ(k1.store_steps, 1u + 2u * 4u);
  EXPECT_EQ(k1.loaded.size(), 5u);
  EXPECT_EQ(k1.stored.size(), 3u);
  EXPECT_EQ(k1.in(k1.stored, "updating_graph_mask"), 1u);
  // Kernel2: warp 0 loads the updating mask (1 step, 1 line); threads 1..4 were updated: four stores, to the
  // mask, visited, the flag and the updating mask (each array one line).
  const testing::Traffic& k2 = w.launches[1].traffic;
  EXPECT_EQ(k2.load_steps, 1u);
  EXPECT_EQ(k2.store_steps, 4u);
  EXPECT_EQ(k2.stored.size(), 4u);
}

TEST(AppBfs, BadInputNamesTheFileAndLine) {
  const TempGraph bad("3 1\n2\n9\n\n");
  try {
    make_app("rodinia/bfs", "layers=1", bad.path(), testing::kTrafficBase);
    FAIL() << "accepted a bad graph";
  } catch (const KernelError& e) {
    EXPECT_EQ(std::string(e.what()), "input " + bad.path() + ":3: neighbour 9 is outside 1..3");
  }
}

}  // namespace
}  // namespace numagpu::kernels
