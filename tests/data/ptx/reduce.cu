#include "mini_cuda.h"
// Each CTA of 256 threads sums its 256 elements of in[] in shared memory into out[blockIdx.x].
__global__ void reduce(const float* in, float* out) {
  __shared__ float s[256];
  unsigned t = tid_x();
  s[t] = in[ctaid_x() * 256 + t];
  syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    syncthreads();
  }
  if (t == 0) out[ctaid_x()] = s[0];
}
