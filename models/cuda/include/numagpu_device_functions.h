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

// ---- Math
// --------------------------------------------------------------------------------------------------- Device
// overloads of the C library's functions (the host's own stay as <math.h> declares them); clang picks these
// in device code. "Exact": correctly rounded, as the IEEE operation. Bounds for the approximate instructions
// are the PTX ISA's (sin/cos.approx: absolute error 2^-20.9 in [-pi, pi]; ex2.approx: relative 2^-22.5 ~ 2
// ulp; lg2.approx: absolute 2^-22.6 ~ for the mantissa; rsqrt.approx: relative 2^-22.9). Double-precision
// transcendental functions (exp, log, pow, sin, cos) are computed in double from the single-precision
// approximations plus correction steps where stated, not to double's full precision.

// Exact: sqrt.rn, abs, min/max (NaN-ignoring as C's fmin/fmax), cvt.rmi/rpi/rzi/rni, fma.rn, copysign.
NUMAGPU_DEVICE float sqrtf(float x) {
  return __nvvm_sqrt_rn_f(x);
}
NUMAGPU_DEVICE double sqrt(double x) {
  return __nvvm_sqrt_rn_d(x);
}
NUMAGPU_DEVICE float fabsf(float x) {
  return __builtin_fabsf(x);
}
NUMAGPU_DEVICE double fabs(double x) {
  return __builtin_fabs(x);
}
NUMAGPU_DEVICE float fminf(float a, float b) {
  return __nvvm_fmin_f(a, b);
}
NUMAGPU_DEVICE float fmaxf(float a, float b) {
  return __nvvm_fmax_f(a, b);
}
NUMAGPU_DEVICE double fmin(double a, double b) {
  return __nvvm_fmin_d(a, b);
}
NUMAGPU_DEVICE double fmax(double a, double b) {
  return __nvvm_fmax_d(a, b);
}
NUMAGPU_DEVICE float floorf(float x) {
  return __builtin_floorf(x);
}
NUMAGPU_DEVICE float ceilf(float x) {
  return __builtin_ceilf(x);
}
NUMAGPU_DEVICE float truncf(float x) {
  return __builtin_truncf(x);
}
NUMAGPU_DEVICE float rintf(float x) {
  return __builtin_rintf(x);
}
NUMAGPU_DEVICE float nearbyintf(float x) {
  return __builtin_rintf(x);
}
NUMAGPU_DEVICE double floor(double x) {
  return __builtin_floor(x);
}
NUMAGPU_DEVICE double ceil(double x) {
  return __builtin_ceil(x);
}
NUMAGPU_DEVICE double trunc(double x) {
  return __builtin_trunc(x);
}
NUMAGPU_DEVICE double rint(double x) {
  return __builtin_rint(x);
}
// round: half away from zero (C's), from trunc: exact.
NUMAGPU_DEVICE float roundf(float x) {
  float t = __builtin_truncf(x);
  return __builtin_fabsf(x - t) >= 0.5f ? t + __builtin_copysignf(1.0f, x) : t;
}
NUMAGPU_DEVICE double round(double x) {
  double t = __builtin_trunc(x);
  return __builtin_fabs(x - t) >= 0.5 ? t + __builtin_copysign(1.0, x) : t;
}
NUMAGPU_DEVICE long lroundf(float x) {
  return (long)roundf(x);
}
NUMAGPU_DEVICE float fmaf(float a, float b, float c) {
  return __nvvm_fma_rn_f(a, b, c);
}
NUMAGPU_DEVICE double fma(double a, double b, double c) {
  return __nvvm_fma_rn_d(a, b, c);
}
NUMAGPU_DEVICE float copysignf(float a, float b) {
  return __builtin_copysignf(a, b);
}
NUMAGPU_DEVICE double copysign(double a, double b) {
  return __builtin_copysign(a, b);
}
NUMAGPU_DEVICE float fdimf(float a, float b) {
  return a > b ? a - b : 0.0f;
}
NUMAGPU_DEVICE int __isnanf(float x) {
  return x != x;
}
NUMAGPU_DEVICE int __isinff(float x) {
  return __builtin_fabsf(x) == __builtin_inff();
}

