#include "mini_cuda.h"
// Kernels in the style of Rodinia's (hotspot's stencil, bfs's frontier, kmeans' nearest centre, a shared
// histogram, b+tree's search, srad's update): the PTX constructs they make clang and nvcc emit.
__global__ void hotspot(const float* power, const float* temp, float* out, int cols, int rows, float cap,
                        float rx, float ry, float rz, float amb) {
  __shared__ float t[18][18];
  int tx = tid_x(), ty = tid_y();
  int x = ctaid_x() * 16 + tx, y = ctaid_y() * 16 + ty;
  int xi = x < cols ? x : cols - 1, yi = y < rows ? y : rows - 1;
  t[ty + 1][tx + 1] = temp[yi * cols + xi];
  if (tx == 0) t[ty + 1][0] = temp[yi * cols + (xi > 0 ? xi - 1 : 0)];
  if (tx == 15) t[ty + 1][17] = temp[yi * cols + (xi + 1 < cols ? xi + 1 : xi)];
  if (ty == 0) t[0][tx + 1] = temp[(yi > 0 ? yi - 1 : 0) * cols + xi];
  if (ty == 15) t[17][tx + 1] = temp[(yi + 1 < rows ? yi + 1 : yi) * cols + xi];
  syncthreads();
  if (x < cols && y < rows) {
    float c = t[ty + 1][tx + 1];
    out[y * cols + x] = c + cap * (power[y * cols + x] + (t[ty + 2][tx + 1] + t[ty][tx + 1] - 2.0f * c) * ry +
                                   (t[ty + 1][tx + 2] + t[ty + 1][tx] - 2.0f * c) * rx + (amb - c) * rz);
  }
}
struct Node { int start, count; };
__global__ void bfs(const Node* nodes, const int* edges, bool* mask, bool* updating, bool* visited, int* cost,
                    int n) {
  int tid = ctaid_x() * 512 + tid_x();
  if (tid < n && mask[tid]) {
    mask[tid] = false;
    for (int i = nodes[tid].start; i < nodes[tid].start + nodes[tid].count; i++) {
      int id = edges[i];
      if (!visited[id]) {
        cost[id] = cost[tid] + 1;
        updating[id] = true;
      }
    }
  }
}
__global__ void kmeans(const float* features, const float* clusters, int* membership, int npoints, int nclusters,
                       int nfeatures) {
  int p = ctaid_x() * ntid_x() + tid_x();
  if (p >= npoints) return;
  int index = -1;
  float best = 3.4e38f;
  for (int c = 0; c < nclusters; c++) {
    float dist = 0.0f;
    for (int f = 0; f < nfeatures; f++) {
      float d = features[f * npoints + p] - clusters[c * nfeatures + f];
      dist += d * d;
    }
    if (dist < best) {
      best = dist;
      index = c;
    }
  }
  membership[p] = index;
}
__global__ void histogram(const unsigned char* data, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  local[tid_x()] = 0;
  syncthreads();
  for (int i = ctaid_x() * ntid_x() + tid_x(); i < n; i += ntid_x() * nctaid_x()) atomicAdd(&local[data[i]], 1u);
  syncthreads();
  atomicAdd(&bins[tid_x()], local[tid_x()]);
}
struct Knode { int location; int indices[9]; int keys[9]; bool is_leaf; int num_keys; };
__global__ void findK(long height, const Knode* knodes, long knodes_elem, const int* keys, long* current,
                      long* offset, int* ans) {
  int thid = tid_x(), bid = ctaid_x();
  for (long i = 0; i < height; i++) {
    if (knodes[current[bid]].keys[thid] <= keys[bid] && knodes[current[bid]].keys[thid + 1] > keys[bid]) {
      if (knodes[offset[bid]].indices[thid] < knodes_elem) offset[bid] = knodes[offset[bid]].indices[thid];
    }
    syncthreads();
    if (thid == 0) current[bid] = offset[bid];
    syncthreads();
  }
  if (knodes[current[bid]].keys[thid] == keys[bid]) ans[bid] = knodes[current[bid]].indices[thid];
}
__global__ void srad(const float* j, float* c, int cols, int rows, float q0sqr) {
  int i = ctaid_x() * ntid_x() + tid_x();
  if (i >= cols * rows) return;
  int r = i / cols, col = i % cols;
  float jc = j[i];
  float n = j[(r > 0 ? r - 1 : 0) * cols + col] - jc, s = j[(r + 1 < rows ? r + 1 : r) * cols + col] - jc;
  float g2 = (n * n + s * s) / (jc * jc);
  float l = (n + s) / jc;
  float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
  float den = 1 + (.25f * l);
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
  float v = 1.0f / (1.0f + den);
  c[i] = v < 0 ? 0 : (v > 1 ? 1 : v);
}
