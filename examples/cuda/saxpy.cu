// SAXPY, y = a x + y: the CUDA version of the C++ library kernel example/saxpy
// (models/kernels/example/saxpy.cpp) with its default arguments, "n=1048576": the same launch (4096 CTAs of
// 256 threads, one element per thread), the same arrays (x, then y, floats) and the same accesses (a load of
// x[i] and y[i], a store of y[i]), so the two issue the same global memory requests.
#include "common.h"

#include <vector>

__global__ void saxpy(long long n, float a, const float* x, float* y) {
  long long i = threadIdx.x + (long long)blockIdx.x * 256;
  if (i >= n) return;
  y[i] = a * x[i] + y[i];  // one fma
}

int main() {
  const long long n = 1 << 20;
  const float a = 2.0f;
  std::vector<float> x(n), y(n), want(n);
  Lcg rng(1);
  for (long long i = 0; i < n; ++i) {
    x[i] = rng.uniform();
    y[i] = rng.uniform();
    want[i] = std::fma(a, x[i], y[i]);
  }
  float *dx, *dy;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dy, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  return report("saxpy", count_mismatches("y", y.data(), want.data(), n, 1e-6));
}