// fmod: exact (binary long division: every subtraction is exact by Sterbenz's lemma), NaN for y == 0 or
// infinite x, as C's. Loops once per binary digit of the quotient (at most 277 for float).
template <class F>
NUMAGPU_DEVICE F numagpu_fmod(F x, F y) {
  F ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  if (!(ay > F(0)) || ax != ax || ax == F(__builtin_inf()) || ay != ay) return (x * y) / (x * y);
  if (ax < ay) return x;
  F t = ay;
  while (ax - t >= t)
    t = t + t;  // the largest ay * 2^k not above ax
  for (;;) {
    if (ax >= t) ax = ax - t;
    if (t == ay) break;
    t = t * F(0.5);
  }
  return __builtin_copysign(ax, x);
}
NUMAGPU_DEVICE float fmodf(float x, float y) {
  return numagpu_fmod<float>(x, y);
}
NUMAGPU_DEVICE double fmod(double x, double y) {
  return numagpu_fmod<double>(x, y);
}

// Division and reciprocal square root.
NUMAGPU_DEVICE float __fdividef(float a, float b) {
  return __nvvm_div_approx_f(a, b);
}  // div.approx: 2 ulp
NUMAGPU_DEVICE float fdividef(float a, float b) {
  return __nvvm_div_approx_f(a, b);
}
NUMAGPU_DEVICE float __frcp_rn(float x) {
  return __nvvm_rcp_rn_f(x);
}  // exact
NUMAGPU_DEVICE float __fsqrt_rn(float x) {
  return __nvvm_sqrt_rn_f(x);
}  // exact
NUMAGPU_DEVICE float __saturatef(float x) {
  return __nvvm_saturate_f(x);
}  // exact: clamp to [0, 1]
NUMAGPU_DEVICE float rsqrtf(float x) {
  return __nvvm_rsqrt_approx_f(x);
}  // 2^-22.9 relative (~1 ulp)
NUMAGPU_DEVICE double rsqrt(double x) {
  return 1.0 / __nvvm_sqrt_rn_d(x);
}  // 1 ulp (two roundings)
NUMAGPU_DEVICE float __fadd_rn(float a, float b) {
  return __nvvm_add_rn_f(a, b);
}
NUMAGPU_DEVICE float __fmul_rn(float a, float b) {
  return __nvvm_mul_rn_f(a, b);
}
NUMAGPU_DEVICE float __fmaf_rn(float a, float b, float c) {
  return __nvvm_fma_rn_f(a, b, c);
}
NUMAGPU_DEVICE float __fdiv_rn(float a, float b) {
  return __nvvm_div_rn_f(a, b);
}
NUMAGPU_DEVICE double __dadd_rn(double a, double b) {
  return __nvvm_add_rn_d(a, b);
}
NUMAGPU_DEVICE double __dmul_rn(double a, double b) {
  return __nvvm_mul_rn_d(a, b);
}

