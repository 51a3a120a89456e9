#include "mini_cuda.h"
// C = A * B for n x n matrices (n a multiple of 16), 16 x 16 tiles in shared memory, one thread an element.
__global__ void sgemm(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[16][16];
  __shared__ float tb[16][16];
  unsigned tx = tid_x() % 16, ty = tid_x() / 16;
  unsigned row = ctaid_x() / (n / 16) * 16 + ty, col = ctaid_x() % (n / 16) * 16 + tx;
  float sum = 0.0f;
  for (int k = 0; k < n; k += 16) {
    ta[ty][tx] = a[row * n + k + tx];
    tb[ty][tx] = b[(k + ty) * n + col];
    syncthreads();
    for (int i = 0; i < 16; ++i) sum += ta[ty][i] * tb[i][tx];
    syncthreads();
  }
  c[row * n + col] = sum;
}
