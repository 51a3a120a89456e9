// The register-tiled SGEMM of Parboil's mysgemmNT, written anew for tests/cuda/sgemm_sass.sh (docs/kernels.md,
// "sgemm against its SASS"): 16 x 8 threads, a 128 x 16 tile of C, an 8-deep step along k, the tile of B in
// shared memory, 16 accumulators a thread. Its sm_70 SASS is what the library's sgemm issues a step.
#define TN 16
#define TH 8
#define TM (TN * TH)
extern "C" __global__ void sgemm_nt(const float* A, int lda, const float* B, int ldb, float* C, int ldc,
                                    int k, float alpha, float beta) {
  float acc[TN];
#pragma unroll
  for (int q = 0; q < TN; ++q) acc[q] = 0.0f;
  const int row = blockIdx.x * TM + threadIdx.y * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * TN + threadIdx.x;
  __shared__ float bt[TH][TN];
  for (int s = 0; s < k; s += TH) {
    bt[threadIdx.y][threadIdx.x] = B[col + (s + threadIdx.y) * ldb];
    __syncthreads();
    for (int r = 0; r < TH; ++r) {
      const float a = A[row + (s + r) * lda];
      for (int q = 0; q < TN; ++q) acc[q] += a * bt[r][q];
    }
    __syncthreads();
  }
  const int base = row + ldc * blockIdx.y * TN;
  for (int q = 0; q < TN; ++q) C[base + q * ldc] = C[base + q * ldc] * beta + alpha * acc[q];
}