// Exponentials and logarithms. The fast intrinsics are CUDA's own definitions (ex2.approx of x * log2(e),
// lg2.approx times ln 2); the C functions add a correction of the argument's rounding.
NUMAGPU_DEVICE float exp2f(float x) {
  return __nvvm_ex2_approx_f(x);
}  // 2^-22.5 relative: 2 ulp
NUMAGPU_DEVICE float __expf(float x) {  // 2 + 1.16 * |x| ulp (the rounding of x * log2(e) is scaled by x)
  return __nvvm_ex2_approx_f(x * 1.4426950408889634f);
}
// expf: x * log2(e) split into the rounded product t and its rounding error e (an fma), then
// 2^t * (1 + e * ln 2): about 3 ulp over the whole range.
NUMAGPU_DEVICE float expf(float x) {
  const float log2e = 1.4426950408889634f, log2e_low = 1.925963033e-8f;
  float t = x * log2e;
  float e = __nvvm_fma_rn_f(x, log2e, -t) + x * log2e_low;
  float p = __nvvm_ex2_approx_f(t);
  return __nvvm_fma_rn_f(p, e * 0.6931471805599453f, p);
}
NUMAGPU_DEVICE float exp10f(float x) {
  return expf(x * 2.302585092994046f);
}  // ~3 + 2.3 * |x| ulp
NUMAGPU_DEVICE float __exp10f(float x) {
  return __nvvm_ex2_approx_f(x * 3.321928094887362f);
}
NUMAGPU_DEVICE float expm1f(float x) {  // 3 ulp for |x| >= 0.1; below, a Taylor series (error < 1 ulp)
  if (__builtin_fabsf(x) < 0.1f)
    return x * (1.0f + x * (0.5f + x * (1.0f / 6 + x * (1.0f / 24 + x * (1.0f / 120)))));
  return expf(x) - 1.0f;
}
NUMAGPU_DEVICE float log2f(float x) {
  return __nvvm_lg2_approx_f(x);
}  // absolute 2^-22.6
NUMAGPU_DEVICE float __log2f(float x) {
  return __nvvm_lg2_approx_f(x);
}
NUMAGPU_DEVICE float __logf(float x) {
  return __nvvm_lg2_approx_f(x) * 0.6931471805599453f;
}  // abs. 2^-21.4
NUMAGPU_DEVICE float logf(float x) {
  return __nvvm_lg2_approx_f(x) * 0.6931471805599453f;
}  // abs. 2^-21.4
NUMAGPU_DEVICE float __log10f(float x) {
  return __nvvm_lg2_approx_f(x) * 0.30102999566398120f;
}
NUMAGPU_DEVICE float log10f(float x) {
  return __nvvm_lg2_approx_f(x) * 0.30102999566398120f;
}  // abs. 2^-22.3
NUMAGPU_DEVICE float log1pf(float x) {  // below |x| = 0.01 a series (< 1 ulp), above as logf
  if (__builtin_fabsf(x) < 0.01f) return x * (1.0f - x * (0.5f - x * (1.0f / 3 - x * 0.25f)));
  return logf(1.0f + x);
}
// powf: 2^(y * log2|x|); relative error about 2 ulp + |y * log2(x)| * 2^-22 (lg2.approx's absolute error
// scaled by y). C's special cases: x^0 = 1, negative x with an integer y keeps the sign of odd y, negative
// x with a non-integer y is NaN, 0^y is 0 (y > 0) or infinity (y < 0).
NUMAGPU_DEVICE float powf(float x, float y) {
  if (y == 0.0f || x == 1.0f) return 1.0f;
  if (x != x || y != y) return x + y;
  float ax = __builtin_fabsf(x);
  bool integer_y = __builtin_truncf(y) == y;
  bool odd_y = integer_y && __builtin_fabsf(y) < 16777216.0f && (((long long)y) & 1);
  if (x < 0.0f && !integer_y) return __builtin_nanf("");
  float r;
  if (ax == 0.0f)
    r = y > 0.0f ? 0.0f : __builtin_inff();
  else
    r = __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(ax));
  return (x < 0.0f && odd_y) ? -r : r;
}
NUMAGPU_DEVICE float __powf(float x, float y) {
  return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x));
}

// x * 2^k without libm's ldexp (a library call on the device): two exact multiplications by powers of two
// built from their bits (each factor stays a normal number for |k| <= 2044).
NUMAGPU_DEVICE double numagpu_pow2(int n) {
  return __builtin_bit_cast(double, (unsigned long long)(n + 1023) << 52);
}
NUMAGPU_DEVICE double numagpu_ldexp(double x, int k) {
  int half = k / 2;
  return x * numagpu_pow2(half) * numagpu_pow2(k - half);
}
NUMAGPU_DEVICE double ldexp(double x, int k) {
  return numagpu_ldexp(x, k);
}
NUMAGPU_DEVICE float ldexpf(float x, int k) {
  return (float)numagpu_ldexp(x, k);
}

