// The few CUDA declarations the test kernels here need with clang and no CUDA toolkit (the project's device
// header is numagpu-cc's); with nvcc, its own. tests/data/ptx/README.md has the commands.
#pragma once
#ifdef __NVCC__
static __device__ inline unsigned tid_x() { return threadIdx.x; }
static __device__ inline unsigned ntid_x() { return blockDim.x; }
static __device__ inline unsigned ctaid_x() { return blockIdx.x; }
static __device__ inline unsigned tid_y() { return threadIdx.y; }
static __device__ inline unsigned ctaid_y() { return blockIdx.y; }
static __device__ inline unsigned nctaid_x() { return gridDim.x; }
static __device__ inline void syncthreads() { __syncthreads(); }
static __device__ inline float sqrt_rn(float x) { return __fsqrt_rn(x); }
static __device__ inline float ex2_approx(float x) { return exp2f(x); }
static __device__ inline float rcp_rn(float x) { return __frcp_rn(x); }
static __device__ inline float sin_approx(float x) { return __sinf(x); }
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
struct dim3 { unsigned x = 1, y = 1, z = 1; };
static __device__ inline unsigned tid_x() { return __nvvm_read_ptx_sreg_tid_x(); }
static __device__ inline unsigned ntid_x() { return __nvvm_read_ptx_sreg_ntid_x(); }
static __device__ inline unsigned ctaid_x() { return __nvvm_read_ptx_sreg_ctaid_x(); }
static __device__ inline unsigned tid_y() { return __nvvm_read_ptx_sreg_tid_y(); }
static __device__ inline unsigned ctaid_y() { return __nvvm_read_ptx_sreg_ctaid_y(); }
static __device__ inline unsigned nctaid_x() { return __nvvm_read_ptx_sreg_nctaid_x(); }
static __device__ inline void syncthreads() { __syncthreads(); }
static __device__ inline unsigned atomicAdd(unsigned* p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static __device__ inline float atomicAdd(float* p, float v) { return __nvvm_atom_add_gen_f(p, v); }
static __device__ inline int atomicAdd(int* p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static __device__ inline int atomicMax(int* p, int v) { return __nvvm_atom_max_gen_i(p, v); }
static __device__ inline unsigned atomicCAS(unsigned* p, unsigned c, unsigned v) { return __nvvm_atom_cas_gen_i((int*)p, (int)c, (int)v); }
static __device__ inline float __shfl_down_sync(unsigned m, float v, int d) { return __nvvm_shfl_sync_down_f32(m, v, d, 0x1f); }
static __device__ inline int __shfl_xor_sync(unsigned m, int v, int d) { return __nvvm_shfl_sync_bfly_i32(m, v, d, 0x1f); }
static __device__ inline unsigned __ballot_sync(unsigned m, bool p) { return __nvvm_vote_ballot_sync(m, p); }
static __device__ inline int __popc(unsigned v) { return __builtin_popcount(v); }
static __device__ inline float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ inline float sqrt_rn(float x) { return __nvvm_sqrt_rn_f(x); }
static __device__ inline float ex2_approx(float x) { return __nvvm_ex2_approx_f(x); }
static __device__ inline float rcp_rn(float x) { return __nvvm_rcp_rn_f(x); }
static __device__ inline float sin_approx(float x) { return __nvvm_sin_approx_f(x); }
#endif
