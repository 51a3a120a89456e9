// The homes first touch has decided, page by page, for Placement (runtime/placement.hpp).
//
// Every request of a first-touch run looks its page up here, so the lookup is on the simulator's hot path.
// A hash map from page to home cost 9 % of a run's host time on the suite's large workloads (perf on
// hpgmg and minicontact2: the misses while walking its nodes). Pages are nearly always inside an
// allocation, and an allocation's pages are consecutive, so each allocation gets a flat array of homes,
// two bytes a page, made at its first touch; the hash map is kept only for pages outside every allocation
// and for allocations too large for an array (kMaxDensePages).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/ids.hpp"

namespace numagpu::runtime {

class PageHomes {
 public:
  // An allocation spanning more pages than this (64 GiB of 4 KiB pages) keeps its homes in the hash map:
  // a declared but sparsely used allocation must not cost its whole array.
  static constexpr std::uint64_t kMaxDensePages = std::uint64_t(1) << 24;

  // `first_pages[i]` and `page_counts[i]`: the pages allocation i overlaps (its owner's index below).
  PageHomes(std::vector<std::uint64_t> first_pages, std::vector<std::uint64_t> page_counts)
      : first_page_(std::move(first_pages)),
        page_count_(std::move(page_counts)),
        dense_(first_page_.size()) {}

  // The home of `page`, found through `owner` (the index of the allocation that owns the page, or kNoOwner),
  // homing it at `toucher` if nobody did before; true when this call homed it.
  std::pair<SocketId, bool> home_or_decide(std::uint64_t page, std::size_t owner, SocketId toucher) {
    if (in_array(owner)) {
      std::vector<SocketId>& homes = dense_[owner];
      if (homes.empty()) homes.assign(page_count_[owner], kUndecided);
      SocketId& home = homes[page - first_page_[owner]];
      if (home != kUndecided) return {home, false};
      home = toucher;
      ++decided_;
      return {toucher, true};
    }
    // try_emplace, not emplace: emplace builds (allocates) a node before it looks, and all but the first
    // touch of a page find it there (docs/performance.md, second pass).
    const auto [it, inserted] = sparse_.try_emplace(page, toucher);
    if (inserted) ++decided_;
    return {it->second, inserted};
  }

  // The home of `page` if one was decided.
  std::optional<SocketId> find(std::uint64_t page, std::size_t owner) const {
    if (in_array(owner)) {
      const std::vector<SocketId>& homes = dense_[owner];
      if (homes.empty() || homes[page - first_page_[owner]] == kUndecided) return std::nullopt;
      return homes[page - first_page_[owner]];
    }
    const auto it = sparse_.find(page);
    if (it == sparse_.end()) return std::nullopt;
    return it->second;
  }

  // Pages homed so far.
  std::uint64_t decided() const { return decided_; }

  static constexpr std::size_t kNoOwner = std::numeric_limits<std::size_t>::max();

 private:
  // Socket ids stop below the largest SocketId (at most 65535 sockets, numbered from 0), so it is free to
  // mean "nobody touched this page yet".
  static constexpr SocketId kUndecided = std::numeric_limits<SocketId>::max();

  // Whether the owner's pages keep their homes in an array (made at the owner's first touch) rather than in
  // the hash map.
  bool in_array(std::size_t owner) const { return owner != kNoOwner && page_count_[owner] <= kMaxDensePages; }

  std::vector<std::uint64_t> first_page_;
  std::vector<std::uint64_t> page_count_;
  std::vector<std::vector<SocketId>> dense_;            // per allocation; empty until its first touch
  std::unordered_map<std::uint64_t, SocketId> sparse_;  // page number -> home, for the rest
  std::uint64_t decided_ = 0;
};

}  // namespace numagpu::runtime
