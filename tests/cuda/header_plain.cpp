// The header as plain C++ (no CUDA mode): what the runtime library and a host-only .cpp of a program include.
// Uses the ABI types and the C++ conveniences, so that a declaration that is not valid C++ fails the build.
#include <cuda_runtime.h>

int header_plain_use() {
  dim3 grid(4, 2), block(256);
  uint3 as_uint3 = grid;
  float4 v = make_float4(1, 2, 3, 4);
  double2 d = make_double2(1, 2);
  static_assert(sizeof(dim3) == 12, "dim3 is three unsigned ints");
  static_assert(alignof(float4) == 16 && alignof(float2) == 8 && alignof(double2) == 16, "CUDA's alignments");
  static_assert(sizeof(cudaDeviceProp) == 1008, "CUDA 13's cudaDeviceProp is 1008 bytes");
  static_assert(cudaErrorIllegalAddress == 700 && cudaErrorLaunchFailure == 719, "NVIDIA's values");
  float* p = nullptr;
  if (cudaMalloc(&p, 16) != cudaSuccess) return -1;  // the typed template
  return static_cast<int>(as_uint3.x * block.x + v.w + d.y);
}
