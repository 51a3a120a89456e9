#include "cuda/device_memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace numagpu::cuda {

DeviceMemory::DeviceMemory() {
  void* at = ::mmap(reinterpret_cast<void*>(kBase), kReserved, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (at == MAP_FAILED || reinterpret_cast<std::uint64_t>(at) != kBase) {
    const int error = errno;
    if (at != MAP_FAILED) ::munmap(at, kReserved);  // a kernel without MAP_FIXED_NOREPLACE put it elsewhere
    throw std::runtime_error(
        "numagpu CUDA runtime: cannot reserve the device memory range at 0x600000000000 (" +
        std::string(std::strerror(error)) + ")");
  }
}

DeviceMemory::~DeviceMemory() {
  ::munmap(reinterpret_cast<void*>(kBase), kReserved);
}

std::uint64_t DeviceMemory::allocate(std::uint64_t bytes, const std::string& name) {
  if (bytes == 0 || bytes > kReserved) return 0;
  const std::uint64_t base = next_;
  // A gap of kAlignment bytes after each allocation that no allocation holds: a kernel that runs a little
  // past its array's end faults there, as cuda-memcheck would report it, instead of reading its neighbour.
  const std::uint64_t end = base + (bytes + kAlignment - 1) / kAlignment * kAlignment + kAlignment;
  if (end > kBase + kReserved) return 0;
  next_ = end;
  blocks_[base] = Block{base, bytes, name};
  live_bytes_ += bytes;
  peak_bytes_ = std::max(peak_bytes_, live_bytes_);
  return base;
}

bool DeviceMemory::free(std::uint64_t address) {
  const auto it = blocks_.find(address);
  if (it == blocks_.end()) return false;
  // The whole pages inside the block go back to the host (they read as zeros if touched again, which no
  // correct program does: the addresses are never handed out again).
  constexpr std::uint64_t kPage = 4096;
  const std::uint64_t first = (it->second.base + kPage - 1) / kPage * kPage;
  const std::uint64_t last = (it->second.base + it->second.bytes) / kPage * kPage;
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
  live_bytes_ -= it->second.bytes;
  if (last_ == &it->second) last_ = nullptr;
  blocks_.erase(it);
  return true;
}

const DeviceMemory::Block* DeviceMemory::block_of(std::uint64_t address, std::uint64_t bytes) const {
  auto it = blocks_.upper_bound(address);
  if (it == blocks_.begin()) return nullptr;
  --it;
  const Block& b = it->second;
  if (address - b.base >= b.bytes || bytes > b.bytes - (address - b.base)) return nullptr;
  return &b;
}

std::uint8_t* DeviceMemory::resolve(std::uint64_t address, std::uint64_t bytes) {
  if (!last_ || address < last_->base || address - last_->base >= last_->bytes ||
      bytes > last_->bytes - (address - last_->base)) {
    last_ = block_of(address, bytes);
    if (!last_) return nullptr;
  }
  return reinterpret_cast<std::uint8_t*>(address);
}

}  // namespace numagpu::cuda
