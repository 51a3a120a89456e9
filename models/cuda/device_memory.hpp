// The simulated GPU's global memory, functional (docs/cuda.md, "Device memory"): every cudaMalloc'd byte
// lives in one range of the host's address space reserved at a fixed address, and a device pointer is the
// host address of its bytes. So a device pointer is the same number in every run (the simulated addresses,
// and so every statistic, do not depend on where the host's allocator puts things), a managed pointer is
// usable by the host program as it is, and resolving an address is a bounds check. Plain C++, no SystemC.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ptx/execute.hpp"

namespace numagpu::cuda {

class DeviceMemory : public ptx::GlobalMemory {
 public:
  // Where the range starts: in the part of the address space every Linux x86-64 process leaves free (above
  // the program and its heap, below the shared libraries and stacks) and that AddressSanitizer leaves to the
  // program (its "high memory").
  static constexpr std::uint64_t kBase = 0x600000000000ull;
  // The range's size: reserved, not committed (pages cost host memory only once written).
  static constexpr std::uint64_t kReserved = std::uint64_t(1) << 40;
  // cudaMalloc's alignment (the CUDA C Programming Guide: at least 256 bytes).
  static constexpr std::uint64_t kAlignment = 256;

  // Throws std::runtime_error (one line) when the range cannot be reserved.
  DeviceMemory();
  ~DeviceMemory() override;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // `bytes` (> 0) at the next aligned address, named for error messages; 0 when the range is exhausted.
  // Freed bytes are not reused (addresses stay unique within a run, as statistics by address need), but
  // their pages go back to the host.
  std::uint64_t allocate(std::uint64_t bytes, const std::string& name);
  // False when `address` is not the start of a live allocation.
  bool free(std::uint64_t address);
  // The live allocation holding [address, address + bytes), or null.
  struct Block {
    std::uint64_t base = 0, bytes = 0;
    std::string name;
  };
  const Block* block_of(std::uint64_t address, std::uint64_t bytes) const;
  std::uint8_t* resolve(std::uint64_t address, std::uint64_t bytes) override;
  // What is allocated now, and the most at once (for the summary).
  std::uint64_t live_bytes() const { return live_bytes_; }
  std::uint64_t peak_bytes() const { return peak_bytes_; }

 private:
  std::uint64_t next_ = kBase;
  std::map<std::uint64_t, Block> blocks_;  // by base
  const Block* last_ = nullptr;            // the block the last resolve found (kernels stream through one)
  std::uint64_t live_bytes_ = 0, peak_bytes_ = 0;
};

}  // namespace numagpu::cuda
