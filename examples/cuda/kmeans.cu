// kmeans, kmeansPoint: the CUDA version of the C++ library kernel rodinia/kmeans_kmeansPoint
// (models/kernels/rodinia/kmeans_kmeansPoint.cpp) with its default arguments "points=819200 features=34
// clusters=5": one thread per point finds the nearest of the cluster centers (in constant memory) over the
// features, read from the transposed array (feature j of point p at j * npoints + p); a square grid of
// ceil(sqrt(blocks))^2 CTAs of 256 threads. The library reads the features through the texture path
// (tex1Dfetch); here they are plain global loads, which the library models them as. Arrays in its order:
// features, membership. Usage: kmeans [points features clusters].
#include "common.h"

#include <cfloat>
#include <cmath>
#include <vector>

constexpr int kThreads = 256;
constexpr int kMaxCenters = 32 * 34;  // c_clusters' floats

__constant__ float c_clusters[kMaxCenters];

__global__ void kmeansPoint(const float* features, int nfeatures, int npoints, int nclusters,
                            int* membership) {
  const unsigned block_id = gridDim.x * blockIdx.y + blockIdx.x;
  const unsigned point_id = block_id * blockDim.x + threadIdx.x;
  int index = -1;
  if (point_id < (unsigned)npoints) {
    float min_dist = FLT_MAX;
    for (int i = 0; i < nclusters; i++) {
      const int cluster_base_index = i * nfeatures;
      float ans = 0.0f;
      for (int j = 0; j < nfeatures; j++) {
        const float diff = features[point_id + j * npoints] - c_clusters[cluster_base_index + j];
        ans += diff * diff;
      }
      if (ans < min_dist) {
        min_dist = ans;
        index = i;
      }
    }
  }
  if (point_id < (unsigned)npoints) membership[point_id] = index;
}

int main(int argc, char** argv) {
  const int npoints = argc > 3 ? std::atoi(argv[1]) : 819200, nfeatures = argc > 3 ? std::atoi(argv[2]) : 34;
  const int nclusters = argc > 3 ? std::atoi(argv[3]) : 5;
  if (npoints < 1 || nfeatures < 1 || nclusters < 1 || nclusters > npoints ||
      nclusters * nfeatures > kMaxCenters) {
    std::fprintf(stderr, "kmeans: 1 <= clusters <= points, clusters x features <= %d\n", kMaxCenters);
    return 2;
  }
  // Integer features 0 .. 255 (Rodinia's generator), stored transposed; the first points are the centers.
  std::vector<float> features((size_t)npoints * nfeatures), centers((size_t)nclusters * nfeatures);
  Lcg rng(13);
  for (int p = 0; p < npoints; ++p)
    for (int j = 0; j < nfeatures; ++j)
      features[(size_t)j * npoints + p] = (float)(rng.next() >> 24);
  for (int i = 0; i < nclusters; ++i)
    for (int j = 0; j < nfeatures; ++j)
      centers[(size_t)i * nfeatures + j] = features[(size_t)j * npoints + i];
  const int blocks = (npoints + kThreads - 1) / kThreads;
  int perdim = (int)std::sqrt((double)blocks);
  while (perdim * perdim < blocks)
    ++perdim;

  float* d_features;
  int* d_membership;
  CHECK_CUDA(cudaMalloc(&d_features, features.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_membership, npoints * sizeof(int)));
  CHECK_CUDA(
      cudaMemcpy(d_features, features.data(), features.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_membership, 0xff, npoints * sizeof(int)));  // -1: the host's initial membership
  CHECK_CUDA(cudaMemcpyToSymbol(c_clusters, centers.data(), centers.size() * sizeof(float)));
  kmeansPoint<<<dim3(perdim, perdim), kThreads>>>(d_features, nfeatures, npoints, nclusters, d_membership);
  CHECK_LAUNCH();
  std::vector<int> membership(npoints);
  CHECK_CUDA(cudaMemcpy(membership.data(), d_membership, npoints * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_features));
  CHECK_CUDA(cudaFree(d_membership));
  // The nearest center of every point (integer features: the float distances are exact, no ties broken
  // differently).
  std::vector<int> want(npoints);
  for (int p = 0; p < npoints; ++p) {
    float best = FLT_MAX;
    int index = -1;
    for (int i = 0; i < nclusters; ++i) {
      float d = 0;
      for (int j = 0; j < nfeatures; ++j) {
        const float diff = features[(size_t)j * npoints + p] - centers[(size_t)i * nfeatures + j];
        d += diff * diff;
      }
      if (d < best) {
        best = d;
        index = i;
      }
    }
    want[p] = index;
  }
  return report("kmeans", count_mismatches("membership", membership.data(), want.data(), npoints, 0.0));
}
