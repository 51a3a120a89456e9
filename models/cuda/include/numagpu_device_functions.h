// numagpu's device functions: what CUDA device code uses besides the language (the built-in variables,
// synchronisation, atomics, warp functions, read-only loads, math), for clang 14 in CUDA mode without
// NVIDIA's toolkit. Included by cuda_runtime.h in CUDA mode only (it is not the ABI: nothing here reaches
// the runtime library).
//
// Everything lowers to single PTX instructions through clang's NVVM builtins or to plain device code:
// without the toolkit there is no libdevice, so no function here may become a call to a function the PTX
// does not define (tests/cuda/ checks the examples' PTX for `call` of undefined functions). Each math
// function states its accuracy; docs/cuda.md has the table. "ulp": units in the last place of the result;
// the approximate instructions' errors are the PTX ISA's stated bounds, on which these build.
#ifndef NUMAGPU_DEVICE_FUNCTIONS_H
#define NUMAGPU_DEVICE_FUNCTIONS_H

#if !defined(__CUDA__)
#error "numagpu_device_functions.h is device code: include cuda_runtime.h, compiled in CUDA mode"
#endif

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>

#define NUMAGPU_DEVICE static __device__ __forceinline__
#define NUMAGPU_HOST_DEVICE static __host__ __device__ __forceinline__

// ---- Built-in variables ----------------------------------------------------------------------------------
// threadIdx, blockIdx, blockDim, gridDim, warpSize: clang's own definitions (in its resource directory, part
// of the compiler, not of CUDA): objects whose x/y/z reads lower to %tid, %ctaid, %ntid, %nctaid and
// WARP_SZ, and which clang's diagnostics know by name. Their conversions to uint3/dim3 are defined here.
#include <__clang_cuda_builtin_vars.h>

__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const {
  return uint3{x, y, z};
}
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const {
  return uint3{x, y, z};
}
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const {
  return uint3{x, y, z};
}
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const {
  return uint3{x, y, z};
}
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const {
  return dim3(x, y, z);
}

// ---- Synchronisation, fences, traps -----------------------------------------------------------------------
// __syncthreads() is a clang builtin (bar.sync 0). Its counting forms:
NUMAGPU_DEVICE int __syncthreads_count(int predicate) {
  return __nvvm_bar0_popc(predicate);
}
NUMAGPU_DEVICE int __syncthreads_and(int predicate) {
  return __nvvm_bar0_and(predicate);
}
NUMAGPU_DEVICE int __syncthreads_or(int predicate) {
  return __nvvm_bar0_or(predicate);
}
NUMAGPU_DEVICE void __syncwarp(unsigned mask = 0xffffffffu) {
  __asm__ __volatile__("bar.warp.sync %0;" ::"r"(mask));
}
NUMAGPU_DEVICE void __threadfence_block(void) {
  __nvvm_membar_cta();
}
NUMAGPU_DEVICE void __threadfence(void) {
  __nvvm_membar_gl();
}
NUMAGPU_DEVICE void __threadfence_system(void) {
  __nvvm_membar_sys();
}
NUMAGPU_DEVICE void __trap(void) {
  __asm__ __volatile__("trap;");
}
NUMAGPU_DEVICE void __brkpt(void) {
  __asm__ __volatile__("brkpt;");
}
NUMAGPU_DEVICE long long clock64(void) {
  return __nvvm_read_ptx_sreg_clock64();
}
NUMAGPU_DEVICE int clock(void) {
  return __nvvm_read_ptx_sreg_clock();
}
NUMAGPU_DEVICE unsigned __lanemask_lt(void) {
  return __nvvm_read_ptx_sreg_lanemask_lt();
}

// assert() in device code: glibc's macro calls __assert_fail, a host function; this device overload stops
// the kernel with `trap` (the runtime reports it as cudaErrorAssert's kind of failure, naming the thread).
// The message is not printed: printing needs the driver's vprintf.
extern "C" __device__ inline void __assert_fail(const char*, const char*, unsigned int, const char*) {
  __trap();
}

// printf in device code: clang lowers a device printf to `vprintf(format, argument buffer)`, the driver's
// system call; the PTX declares it .extern and the executor provides it (docs/cuda.md). The device
// declaration of printf is what lets device code call it at all.
extern "C" __device__ int vprintf(const char*, const char*);
extern "C" __device__ int printf(const char*, ...);

