// The recorded steps of the warps of a kernel's resident CTAs, by (CTA, warp), in one flat table: what
// CppKernelProgram::step reads for every step an SM takes. Plain C++, no SystemC.
//
// Why a table of its own: the records live in their CTA's entry of a node-based map, each warp's arrays in
// separate allocations. Reaching a step that way reads the map's node, the CTA's vector of records and the
// warp's record before the step itself: on a large run (thousands of CTAs resident over the sockets) each of
// those is a miss in the host's caches. Here a step costs one probe of a compact table (40 bytes an entry,
// at most half full: open addressing with linear probing, deletion by backward shift so no tombstones pile
// up), whose entry points at the step.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/simt.hpp"

namespace numagpu::kernels {

class ResidentWarps {
 public:
  // Warp `warp` of CTA `cta` reads its steps from `view` (replacing what it read before, if anything).
  void add(std::uint32_t cta, std::uint32_t warp, const WarpRecordView& view) {
    if (2 * (size_ + 1) > entries_.size()) grow();
    const std::uint64_t k = key(cta, warp);
    std::size_t i = home(cta, warp);
    for (; entries_[i].key != kEmpty && entries_[i].key != k; i = (i + 1) & mask_) {
    }
    if (entries_[i].key == kEmpty) ++size_;
    entries_[i] = Entry{k, view};
  }

  // The warp's steps, or null when the warp is not here.
  const WarpRecordView* find(std::uint32_t cta, std::uint32_t warp) const {
    if (size_ == 0) return nullptr;
    const std::uint64_t k = key(cta, warp);
    for (std::size_t i = home(cta, warp); entries_[i].key != kEmpty; i = (i + 1) & mask_) {
      if (entries_[i].key == k) return &entries_[i].view;
    }
    return nullptr;
  }

  // The warp is no longer here (nothing happens if it was not).
  void remove(std::uint32_t cta, std::uint32_t warp) {
    if (size_ == 0) return;
    const std::uint64_t k = key(cta, warp);
    std::size_t i = home(cta, warp);
    for (; entries_[i].key != k; i = (i + 1) & mask_) {
      if (entries_[i].key == kEmpty) return;
    }
    // Backward shift: each later entry of the cluster whose home does not lie cyclically in (i, j] moves
    // into the hole, which moves on to where it was; the probe sequences of the rest stay unbroken.
    for (std::size_t j = (i + 1) & mask_; entries_[j].key != kEmpty; j = (j + 1) & mask_) {
      const std::size_t h = home_of(entries_[j].key);
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      entries_[i] = entries_[j];
      i = j;
    }
    entries_[i] = Entry{};
    --size_;
  }

  std::size_t size() const { return size_; }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);
  struct Entry {
    std::uint64_t key = kEmpty;
    WarpRecordView view;
  };
  static std::uint64_t key(std::uint32_t cta, std::uint32_t warp) {
    return (std::uint64_t(cta) << 32) | warp;
  }
  // A CTA's warps sit side by side from a slot its number scatters (Fibonacci hashing): a CTA's steps are
  // taken together, and consecutive CTA numbers, resident together, do not crowd one run of slots.
  std::size_t home(std::uint32_t cta, std::uint32_t warp) const {
    return ((std::uint64_t(cta) * 0x9E3779B97F4A7C15ull >> 32) + warp) & mask_;
  }
  std::size_t home_of(std::uint64_t k) const {
    return home(static_cast<std::uint32_t>(k >> 32), static_cast<std::uint32_t>(k));
  }
  void grow() {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(old.empty() ? 64 : 2 * old.size(), Entry{});
    mask_ = entries_.size() - 1;
    size_ = 0;
    for (const Entry& e : old) {
      if (e.key == kEmpty) continue;
      std::size_t i = home_of(e.key);
      for (; entries_[i].key != kEmpty; i = (i + 1) & mask_) {
      }
      entries_[i] = e;
      ++size_;
    }
  }

  std::vector<Entry> entries_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace numagpu::kernels
