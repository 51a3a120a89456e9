// The simulated address space of one workload item (a library kernel or an application): its arrays placed
// one after another, each at a 2 MiB boundary (the granule of a large page, so two arrays never share a
// page), each recorded as a workload allocation (so every placement policy applies to it). Kernels and
// applications both place their arrays here: one rule for where an array goes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kernels/simt.hpp"
#include "runtime/placement.hpp"

namespace numagpu::kernels {

class AddressSpace {
 public:
  static constexpr std::uint64_t kAlign = std::uint64_t(2) << 20;
  // The most an item's arrays may take together: more than any GPU the model describes holds (the paper's
  // sockets have 32 GB each, 64 sockets 2 TiB), and the placement report of a run walks every page of every
  // array (1 TiB is 2^28 pages of 4 KiB, seconds; cudaTensorCoreGemm with all three tile counts at 65536
  // asks for 12 TiB, minutes after the run has ended or been interrupted). Refused when the array that
  // passes it is placed, before anything of it is generated.
  static constexpr std::uint64_t kMaxBytes = std::uint64_t(1) << 40;

  explicit AddressSpace(std::uint64_t base) : next_(base) {}

  // An array of `count` elements at the next 2 MiB boundary; the one after it starts at the boundary after
  // its last byte. An empty array still reserves a byte (one boundary), so every array has an address of its
  // own. `rows`/`cols` give a 2-D shape for LADM's placements; `data`, if given, the values the array carries
  // (contents()). Throws KernelError when the arrays would take more than kMaxBytes together.
  template <class T>
  Array<T> place(const std::string& name, std::uint64_t count, std::uint64_t rows = 0, std::uint64_t cols = 0,
                 std::vector<T>* data = nullptr) {
    Array<T> a;
    a.name = name;
    a.count = count;
    a.data = data;
    a.base = reserve(name, count, sizeof(T), rows, cols);
    if (data) keep_contents(name, data);
    return a;
  }
  // Records the values of the array `name` (one placed by someone else: a kernel's array bound to an
  // application's) for contents().
  template <class T>
  void keep_contents(const std::string& name, std::vector<T>* data) {
    contents_[name] = {data, sizeof(T)};
  }
  // The values of the array `name` if it carries data (null otherwise, or if T is not its element type).
  template <class T>
  const std::vector<T>* contents(const std::string& name) const {
    const auto it = contents_.find(name);
    if (it == contents_.end() || it->second.element_bytes != sizeof(T)) return nullptr;
    return static_cast<const std::vector<T>*>(it->second.data);
  }

  const std::vector<runtime::Allocation>& allocations() const { return allocations_; }
  // The first byte after the arrays (a 2 MiB boundary): where the next item's may start.
  std::uint64_t end() const { return next_; }

 private:
  // Records the allocation and returns its base.
  std::uint64_t reserve(const std::string& name, std::uint64_t count, std::size_t element_bytes,
                        std::uint64_t rows, std::uint64_t cols);

  struct Contents {
    const void* data;
    std::size_t element_bytes;
  };
  std::vector<runtime::Allocation> allocations_;
  std::map<std::string, Contents> contents_;
  std::uint64_t next_;
  std::uint64_t total_bytes_ = 0;
};

}  // namespace numagpu::kernels