// ---- Atomics ----------------------------------------------------------------------------------------------
// Generic-address atom.* instructions (the PTX's atom.add.u32 and friends), returning the old value.
NUMAGPU_DEVICE int atomicAdd(int* p, int v) {
  return __nvvm_atom_add_gen_i(p, v);
}
NUMAGPU_DEVICE unsigned atomicAdd(unsigned* p, unsigned v) {
  return __nvvm_atom_add_gen_i((int*)p, (int)v);
}
NUMAGPU_DEVICE unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_add_gen_ll((long long*)p, (long long)v);
}
NUMAGPU_DEVICE float atomicAdd(float* p, float v) {
  return __nvvm_atom_add_gen_f(p, v);
}
NUMAGPU_DEVICE double atomicAdd(double* p, double v) {
  return __nvvm_atom_add_gen_d(p, v);
}
NUMAGPU_DEVICE int atomicSub(int* p, int v) {
  return __nvvm_atom_add_gen_i(p, -v);
}
NUMAGPU_DEVICE unsigned atomicSub(unsigned* p, unsigned v) {
  return __nvvm_atom_add_gen_i((int*)p, -(int)v);
}
NUMAGPU_DEVICE int atomicExch(int* p, int v) {
  return __nvvm_atom_xchg_gen_i(p, v);
}
NUMAGPU_DEVICE unsigned atomicExch(unsigned* p, unsigned v) {
  return __nvvm_atom_xchg_gen_i((int*)p, (int)v);
}
NUMAGPU_DEVICE unsigned long long atomicExch(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_xchg_gen_ll((long long*)p, (long long)v);
}
NUMAGPU_DEVICE float atomicExch(float* p, float v) {
  return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i((int*)p, __builtin_bit_cast(int, v)));
}
NUMAGPU_DEVICE int atomicMin(int* p, int v) {
  return __nvvm_atom_min_gen_i(p, v);
}
NUMAGPU_DEVICE unsigned atomicMin(unsigned* p, unsigned v) {
  return __nvvm_atom_min_gen_ui(p, v);
}
NUMAGPU_DEVICE long long atomicMin(long long* p, long long v) {
  return __nvvm_atom_min_gen_ll(p, v);
}
NUMAGPU_DEVICE unsigned long long atomicMin(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_min_gen_ull(p, v);
}
NUMAGPU_DEVICE int atomicMax(int* p, int v) {
  return __nvvm_atom_max_gen_i(p, v);
}
NUMAGPU_DEVICE unsigned atomicMax(unsigned* p, unsigned v) {
  return __nvvm_atom_max_gen_ui(p, v);
}
NUMAGPU_DEVICE long long atomicMax(long long* p, long long v) {
  return __nvvm_atom_max_gen_ll(p, v);
}
NUMAGPU_DEVICE unsigned long long atomicMax(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_max_gen_ull(p, v);
}
NUMAGPU_DEVICE int atomicCAS(int* p, int compare, int v) {
  return __nvvm_atom_cas_gen_i(p, compare, v);
}
NUMAGPU_DEVICE unsigned atomicCAS(unsigned* p, unsigned compare, unsigned v) {
  return __nvvm_atom_cas_gen_i((int*)p, (int)compare, (int)v);
}
NUMAGPU_DEVICE unsigned long long atomicCAS(unsigned long long* p, unsigned long long compare,
                                            unsigned long long v) {
  return __nvvm_atom_cas_gen_ll((long long*)p, (long long)compare, (long long)v);
}
NUMAGPU_DEVICE int atomicAnd(int* p, int v) {
  return __nvvm_atom_and_gen_i(p, v);
}
NUMAGPU_DEVICE unsigned atomicAnd(unsigned* p, unsigned v) {
  return __nvvm_atom_and_gen_i((int*)p, (int)v);
}
NUMAGPU_DEVICE unsigned long long atomicAnd(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_and_gen_ll((long long*)p, (long long)v);
}
NUMAGPU_DEVICE int atomicOr(int* p, int v) {
  return __nvvm_atom_or_gen_i(p, v);
}
NUMAGPU_DEVICE unsigned atomicOr(unsigned* p, unsigned v) {
  return __nvvm_atom_or_gen_i((int*)p, (int)v);
}
NUMAGPU_DEVICE unsigned long long atomicOr(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_or_gen_ll((long long*)p, (long long)v);
}
NUMAGPU_DEVICE int atomicXor(int* p, int v) {
  return __nvvm_atom_xor_gen_i(p, v);
}
NUMAGPU_DEVICE unsigned atomicXor(unsigned* p, unsigned v) {
  return __nvvm_atom_xor_gen_i((int*)p, (int)v);
}
NUMAGPU_DEVICE unsigned long long atomicXor(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_xor_gen_ll((long long*)p, (long long)v);
}
// atom.inc / atom.dec: ((old >= limit) ? 0 : old + 1) and ((old == 0 || old > limit) ? limit : old - 1).
NUMAGPU_DEVICE unsigned atomicInc(unsigned* p, unsigned limit) {
  return __nvvm_atom_inc_gen_ui(p, limit);
}
NUMAGPU_DEVICE unsigned atomicDec(unsigned* p, unsigned limit) {
  return __nvvm_atom_dec_gen_ui(p, limit);
}

