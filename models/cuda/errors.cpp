#include "cuda/errors.hpp"

namespace numagpu::cuda {

namespace {
struct Entry {
  int code;
  const char* name;
  const char* text;
};
// The texts are the runtime's own words for each condition, as programs print them.
constexpr Entry kErrors[] = {
    {kSuccess, "cudaSuccess", "no error"},
    {kInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {kMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {kInitializationError, "cudaErrorInitializationError", "initialization error"},
    {kInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {kInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {kInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {kInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {kInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {kInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {kNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {kInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {kInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {kIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {kLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {kAssert, "cudaErrorAssert", "device-side assert triggered"},
    {kMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {kLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {kNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {kUnknown, "cudaErrorUnknown", "unknown error"},
};
const Entry* find(int code) {
  for (const Entry& e : kErrors)
    if (e.code == code) return &e;
  return nullptr;
}
}  // namespace

const char* error_name(int code) {
  const Entry* e = find(code);
  return e ? e->name : "cudaErrorUnknown";
}

const char* error_string(int code) {
  const Entry* e = find(code);
  return e ? e->text : "unrecognized error code";
}

}  // namespace numagpu::cuda
