// numagpu's device math: the C library's float and double functions for CUDA device code without
// libdevice (docs/cuda.md, "Math accuracy"). Included by numagpu_device_functions.h, which defines
// NUMAGPU_DEVICE (static __device__ __forceinline__) and NUMAGPU_HOST_DEVICE.
//
// Why a file of its own: it is the one part of the header that is plain arithmetic over a few instruction
// builtins (__nvvm_sqrt_rn_f, __nvvm_ex2_approx_f, ...), so tests/cuda/device_math_test.cpp compiles it on
// the host inside a namespace, with exact stand-ins for those builtins, and measures each function's own
// error (the argument reductions, series and corrections); the approximate instructions' errors (the PTX
// ISA's bounds) add to it.
#ifndef NUMAGPU_DEVICE_MATH_H
#define NUMAGPU_DEVICE_MATH_H

// Device overloads of the C library's functions (the host's own stay as <math.h> declares them); clang
// picks these in device code. "Exact": correctly rounded, as the IEEE operation. The approximate
// instructions' bounds are the PTX ISA's: sin/cos.approx absolute 2^-20.9 in [-pi, pi]; ex2.approx relative
// 2^-22.5 (about 2 ulp); lg2.approx absolute 2^-22.6; rsqrt.approx relative 2^-22.9. docs/cuda.md has the
// table with the measured errors of what is built on them.

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
// expm1f: below |x| = 0.5 its Taylor series to x^10 (under 1 ulp); above, expf(x) - 1, whose cancellation
// costs at most a factor 2.5 there (measured: 2.6 ulp over [-1, 1] with an exact ex2).
NUMAGPU_DEVICE float expm1f(float x) {
  if (__builtin_fabsf(x) < 0.5f)
    return x *
           (1.0f +
            x * (1.0f / 2 +
                 x * (1.0f / 6 +
                      x * (1.0f / 24 +
                           x * (1.0f / 120 +
                                x * (1.0f / 720 + x * (1.0f / 5040 +
                                                       x * (1.0f / 40320 + x * (1.0f / 362880 +
                                                                                x * (1.0f / 3628800))))))))));
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

// Double precision, without the toolkit's libdevice: exp by a Cody-Waite reduction and a degree-12 Taylor
// series, log by two Newton steps on exp from lg2.approx's estimate, pow as exp(y log|x|) (measured
// relative errors: exp 5e-16, log 2e-15, pow 1.5e-14 for |y log x| <= 10; tests/cuda/device_math_test.cpp).
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
// powf: computed in double (exp(y log|x|) of the double functions above, then rounded): under 1 ulp where
// the result is a normal float (measured 0.5 ulp plus double's error); C's special cases as pow's.
NUMAGPU_DEVICE float powf(float x, float y) {
  return (float)pow((double)x, (double)y);
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
// 8 ulp between 0.125 and 0.5 (the cancellation loses 3 bits there; measured 7.9 ulp with an exact ex2).
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
// (absolute 1.5e-7; measured 3.2e-7 with expf's rounding, about 3 ulp near 1).
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
// Inverse trigonometric (float): atan by a reduction to |z| <= 2 - sqrt(3) and an odd series (measured
// absolute error 1.5e-7, atan2f 2.8e-7); asin/acos through atan2f and sqrtf.
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
#define NUMAGPU_FLOAT_OVERLOAD(name)   \
  NUMAGPU_DEVICE float name(float x) { \
    return name##f(x);                 \
  }
#define NUMAGPU_FLOAT_OVERLOAD2(name)           \
  NUMAGPU_DEVICE float name(float x, float y) { \
    return name##f(x, y);                       \
  }
NUMAGPU_FLOAT_OVERLOAD(sqrt)
NUMAGPU_FLOAT_OVERLOAD(fabs)
NUMAGPU_FLOAT_OVERLOAD(exp)
NUMAGPU_FLOAT_OVERLOAD(log)
NUMAGPU_FLOAT_OVERLOAD(sin)
NUMAGPU_FLOAT_OVERLOAD(cos)
NUMAGPU_FLOAT_OVERLOAD(floor)
NUMAGPU_FLOAT_OVERLOAD(ceil)
NUMAGPU_FLOAT_OVERLOAD(tanh)
NUMAGPU_FLOAT_OVERLOAD2(pow)
NUMAGPU_FLOAT_OVERLOAD2(fmin)
NUMAGPU_FLOAT_OVERLOAD2(fmax)
#undef NUMAGPU_FLOAT_OVERLOAD
#undef NUMAGPU_FLOAT_OVERLOAD2
NUMAGPU_DEVICE int abs(int x) {
  return x < 0 ? -x : x;
}
NUMAGPU_DEVICE long long llabs(long long x) {
  return x < 0 ? -x : x;
}

#define NUMAGPU_MIN_MAX(T)              \
  NUMAGPU_HOST_DEVICE T min(T a, T b) { \
    return a < b ? a : b;               \
  }                                     \
  NUMAGPU_HOST_DEVICE T max(T a, T b) { \
    return a > b ? a : b;               \
  }
NUMAGPU_MIN_MAX(int)
NUMAGPU_MIN_MAX(unsigned)
NUMAGPU_MIN_MAX(long long)
NUMAGPU_MIN_MAX(unsigned long long)
NUMAGPU_MIN_MAX(float)
NUMAGPU_MIN_MAX(double)
#undef NUMAGPU_MIN_MAX

#endif  // NUMAGPU_DEVICE_MATH_H