// ---- Warp functions ---------------------------------------------------------------------------------------
// Inline PTX rather than clang's __nvvm_shfl_sync_* / __nvvm_vote_*_sync builtins: clang 14 allows those
// only when it knows a CUDA installation of 9.0 or later (the ptx60 target feature), which without the
// toolkit it does not, although it emits PTX ISA 6.0 for sm_70 either way.
// shfl.sync's c operand: the segment mask ((32 - width) << 8) and the clamp (31 for idx/down/xor, 0 for up).
#define NUMAGPU_SHFL_C(width, clamp) (((32u - (unsigned)(width)) << 8) | (clamp))
#define NUMAGPU_SHFL32(name, mode, clamp, Arg)                                                            \
  NUMAGPU_DEVICE int name(unsigned mask, int v, Arg a, int width = 32) {                                  \
    int r;                                                                                                \
    __asm__ __volatile__("shfl.sync." mode ".b32 %0, %1, %2, %3, %4;"                                     \
                         : "=r"(r)                                                                        \
                         : "r"(v), "r"((int)a), "r"((int)NUMAGPU_SHFL_C(width, clamp)), "r"(mask));       \
    return r;                                                                                             \
  }                                                                                                       \
  NUMAGPU_DEVICE unsigned name(unsigned mask, unsigned v, Arg a, int width = 32) {                        \
    return (unsigned)name(mask, (int)v, a, width);                                                        \
  }                                                                                                       \
  NUMAGPU_DEVICE float name(unsigned mask, float v, Arg a, int width = 32) {                              \
    return __builtin_bit_cast(float, name(mask, __builtin_bit_cast(int, v), a, width));                   \
  }                                                                                                       \
  NUMAGPU_DEVICE long long name(unsigned mask, long long v, Arg a, int width = 32) {                      \
    int lo = name(mask, (int)v, a, width), hi = name(mask, (int)((unsigned long long)v >> 32), a, width); \
    return (long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo);                          \
  }                                                                                                       \
  NUMAGPU_DEVICE unsigned long long name(unsigned mask, unsigned long long v, Arg a, int width = 32) {    \
    return (unsigned long long)name(mask, (long long)v, a, width);                                        \
  }                                                                                                       \
  NUMAGPU_DEVICE double name(unsigned mask, double v, Arg a, int width = 32) {                            \
    return __builtin_bit_cast(double, name(mask, __builtin_bit_cast(long long, v), a, width));            \
  }
NUMAGPU_SHFL32(__shfl_sync, "idx", 0x1f, int)
NUMAGPU_SHFL32(__shfl_up_sync, "up", 0, unsigned)
NUMAGPU_SHFL32(__shfl_down_sync, "down", 0x1f, unsigned)
NUMAGPU_SHFL32(__shfl_xor_sync, "bfly", 0x1f, int)
#undef NUMAGPU_SHFL32
#undef NUMAGPU_SHFL_C

