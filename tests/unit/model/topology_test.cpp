#include "fabric/topology.hpp"

#include <gtest/gtest.h>

namespace numagpu {
namespace {

// The P100 DGX-1 hybrid cube-mesh: {0,1,2,3} and {4,5,6,7} fully connected, plus 0-4, 1-5, 2-6, 3-7.
Topology dgx1() {
  Topology t;
  t.gpus = 8;
  const unsigned pairs[16][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {4, 5}, {4, 6},
                                 {4, 7}, {5, 6}, {5, 7}, {6, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (const auto& p : pairs)
    t.links.push_back(TopologyLink{p[0], p[1], LinkSpec{}});
  return t;
}

// Index of the link between two nodes in dgx1().
unsigned link(const Topology& t, unsigned a, unsigned b) {
  for (unsigned l = 0; l < t.links.size(); ++l) {
    if ((t.links[l].a == a && t.links[l].b == b) || (t.links[l].a == b && t.links[l].b == a)) return l;
  }
  ADD_FAILURE() << "no link " << a << "-" << b;
  return 0;
}

TEST(Topology, DirectNeighboursUseTheirLink) {
  Topology t = dgx1();
  t.compute_routes();
  EXPECT_EQ(t.path(0, 1), (std::vector<unsigned>{link(t, 0, 1)}));
  EXPECT_EQ(t.path(4, 0), (std::vector<unsigned>{link(t, 0, 4)}));
}

// 0 and 5 have no link; 0's neighbours one hop from 5 are 1 (via 1-5) and 4 (via 4-5).
TEST(Topology, TieBreakPicksTheIntermediateGpu) {
  Topology low = dgx1();
  low.compute_routes();
  EXPECT_EQ(low.path(0, 5), (std::vector<unsigned>{link(low, 0, 1), link(low, 1, 5)}));
  Topology high = dgx1();
  high.tie_break = Topology::TieBreak::kHighest;
  high.compute_routes();
  EXPECT_EQ(high.path(0, 5), (std::vector<unsigned>{link(high, 0, 4), link(high, 4, 5)}));
  // 0 -> 6: via 2 (lowest) or 4 (highest); 0 -> 7: via 3 or 4.
  EXPECT_EQ(low.path(0, 6).front(), link(low, 0, 2));
  EXPECT_EQ(high.path(0, 7).front(), link(high, 0, 4));
}

TEST(Topology, OverridePinsOneRoute) {
  Topology t = dgx1();
  t.overrides.push_back(RouteOverride{0, 5, 4});
  t.compute_routes();
  EXPECT_EQ(t.path(0, 5), (std::vector<unsigned>{link(t, 0, 4), link(t, 4, 5)}));
  EXPECT_EQ(t.path(0, 6).front(), link(t, 0, 2));  // others keep the default tie-break
}

TEST(Topology, SwitchNodesRouteBetweenGpus) {
  Topology t;
  t.gpus = 3;
  t.switches = 1;
  for (unsigned g = 0; g < 3; ++g)
    t.links.push_back(TopologyLink{g, 3, LinkSpec{}});
  t.compute_routes();
  EXPECT_EQ(t.path(0, 2), (std::vector<unsigned>{0u, 2u}));
  EXPECT_EQ(t.next_link(3, 1), 1);   // the switch sends GPU 1's traffic down link 1
  EXPECT_EQ(t.next_link(1, 1), -1);  // arrived
  EXPECT_EQ(t.node_name(3), "switch0");
  EXPECT_EQ(t.node_id("switch0"), 3);
  EXPECT_EQ(t.node_id("gpu3"), -1);
}

TEST(Topology, ErrorsNameTheProblem) {
  Topology t;
  t.gpus = 3;
  t.links.push_back(TopologyLink{0, 1, LinkSpec{}});
  try {
    t.compute_routes();
    FAIL() << "gpu2 is isolated";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "gpu2 cannot reach gpu0 through the links given");
  }
  Topology u = dgx1();
  u.overrides.push_back(RouteOverride{0, 5, 6});
  try {
    u.compute_routes();
    FAIL() << "6 is not a neighbour of 0";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "route gpu0 -> gpu5 via gpu6: gpu6 is not a neighbour of gpu0");
  }
}

}  // namespace
}  // namespace numagpu
