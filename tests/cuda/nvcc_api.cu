// The runtime calls beyond a plain launch, as an nvcc-13 program makes them (tests/cuda/nvcc_run.sh builds it
// with nvcc, and once more with --default-stream per-thread, which renames the stream-dependent calls to their
// _ptds/_ptsz twins): the device's properties, a stream and events around a launch on it, asynchronous copies
// and memsets, and copies to and from a __constant__ and a __device__ variable. Prints PASS (exit 0) when
// every value read back is the one derived below.
#include <cstdio>

__constant__ int offsets[4];  // filled by cudaMemcpyToSymbol: {100, 200, 300, 400}
__device__ int launches;      // counts the CTAs that ran: read back with cudaMemcpyFromSymbol

// out[i] = i + offsets[i % 4]; thread 0 of each CTA counts its CTA.
__global__ void fill(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i + offsets[i % 4];
  if (threadIdx.x == 0) atomicAdd(&launches, 1);
}

static int failures = 0;
static void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}
#define CHECK(call) expect((call) == cudaSuccess, #call)

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  expect(prop.warpSize == 32 && prop.multiProcessorCount > 0, "device properties");

  const int n = 1000, threads = 128, ctas = (n + threads - 1) / threads;  // 8 CTAs
  const int host_offsets[4] = {100, 200, 300, 400};
  CHECK(cudaMemcpyToSymbol(offsets, host_offsets, sizeof host_offsets));
  const int zero = 0;
  CHECK(cudaMemcpyToSymbol(launches, &zero, sizeof zero));

  int* out = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  cudaStream_t stream;
  cudaEvent_t start, end;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&end));
  CHECK(cudaMemsetAsync(out, 0xff, n * sizeof(int), stream));  // every int -1 before the kernel
  CHECK(cudaEventRecord(start, stream));
  fill<<<ctas, threads, 0, stream>>>(out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(end, stream));
  CHECK(cudaStreamSynchronize(stream));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, end));
  expect(ms > 0, "the kernel took simulated time");

  static int host[1000];
  CHECK(cudaMemcpyAsync(host, out, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != i + host_offsets[i % 4];
  expect(wrong == 0, "out[i] == i + offsets[i % 4]");
  int counted = 0;
  CHECK(cudaMemcpyFromSymbol(&counted, launches, sizeof counted));
  expect(counted == ctas, "one count per CTA");

  CHECK(cudaMemset(out, 0, n * sizeof(int)));
  CHECK(cudaMemcpy(host, out, n * sizeof(int), cudaMemcpyDeviceToHost));
  expect(host[0] == 0 && host[n - 1] == 0, "cudaMemset");

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(end));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(out));
  CHECK(cudaDeviceSynchronize());
  std::printf("nvcc_api: %s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