// Double precision: computed in double around the float approximations with one Newton (log) or
// correction (exp) step: about 2^-40 relative over the usual range (not double's 2^-53; docs/cuda.md).
NUMAGPU_DEVICE double log(double x) {
  if (!(x > 0.0) || x == __builtin_inf())
    return x == 0.0 ? -__builtin_inf() : (x > 0.0 ? x : __builtin_nan(""));
  double y = (double)__nvvm_lg2_approx_f((float)x) * 0.69314718055994531;
  // Newton on exp(y) = x, twice: y += x * exp(-y) - 1 (exp below is accurate to ~2^-44 near y).
  for (int i = 0; i < 2; ++i) {
    // exp(-y) by scaling: -y = k ln2 + r with |r| <= ln2 / 2, exp(r) by a degree-11 Taylor series.
    double k = __builtin_rint(-y * 1.4426950408889634);
    double r = -y - k * 0.69314718055994531;
    double e =
        1.0 +
        r * (1.0 +
             r * (0.5 +
                  r * (1.0 / 6 +
                       r * (1.0 / 24 +
                            r * (1.0 / 120 +
                                 r * (1.0 / 720 +
                                      r * (1.0 / 5040 +
                                           r * (1.0 / 40320 + r * (1.0 / 362880 + r * (1.0 / 3628800 +
                                                                                       r / 39916800))))))))));
    y += x * numagpu_ldexp(e, (int)k) - 1.0;
  }
  return y;
}
NUMAGPU_DEVICE double exp(double x) {
  if (x != x) return x;
  if (x > 709.8) return __builtin_inf();
  if (x < -745.2) return 0.0;
  // x = k ln2 + r, |r| <= ln2 / 2, with ln 2 in two parts so r is nearly exact; exp(r) by Taylor to r^12:
  // relative error ~2^-52.
  double k = __builtin_rint(x * 1.4426950408889634);
  double r = (x - k * 0.693147180369123816490) - k * 1.90821492927058770002e-10;
  double e =
      1.0 +
      r * (1.0 +
           r * (0.5 + r * (1.0 / 6 +
                           r * (1.0 / 24 +
                                r * (1.0 / 120 +
                                     r * (1.0 / 720 +
                                          r * (1.0 / 5040 +
                                               r * (1.0 / 40320 +
                                                    r * (1.0 / 362880 +
                                                         r * (1.0 / 3628800 +
                                                              r * (1.0 / 39916800 + r / 479001600)))))))))));
  return numagpu_ldexp(e, (int)k);
}
NUMAGPU_DEVICE double log2(double x) {
  return log(x) * 1.4426950408889634;
}
NUMAGPU_DEVICE double log10(double x) {
  return log(x) * 0.43429448190325183;
}
NUMAGPU_DEVICE double exp2(double x) {
  return exp(x * 0.69314718055994531);
}
NUMAGPU_DEVICE double pow(double x, double y) {  // exp(y log|x|): relative error ~ |y log x| * 2^-52 + log's
  if (y == 0.0 || x == 1.0) return 1.0;
  if (x != x || y != y) return x + y;
  double ax = __builtin_fabs(x);
  bool integer_y = __builtin_trunc(y) == y;
  bool odd_y = integer_y && __builtin_fabs(y) < 9007199254740992.0 && (((long long)y) & 1);
  if (x < 0.0 && !integer_y) return __builtin_nan("");
  double r = ax == 0.0 ? (y > 0.0 ? 0.0 : __builtin_inf()) : exp(y * log(ax));
  return (x < 0.0 && odd_y) ? -r : r;
}

