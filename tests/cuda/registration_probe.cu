// Checks the ABI numagpu-cc's output speaks to the runtime library (against tests/cuda's stub, which records
// the calls): the module constructor registers the embedded PTX (clang's wrapper, magic 0x466243b1, pointing
// at PTX text) and each kernel under its PTX entry's name, and `<<<grid, block, shared>>>` arrives at
// cudaLaunchKernel as that grid, block and shared size, with one pointer per argument.
#include <cstdio>
#include <cstring>

extern "C" const char* numagpu_stub_summary(void);

__global__ void probe_kernel(int* out, float scale) {
  out[threadIdx.x] = (int)(scale * threadIdx.x);
}
__device__ int probe_variable[4];

int main() {
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  probe_kernel<<<dim3(3, 2), 64, 128>>>(out, 2.5f);
  cudaDeviceSynchronize();
  const char* s = numagpu_stub_summary();
  std::printf("%s", s);
  // The expected lines, derived from the launch above: one module, one kernel (its mangled name, as the
  // PTX's .entry), one variable, one launch of grid 3x2x1, block 64x1x1, 128 bytes of shared memory.
  const char* expected[] = {"fatbins 1\n",
                            "fatbin_ends 1\n",
                            "with .entry\n",
                            "function _Z12probe_kernelPif\n",
                            "variable probe_variable\n",
                            "launch _Z12probe_kernelPif grid 3,2,1 block 64,1,1 shared 128\n"};
  for (const char* e : expected) {
    if (!std::strstr(s, e)) {
      std::printf("FAIL: missing \"%.*s\"\n", (int)std::strlen(e) - 1, e);
      return 1;
    }
  }
  std::printf("PASS\n");
  return 0;
}
