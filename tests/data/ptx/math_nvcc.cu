// The CUDA math library as nvcc inlines it (libdevice): the instruction forms of expf, logf, powf, sinf,
// erff, double exp and sqrt, integer division by a run-time value, 64-bit arithmetic. nvcc only (clang has no
// libdevice without the toolkit).
__global__ void math(const float* in, float* out, double* dout, int* iout, int d) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[t];
  out[t] = expf(x) + logf(x + 1.0f) + powf(x, 1.5f) + sinf(x) + cosf(x) + sqrtf(x) + rsqrtf(x + 1.0f) +
           erff(x) + floorf(x) + fabsf(-x) + tanhf(x) + __fdividef(x, 3.0f) + fminf(x, 2.0f);
  double y = (double)x;
  dout[t] = exp(y) + sqrt(y) + log(y + 1.0) + y / (y + 2.0);
  long long q = (long long)t * 1000003LL;
  iout[t] = (int)(q / d) + t % d + (int)(q >> 7) + __clz(t) + __popc(t) + (int)__brev(t) + __ffs(t);
}