// Trigonometry. The fast intrinsics are sin/cos.approx (absolute 2^-20.9 in [-pi, pi], worse outside:
// CUDA's own definition). The C functions first reduce x by 2 pi (in three parts, so the reduction is
// nearly exact for |x| < 10^5): absolute error about 2^-20.5 there.
NUMAGPU_DEVICE float __sinf(float x) {
  return __nvvm_sin_approx_f(x);
}
NUMAGPU_DEVICE float __cosf(float x) {
  return __nvvm_cos_approx_f(x);
}
NUMAGPU_DEVICE float __tanf(float x) {
  return __nvvm_sin_approx_f(x) / __nvvm_cos_approx_f(x);
}
NUMAGPU_DEVICE float numagpu_reduce_2pi(float x) {
  float k = __builtin_rintf(x * 0.15915494309189535f);
  float r = __nvvm_fma_rn_f(-k, 6.28125f, x);
  r = __nvvm_fma_rn_f(-k, 1.9353071795864769e-3f, r);
  return __nvvm_fma_rn_f(-k, 7.8202e-12f, r);
}
NUMAGPU_DEVICE float sinf(float x) {
  return __nvvm_sin_approx_f(numagpu_reduce_2pi(x));
}
NUMAGPU_DEVICE float cosf(float x) {
  return __nvvm_cos_approx_f(numagpu_reduce_2pi(x));
}
NUMAGPU_DEVICE float tanf(float x) {  // relative error grows near the poles (the ratio of two absolute ones)
  float r = numagpu_reduce_2pi(x);
  return __nvvm_sin_approx_f(r) / __nvvm_cos_approx_f(r);
}
NUMAGPU_DEVICE void sincosf(float x, float* s, float* c) {
  float r = numagpu_reduce_2pi(x);
  *s = __nvvm_sin_approx_f(r);
  *c = __nvvm_cos_approx_f(r);
}
NUMAGPU_DEVICE void __sincosf(float x, float* s, float* c) {
  *s = __nvvm_sin_approx_f(x);
  *c = __nvvm_cos_approx_f(x);
}
// Double sin/cos: reduced by pi/2 (Cody-Waite, three parts: nearly exact for |x| < 10^6), then Taylor
// series of degree 17 on |r| <= pi/4: ~2^-50 relative.
NUMAGPU_DEVICE double numagpu_sin_poly(double r) {
  double r2 = r * r;
  return r * (1.0 -
              r2 / 6 *
                  (1.0 -
                   r2 / 20 *
                       (1.0 -
                        r2 / 42 *
                            (1.0 - r2 / 72 *
                                       (1.0 - r2 / 110 *
                                                  (1.0 - r2 / 156 * (1.0 - r2 / 210 * (1.0 - r2 / 272))))))));
}
NUMAGPU_DEVICE double numagpu_cos_poly(double r) {
  double r2 = r * r;
  return 1.0 -
         r2 / 2 *
             (1.0 -
              r2 / 12 *
                  (1.0 -
                   r2 / 30 *
                       (1.0 -
                        r2 / 56 * (1.0 - r2 / 90 * (1.0 - r2 / 132 * (1.0 - r2 / 182 * (1.0 - r2 / 240)))))));
}
NUMAGPU_DEVICE double numagpu_sincos_quadrant(double x, int* quadrant) {
  double k = __builtin_rint(x * 0.63661977236758134);
  *quadrant = (int)((long long)k & 3);
  double r = x - k * 1.5707963267341256;
  r -= k * 6.0771005065061922e-11;
  return r - k * 2.0222662487959506e-21;
}
NUMAGPU_DEVICE double sin(double x) {
  int q;
  double r = numagpu_sincos_quadrant(x, &q);
  double v = (q & 1) ? numagpu_cos_poly(r) : numagpu_sin_poly(r);
  return (q & 2) ? -v : v;
}
NUMAGPU_DEVICE double cos(double x) {
  int q;
  double r = numagpu_sincos_quadrant(x, &q);
  double v = (q & 1) ? numagpu_sin_poly(r) : numagpu_cos_poly(r);
  return ((q + 1) & 2) ? -v : v;
}
NUMAGPU_DEVICE double tan(double x) {
  return sin(x) / cos(x);
}

