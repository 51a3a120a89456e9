// The CUDA runtime API as an unmodified CUDA program calls it (the entry points clang and nvcc emit, and
// those a host program calls), over the session (cuda/session.hpp). docs/cuda.md lists what each does on the
// simulated device; in short:
//  - one device: the whole simulated system (every socket), as the paper's transparent NUMA GPU is one GPU;
//  - every launch is synchronous (it returns once the kernel has run in the simulation), so streams are
//    accepted and run in order, events read the simulated time at the last kernel's end;
//  - copies and memsets are functional and take no simulated time (the copy engines are not modelled for
//    them yet).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>

#include "cuda/errors.hpp"
#include "cuda/session.hpp"
#include "cuda_runtime.h"

using numagpu::cuda::Session;

static_assert(int(cudaErrorIllegalAddress) == int(numagpu::cuda::kIllegalAddress) &&
                  int(cudaErrorMisalignedAddress) == int(numagpu::cuda::kMisalignedAddress) &&
                  int(cudaErrorLaunchFailure) == int(numagpu::cuda::kLaunchFailure) &&
                  int(cudaErrorInvalidPtx) == int(numagpu::cuda::kInvalidPtx) &&
                  int(cudaErrorNoKernelImageForDevice) == int(numagpu::cuda::kNoKernelImageForDevice) &&
                  int(cudaErrorLaunchOutOfResources) == int(numagpu::cuda::kLaunchOutOfResources) &&
                  int(cudaErrorInvalidDeviceFunction) == int(numagpu::cuda::kInvalidDeviceFunction) &&
                  int(cudaErrorAssert) == int(numagpu::cuda::kAssert),
              "the session's codes are the header's");

namespace {

cudaError_t result(int code) {
  return static_cast<cudaError_t>(code);
}
Session& session() {
  return Session::instance();
}
numagpu::ptx::Dim3 dim(dim3 d) {
  return {d.x, d.y, d.z};
}

}  // namespace

// Events and streams: handles to small objects; an event holds the simulated time it was recorded at.
struct CUevent_st {
  double seconds = 0;
  bool recorded = false;
};
struct CUstream_st {
  int unused = 0;
};

extern "C" {

// ---- registration ------------------------------------------------------------------------------------

void** __cudaRegisterFatBinary(void* fatCubin) {
  return static_cast<void**>(session().register_module(fatCubin));
}
void __cudaRegisterFatBinaryEnd(void**) {}
// The modules stay until the process ends: the simulation, which finishes at exit, may still run them.
void __cudaUnregisterFatBinary(void**) {}
void __cudaRegisterFunction(void** handle, const char* hostFun, char*, const char* deviceName, int, uint3*,
                            uint3*, dim3*, dim3*, int*) {
  session().register_function(handle, hostFun, deviceName);
}
void __cudaRegisterVar(void** handle, char* hostVar, char*, const char* deviceName, int, size_t size, int,
                       int) {
  session().register_variable(handle, hostVar, deviceName, size);
}
void __cudaRegisterManagedVar(void** handle, void** hostVarPtrAddress, char*, const char* deviceName, int,
                              size_t size, int, int) {
  session().register_variable(handle, hostVarPtrAddress, deviceName, size);
}
char __cudaInitModule(void**) {
  return 1;
}

// ---- launches ----------------------------------------------------------------------------------------

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st* stream) {
  session().push_configuration(dim(gridDim), dim(blockDim), sharedMem, stream);
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream) {
  numagpu::ptx::Dim3 g, b;
  const int code = session().pop_configuration(&g, &b, sharedMem, static_cast<void**>(stream));
  if (code == 0) {
    *gridDim = dim3(g.x, g.y, g.z);
    *blockDim = dim3(b.x, b.y, b.z);
  }
  return result(code);
}
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream) {
  session().push_configuration(dim(gridDim), dim(blockDim), sharedMem, stream);
  return cudaSuccess;
}
cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                             cudaStream_t) {
  return result(session().launch(func, dim(gridDim), dim(blockDim), args, sharedMem));
}

// ---- memory ------------------------------------------------------------------------------------------

