// Tags of a set-associative cache with LRU replacement. Plain C++ (no SystemC): the cache module decides
// timing, this class decides hits and victims.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace numagpu {

class TagArray {
 public:
  struct Victim {
    std::uint64_t line;  // line number (address / line size) of the evicted line
    bool dirty;
  };

  TagArray(std::uint64_t sets, unsigned ways);

  // True on a hit; a hit makes the line most recently used.
  bool access(std::uint64_t line);
  bool contains(std::uint64_t line) const;
  // Inserts a line that is not present (as most recently used); returns the valid line it displaced.
  std::optional<Victim> insert(std::uint64_t line, bool dirty);
  // Marks a present line dirty; returns false if absent.
  bool mark_dirty(std::uint64_t line);
  // Drops every line (kernel-boundary invalidation); returns how many valid lines were dropped.
  std::uint64_t invalidate_all();

  std::uint64_t sets() const { return sets_; }
  unsigned ways() const { return ways_; }

 private:
  struct Way {
    std::uint64_t line = 0;
    std::uint64_t last_use = 0;  // larger = more recent
    bool valid = false;
    bool dirty = false;
  };
  Way* find(std::uint64_t line);
  const Way* find(std::uint64_t line) const;
  std::uint64_t set_of(std::uint64_t line) const { return line % sets_; }

  std::uint64_t sets_;
  unsigned ways_;
  std::vector<Way> ways_storage_;
  std::uint64_t clock_ = 0;
};

}  // namespace numagpu