NUMAGPU_DEVICE unsigned __ballot_sync(unsigned mask, int predicate) {
  unsigned r;
  __asm__ __volatile__("{ .reg .pred p; setp.ne.s32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }"
                       : "=r"(r)
                       : "r"(predicate), "r"(mask));
  return r;
}
#define NUMAGPU_VOTE(name, mode)                                                    \
  NUMAGPU_DEVICE int name(unsigned mask, int predicate) {                           \
    int r;                                                                          \
    __asm__ __volatile__("{ .reg .pred p, q; setp.ne.s32 p, %1, 0; vote.sync." mode \
                         ".pred q, p, %2; "                                         \
                         "selp.s32 %0, 1, 0, q; }"                                  \
                         : "=r"(r)                                                  \
                         : "r"(predicate), "r"(mask));                              \
    return r;                                                                       \
  }
NUMAGPU_VOTE(__all_sync, "all")
NUMAGPU_VOTE(__any_sync, "any")
NUMAGPU_VOTE(__uni_sync, "uni")
#undef NUMAGPU_VOTE
NUMAGPU_DEVICE unsigned __activemask(void) {
  unsigned mask;
  __asm__ __volatile__("activemask.b32 %0;" : "=r"(mask));
  return mask;
}

// ---- Read-only loads (ld.global.nc) -----------------------------------------------------------------------
NUMAGPU_DEVICE char __ldg(const char* p) {
  return __nvvm_ldg_c(p);
}
NUMAGPU_DEVICE signed char __ldg(const signed char* p) {
  return (signed char)__nvvm_ldg_c((const char*)p);
}
NUMAGPU_DEVICE unsigned char __ldg(const unsigned char* p) {
  return __nvvm_ldg_uc(p);
}
NUMAGPU_DEVICE short __ldg(const short* p) {
  return __nvvm_ldg_s(p);
}
NUMAGPU_DEVICE unsigned short __ldg(const unsigned short* p) {
  return __nvvm_ldg_us(p);
}
NUMAGPU_DEVICE int __ldg(const int* p) {
  return __nvvm_ldg_i(p);
}
NUMAGPU_DEVICE unsigned __ldg(const unsigned* p) {
  return __nvvm_ldg_ui(p);
}
NUMAGPU_DEVICE long __ldg(const long* p) {
  return __nvvm_ldg_l(p);
}
NUMAGPU_DEVICE unsigned long __ldg(const unsigned long* p) {
  return __nvvm_ldg_ul(p);
}
NUMAGPU_DEVICE long long __ldg(const long long* p) {
  return __nvvm_ldg_ll(p);
}
NUMAGPU_DEVICE unsigned long long __ldg(const unsigned long long* p) {
  return __nvvm_ldg_ull(p);
}
NUMAGPU_DEVICE float __ldg(const float* p) {
  return __nvvm_ldg_f(p);
}
NUMAGPU_DEVICE double __ldg(const double* p) {
  return __nvvm_ldg_d(p);
}
NUMAGPU_DEVICE int2 __ldg(const int2* p) {
  typedef int v2 __attribute__((ext_vector_type(2)));
  v2 r = __nvvm_ldg_i2((const v2*)p);
  return make_int2(r[0], r[1]);
}
NUMAGPU_DEVICE int4 __ldg(const int4* p) {
  typedef int v4 __attribute__((ext_vector_type(4)));
  v4 r = __nvvm_ldg_i4((const v4*)p);
  return make_int4(r[0], r[1], r[2], r[3]);
}
NUMAGPU_DEVICE float2 __ldg(const float2* p) {
  typedef float v2 __attribute__((ext_vector_type(2)));
  v2 r = __nvvm_ldg_f2((const v2*)p);
  return make_float2(r[0], r[1]);
}
NUMAGPU_DEVICE float4 __ldg(const float4* p) {
  typedef float v4 __attribute__((ext_vector_type(4)));
  v4 r = __nvvm_ldg_f4((const v4*)p);
  return make_float4(r[0], r[1], r[2], r[3]);
}

