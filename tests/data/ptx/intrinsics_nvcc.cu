// CUDA intrinsics nvcc lowers to single PTX instructions or short sequences: warp votes and shuffles,
// atomics of every kind, __ldg, fences, clock64, half precision, integer intrinsics, vector loads.
#include <cuda_fp16.h>
__global__ void intrinsics(const float4* v4, const float* f, double* d, unsigned* u, unsigned long long* ull,
                           __half* h, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float4 a = v4[t];
  float x = __ldg(&f[t]);
  unsigned lane = threadIdx.x % 32;
  float s = x;
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  int any = __any_sync(0xffffffffu, x > 1.0f), all = __all_sync(0xffffffffu, x > 0.0f);
  unsigned act = __activemask();
  __syncwarp();
  atomicAdd(&d[0], (double)x);
  atomicExch((float*)&u[1], x);
  atomicInc(&u[2], 100u);
  atomicDec(&u[3], 100u);
  atomicSub(&u[4], 1u);
  atomicAnd(&u[5], 0xffu);
  atomicOr(&u[6], lane);
  atomicXor(&u[7], lane);
  atomicMin(&u[8], lane);
  atomicMax(&ull[0], (unsigned long long)t);
  atomicCAS(&ull[1], 0ull, (unsigned long long)t);
  __threadfence();
  long long c = clock64();
  __half hh = __float2half(x);
  hh = __hadd(hh, __float2half(1.0f));
  h[t] = hh;
  unsigned w = __umulhi(t, 0x9e3779b9u) + __mul24(t, 3) + __sad(t, 7, 1) + __byte_perm(t, lane, 0x3210) +
               __funnelshift_l(t, lane, 5) + __clzll((long long)t) + __popcll((unsigned long long)t) + __ffsll(t);
  u[16 + t] = w + any + all + act + (unsigned)(c & 0);
  d[1 + t] = (double)(a.x + a.y + a.z + a.w + s) + __half2float(hh);
}
