// The METIS graph reader: the format's variants, its errors (file:line), and extrusion's counts by hand.
#include <gtest/gtest.h>

#include "kernels/metis_graph.hpp"

namespace numagpu::kernels {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_metis_graph(text, "g.graph");
  } catch (const GraphError& e) {
    return e.what();
  }
  return "";
}

// A triangle 1-2-3 plus a pendant 4 on 3: 4 vertices, 4 edges, 8 neighbour entries.
TEST(MetisGraph, ReadsNeighboursFromOneAndComments) {
  const CsrGraph g = parse_metis_graph("% a comment\n4 4\n2 3\n1 3\n1 2 4\n3\n", "g");
  EXPECT_EQ(g.vertices, 4u);
  EXPECT_EQ(g.row_ptr, (std::vector<std::uint32_t>{0, 2, 4, 7, 8}));
  EXPECT_EQ(g.col, (std::vector<std::uint32_t>{1, 2, 0, 2, 0, 1, 3, 2}));
  EXPECT_EQ(g.weight, (std::vector<std::int32_t>(8, 1)));
}

// fmt 11: a vertex weight first (an isolated vertex's line holds just its weight), then neighbour/weight
// pairs. Without weights an empty line is a vertex without edges; with them it lacks its weight.
TEST(MetisGraph, WeightsAndIsolatedVertices) {
  const CsrGraph g = parse_metis_graph("3 1 11\n5 2 7\n6 1 7\n4\n", "g");
  EXPECT_EQ(g.row_ptr, (std::vector<std::uint32_t>{0, 1, 2, 2}));
  EXPECT_EQ(g.col, (std::vector<std::uint32_t>{1, 0}));
  EXPECT_EQ(g.weight, (std::vector<std::int32_t>{7, 7}));
  EXPECT_EQ(parse_metis_graph("3 1\n2\n1\n\n", "g").row_ptr, (std::vector<std::uint32_t>{0, 1, 2, 2}));
  EXPECT_EQ(error_of("3 1 11\n5 2 7\n6 1 7\n\n"), "g.graph:4: vertex 3 lacks its size or weights");
}

TEST(MetisGraph, BadInputIsOneLineWithFileAndLine) {
  EXPECT_EQ(error_of(""), "g.graph: no header line (n m [fmt [ncon]])");
  EXPECT_EQ(error_of("2 1\n2\n3\n"), "g.graph:3: neighbour 3 is outside 1..2");
  EXPECT_EQ(error_of("2 1\n2\n"), "g.graph:2: the file ends after 1 of 2 vertex lines");
  EXPECT_EQ(error_of("2 1\n1\n1\n"), "g.graph:2: vertex 1 lists itself (METIS graphs have no loops)");
  EXPECT_EQ(error_of("2 2\n2\n1\n"),
            "g.graph:3: the vertex lines list 2 neighbours; the header's 2 edges need 2 m = 4");
  EXPECT_EQ(error_of("2 1\n2 x\n1\n"), "g.graph:2: 'x' where a number was expected");
  EXPECT_EQ(error_of("2 1\n2\n1\n1\n"), "g.graph:4: a line after the last vertex's");
  EXPECT_EQ(error_of("2 1 7\n2\n1\n"), "g.graph:1: fmt 7 is not three digits of 0 or 1");
  EXPECT_EQ(error_of("2 1 1\n2\n1\n"), "g.graph:2: a neighbour without its edge weight");
  EXPECT_EQ(error_of("999999999999 1\n"), "g.graph:1: 999999999999 vertices, more than 2^28");
  // More entries than the header's edges allow stops at the first extra one (memory stays bounded).
  EXPECT_EQ(error_of("3 1\n2 3\n1\n1\n"),
            "g.graph:3: more neighbours than the header's 1 edges allow (2 m = 2)");
}

// Extruding the 4-vertex graph above into 3 layers: 12 vertices; entries: 3 x 8 within layers plus 2 per
// vertex per link between adjacent layers (2 links x 4 vertices x 2 ends = 16): 40. Vertex 6 (layer 1's copy
// of 0-based vertex 2) lists vertex 2 (layer 0), its own layer's 4, 5, 7, then vertex 10 (layer 2), in order.
TEST(MetisGraph, ExtrusionStacksLayersLinkedVertexToVertex) {
  const CsrGraph g = parse_metis_graph("4 4\n2 3\n1 3\n1 2 4\n3\n", "g");
  const CsrGraph e = extrude(g, 3);
  EXPECT_EQ(e.vertices, 12u);
  EXPECT_EQ(e.edges(), 40u);
  const std::vector<std::uint32_t> v6(e.col.begin() + e.row_ptr[6], e.col.begin() + e.row_ptr[7]);
  EXPECT_EQ(v6, (std::vector<std::uint32_t>{2, 4, 5, 7, 10}));
}

}  // namespace
}  // namespace numagpu::kernels
