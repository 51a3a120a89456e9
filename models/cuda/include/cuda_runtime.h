// numagpu's CUDA runtime header: what an unmodified CUDA program includes (as <cuda_runtime.h>, <cuda.h>,
// <cuda_runtime_api.h> or nothing at all: numagpu-cc passes `-include cuda_runtime.h`), compiled by Debian's
// clang 14 in CUDA mode with -nocudainc, without NVIDIA's toolkit (docs/cuda.md, "Compiling CUDA programs").
//
// Why two files: this one is the ABI between a program and numagpu's runtime library (the types, the error
// codes, the runtime API and the registration entry points clang and nvcc emit, with NVIDIA's C names and
// argument types). It is also valid plain C++ (any compiler, no CUDA mode), so the runtime library that
// implements these functions includes the very declarations the programs were compiled against.
// numagpu_device_functions.h holds what only device code uses (the built-in variables, atomics, warp
// functions, math), included at the end of this file in CUDA mode only.
//
// The layouts that an nvcc-built program passes by pointer (dim3, cudaDeviceProp, the fatbinary wrapper)
// are those of CUDA 13's runtime, so that one runtime library serves programs from either compiler.
#ifndef NUMAGPU_CUDA_RUNTIME_H
#define NUMAGPU_CUDA_RUNTIME_H

#include <stddef.h>

// CUDA's version macros: some programs test them. 12.0's runtime API (the stream-ordered launch ABI and
// the `_v2` device properties) is what this header declares.
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif
#define NUMAGPU_CUDA_RUNTIME 1

// ---- Function and variable qualifiers ----------------------------------------------------------------
// In CUDA mode they are clang's CUDA attributes; in plain C++ (the runtime library, a .cpp of the host
// program) they vanish, so shared declarations such as dim3's constructors compile there too.
#if defined(__CUDA__)
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
// clang 14 knows `managed` for HIP only: a __managed__ variable is a __device__ variable here, registered as
// one (__cudaRegisterVar); the host's reads and writes of it by name reach its host shadow, not the device.
#define __managed__ __attribute__((device))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#else
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#endif
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __builtin_align__(n) __align__(n)
#define __cudart_builtin__
#define CUDARTAPI

// ---- Vector types ------------------------------------------------------------------------------------
// CUDA's alignments: a 2-vector is aligned to its size (up to 16 bytes), a 4-vector too; 1- and 3-vectors
// have their element's alignment. These decide the PTX's vector loads (ld.v2/ld.v4), hence the requests.
#define NUMAGPU_VECTOR_TYPES(name, T, align2, align4)                                \
  struct name##1 {                                                                   \
    T x;                                                                             \
  };                                                                                 \
  struct __align__(align2) name##2 {                                                 \
    T x, y;                                                                          \
  };                                                                                 \
  struct name##3 {                                                                   \
    T x, y, z;                                                                       \
  };                                                                                 \
  struct __align__(align4) name##4 {                                                 \
    T x, y, z, w;                                                                    \
  };                                                                                 \
  typedef struct name##1 name##1;                                                    \
  typedef struct name##2 name##2;                                                    \
  typedef struct name##3 name##3;                                                    \
  typedef struct name##4 name##4;                                                    \
  static __inline__ __host__ __device__ name##1 make_##name##1(T x) {                \
    name##1 v = {x};                                                                 \
    return v;                                                                        \
  }                                                                                  \
  static __inline__ __host__ __device__ name##2 make_##name##2(T x, T y) {           \
    name##2 v = {x, y};                                                              \
    return v;                                                                        \
  }                                                                                  \
  static __inline__ __host__ __device__ name##3 make_##name##3(T x, T y, T z) {      \
    name##3 v = {x, y, z};                                                           \
    return v;                                                                        \
  }                                                                                  \
  static __inline__ __host__ __device__ name##4 make_##name##4(T x, T y, T z, T w) { \
    name##4 v = {x, y, z, w};                                                        \
    return v;                                                                        \
  }

