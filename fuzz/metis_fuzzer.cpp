// libFuzzer target: the METIS graph reader (kernels/metis_graph.hpp). Any input either parses into a graph
// whose rows are consistent (row_ptr starts at 0, never decreases, ends at the number of entries; every
// neighbour is a vertex; one weight per entry), and so does its extrusion into 3 layers, or is refused with a
// GraphError of one line naming the input; anything else (a crash, another exception, a malformed graph) is a
// finding. scripts/fuzz.sh runs it.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernels/metis_graph.hpp"

namespace {

const char* malformed(const numagpu::kernels::CsrGraph& g) {
  if (g.row_ptr.size() != std::size_t(g.vertices) + 1 || g.row_ptr.front() != 0)
    return "row_ptr's size or start";
  if (g.row_ptr.back() != g.col.size() || g.weight.size() != g.col.size())
    return "row_ptr's end or the weights";
  for (std::size_t v = 0; v + 1 < g.row_ptr.size(); ++v)
    if (g.row_ptr[v] > g.row_ptr[v + 1]) return "row_ptr decreases";
  for (std::uint32_t c : g.col)
    if (c >= g.vertices) return "a neighbour outside the graph";
  return nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const numagpu::kernels::CsrGraph g = numagpu::kernels::parse_metis_graph(text, "fuzz");
    const char* problem = malformed(g);
    if (!problem && g.vertices <= (1u << 16)) problem = malformed(numagpu::kernels::extrude(g, 3));
    if (problem) {
      std::fprintf(stderr, "numagpu fuzz: metis: %s\n", problem);
      std::abort();
    }
  } catch (const numagpu::kernels::GraphError& e) {
    const std::string what = e.what();
    if (what.rfind("fuzz", 0) != 0 || what.find('\n') != std::string::npos) {
      std::fprintf(stderr, "numagpu fuzz: metis: an error that is not one line naming the input: %s\n",
                   e.what());
      std::abort();
    }
  }
  return 0;
}