// Hyperbolic and error functions (float): from expf, so ~3 ulp away from zero; near zero, where
// 1 - 2 / (e^(2x) + 1) cancels, tanhf uses its Taylor series below |x| = 0.125 (< 1 ulp) and stays within
// ~6 ulp between 0.125 and 0.5 (the cancellation loses under 3 bits there).
NUMAGPU_DEVICE float tanhf(float x) {
  float a = __builtin_fabsf(x);
  if (a < 0.125f) {
    float x2 = x * x;
    return x * (1.0f - x2 * (1.0f / 3 - x2 * (2.0f / 15 - x2 * (17.0f / 315))));
  }
  if (a > 9.0f) return __builtin_copysignf(1.0f, x);
  return __builtin_copysignf(1.0f - 2.0f / (expf(2.0f * a) + 1.0f), x);
}
NUMAGPU_DEVICE float sinhf(float x) {
  return 0.5f * (expf(x) - expf(-x));
}  // ~3 ulp for |x| > 0.5
NUMAGPU_DEVICE float coshf(float x) {
  return 0.5f * (expf(x) + expf(-x));
}  // ~3 ulp
// erff: below |x| = 0.5 its Taylor series (relative < 2^-24); above, Abramowitz and Stegun 7.1.26
// (absolute 1.5e-7, ~2 ulp near 1).
NUMAGPU_DEVICE float erff(float x) {
  float a = __builtin_fabsf(x);
  if (a < 0.5f) {
    float x2 = x * x;
    return 1.1283791670955126f * x *
           (1.0f - x2 * (1.0f / 3 - x2 * (1.0f / 10 - x2 * (1.0f / 42 - x2 * (1.0f / 216 - x2 / 1320)))));
  }
  float t = 1.0f / (1.0f + 0.3275911f * a);
  float p =
      t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
  return __builtin_copysignf(1.0f - p * expf(-a * a), x);
}
// Inverse trigonometric (float): polynomial of atan on [0, 1] (absolute 1e-5 ... use atan2f's in
// applications that need more); asin/acos through atan2f and sqrtf.
NUMAGPU_DEVICE float atanf(float x) {
  float a = __builtin_fabsf(x);
  bool invert = a > 1.0f;
  float z = invert ? 1.0f / a : a;
  // atan(z) for z in [0, 1]: reduce by atan(z) = pi/6 + atan((z - 1/sqrt3) / (1 + z / sqrt3)) above
  // 2 - sqrt3, then an odd series to z^11 on |z| <= 0.268: absolute error < 2^-26.
  bool shifted = z > 0.2679491924311227f;
  if (shifted) z = (z * 1.7320508075688772f - 1.0f) / (z + 1.7320508075688772f);
  float z2 = z * z;
  float r = z * (1.0f - z2 * (1.0f / 3 - z2 * (1.0f / 5 - z2 * (1.0f / 7 - z2 * (1.0f / 9 - z2 / 11)))));
  if (shifted) r += 0.5235987755982988f;
  if (invert) r = 1.5707963267948966f - r;
  return __builtin_copysignf(r, x);
}
NUMAGPU_DEVICE float atan2f(float y, float x) {
  if (x == 0.0f && y == 0.0f)
    return __builtin_copysignf(__builtin_signbit(x) ? 3.1415926535897932f : 0.0f, y);
  float r = __builtin_fabsf(x) >= __builtin_fabsf(y)
                ? atanf(y / x)
                : __builtin_copysignf(1.5707963267948966f, y) - atanf(x / y);
  if (x < 0.0f && __builtin_fabsf(x) >= __builtin_fabsf(y)) r += __builtin_copysignf(3.1415926535897932f, y);
  return r;
}
NUMAGPU_DEVICE float asinf(float x) {
  return atan2f(x, __nvvm_sqrt_rn_f((1.0f - x) * (1.0f + x)));
}
NUMAGPU_DEVICE float acosf(float x) {
  return atan2f(__nvvm_sqrt_rn_f((1.0f - x) * (1.0f + x)), x);
}
NUMAGPU_DEVICE float hypotf(float a, float b) {  // exact-input sqrt in double: < 1 ulp, no overflow
  double da = a, db = b;
  return (float)__nvvm_sqrt_rn_d(da * da + db * db);
}
NUMAGPU_DEVICE float cbrtf(float x) {  // 2^(log2|x| / 3) and one Newton step: ~1 ulp
  if (x == 0.0f || x != x) return x;
  float a = __builtin_fabsf(x);
  float r = __nvvm_ex2_approx_f(__nvvm_lg2_approx_f(a) * (1.0f / 3));
  r = r - (r * r * r - a) / (3.0f * r * r);
  return __builtin_copysignf(r, x);
}

