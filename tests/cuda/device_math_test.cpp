// The device math of numagpu's CUDA header (models/cuda/include/numagpu_device_math.h), compiled on the host
// inside a namespace with exact stand-ins for the NVVM instruction builtins it builds on (libm's float
// functions for ex2/lg2/sin/cos.approx, exact arithmetic for the rest). What is measured is each function's
// own error: its argument reduction, series, corrections and special cases; on the GPU (or the PTX
// executor) the approximate instruction's own bound adds to it (docs/cuda.md, "Math accuracy", quotes the
// numbers this test prints and enforces).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

namespace device_math {
// The instructions, exactly (or as libm rounds them): sqrt.rn, fma.rn, min/max and the rest are exact on
// the GPU; the .approx ones are replaced by libm so that only the header's own error remains.
inline float __nvvm_sqrt_rn_f(float x) {
  return std::sqrt(x);
}
inline double __nvvm_sqrt_rn_d(double x) {
  return std::sqrt(x);
}
inline float __nvvm_fmin_f(float a, float b) {
  return std::fmin(a, b);
}
inline float __nvvm_fmax_f(float a, float b) {
  return std::fmax(a, b);
}
inline double __nvvm_fmin_d(double a, double b) {
  return std::fmin(a, b);
}
inline double __nvvm_fmax_d(double a, double b) {
  return std::fmax(a, b);
}
inline float __nvvm_fma_rn_f(float a, float b, float c) {
  return std::fma(a, b, c);
}
inline double __nvvm_fma_rn_d(double a, double b, double c) {
  return std::fma(a, b, c);
}
inline float __nvvm_div_approx_f(float a, float b) {
  return a / b;
}
inline float __nvvm_div_rn_f(float a, float b) {
  return a / b;
}
inline float __nvvm_rcp_rn_f(float x) {
  return 1.0f / x;
}
inline float __nvvm_saturate_f(float x) {
  return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}
inline float __nvvm_rsqrt_approx_f(float x) {
  return float(1.0 / std::sqrt(double(x)));
}
inline float __nvvm_add_rn_f(float a, float b) {
  return a + b;
}
inline float __nvvm_mul_rn_f(float a, float b) {
  return a * b;
}
inline double __nvvm_add_rn_d(double a, double b) {
  return a + b;
}
inline double __nvvm_mul_rn_d(double a, double b) {
  return a * b;
}
inline float __nvvm_ex2_approx_f(float x) {
  return float(std::exp2(double(x)));
}
inline float __nvvm_lg2_approx_f(float x) {
  return float(std::log2(double(x)));
}
inline float __nvvm_sin_approx_f(float x) {
  return float(std::sin(double(x)));
}
inline float __nvvm_cos_approx_f(float x) {
  return float(std::cos(double(x)));
}
#define NUMAGPU_DEVICE inline
#define NUMAGPU_HOST_DEVICE inline
#include "numagpu_device_math.h"
#undef NUMAGPU_DEVICE
#undef NUMAGPU_HOST_DEVICE
}  // namespace device_math

