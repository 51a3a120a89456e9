// The PTX inside a registered CUDA binary: what __cudaRegisterFatBinary receives, from either compiler
// (docs/cuda.md, "nvcc-built programs"). Plain C++.
//
// Both compilers pass a wrapper {int magic = 0x466243b1, int version, const void* data, void*
// filename_or_null}. clang's data is the PTX text itself (NUL-terminated). nvcc's is a fatbinary container: a
// 16-byte header {u32 magic 0xBA55ED50, u16 version 1, u16 header size 16, u64 size of the entries that
// follow}, then the entries, each a header {u16 kind (1 PTX, 2 ELF cubin), u16, u32 header size, u64 payload
// size (padded to 8), u32 stored size, u32, u16 PTX ISA minor, u16 major, u32 sm architecture, u32 name
// offset, u32 name size, u64 flags (bit 15: zstd-compressed, CUDA 13; bit 13: LZ4, CUDA 11 and 12), u64, u64
// uncompressed size ...} followed by its payload. CUDA 13 compresses the PTX with zstd (libzstd decompresses
// it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace numagpu::cuda {

// One PTX module found in a binary.
struct PtxImage {
  std::string text;
  unsigned arch = 0;  // the entry's sm architecture (75 for compute_75); 0 for clang's bare PTX
};

// A wrapper or container that cannot be read: one line saying what was found and what was expected.
class FatbinError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::uint32_t kFatbinWrapperMagic = 0x466243b1;
inline constexpr std::uint32_t kFatbinContainerMagic = 0xba55ed50;

// The PTX of __cudaRegisterFatBinary's argument, in the container's order (one image for clang's wrapper).
// The memory is the program's own, trusted to be as large as the container's header says.
std::vector<PtxImage> ptx_from_registered_binary(const void* wrapper);

// The PTX entries of a fatbinary container of at most `available` bytes (a file's, a section's). A container
// with no PTX (cubin only, e.g. nvcc -arch=sm_80) is refused: numagpu runs PTX.
std::vector<PtxImage> ptx_from_fatbin_container(const std::uint8_t* data, std::size_t available);

}  // namespace numagpu::cuda
