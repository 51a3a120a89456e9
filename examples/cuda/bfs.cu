// bfs, the application, and its two kernels: Rodinia's breadth-first search as the C++ library application
// rodinia/bfs (models/apps/rodinia/bfs.cpp) runs it, with "layers=1" on its default input (Debian's
// libmetis-doc mdual.graph: 258,569 vertices): Kernel (each frontier vertex visits its neighbours; each
// unvisited one gets cost + 1 and joins the updating mask) and Kernel2 (the updating mask becomes the next
// frontier, marked visited, and raises the `over` flag), repeated until no vertex changes. One thread a
// vertex, 512 a CTA. Arrays in the application's order: nodes, edges, mask, updating mask, visited, cost,
// over. The costs are checked against a CPU breadth-first search. Usage: bfs [graph.metis [layers]].
#include "common.h"
#include "metis_graph.h"

#include <queue>

constexpr int kThreads = 512;  // MAX_THREADS_PER_BLOCK

struct Node {
  int starting;
  int no_of_edges;
};

__global__ void Kernel(const Node* g_graph_nodes, const int* g_graph_edges, bool* g_graph_mask,
                       bool* g_updating_graph_mask, const bool* g_graph_visited, int* g_cost,
                       int no_of_nodes) {
  const int tid = blockIdx.x * kThreads + threadIdx.x;
  if (tid < no_of_nodes && g_graph_mask[tid]) {
    g_graph_mask[tid] = false;
    // The edge range read once (the stores below may alias the nodes for the compiler).
    const int start = g_graph_nodes[tid].starting, end = start + g_graph_nodes[tid].no_of_edges;
    for (int i = start; i < end; i++) {
      const int id = g_graph_edges[i];
      if (!g_graph_visited[id]) {
        g_cost[id] = g_cost[tid] + 1;
        g_updating_graph_mask[id] = true;
      }
    }
  }
}

__global__ void Kernel2(bool* g_graph_mask, bool* g_updating_graph_mask, bool* g_graph_visited, bool* g_over,
                        int no_of_nodes) {
  const int tid = blockIdx.x * kThreads + threadIdx.x;
  if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
    g_graph_mask[tid] = true;
    g_graph_visited[tid] = true;
    *g_over = true;
    g_updating_graph_mask[tid] = false;
  }
}

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "/usr/share/doc/libmetis-dev/examples/graphs/mdual.graph";
  const int layers = argc > 2 ? std::atoi(argv[2]) : 1;
  const CsrGraph graph = read_metis_graph(path, layers < 1 ? 1 : layers);
  const int n = graph.vertices;
  if (n == 0) return 2;
  std::vector<Node> nodes(n);
  for (int v = 0; v < n; ++v)
    nodes[v] = {graph.row_ptr[v], graph.row_ptr[v + 1] - graph.row_ptr[v]};
  const int source = 0;
  std::vector<char> mask(n, 0), visited(n, 0);
  std::vector<int> cost(n, -1);
  mask[source] = visited[source] = 1;
  cost[source] = 0;

  Node* d_nodes;
  int *d_edges, *d_cost;
  bool *d_mask, *d_updating, *d_visited, *d_over;
  CHECK_CUDA(cudaMalloc(&d_nodes, n * sizeof(Node)));
  CHECK_CUDA(cudaMalloc(&d_edges, graph.col.size() * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_mask, n));
  CHECK_CUDA(cudaMalloc(&d_updating, n));
  CHECK_CUDA(cudaMalloc(&d_visited, n));
  CHECK_CUDA(cudaMalloc(&d_cost, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_over, 1));
  CHECK_CUDA(cudaMemcpy(d_nodes, nodes.data(), n * sizeof(Node), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_edges, graph.col.data(), graph.col.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_mask, mask.data(), n, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_updating, 0, n));
  CHECK_CUDA(cudaMemcpy(d_visited, visited.data(), n, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_cost, cost.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  const int blocks = (n + kThreads - 1) / kThreads;
  int iterations = 0;
  bool over;
  do {  // until no vertex changes: the host reads the flag back after each iteration
    over = false;
    CHECK_CUDA(cudaMemcpy(d_over, &over, 1, cudaMemcpyHostToDevice));
    Kernel<<<blocks, kThreads>>>(d_nodes, d_edges, d_mask, d_updating, d_visited, d_cost, n);
    CHECK_CUDA(cudaGetLastError());
    Kernel2<<<blocks, kThreads>>>(d_mask, d_updating, d_visited, d_over, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(&over, d_over, 1, cudaMemcpyDeviceToHost));
    ++iterations;
  } while (over && iterations <= n);
  CHECK_CUDA(cudaMemcpy(cost.data(), d_cost, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (void* p : {(void*)d_nodes, (void*)d_edges, (void*)d_mask, (void*)d_updating, (void*)d_visited,
                  (void*)d_cost, (void*)d_over})
    CHECK_CUDA(cudaFree(p));

  std::vector<int> want(n, -1);
  std::queue<int> queue;
  want[source] = 0;
  queue.push(source);
  while (!queue.empty()) {
    const int v = queue.front();
    queue.pop();
    for (int k = graph.row_ptr[v]; k < graph.row_ptr[v + 1]; ++k)
      if (want[graph.col[k]] < 0) {
        want[graph.col[k]] = want[v] + 1;
        queue.push(graph.col[k]);
      }
  }
  std::printf("bfs: %d vertices, %zu edge entries, %d iterations\n", n, graph.col.size(), iterations);
  return report("bfs", count_mismatches("cost", cost.data(), want.data(), n, 0.0));
}