namespace {

// |got - want| in units of the float spacing at want.
double ulps(float got, double want) {
  const float w = float(want);
  const double spacing = std::nextafter(std::fabs(w), std::numeric_limits<float>::infinity()) - std::fabs(w);
  return std::fabs(double(got) - want) / spacing;
}

template <class F, class R>
double max_ulps(F f, R reference, double lo, double hi, int samples) {
  double worst = 0;
  for (int i = 0; i <= samples; ++i) {
    const float x = float(lo + (hi - lo) * i / samples);
    worst = std::max(worst, ulps(f(x), reference(double(x))));
  }
  return worst;
}

template <class F, class R>
double max_abs(F f, R reference, double lo, double hi, int samples) {
  double worst = 0;
  for (int i = 0; i <= samples; ++i) {
    const double x = lo + (hi - lo) * i / samples;
    worst = std::max(worst, std::fabs(double(f(x)) - reference(x)));
  }
  return worst;
}

template <class F, class R>
double max_rel(F f, R reference, double lo, double hi, int samples) {
  double worst = 0;
  for (int i = 0; i <= samples; ++i) {
    const double x = lo + (hi - lo) * i / samples;
    const double want = reference(x);
    if (want != 0) worst = std::max(worst, std::fabs((double(f(x)) - want) / want));
  }
  return worst;
}

void report(const char* what, double value) {
  std::printf("%-44s %.3g\n", what, value);
}

TEST(DeviceMath, ExactFunctionsAreExact) {
  for (float x : {-2.5f, -1.5f, -0.5f, 0.49999997f, 0.5f, 1.5f, 2.5f, 1e7f + 1, -3.7f, 8388609.0f}) {
    EXPECT_EQ(device_math::roundf(x), std::round(x)) << x;
    EXPECT_EQ(device_math::round(double(x)), std::round(double(x))) << x;
  }
  // fmod: exact by construction (binary long division), including huge quotients and signs.
  const float pairs[][2] = {{5.3f, 2.0f},     {-5.3f, 2.0f}, {5.3f, -2.0f},  {1e30f, 3.0f},
                            {1e-30f, 3e-31f}, {7.0f, 7.0f},  {0.1f, 1e-38f}, {3.4e38f, 1.1f}};
  for (auto& p : pairs) {
    EXPECT_EQ(device_math::fmodf(p[0], p[1]), std::fmod(p[0], p[1])) << p[0] << " " << p[1];
    EXPECT_EQ(device_math::fmod(double(p[0]) * 1.000001, double(p[1])),
              std::fmod(double(p[0]) * 1.000001, double(p[1])));
  }
  EXPECT_TRUE(std::isnan(device_math::fmodf(1.0f, 0.0f)));
  EXPECT_TRUE(std::isnan(device_math::fmodf(INFINITY, 2.0f)));
  EXPECT_EQ(device_math::ldexp(3.0, 1000), std::ldexp(3.0, 1000));
  EXPECT_EQ(device_math::ldexp(3.0, -1040), std::ldexp(3.0, -1040));
  EXPECT_EQ(device_math::ldexpf(1.5f, -20), std::ldexp(1.5f, -20));
}

TEST(DeviceMath, FloatFunctionsStayWithinTheirStatedErrors) {
  const int n = 200000;
  const double expf_err = max_ulps([](float x) { return device_math::expf(x); },
                                   [](double x) { return std::exp(x); }, -87, 88, n);
  report("expf, ulp, [-87, 88]", expf_err);
  EXPECT_LE(expf_err, 2.0);
  const double logf_err = max_abs([](double x) { return device_math::logf(float(x)); },
                                  [](double x) { return std::log(double(float(x))); }, 1e-3, 1e4, n);
  report("logf, absolute, [1e-3, 1e4]", logf_err);
  EXPECT_LE(logf_err, 1e-6);
  const double powf_err = max_rel([](double x) { return device_math::powf(float(x), 2.5f); },
                                  [](double x) { return std::pow(double(float(x)), 2.5); }, 0.01, 100, n);
  report("powf(x, 2.5), relative, [0.01, 100]", powf_err);
  EXPECT_LE(powf_err, 1e-7);
  EXPECT_EQ(device_math::powf(-2.0f, 3.0f), -8.0f);
  EXPECT_EQ(device_math::powf(-2.0f, 2.0f), 4.0f);
  EXPECT_TRUE(std::isnan(device_math::powf(-2.0f, 0.5f)));
  EXPECT_EQ(device_math::powf(0.0f, -1.0f), INFINITY);
  const double sin_err = max_abs([](double x) { return device_math::sinf(float(x)); },
                                 [](double x) { return std::sin(double(float(x))); }, -1e4, 1e4, n);
  report("sinf, absolute, [-1e4, 1e4]", sin_err);
  EXPECT_LE(sin_err, 2e-7);
  const double cos_err = max_abs([](double x) { return device_math::cosf(float(x)); },
                                 [](double x) { return std::cos(double(float(x))); }, -1e4, 1e4, n);
  report("cosf, absolute, [-1e4, 1e4]", cos_err);
  EXPECT_LE(cos_err, 2e-7);
  const double tanh_err = max_ulps([](float x) { return device_math::tanhf(x); },
                                   [](double x) { return std::tanh(x); }, -10, 10, n);
  report("tanhf, ulp, [-10, 10]", tanh_err);
  EXPECT_LE(tanh_err, 8.0);
  const double erf_err = max_abs([](double x) { return device_math::erff(float(x)); },
                                 [](double x) { return std::erf(double(float(x))); }, -5, 5, n);
  report("erff, absolute, [-5, 5]", erf_err);
  EXPECT_LE(erf_err, 4e-7);
  const double atan_err = max_abs([](double x) { return device_math::atanf(float(x)); },
                                  [](double x) { return std::atan(double(float(x))); }, -100, 100, n);
  report("atanf, absolute, [-100, 100]", atan_err);
  EXPECT_LE(atan_err, 3e-7);
  const double atan2_err =
      max_abs([](double x) { return device_math::atan2f(float(std::sin(x)), float(std::cos(x))); },
              [](double x) { return std::atan2(double(float(std::sin(x))), double(float(std::cos(x)))); },
              -3.1, 3.1, n);
  report("atan2f, absolute, around the circle", atan2_err);
  EXPECT_LE(atan2_err, 5e-7);
  const double cbrt_err = max_ulps([](float x) { return device_math::cbrtf(x); },
                                   [](double x) { return std::cbrt(x); }, -1000, 1000, n);
  report("cbrtf, ulp, [-1000, 1000]", cbrt_err);
  EXPECT_LE(cbrt_err, 2.0);
  const double hypot_err = max_ulps([](float x) { return device_math::hypotf(x, 3.0f); },
                                    [](double x) { return std::hypot(x, 3.0); }, -1e3, 1e3, n);
  report("hypotf, ulp", hypot_err);
  EXPECT_LE(hypot_err, 0.5);
  const double expm1_err = max_ulps([](float x) { return device_math::expm1f(x); },
                                    [](double x) { return std::expm1(x); }, -1, 1, n);
  report("expm1f, ulp, [-1, 1]", expm1_err);
  EXPECT_LE(expm1_err, 3.0);
  const double log1p_err = max_abs([](double x) { return device_math::log1pf(float(x)); },
                                   [](double x) { return std::log1p(double(float(x))); }, -0.5, 1, n);
  report("log1pf, absolute, [-0.5, 1]", log1p_err);
  EXPECT_LE(log1p_err, 2e-7);
}

TEST(DeviceMath, DoubleFunctionsStayWithinTheirStatedErrors) {
  const int n = 200000;
  const double exp_err = max_rel([](double x) { return device_math::exp(x); },
                                 [](double x) { return std::exp(x); }, -700, 700, n);
  report("exp, relative, [-700, 700]", exp_err);
  EXPECT_LE(exp_err, 1e-15);
  const double log_err = max_rel([](double x) { return device_math::log(x); },
                                 [](double x) { return std::log(x); }, 1e-6, 1e6, n);
  report("log, relative, [1e-6, 1e6]", log_err);
  EXPECT_LE(log_err, 1e-14);
  const double sin_err = max_abs([](double x) { return device_math::sin(x); },
                                 [](double x) { return std::sin(x); }, -1e5, 1e5, n);
  report("sin, absolute, [-1e5, 1e5]", sin_err);
  EXPECT_LE(sin_err, 1e-14);
  const double cos_err = max_abs([](double x) { return device_math::cos(x); },
                                 [](double x) { return std::cos(x); }, -1e5, 1e5, n);
  report("cos, absolute, [-1e5, 1e5]", cos_err);
  EXPECT_LE(cos_err, 1e-14);
  const double pow_err = max_rel([](double x) { return device_math::pow(x, 1.5); },
                                 [](double x) { return std::pow(x, 1.5); }, 1e-3, 1e3, n);
  report("pow(x, 1.5), relative, [1e-3, 1e3]", pow_err);
  EXPECT_LE(pow_err, 3e-14);
}

}  // namespace
