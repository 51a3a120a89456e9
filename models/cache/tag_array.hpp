// Tags of a set-associative cache with way partitioning and a replacement policy behind an interface
// (cache/replacement.hpp; LRU by default). Plain C++ (no SystemC): the
// cache module decides timing, this class decides hits and victims.
//
// Partitioning: every line belongs to a class (local or remote data, by its home socket). An insertion says
// how many ways of the set its class may hold (its quota). Lookups consult all ways. A class below its quota
// takes an invalid way, else the least recently used line of the other class; a class at (or, after the
// split moved, above) its quota replaces its own least recently used line. Lines above a new quota are thus
// evicted lazily, as the other class needs their ways.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "cache/replacement.hpp"

namespace numagpu {

class TagArray {
 public:
  enum class LineClass : std::uint8_t { kLocal = 0, kRemote = 1 };
  struct Victim {
    std::uint64_t line;  // line number (address / line size) of the evicted line
    bool dirty;
    LineClass cls;
  };

  // `replacement`: which candidate to evict (default: LRU).
  TagArray(std::uint64_t sets, unsigned ways, std::unique_ptr<ReplacementPolicy> replacement = nullptr);

  // True on a hit; a hit makes the line most recently used.
  bool access(std::uint64_t line);
  bool contains(std::uint64_t line) const;
  // Inserts a line that is not present (as most recently used); returns the valid line it displaced.
  // `quota`: ways of the set the line's class may hold (at least 1; `ways()` for no partitioning).
  std::optional<Victim> insert(std::uint64_t line, bool dirty, LineClass cls = LineClass::kLocal,
                               unsigned quota = ~0u);
  // Marks a present line dirty; returns false if absent.
  bool mark_dirty(std::uint64_t line);
  // Drops every line (kernel-boundary invalidation); returns how many valid lines were dropped.
  std::uint64_t invalidate_all();
  // Drops every line of a class; dirty ones are appended to `dirty_lines` (to be written back first).
  std::uint64_t invalidate_class(LineClass cls, std::vector<std::uint64_t>& dirty_lines);
  // Valid lines of a class in the whole array (for tests and statistics).
  std::uint64_t count(LineClass cls) const;

  std::uint64_t sets() const { return sets_; }
  unsigned ways() const { return ways_; }

 private:
  struct Way {
    std::uint64_t line = 0;
    bool valid = false;
    bool dirty = false;
    LineClass cls = LineClass::kLocal;
  };
  Way* find(std::uint64_t line);
  const Way* find(std::uint64_t line) const;
  std::uint64_t set_of(std::uint64_t line) const { return line % sets_; }

  std::uint64_t sets_;
  unsigned ways_;
  std::vector<Way> ways_storage_;
  std::unique_ptr<ReplacementPolicy> replacement_;
};

}  // namespace numagpu
