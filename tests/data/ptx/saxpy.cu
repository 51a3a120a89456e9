#include "mini_cuda.h"
// y[i] = a * x[i] + y[i] for i < n.
__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = ctaid_x() * ntid_x() + tid_x();
  if (i < n) y[i] = a * x[i] + y[i];
}
