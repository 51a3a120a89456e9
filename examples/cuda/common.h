// What every example of examples/cuda/ shares: checking CUDA calls, comparing against the CPU reference,
// printing PASS or FAIL (exit status 0 or 1). Plain CUDA host code.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

// Stops the program with the call, the file and line and CUDA's message when a runtime call fails.
#define CHECK_CUDA(call)                                                 \
  do {                                                                   \
    cudaError_t check_cuda_error_ = (call);                              \
    if (check_cuda_error_ != cudaSuccess) {                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(check_cuda_error_));               \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)

// The launch's own error, then the kernel's (a fault shows at the synchronisation).
#define CHECK_LAUNCH()                   \
  do {                                   \
    CHECK_CUDA(cudaGetLastError());      \
    CHECK_CUDA(cudaDeviceSynchronize()); \
  } while (0)

// Counts the elements that differ from the reference by more than `tolerance` relative to its magnitude
// (at least 1), printing the first few.
template <class T>
inline long count_mismatches(const char* what, const T* got, const T* want, long n, double tolerance) {
  long bad = 0;
  for (long i = 0; i < n; ++i) {
    double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
    double scale = std::fabs(w) > 1.0 ? std::fabs(w) : 1.0;
    if (!(std::fabs(g - w) <= tolerance * scale)) {
      if (bad < 5) std::fprintf(stderr, "%s[%ld] = %.9g, the CPU reference %.9g\n", what, i, g, w);
      ++bad;
    }
  }
  return bad;
}

// The verdict line and the exit status.
inline int report(const char* name, long mismatches) {
  if (mismatches == 0) {
    std::printf("%s: PASS\n", name);
    return 0;
  }
  std::printf("%s: FAIL (%ld mismatches)\n", name, mismatches);
  return 1;
}

// A deterministic pseudo-random sequence (a 32-bit LCG): the same inputs on every machine.
struct Lcg {
  unsigned state;
  explicit Lcg(unsigned seed) : state(seed) {}
  unsigned next() { return state = state * 1664525u + 1013904223u; }
  float uniform() { return (next() >> 8) * (1.0f / 16777216.0f); }  // [0, 1)
};
