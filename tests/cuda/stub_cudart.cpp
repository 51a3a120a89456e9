// A stand-in for numagpu's CUDA runtime library, for the compile-side tests only (tests/cuda/): it counts
// registrations and launches and keeps "device" memory on the host heap, but runs no kernel. It exists so
// that numagpu-cc's output can be linked and its registration ABI checked before (and independently of)
// the real runtime, models/cuda/. Built as libnumagpu_cudart.so in its own directory.
//
// It includes cuda_runtime.h as plain C++: the header is the ABI the runtime library implements.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/fatbin.hpp"
#include "cuda_runtime.h"

namespace {

struct Launch {
  dim3 grid, block;
  size_t shared;
  const void* function;
  void** args;
};

struct Record {
  int fatbins = 0, fatbin_ends = 0, unregistered = 0;
  std::vector<std::string> fatbin_texts;  // the PTX text each clang wrapper points at
  std::vector<std::pair<const void*, std::string>> functions;
  std::vector<std::string> variables;
  std::vector<Launch> launches;
  dim3 pushed_grid, pushed_block;
  size_t pushed_shared = 0;
  cudaStream_t pushed_stream = nullptr;
  std::string summary;
};

Record& record() {
  static Record r;
  return r;
}

}  // namespace

extern "C" {

// What the probe program reads back: one line per fact.
const char* numagpu_stub_summary(void) {
  Record& r = record();
  std::string s =
      "fatbins " + std::to_string(r.fatbins) + "\nfatbin_ends " + std::to_string(r.fatbin_ends) + "\n";
  for (const auto& t : r.fatbin_texts) {
    s += "fatbin_text " + std::to_string(t.size()) + " bytes" +
         (t.find(".entry") != std::string::npos ? " with .entry" : "") + "\n";
  }
  for (const auto& f : r.functions)
    s += "function " + f.second + "\n";
  for (const auto& v : r.variables)
    s += "variable " + v + "\n";
  for (const auto& l : r.launches) {
    std::string name = "?";
    for (const auto& f : r.functions)
      if (f.first == l.function) name = f.second;
    s += "launch " + name + " grid " + std::to_string(l.grid.x) + "," + std::to_string(l.grid.y) + "," +
         std::to_string(l.grid.z) + " block " + std::to_string(l.block.x) + "," + std::to_string(l.block.y) +
         "," + std::to_string(l.block.z) + " shared " + std::to_string(l.shared) + "\n";
  }
  r.summary = s;
  return r.summary.c_str();
}

void** __cudaRegisterFatBinary(void* fatCubin) {
  Record& r = record();
  ++r.fatbins;
  for (const auto& image : numagpu::cuda::ptx_from_registered_binary(fatCubin))
    r.fatbin_texts.push_back(image.text);
  return reinterpret_cast<void**>(fatCubin);
}
void __cudaRegisterFatBinaryEnd(void**) {
  ++record().fatbin_ends;
}
void __cudaUnregisterFatBinary(void**) {
  ++record().unregistered;
}
void __cudaRegisterFunction(void**, const char* hostFun, char*, const char* deviceName, int, uint3*, uint3*,
                            dim3*, dim3*, int*) {
  record().functions.emplace_back(hostFun, deviceName);
}
void __cudaRegisterVar(void**, char*, char*, const char* deviceName, int, size_t, int, int) {
  record().variables.emplace_back(deviceName);
}
void __cudaRegisterManagedVar(void**, void**, char*, const char* deviceName, int, size_t, int, int) {
  record().variables.emplace_back(deviceName);
}
char __cudaInitModule(void**) {
  return 1;
}
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st* stream) {
  Record& r = record();
  r.pushed_grid = grid;
  r.pushed_block = block;
  r.pushed_shared = shared;
  r.pushed_stream = stream;
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  Record& r = record();
  *grid = r.pushed_grid;
  *block = r.pushed_block;
  *shared = r.pushed_shared;
  *static_cast<cudaStream_t*>(stream) = r.pushed_stream;
  return cudaSuccess;
}
cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared, cudaStream_t stream) {
  __cudaPushCallConfiguration(grid, block, shared, stream);
  return cudaSuccess;
}
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                             cudaStream_t) {
  record().launches.push_back({grid, block, shared, func, args});
  return cudaSuccess;
}

// Memory on the host heap; copies in every direction are memcpy.
cudaError_t cudaMalloc(void** p, size_t size) {
  return (*p = std::calloc(1, size ? size : 1)) ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaMallocManaged(void** p, size_t size, unsigned int) {
  return cudaMalloc(p, size);
}
cudaError_t cudaMallocHost(void** p, size_t size) {
  return cudaMalloc(p, size);
}
cudaError_t cudaHostAlloc(void** p, size_t size, unsigned int) {
  return cudaMalloc(p, size);
}
cudaError_t cudaFree(void* p) {
  std::free(p);
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void* p) {
  std::free(p);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind) {
  std::memmove(dst, src, count);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t) {
  return cudaMemcpy(dst, src, count, kind);
}
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                               enum cudaMemcpyKind) {
  std::memcpy(static_cast<char*>(const_cast<void*>(symbol)) + offset, src, count);
  return cudaSuccess;
}
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind) {
  std::memcpy(dst, static_cast<const char*>(symbol) + offset, count);
  return cudaSuccess;
}
cudaError_t cudaMemset(void* p, int value, size_t count) {
  std::memset(p, value, count);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* p, int value, size_t count, cudaStream_t) {
  return cudaMemset(p, value, count);
}
cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  *free = *total = size_t(1) << 34;
  return cudaSuccess;
}

const char* cudaGetErrorString(cudaError_t e) {
  return e == cudaSuccess ? "no error" : "stub error";
}
const char* cudaGetErrorName(cudaError_t e) {
  return e == cudaSuccess ? "cudaSuccess" : "cudaErrorUnknown";
}
cudaError_t cudaGetLastError(void) {
  return cudaSuccess;
}
cudaError_t cudaPeekAtLastError(void) {
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) {
  return cudaSuccess;
}
cudaError_t cudaDeviceReset(void) {
  return cudaSuccess;
}
cudaError_t cudaThreadSynchronize(void) {
  return cudaSuccess;
}
cudaError_t cudaThreadExit(void) {
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int) {
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* n) {
  *n = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* p, int) {
  std::memset(p, 0, sizeof *p);
  std::strcpy(p->name, "numagpu stub");
  p->warpSize = 32;
  p->maxThreadsPerBlock = 1024;
  p->multiProcessorCount = 1;
  p->major = 7;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp* p, int d) {
  return cudaGetDeviceProperties(p, d);
}
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache) {
  return cudaSuccess;
}
cudaError_t cudaFuncSetCacheConfig(const void*, enum cudaFuncCache) {
  return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig) {
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* s) {
  *s = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int) {
  *s = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) {
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = nullptr;
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int) {
  *e = nullptr;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) {
  return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t) {
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0;
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t) {
  return cudaSuccess;
}

}  // extern "C"
