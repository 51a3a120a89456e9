// METIS graph files (the format of gpmetis/ndmetis inputs, METIS 5 manual section 4.1.1) read into compressed
// sparse rows, for applications that walk a real mesh as a graph (BFS, SSSP) or use its pattern as a sparse
// matrix (SpMV) or as an unstructured mesh's neighbour lists (cfd). Plain C++, no SystemC.
//
// The format: lines starting with '%' are comments; the first other line is `n m [fmt [ncon]]` (vertices,
// undirected edges; fmt's digits say whether vertex sizes, vertex weights and edge weights are present);
// then one line per vertex (an empty line is a vertex without neighbours): its size and ncon weights if
// present, then its neighbours, numbered from 1, each followed by the edge's weight if present. Every edge
// is listed from both ends, so the lines hold 2 m neighbours in all.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace numagpu::kernels {

// A bad graph file: one line, "file:line: what is wrong".
class GraphError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CsrGraph {
  std::uint32_t vertices = 0;
  std::vector<std::uint32_t>
      row_ptr;  // vertices + 1 entries: vertex v's neighbours are [row_ptr[v], row_ptr[v+1])
  std::vector<std::uint32_t> col;    // neighbours, numbered from 0 (each undirected edge from both ends)
  std::vector<std::int32_t> weight;  // per entry of col: the file's edge weight, or 1 if it has none
  bool has_edge_weights = false;     // the header's fmt says the file gives edge weights (even if all are 1)
  std::uint64_t edges() const { return col.size(); }  // directed: 2 m
};

// Bounds that keep a hostile file from sizing memory: vertices and edge entries at most 2^28 each.
constexpr std::uint64_t kMaxGraphEntries = std::uint64_t(1) << 28;

// What a reader of the graph accepts beyond the format's own bounds, checked as the file is read (so errors
// name the line).
struct GraphLimits {
  std::uint64_t max_edge_weight = 0x7fffffff;  // at most 2^31 - 1 (weights are int32)
  std::string why;                             // said after a weight above the limit
};

// Reads a METIS graph from `text`; `name` is the file named in errors. Throws GraphError. Memory grows with
// the text, never with the header's counts alone.
CsrGraph parse_metis_graph(const std::string& text, const std::string& name, const GraphLimits& limits = {});
// Reads the file at `path`, parsing it as it is read (4 MiB at a time: memory follows the graph and its
// longest line, not the file). Throws GraphError (also when it cannot be read, is a directory, a FIFO or
// another file that is not regular: an application reads its input twice, once to check the configuration
// and once to run, and a FIFO would block the first read until a writer comes), and GraphInterrupted when
// the interrupt check (below) says so while the file is read or parsed.
CsrGraph read_metis_graph(const std::string& path, const GraphLimits& limits = {});

// Reading and parsing a large graph takes seconds: `check`, when set, is called every few MiB and a true
// return stops the read with GraphInterrupted (the numagpu program sets it to its SIGINT/SIGTERM flag, so
// an interrupt is honoured within a fraction of a second). One check for the process; null: none.
using InterruptCheck = bool (*)();
void set_graph_interrupt_check(InterruptCheck check);
// What that check says now (false when none is set): the library's input generation asks it too
// (kernels/library.hpp, interrupt_point).
bool interrupt_requested();
class GraphInterrupted : public GraphError {
 public:
  using GraphError::GraphError;
};

// `layers` copies of `g` stacked as the layers of an extruded mesh: vertex v of layer l is l * n + v, keeps
// its neighbours within its layer and gains the same vertex of the layers above and below (the Cartesian
// product with a path, what extruding a surface mesh into a volume does). Degrees grow by at most 2, every
// layer keeps the file's structure and numbering locality, and the graph stays connected if g is. Edge
// weights of the layer links are 1. layers = 1 returns g.
CsrGraph extrude(const CsrGraph& g, std::uint32_t layers);

}  // namespace numagpu::kernels
