// histogram, histogram64Kernel of the CUDA samples: the CUDA version of the C++ library kernel
// cuda-samples/histogram64 (models/kernels/cuda-samples/histogram64.cpp) with its default arguments
// "bytes=67108864 seed=2009": a 64-bin histogram of bytes (their high six bits), per-thread byte counters in
// shared memory (64 threads x 64 bins a CTA, thread t's counters at threadPos + 64 * bin), the data read as
// uint4 in a grid-stride loop; ceil(bytes / (64 x 252)) CTAs of 64 threads write one partial histogram each
// (the merge is the host's here). The same data as the library's: std::mt19937(seed), one byte per draw.
// Arrays in its order: data, partial histograms. Usage: histogram [bytes seed].
#include "common.h"

#include <random>
#include <vector>

constexpr int kThreads = 64, kBins = 64, kPerThread = 252;

__device__ inline void add_byte(unsigned char* s_thread_base, unsigned data) {
  s_thread_base[64 * (data & 0x3fu)]++;
}

__device__ inline void add_word(unsigned char* s_thread_base, unsigned data) {
  add_byte(s_thread_base, (data >> 2) & 0x3fu);
  add_byte(s_thread_base, (data >> 10) & 0x3fu);
  add_byte(s_thread_base, (data >> 18) & 0x3fu);
  add_byte(s_thread_base, (data >> 26) & 0x3fu);
}

__global__ void histogram64Kernel(unsigned* d_partial, const uint4* d_data, unsigned data_count) {
  // Threads t and t + 16 share a 32-bit word, a half-warp's 16 threads 16 consecutive banks.
  const unsigned thread_pos =
      (threadIdx.x & ~(unsigned)(kThreads - 1)) | ((threadIdx.x & 15u) << 2) | ((threadIdx.x & 48u) >> 4);
  __shared__ unsigned char s_hist[kThreads * kBins];
  unsigned char* s_thread_base = s_hist + thread_pos;
#pragma unroll
  for (int i = 0; i < kBins / 4; i++)
    ((unsigned*)s_hist)[threadIdx.x + i * kThreads] = 0;
  __syncthreads();
  for (unsigned pos = blockIdx.x * blockDim.x + threadIdx.x; pos < data_count;
       pos += blockDim.x * gridDim.x) {
    const uint4 data = d_data[pos];
    add_word(s_thread_base, data.x);
    add_word(s_thread_base, data.y);
    add_word(s_thread_base, data.z);
    add_word(s_thread_base, data.w);
  }
  __syncthreads();
  if (threadIdx.x < kBins) {
    const unsigned char* s_hist_base = s_hist + threadIdx.x * kThreads;
    unsigned sum = 0, pos = 4 * (threadIdx.x & 15u);
#pragma unroll
    for (int i = 0; i < kThreads / 4; i++) {
      sum += s_hist_base[pos + 0] + s_hist_base[pos + 1] + s_hist_base[pos + 2] + s_hist_base[pos + 3];
      pos = (pos + 4) & (kThreads - 1);
    }
    d_partial[blockIdx.x * kBins + threadIdx.x] = sum;
  }
}

int main(int argc, char** argv) {
  const long bytes = argc > 2 ? std::atol(argv[1]) : 64l << 20;
  const unsigned seed = argc > 2 ? (unsigned)std::atol(argv[2]) : 2009;
  if (bytes < 16 || bytes % 16 != 0) {
    std::fprintf(stderr, "histogram: bytes must be a positive multiple of 16\n");
    return 2;
  }
  const long ctas = (bytes + kThreads * kPerThread - 1) / (kThreads * kPerThread);
  std::vector<unsigned char> data(bytes);
  std::mt19937 rng(seed);
  for (auto& b : data)
    b = (unsigned char)(rng() & 0xffu);
  uint4* d_data;
  unsigned* d_partial;
  CHECK_CUDA(cudaMalloc(&d_data, bytes));
  CHECK_CUDA(cudaMalloc(&d_partial, ctas * kBins * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(d_data, data.data(), bytes, cudaMemcpyHostToDevice));
  histogram64Kernel<<<ctas, kThreads>>>(d_partial, d_data, (unsigned)(bytes / 16));
  CHECK_LAUNCH();
  std::vector<unsigned> partial(ctas * kBins);
  CHECK_CUDA(
      cudaMemcpy(partial.data(), d_partial, partial.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_data));
  CHECK_CUDA(cudaFree(d_partial));
  // The partial histograms summed bin by bin, against a count of the bytes' high six bits.
  std::vector<long> got(kBins, 0), want(kBins, 0);
  for (long c = 0; c < ctas; ++c)
    for (int b = 0; b < kBins; ++b)
      got[b] += partial[c * kBins + b];
  for (unsigned char b : data)
    ++want[b >> 2];
  return report("histogram", count_mismatches("bin", got.data(), want.data(), kBins, 0.0));
}
