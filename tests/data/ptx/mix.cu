#include "mini_cuda.h"
// A mix of what Rodinia-style kernels use: a device function call, atomics, shuffles, votes, math builtins,
// 64-bit and double arithmetic, integer division, conversions, a local array.
__device__ __attribute__((noinline)) float poly(float x, int n) {
  float r = 0.0f;
  for (int i = 0; i < n; ++i) r = r * x + float(i);
  return r;
}
__global__ void mix(const float* in, float* out, unsigned* hist, double* dout, int n, int d) {
  unsigned t = ctaid_x() * ntid_x() + tid_x();
  if (t >= (unsigned)n) return;
  float v = in[t];
  atomicAdd(&hist[(unsigned)v % 16], 1u);
  atomicMax((int*)&hist[16], (int)t);
  atomicCAS(&hist[17], 0u, t);
  float s = __shfl_down_sync(0xffffffffu, v, 1);
  unsigned b = __ballot_sync(0xffffffffu, v > 2.0f);
  float w = sqrt_rn(v) + ex2_approx(v) + rcp_rn(v + 1.0f) + sin_approx(v);
  float z = v / (s + 1.0f);
  int q = (int)t / d + (int)t % d;
  double dd = (double)v * 1.5 + (double)q;
  dd = dd / (double)(d + 1);
  float loc[8];
  for (int i = 0; i < 8; ++i) loc[i] = v * i;
  out[t] = w + z + poly(v, q & 3) + (float)__popc(b) + loc[q & 7] + fmaxf(v, s) + (float)(long long)v;
  dout[t] = dd;
}