cudaError_t cudaMalloc(void** devPtr, size_t size) {
  return result(session().allocate(devPtr, size));
}
// Managed memory is device memory the host reads and writes in place (device pointers are host addresses).
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int) {
  return result(session().allocate(devPtr, size));
}
// Pinned host memory is host memory.
cudaError_t cudaMallocHost(void** ptr, size_t size) {
  if (!ptr) return cudaErrorInvalidValue;
  *ptr = ::operator new(size, std::nothrow);
  return *ptr || size == 0 ? cudaSuccess : result(session().fail(cudaErrorMemoryAllocation));
}
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int) {
  return cudaMallocHost(ptr, size);
}
cudaError_t cudaFree(void* devPtr) {
  return result(session().release(devPtr));
}
cudaError_t cudaFreeHost(void* ptr) {
  ::operator delete(ptr);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  return result(session().copy(dst, src, count, kind));
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t) {
  return result(session().copy(dst, src, count, kind));
}
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind) {
  std::uint64_t at = 0;
  std::size_t bytes = 0;
  if (const int code = session().symbol(symbol, &at, &bytes)) return result(code);
  if (offset > bytes || count > bytes - offset) return result(session().fail(cudaErrorInvalidValue));
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return result(session().fail(cudaErrorInvalidMemcpyDirection));
  return result(session().copy(reinterpret_cast<void*>(at + offset), src, count, cudaMemcpyDefault));
}
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind) {
  std::uint64_t at = 0;
  std::size_t bytes = 0;
  if (const int code = session().symbol(symbol, &at, &bytes)) return result(code);
  if (offset > bytes || count > bytes - offset) return result(session().fail(cudaErrorInvalidValue));
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return result(session().fail(cudaErrorInvalidMemcpyDirection));
  return result(session().copy(dst, reinterpret_cast<const void*>(at + offset), count, cudaMemcpyDefault));
}
cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  return result(session().fill(devPtr, value, count));
}
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t) {
  return result(session().fill(devPtr, value, count));
}
cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  if (!free || !total) return result(session().fail(cudaErrorInvalidValue));
  *total = static_cast<size_t>(numagpu::cuda::DeviceMemory::kReserved);
  *free = *total;
  return cudaSuccess;
}

// ---- errors ------------------------------------------------------------------------------------------

const char* cudaGetErrorString(cudaError_t error) {
  return numagpu::cuda::error_string(error);
}
const char* cudaGetErrorName(cudaError_t error) {
  return numagpu::cuda::error_name(error);
}
cudaError_t cudaGetLastError(void) {
  return result(session().last_error(true));
}
cudaError_t cudaPeekAtLastError(void) {
  return result(session().last_error(false));
}

// ---- the device --------------------------------------------------------------------------------------

// Every launch has run when it returns: synchronizing waits for nothing, but reports a kernel's fault.
cudaError_t cudaDeviceSynchronize(void) {
  return result(session().last_error(false));
}
cudaError_t cudaThreadSynchronize(void) {
  return cudaDeviceSynchronize();
}
cudaError_t cudaDeviceReset(void) {
  return cudaSuccess;
}
cudaError_t cudaThreadExit(void) {
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : result(session().fail(cudaErrorInvalidDevice));
}
cudaError_t cudaGetDevice(int* device) {
  if (!device) return cudaErrorInvalidValue;
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return cudaErrorInvalidValue;
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device) {
  if (!prop) return result(session().fail(cudaErrorInvalidValue));
  if (device != 0) return result(session().fail(cudaErrorInvalidDevice));
  const numagpu::SystemSpec& s = session().spec();
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "numagpu %u-socket GPU (simulated)", s.sockets);
  prop->totalGlobalMem = static_cast<size_t>(numagpu::cuda::DeviceMemory::kReserved);
  // An SM without a stated limit (0) reports Volta's: 48 KiB a CTA by default, 64 Ki registers.
  prop->sharedMemPerBlock =
      static_cast<size_t>(s.sm.shared_bytes ? std::min<std::uint64_t>(s.sm.shared_bytes, 49152) : 49152);
  prop->sharedMemPerMultiprocessor = static_cast<size_t>(s.sm.shared_bytes ? s.sm.shared_bytes : 98304);
  prop->regsPerBlock = static_cast<int>(s.sm.registers ? s.sm.registers : 65536);
  prop->regsPerMultiprocessor = prop->regsPerBlock;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 0x7fffffff;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->totalConstMem = 65536;
  prop->major = 7;  // the PTX numagpu-cc compiles targets sm_70
  prop->minor = 0;
  prop->multiProcessorCount = static_cast<int>(s.sockets * s.sms_per_socket);
  prop->maxThreadsPerMultiProcessor = static_cast<int>(s.sm.max_warps * 32);
  prop->clockRate = static_cast<int>(s.clock_mhz * 1000);  // kHz
  prop->l2CacheSize = static_cast<int>(
      std::min<std::uint64_t>(std::uint64_t(s.l2.size_bytes) * s.l2_banks * s.sockets, 0x7fffffff));
  prop->unifiedAddressing = 1;
  prop->managedMemory = 1;
  prop->concurrentKernels = 0;  // launches run one at a time
  return cudaSuccess;
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
cudaError_t cudaDriverGetVersion(int* driverVersion) {
  if (!driverVersion) return cudaErrorInvalidValue;
  *driverVersion = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
  if (!runtimeVersion) return cudaErrorInvalidValue;
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

// ---- streams and events ------------------------------------------------------------------------------

cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
  if (!pStream) return cudaErrorInvalidValue;
  *pStream = new CUstream_st;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int) {
  return cudaStreamCreate(pStream);
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  delete stream;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return cudaDeviceSynchronize();
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) {
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return cudaErrorInvalidValue;
  *event = new CUevent_st;
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) {
  return cudaEventCreate(event);
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return result(session().fail(cudaErrorInvalidResourceHandle));
  event->seconds = session().simulated_seconds();
  event->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return event ? cudaSuccess : result(session().fail(cudaErrorInvalidResourceHandle));
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  return event ? cudaSuccess : result(session().fail(cudaErrorInvalidResourceHandle));
}
// Milliseconds of simulated time between the two records.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return result(session().fail(cudaErrorInvalidValue));
  if (!start->recorded || !end->recorded) return result(session().fail(cudaErrorInvalidResourceHandle));
  *ms = static_cast<float>((end->seconds - start->seconds) * 1e3);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}

}  // extern "C"

