// The METIS graph reader: the format's variants, its errors (file:line), and extrusion's counts by hand.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>

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

// Weights are what the header's fmt says: fmt 1 gives edge weights, even when every one is 1 (an application
// must not take them for an unweighted graph and make up its own); without fmt there are none. Extrusion
// keeps the flag.
TEST(MetisGraph, EdgeWeightsAreReadAsTheFileStatesThem) {
  const CsrGraph weighted = parse_metis_graph("2 1 1\n2 1\n1 1\n", "g");
  EXPECT_TRUE(weighted.has_edge_weights);
  EXPECT_EQ(weighted.weight, (std::vector<std::int32_t>{1, 1}));
  EXPECT_TRUE(extrude(weighted, 2).has_edge_weights);
  EXPECT_FALSE(parse_metis_graph("2 1\n2\n1\n", "g").has_edge_weights);
  EXPECT_FALSE(parse_metis_graph("2 1 10\n5 2\n6 1\n", "g").has_edge_weights);  // vertex weights only
}

// A 12-byte header asking for 2^28 - 1 vertices: one line, at once. The reader reserves in proportion to the
// text (12 bytes), not to the header's n (the 1 GiB of row pointers it reserved before: the CLI test
// program_app_inputs_are_one_line_errors runs this under `ulimit -v`).
TEST(MetisGraph, AHeaderAloneCannotSizeMemory) {
  EXPECT_EQ(error_of("268435455 1\n"), "g.graph:1: the file ends after 0 of 268435455 vertex lines");
}

// An application's own limit on weights is checked as the file is read: the error names the line.
TEST(MetisGraph, AnApplicationsWeightLimitNamesTheLine) {
  try {
    parse_metis_graph("3 2 1\n2 5\n1 5 3 9\n2 9\n", "g.graph", {8, "(its sums)"});
    FAIL() << "no error";
  } catch (const GraphError& e) {
    EXPECT_STREQ(e.what(), "g.graph:3: an edge weight of 9, more than 8 (its sums)");
  }
}

std::string read_error_of(const std::string& path) {
  try {
    read_metis_graph(path);
  } catch (const GraphError& e) {
    return e.what();
  }
  return "";
}

// A directory or a FIFO is refused by what it is, before it is opened (opening a FIFO would block until a
// writer comes, ignoring SIGTERM): one line, at once.
TEST(MetisGraph, DirectoriesAndFifosAreRefusedWithoutBlocking) {
  const std::string dir = ::testing::TempDir() + "metis_dir_" + std::to_string(::getpid());
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  EXPECT_EQ(read_error_of(dir), dir + ": is a directory, not a METIS graph file");
  const std::string fifo = dir + "/g.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(read_error_of(fifo), fifo +
                                     ": is a FIFO, not a regular file (an application reads its input twice: "
                                     "once to check the configuration, once to run)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  std::remove(fifo.c_str());
  ::rmdir(dir.c_str());
  EXPECT_EQ(read_error_of(dir + "/none.graph"),
            dir + "/none.graph: cannot be read (No such file or directory)");
}

// A file is parsed as it is read, 4 MiB at a time: lines that straddle a chunk, a comment line longer than a
// chunk (dropped as it comes) and a vertex line longer than one give the graph the whole text gives, and an
// error past the first chunk is the same line and message.
TEST(MetisGraph, AFileReadInChunksIsTheGraphOfItsText) {
  // A path 1-2-...-n with weights, a 5 MiB comment after the header, vertex 1 listing vertex 2 then a run of
  // spaces that carries its line past the first chunk.
  const std::uint32_t n = 400000;
  std::string text = "% a path\n" + std::to_string(n) + " " + std::to_string(n - 1) + " 1\n%" +
                     std::string(5 << 20, 'c') + "\n2 7" + std::string(5 << 20, ' ') + "\n";
  for (std::uint32_t v = 2; v <= n; ++v)
    text +=
        std::to_string(v - 1) + " 7" + (v < n ? " " + std::to_string(v + 1) + " 7" : std::string()) + "\n";
  const std::string path = ::testing::TempDir() + "metis_chunks_" + std::to_string(::getpid()) + ".graph";
  std::ofstream(path, std::ios::binary) << text;
  const CsrGraph whole = parse_metis_graph(text, path), read = read_metis_graph(path);
  EXPECT_EQ(read.vertices, n);
  EXPECT_EQ(read.row_ptr, whole.row_ptr);
  EXPECT_EQ(read.col, whole.col);
  EXPECT_EQ(read.weight, whole.weight);
  EXPECT_TRUE(read.has_edge_weights);
  // A letter 4.5 MiB into vertex 1's line (line 4, from about 5 MiB to 10 MiB): refused there.
  std::string bad = text;
  bad[text.find("2 7") + (9 << 19)] = 'x';  // 4.5 MiB in
  std::ofstream(path, std::ios::binary) << bad;
  std::string expected;
  try {
    parse_metis_graph(bad, path);
  } catch (const GraphError& e) {
    expected = e.what();
  }
  EXPECT_EQ(expected, path + ":4: 'x' where a number was expected");
  EXPECT_EQ(read_error_of(path), expected);
  std::remove(path.c_str());
}

// A sparse 1 GiB file of zero bytes is refused at its first line after one chunk, the byte shown by its code
// (the reader used to take the whole file into memory first, and its message ended at the NUL).
TEST(MetisGraph, ASparseFileOfZerosIsRefusedAtItsFirstChunk) {
  const std::string path = ::testing::TempDir() + "metis_sparse_" + std::to_string(::getpid()) + ".graph";
  { std::ofstream(path, std::ios::binary).flush(); }
  ASSERT_EQ(::truncate(path.c_str(), off_t(1) << 30), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(read_error_of(path), path + ":1: byte 0x00 where a number was expected");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
  std::remove(path.c_str());
}

bool always() {
  return true;
}

// The interrupt check stops a read (the numagpu program sets it to its SIGINT/SIGTERM flag): here it is
// raised from the start, so the first check, after the first chunk is read, stops it.
TEST(MetisGraph, ReadingStopsAtTheInterruptCheck) {
  const std::string path = ::testing::TempDir() + "metis_stop_" + std::to_string(::getpid()) + ".graph";
  std::ofstream(path) << "2 1\n2\n1\n";
  EXPECT_EQ(read_metis_graph(path).vertices, 2u);
  set_graph_interrupt_check(&always);
  EXPECT_THROW(read_metis_graph(path), GraphInterrupted);
  // Parsing looks every 4 MiB of text: 5 MiB of comment lines are enough to meet a check.
  std::string text;
  while (text.size() < (std::size_t(5) << 20))
    text += "% " + std::string(61, 'c') + "\n";
  EXPECT_THROW(parse_metis_graph(text + "2 1\n2\n1\n", "g"), GraphInterrupted);
  set_graph_interrupt_check(nullptr);
  EXPECT_EQ(read_metis_graph(path).vertices, 2u);
  std::remove(path.c_str());
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