// The float overloads C++'s <cmath> adds for the C names (sqrt(float) ...), and CUDA's min/max for every
// arithmetic type (host and device, as CUDA declares them).
NUMAGPU_DEVICE float sqrt(float x) {
  return sqrtf(x);
}
NUMAGPU_DEVICE float fabs(float x) {
  return fabsf(x);
}
NUMAGPU_DEVICE float exp(float x) {
  return expf(x);
}
NUMAGPU_DEVICE float log(float x) {
  return logf(x);
}
NUMAGPU_DEVICE float pow(float x, float y) {
  return powf(x, y);
}
NUMAGPU_DEVICE float sin(float x) {
  return sinf(x);
}
NUMAGPU_DEVICE float cos(float x) {
  return cosf(x);
}
NUMAGPU_DEVICE float floor(float x) {
  return floorf(x);
}
NUMAGPU_DEVICE float ceil(float x) {
  return ceilf(x);
}
NUMAGPU_DEVICE float fmin(float a, float b) {
  return fminf(a, b);
}
NUMAGPU_DEVICE float fmax(float a, float b) {
  return fmaxf(a, b);
}
NUMAGPU_DEVICE float tanh(float x) {
  return tanhf(x);
}
NUMAGPU_DEVICE int abs(int x) {
  return x < 0 ? -x : x;
}
NUMAGPU_DEVICE long long llabs(long long x) {
  return x < 0 ? -x : x;
}

NUMAGPU_HOST_DEVICE int min(int a, int b) {
  return a < b ? a : b;
}
NUMAGPU_HOST_DEVICE unsigned min(unsigned a, unsigned b) {
  return a < b ? a : b;
}
NUMAGPU_HOST_DEVICE long long min(long long a, long long b) {
  return a < b ? a : b;
}
NUMAGPU_HOST_DEVICE unsigned long long min(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
NUMAGPU_HOST_DEVICE float min(float a, float b) {
  return a < b ? a : b;
}
NUMAGPU_HOST_DEVICE double min(double a, double b) {
  return a < b ? a : b;
}
NUMAGPU_HOST_DEVICE int max(int a, int b) {
  return a > b ? a : b;
}
NUMAGPU_HOST_DEVICE unsigned max(unsigned a, unsigned b) {
  return a > b ? a : b;
}
NUMAGPU_HOST_DEVICE long long max(long long a, long long b) {
  return a > b ? a : b;
}
NUMAGPU_HOST_DEVICE unsigned long long max(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}
NUMAGPU_HOST_DEVICE float max(float a, float b) {
  return a > b ? a : b;
}
NUMAGPU_HOST_DEVICE double max(double a, double b) {
  return a > b ? a : b;
}

#undef NUMAGPU_DEVICE
#undef NUMAGPU_HOST_DEVICE
#endif  // NUMAGPU_DEVICE_FUNCTIONS_H