NUMAGPU_VECTOR_TYPES(char, signed char, 2, 4)
NUMAGPU_VECTOR_TYPES(uchar, unsigned char, 2, 4)
NUMAGPU_VECTOR_TYPES(short, short, 4, 8)
NUMAGPU_VECTOR_TYPES(ushort, unsigned short, 4, 8)
NUMAGPU_VECTOR_TYPES(int, int, 8, 16)
NUMAGPU_VECTOR_TYPES(uint, unsigned int, 8, 16)
NUMAGPU_VECTOR_TYPES(long, long, 16, 16)
NUMAGPU_VECTOR_TYPES(ulong, unsigned long, 16, 16)
NUMAGPU_VECTOR_TYPES(longlong, long long, 16, 16)
NUMAGPU_VECTOR_TYPES(ulonglong, unsigned long long, 16, 16)
NUMAGPU_VECTOR_TYPES(float, float, 8, 16)
NUMAGPU_VECTOR_TYPES(double, double, 16, 16)
#undef NUMAGPU_VECTOR_TYPES

// dim3: a launch's grid and block shape (unset dimensions are 1). Passed by value to cudaLaunchKernel and
// __cudaPushCallConfiguration: three unsigned ints, as in NVIDIA's runtime.
struct dim3 {
  unsigned int x, y, z;
#if defined(__cplusplus)
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const {
    return uint3{x, y, z};
  }
#endif
};
typedef struct dim3 dim3;

// ---- Error codes, enums, handles ---------------------------------------------------------------------
// The values are NVIDIA's (a program may print or compare the numbers); the runtime library returns the
// ones that its behaviour can produce.
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorNotYetImplemented = 31,
  cudaErrorStubLibrary = 34,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidSurface = 37,
  cudaErrorDuplicateVariableName = 43,
  cudaErrorDevicesUnavailable = 46,
  cudaErrorMissingConfiguration = 52,
  cudaErrorPriorLaunchFailure = 53,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorStartupFailure = 127,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorUnsupportedLimit = 215,
  cudaErrorInvalidPtx = 218,
  cudaErrorUnsupportedPtxVersion = 222,
  cudaErrorInvalidSource = 300,
  cudaErrorFileNotFound = 301,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorHardwareStackError = 714,
  cudaErrorIllegalInstruction = 715,
  cudaErrorMisalignedAddress = 716,
  cudaErrorInvalidAddressSpace = 717,
  cudaErrorInvalidPc = 718,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801,
  cudaErrorTimeout = 909,
  cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,  // the direction from the pointers (unified addressing)
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3,
};

enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2,
};

// Flags, NVIDIA's values.
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02

// Opaque handles: the runtime library defines the structs. Stream 0 (null) is the default stream.
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;

typedef struct CUuuid_st {
  char bytes[16];
} cudaUUID_t;

// cudaDeviceProp in CUDA 13's layout (what an nvcc-13 program passes to cudaGetDeviceProperties_v2), so the
// runtime fills one struct for programs of either compiler. The fields CUDA 13 dropped that older programs
// still read (clockRate, memoryClockRate, ...) live in the first words of CUDA 13's trailing reserved space:
// a program compiled with this header reads them, an nvcc-13 program never looks there.
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  // CUDA 13's `int reserved[56]`: the first 8 words carry the fields of CUDA 12 and earlier (kHz, booleans).
  int clockRate;
  int memoryClockRate;
  int deviceOverlap;
  int kernelExecTimeoutEnabled;
  int computeMode;
  int maxTexture1DLinear;
  int cooperativeMultiDeviceLaunch;
  int singleToDoublePrecisionPerfRatio;
  int reserved[48];
};

// ---- The runtime API (implemented by libnumagpu_cudart, models/cuda/) ----------------------------------
#if defined(__cplusplus)
#define NUMAGPU_DEFAULT(value) = value
extern "C" {
#else
#define NUMAGPU_DEFAULT(value)
#endif

// Memory.
cudaError_t cudaMalloc(void** devPtr, size_t size);
cudaError_t cudaMallocManaged(void** devPtr, size_t size,
                              unsigned int flags NUMAGPU_DEFAULT(cudaMemAttachGlobal));
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaFree(void* devPtr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream NUMAGPU_DEFAULT(0));
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                               size_t offset NUMAGPU_DEFAULT(0),
                               enum cudaMemcpyKind kind NUMAGPU_DEFAULT(cudaMemcpyHostToDevice));
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count,
                                 size_t offset NUMAGPU_DEFAULT(0),
                                 enum cudaMemcpyKind kind NUMAGPU_DEFAULT(cudaMemcpyDeviceToHost));
