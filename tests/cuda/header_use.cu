// Every device function of numagpu's header in one kernel, compiled by tests/cuda/ as C++14 and C++17 with
// -Wall -Wextra -Werror: a declaration clang rejects in either standard, or a function that does not lower,
// fails the build.
#include <cassert>
#include <cmath>
#include <cstdio>

__constant__ float table[16];
__device__ int counter;
__managed__ int managed_value;

struct Pair {
  float a, b;
};

__device__ __noinline__ float helper(float x) {
  return x * 2.0f;
}

__global__ void __launch_bounds__(256) everything(float* __restrict__ f, double* d, int* i, unsigned* u,
                                                  unsigned long long* ull, const float4* v4, Pair* pairs) {
  __shared__ float tile[256];
  const unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  const dim3 block = blockDim;
  const uint3 thread = threadIdx;
  tile[threadIdx.x] = f[t] + gridDim.x + block.y + thread.z + warpSize;
  __syncthreads();
  float x = tile[(threadIdx.x + 1) % 256] + table[t % 16] + helper(f[t]);
  int count = __syncthreads_count(x > 0) + __syncthreads_and(x > 1) + __syncthreads_or(x > 2);
  __syncwarp();
  __threadfence();
  __threadfence_block();
  __threadfence_system();

  atomicAdd(i, 1);
  atomicAdd(u, 1u);
  atomicAdd(ull, 1ull);
  atomicAdd(f, 1.0f);
  atomicAdd(d, 1.0);
  atomicSub(i, 1);
  atomicSub(u, 1u);
  atomicExch(i, 2);
  atomicExch(u, 2u);
  atomicExch(ull, 2ull);
  atomicExch(f, 2.0f);
  atomicMin(i, 3);
  atomicMin(u, 3u);
  atomicMin(ull, 3ull);
  atomicMax(i, 4);
  atomicMax(u, 4u);
  atomicMax(ull, 4ull);
  atomicCAS(i, 1, 2);
  atomicCAS(u, 1u, 2u);
  atomicCAS(ull, 1ull, 2ull);
  atomicAnd(i, 5);
  atomicOr(u, 6u);
  atomicXor(ull, 7ull);
  atomicInc(u, 10u);
  atomicDec(u, 10u);
  atomicAdd(&counter, 1);

  unsigned mask = __activemask();
  x += __shfl_sync(mask, x, 0) + __shfl_up_sync(mask, x, 1) + __shfl_down_sync(mask, x, 2, 16) +
       __shfl_xor_sync(mask, x, 4);
  double dx = __shfl_sync(mask, d[t], 3);
  int votes = __ballot_sync(mask, x > 0) + __all_sync(mask, x > 0) + __any_sync(mask, x > 0);
  float4 v = __ldg(v4 + t);
  x += __ldg(f + t) + v.x + v.w;

  x += sqrtf(x) + rsqrtf(x) + expf(x) + __expf(x) + exp2f(x) + logf(x) + __logf(x) + log2f(x) + log10f(x) +
       powf(x, 1.5f) + __powf(x, 2.0f) + sinf(x) + cosf(x) + tanf(x) + __sinf(x) + __cosf(x) + fabsf(x) +
       fminf(x, 1.0f) + fmaxf(x, 2.0f) + floorf(x) + ceilf(x) + fmodf(x, 0.3f) + __fdividef(x, 3.0f) +
       __saturatef(x) + rintf(x) + truncf(x) + roundf(x) + tanhf(x) + erff(x) + atanf(x) + atan2f(x, 1.0f) +
       asinf(x * 0.1f) + acosf(x * 0.1f) + hypotf(x, 2.0f) + cbrtf(x) + expm1f(x) + log1pf(x) + sinhf(x) +
       coshf(x) + fmaf(x, 2.0f, 1.0f) + copysignf(x, -1.0f) + min(x, 2.0f) + max(x, 3.0f) + sqrt(x) + exp(x) +
       log(x) + fabs(x) + pow(x, 2.0f) + ldexpf(x, 3);
  float s, c;
  sincosf(x, &s, &c);
  x += s + c;
  dx += exp(d[t]) + log(d[t]) + sqrt(d[t]) + pow(d[t], 1.5) + fabs(d[t]) + sin(d[t]) + cos(d[t]) + tan(d[t]) +
        fmod(d[t], 0.7) + floor(d[t]) + ceil(d[t]) + round(d[t]) + fmin(d[t], 1.0) + fmax(d[t], 2.0) +
        min(d[t], 1.0) + log2(d[t]) + log10(d[t]) + exp2(d[t]) + fma(d[t], 2.0, 1.0);
  int bits = __popc(u[0]) + __clz(i[0]) + __ffs(i[0]) + __mul24(i[0], 3) + __mulhi(i[0], 5) + min(i[0], 3) +
             max(u[0], 4u) + abs(i[0]) + __float_as_int(x) + __float2int_rn(x) + (int)__brev(u[0]);
  assert(t < 1u << 30);
  if (t == 0) printf("thread %u: %f\n", t, x);
  pairs[t].a = x + (float)count + (float)votes + (float)bits + __int_as_float(bits) + (float)clock64();
  pairs[t].b = (float)dx + managed_value;
  f[t] = make_float2(x, x).y;
}

int main() {
  float* f = nullptr;
  cudaMalloc(&f, 1024);
  everything<<<4, 256>>>(f, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  cudaMemcpyToSymbol(table, f, sizeof(table));
  int value = 0;
  cudaMemcpyFromSymbol(&value, counter, sizeof value);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  everything<<<1, 32, 0, stream>>>(f, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  cudaFuncSetCacheConfig(everything, cudaFuncCachePreferL1);
  std::printf("%s %d %s %f %d\n", prop.name, value, cudaGetErrorString(cudaGetLastError()), ms,
              prop.clockRate);
  cudaFree(f);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
