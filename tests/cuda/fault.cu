// A kernel that faults, for the runtime's error path (docs/cuda.md, "Errors"): `fault oob` reads one element
// past its array in the last thread, `fault trap` calls __trap() in one thread. The host checks that the
// launch's error is the one a GPU reports (cudaErrorIllegalAddress, cudaErrorAssert) and prints it; the
// runtime has printed the line naming the kernel, CTA, thread and PTX line, and the process exits with the
// run's failure status.
#include <cstdio>
#include <cstring>

__global__ void read_past_end(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + (i == n - 1 ? 8 : 0)];  // the last thread reads 8 elements past the end
}

__global__ void trap_once(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 37) __trap();
  if (i < n) out[i] = i;
}

int main(int argc, char** argv) {
  const bool trap = argc > 1 && std::strcmp(argv[1], "trap") == 0;
  const int n = 256;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  if (trap)
    trap_once<<<2, 128>>>(out, n);
  else
    read_past_end<<<2, 128>>>(in, out, n);
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t synced = cudaDeviceSynchronize();
  std::printf("fault: launch %s, synchronize %s\n", cudaGetErrorName(launched), cudaGetErrorName(synced));
  // Sticky, as on a GPU: the context is unusable after a kernel fault.
  const cudaError_t copied = cudaMemcpy(out, in, sizeof(int), cudaMemcpyDeviceToDevice);
  std::printf("fault: then memcpy %s\n", cudaGetErrorName(copied));
  return 0;
}