cudaError_t cudaMemset(void* devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream NUMAGPU_DEFAULT(0));
cudaError_t cudaMemGetInfo(size_t* free, size_t* total);

// Errors.
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);

// Device.
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaThreadSynchronize(void);  // CUDA's old name of cudaDeviceSynchronize
cudaError_t cudaThreadExit(void);         // CUDA's old name of cudaDeviceReset
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceCount(int* count);
// cudaGetDeviceProperties_v2 is the name an nvcc 12/13 program calls; both fill the struct above.
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaFuncSetCacheConfig(const void* func, enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDriverGetVersion(int* driverVersion);
cudaError_t cudaRuntimeGetVersion(int* runtimeVersion);

// Streams and events (times in simulated milliseconds).
cudaError_t cudaStreamCreate(cudaStream_t* pStream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int flags NUMAGPU_DEFAULT(0));
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream NUMAGPU_DEFAULT(0));
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

// Launches: `kernel<<<grid, block, sharedMem, stream>>>(args)` becomes __cudaPushCallConfiguration, then a
// host stub that calls __cudaPopCallConfiguration and cudaLaunchKernel with one pointer per argument.
// cudaConfigureCall is what clang's device-side compilation looks up for the <<<>>> syntax (and the
// pre-9.2 ABI); its default arguments make <<<g, b>>> well-formed.
cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                             size_t sharedMem NUMAGPU_DEFAULT(0), cudaStream_t stream NUMAGPU_DEFAULT(0));
cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem NUMAGPU_DEFAULT(0),
                              cudaStream_t stream NUMAGPU_DEFAULT(0));
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem NUMAGPU_DEFAULT(0),
                                     struct CUstream_st* stream NUMAGPU_DEFAULT(0));
cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream);

// Registration, called by the constructor the compiler emits into every translation unit with device code.
// __cudaRegisterFatBinary receives the wrapper {int magic = 0x466243b1, int version, const void* data,
// void* filename_or_null}: data is PTX text (clang) or a fatbinary container (nvcc, models/cuda/fatbin.hpp);
// its result is the handle the other calls receive.
void** __cudaRegisterFatBinary(void* fatCubin);
void __cudaRegisterFatBinaryEnd(void** fatCubinHandle);
void __cudaUnregisterFatBinary(void** fatCubinHandle);
// hostFun: the host stub's address (what cudaLaunchKernel receives); deviceName: the PTX entry's name.
void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                            const char* deviceName, int thread_limit, uint3* tid, uint3* bid, dim3* bDim,
                            dim3* gDim, int* wSize);
// hostVar: the host shadow's address (what cudaMemcpyToSymbol receives); deviceName: the PTX variable.
void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress, const char* deviceName,
                       int ext, size_t size, int constant, int global);
void __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress, char* deviceAddress,
                              const char* deviceName, int ext, size_t size, int constant, int global);
char __cudaInitModule(void** fatCubinHandle);

#if defined(__cplusplus)
}  // extern "C"
#endif
#undef NUMAGPU_DEFAULT

// ---- C++ conveniences of NVIDIA's cuda_runtime.h: typed pointers, symbols by reference ------------------
#if defined(__cplusplus)
template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T** devPtr, size_t size) {
  return ::cudaMalloc(reinterpret_cast<void**>(devPtr), size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(T** devPtr, size_t size,
                                                         unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged(reinterpret_cast<void**>(devPtr), size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T** ptr, size_t size) {
  return ::cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count,
                                                          size_t offset = 0,
                                                          enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol(static_cast<const void*>(&symbol), src, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t cudaFuncSetCacheConfig(T* func, enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig(reinterpret_cast<const void*>(func), cacheConfig);
}
template <class T>
static __inline__ __host__ cudaError_t cudaLaunchKernel(T* func, dim3 gridDim, dim3 blockDim, void** args,
                                                        size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel(reinterpret_cast<const void*>(func), gridDim, blockDim, args, sharedMem, stream);
}
#endif

// ---- Device code ---------------------------------------------------------------------------------------
#if defined(__CUDA__)
#include "numagpu_device_functions.h"
#endif

#endif  // NUMAGPU_CUDA_RUNTIME_H
