// The CUDA runtime's error codes the simulated device returns, with the values and texts of NVIDIA's runtime
// (so a program that prints or compares them sees what it would on a GPU). cudart.cpp checks that the
// header's cudaError_t has the same values.
#pragma once

namespace numagpu::cuda {

enum Error : int {
  kSuccess = 0,
  kInvalidValue = 1,
  kMemoryAllocation = 2,
  kInitializationError = 3,
  kInvalidConfiguration = 9,
  kInvalidSymbol = 13,
  kInvalidDevicePointer = 17,
  kInvalidMemcpyDirection = 21,
  kInvalidResourceHandle = 400,
  kInvalidDevice = 101,
  kNoKernelImageForDevice = 209,
  kInvalidPtx = 218,
  kInvalidDeviceFunction = 98,
  kIllegalAddress = 700,
  kLaunchOutOfResources = 701,
  kAssert = 710,
  kMisalignedAddress = 716,
  kLaunchFailure = 719,
  kNotSupported = 801,
  kUnknown = 999,
};

// cudaGetErrorName's and cudaGetErrorString's texts.
const char* error_name(int code);
const char* error_string(int code);

}  // namespace numagpu::cuda
