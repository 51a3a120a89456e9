// sgemm, Parboil's mysgemmNT: the CUDA version of the C++ library kernel parboil/sgemm_mysgemmNT
// (models/kernels/parboil/sgemm_mysgemmNT.cpp) with its default arguments "m=1024 n=1056 k=992" (Parboil's
// medium dataset): C = alpha A B + beta C, A column-major m x k, B given transposed (k rows of n), C
// column-major m x n; a grid of m / 128 x n / 16 CTAs of 16 x 8 threads, each thread one row of a 128 x 16
// tile of C in 16 registers, B staged 8 x 16 at a time in shared memory. Arrays in its order: A, B, C.
// Usage: sgemm [m n k] (m a multiple of 128, n of 16, k of 8).
#include "common.h"

#include <vector>

constexpr int kTileN = 16, kTileHeight = 8, kTileM = kTileN * kTileHeight;

__global__ void mysgemmNT(const float* A, int lda, const float* B, int ldb, float* C, int ldc, int k,
                          float alpha, float beta) {
  float c[kTileN];
  for (int i = 0; i < kTileN; i++)
    c[i] = 0.0f;
  const int mid = threadIdx.y * blockDim.x + threadIdx.x;
  const int m = blockIdx.x * kTileM + mid;
  const int n = blockIdx.y * kTileN + threadIdx.x;
  __shared__ float b_s[kTileHeight][kTileN];
  for (int i = 0; i < k; i += kTileHeight) {
    b_s[threadIdx.y][threadIdx.x] = B[n + (i + threadIdx.y) * ldb];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kTileHeight; j++) {
      const float a = A[m + (i + j) * lda];
#pragma unroll
      for (int kk = 0; kk < kTileN; kk++)
        c[kk] += a * b_s[j][kk];
    }
    __syncthreads();
  }
  const int t = ldc * blockIdx.y * kTileN + m;
#pragma unroll
  for (int i = 0; i < kTileN; i++)
    C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
}

int main(int argc, char** argv) {
  const int m = argc > 3 ? std::atoi(argv[1]) : 1024, n = argc > 3 ? std::atoi(argv[2]) : 1056;
  const int k = argc > 3 ? std::atoi(argv[3]) : 992;
  if (m <= 0 || n <= 0 || k <= 0 || m % kTileM || n % kTileN || k % kTileHeight) {
    std::fprintf(stderr, "sgemm: m must be a multiple of 128, n of 16, k of 8\n");
    return 2;
  }
  std::vector<float> a((size_t)m * k), bt((size_t)k * n), c((size_t)m * n, 0.0f);
  Lcg rng(9);
  for (auto& v : a)
    v = rng.uniform() - 0.5f;
  for (auto& v : bt)
    v = rng.uniform() - 0.5f;
  float *d_a, *d_b, *d_c;
  CHECK_CUDA(cudaMalloc(&d_a, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_b, bt.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_c, c.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_b, bt.data(), bt.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_c, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));
  mysgemmNT<<<dim3(m / kTileM, n / kTileN), dim3(kTileN, kTileHeight)>>>(d_a, m, d_b, n, d_c, m, k, 1.0f,
                                                                         0.0f);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(c.data(), d_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (float* p : {d_a, d_b, d_c})
    CHECK_CUDA(cudaFree(p));
  // C[row, col] = sum over p of A[row, p] B^T[p, col], in double (the GPU's float sums differ by rounding).
  std::vector<float> want((size_t)m * n);
  for (int col = 0; col < n; ++col)
    for (int row = 0; row < m; ++row) {
      double s = 0;
      for (int p = 0; p < k; ++p)
        s += (double)a[row + (size_t)p * m] * bt[col + (size_t)p * n];
      want[row + (size_t)col * m] = (float)s;
    }
  return report("sgemm", count_mismatches("C", c.data(), want.data(), (long)want.size(), 5e-4));
}