// ---- Integer intrinsics -----------------------------------------------------------------------------------
NUMAGPU_DEVICE int __popc(unsigned x) {
  return __builtin_popcount(x);
}
NUMAGPU_DEVICE int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
NUMAGPU_DEVICE int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz((unsigned)x);
}  // clz.b32
NUMAGPU_DEVICE int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
NUMAGPU_DEVICE int __ffs(int x) {
  return x == 0 ? 0 : __builtin_ctz((unsigned)x) + 1;
}
NUMAGPU_DEVICE int __ffsll(long long x) {
  return x == 0 ? 0 : __builtin_ctzll((unsigned long long)x) + 1;
}
NUMAGPU_DEVICE unsigned __brev(unsigned x) {
  return __builtin_bitreverse32(x);
}
NUMAGPU_DEVICE unsigned long long __brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
NUMAGPU_DEVICE int __mul24(int a, int b) {
  return __nvvm_mul24_i(a, b);
}
NUMAGPU_DEVICE unsigned __umul24(unsigned a, unsigned b) {
  return __nvvm_mul24_ui(a, b);
}
NUMAGPU_DEVICE int __mulhi(int a, int b) {
  return __nvvm_mulhi_i(a, b);
}
NUMAGPU_DEVICE unsigned __umulhi(unsigned a, unsigned b) {
  return __nvvm_mulhi_ui(a, b);
}
NUMAGPU_DEVICE long long __mul64hi(long long a, long long b) {
  return __nvvm_mulhi_ll(a, b);
}
NUMAGPU_DEVICE unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return __nvvm_mulhi_ull(a, b);
}
NUMAGPU_DEVICE int __sad(int a, int b, unsigned c) {
  return (a > b ? a - b : b - a) + (int)c;
}
NUMAGPU_DEVICE unsigned __usad(unsigned a, unsigned b, unsigned c) {
  return (a > b ? a - b : b - a) + c;
}

// ---- Type conversions and reinterpretations ---------------------------------------------------------------
NUMAGPU_DEVICE int __float_as_int(float x) {
  return __builtin_bit_cast(int, x);
}
NUMAGPU_DEVICE unsigned __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned, x);
}
NUMAGPU_DEVICE float __int_as_float(int x) {
  return __builtin_bit_cast(float, x);
}
NUMAGPU_DEVICE float __uint_as_float(unsigned x) {
  return __builtin_bit_cast(float, x);
}
NUMAGPU_DEVICE long long __double_as_longlong(double x) {
  return __builtin_bit_cast(long long, x);
}
NUMAGPU_DEVICE double __longlong_as_double(long long x) {
  return __builtin_bit_cast(double, x);
}
NUMAGPU_DEVICE int __double2hiint(double x) {
  return (int)(__builtin_bit_cast(unsigned long long, x) >> 32);
}
NUMAGPU_DEVICE int __double2loint(double x) {
  return (int)__builtin_bit_cast(unsigned long long, x);
}
NUMAGPU_DEVICE double __hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(double, ((unsigned long long)(unsigned)hi << 32) | (unsigned)lo);
}
NUMAGPU_DEVICE int __float2int_rn(float x) {
  return __nvvm_f2i_rn(x);
}
NUMAGPU_DEVICE int __float2int_rz(float x) {
  return __nvvm_f2i_rz(x);
}
NUMAGPU_DEVICE int __float2int_rd(float x) {
  return __nvvm_f2i_rm(x);
}
NUMAGPU_DEVICE int __float2int_ru(float x) {
  return __nvvm_f2i_rp(x);
}
NUMAGPU_DEVICE unsigned __float2uint_rn(float x) {
  return __nvvm_f2ui_rn(x);
}
NUMAGPU_DEVICE unsigned __float2uint_rz(float x) {
  return __nvvm_f2ui_rz(x);
}
NUMAGPU_DEVICE float __int2float_rn(int x) {
  return __nvvm_i2f_rn(x);
}
NUMAGPU_DEVICE float __uint2float_rn(unsigned x) {
  return __nvvm_ui2f_rn(x);
}
NUMAGPU_DEVICE int __double2int_rn(double x) {
  return __nvvm_d2i_rn(x);
}
NUMAGPU_DEVICE float __double2float_rn(double x) {
  return __nvvm_d2f_rn(x);
}

#include "numagpu_device_math.h"

#undef NUMAGPU_DEVICE
#undef NUMAGPU_HOST_DEVICE
#endif  // NUMAGPU_DEVICE_FUNCTIONS_H
