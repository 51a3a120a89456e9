// A METIS graph file (the format of Debian's libmetis-doc examples: `n m` then one line of 1-based
// neighbours per vertex; files with vertex or edge weights are refused) read into compressed sparse rows,
// with the library's extrusion into layers (models/kernels/metis_graph.cpp): vertex v of layer l is
// l * n + v, its neighbours in the layer below first, then its own layer's, then the layer above. The input
// of bfs.cu and cfd.cu, as of the library applications rodinia/bfs and rodinia/cfd.
#pragma once

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

struct CsrGraph {
  int vertices = 0;
  std::vector<int> row_ptr, col;
};

// The graph, or an empty one after printing what is wrong.
inline CsrGraph read_metis_graph(const std::string& path, int layers) {
  CsrGraph g;
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "%s: cannot be read (Debian's libmetis-doc has the example graphs)\n", path.c_str());
    return g;
  }
  std::string line;
  long n = -1, m = 0, fmt = 0, number = 0;
  std::vector<int> row_ptr{0}, col;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line[0] == '%') continue;
    std::istringstream fields(line);
    if (n < 0) {
      fields >> n >> m;
      if (!(fields >> fmt)) fmt = 0;
      if (n <= 0 || fmt != 0) {
        std::fprintf(stderr, "%s:%ld: expected `n m` of an unweighted graph\n", path.c_str(), number);
        return g;
      }
      continue;
    }
    if ((long)row_ptr.size() > n) break;
    long v;
    while (fields >> v) {
      if (v < 1 || v > n) {
        std::fprintf(stderr, "%s:%ld: neighbour %ld outside 1 .. %ld\n", path.c_str(), number, v, n);
        return g;
      }
      col.push_back((int)(v - 1));
    }
    row_ptr.push_back((int)col.size());
  }
  while ((long)row_ptr.size() <= n)
    row_ptr.push_back((int)col.size());  // trailing vertices without edges
  g.vertices = (int)n * layers;
  g.row_ptr.push_back(0);
  for (int l = 0; l < layers; ++l)
    for (long v = 0; v < n; ++v) {
      if (l > 0) g.col.push_back((int)((l - 1) * n + v));
      for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k)
        g.col.push_back((int)(l * n + col[k]));
      if (l + 1 < layers) g.col.push_back((int)((l + 1) * n + v));
      g.row_ptr.push_back((int)g.col.size());
    }
  return g;
}