// libsystemc asks for sc_main (its own main() calls it); a CUDA program has its own main(), so this one is
// never called.
extern "C" int sc_main(int, char*[]) {
  return 1;
}

// ---- CUDA 13's launch path (what nvcc 13 emits) --------------------------------------------------------
// nvcc 13's host stub of a kernel no longer hands its own address to cudaLaunchKernel: it asks once for a
// kernel handle (__cudaGetKernel, the result kept in a static of the stub) and launches through that handle
// (__cudaLaunchKernel, or its _ptsz twin under --default-stream per-thread; streams run in order here, so the
// two are one). The handle is the host stub's address itself, cast to the opaque cudaKernel_t: the session
// already knows kernels by their stubs, so the handle needs no table of its own, and a stub that was never
// registered fails at the launch as cudaLaunchKernel's would (cudaErrorInvalidDeviceFunction).
// cudaGetKernel is the public name of the same lookup (CUDA 12.1 and later).
struct CUkern_st;
using cudaKernelHandle = CUkern_st*;  // cudaKernel_t's ABI: a pointer to an opaque struct

extern "C" {

cudaError_t __cudaGetKernel(cudaKernelHandle* kernel, const void* entry) {
  if (!kernel) return result(session().fail(cudaErrorInvalidValue));
  if (!entry) return result(session().fail(cudaErrorInvalidDeviceFunction));
  *kernel = reinterpret_cast<cudaKernelHandle>(const_cast<void*>(entry));
  return cudaSuccess;
}
cudaError_t cudaGetKernel(cudaKernelHandle* kernel, const void* entry) {
  return __cudaGetKernel(kernel, entry);
}
cudaError_t __cudaLaunchKernel(cudaKernelHandle kernel, dim3 gridDim, dim3 blockDim, void** args,
                               size_t sharedMem, cudaStream_t) {
  return result(
      session().launch(reinterpret_cast<const void*>(kernel), dim(gridDim), dim(blockDim), args, sharedMem));
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernelHandle kernel, dim3 gridDim, dim3 blockDim, void** args,
                                    size_t sharedMem, cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

// ---- nvcc --default-stream per-thread ------------------------------------------------------------------
// A program compiled with a per-thread default stream calls these names (cuda_runtime_api.h's _ptds and
// _ptsz suffixes) for the calls whose meaning depends on the default stream. Streams run in order here and
// every call is synchronous, so the per-thread default stream is the legacy one: each forwards to its twin.
cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                  size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}
cudaError_t cudaMemcpy_ptds(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  return cudaMemcpy(dst, src, count, kind);
}
cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                                 cudaStream_t stream) {
  return cudaMemcpyAsync(dst, src, count, kind, stream);
}
cudaError_t cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
cudaError_t cudaMemset_ptds(void* devPtr, int value, size_t count) {
  return cudaMemset(devPtr, value, count);
}
cudaError_t cudaMemsetAsync_ptsz(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return cudaMemsetAsync(devPtr, value, count, stream);
}
cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecord(event, stream);
}
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) {
  return cudaStreamSynchronize(stream);
}
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return cudaStreamWaitEvent(stream, event, flags);
}

}  // extern "C"
