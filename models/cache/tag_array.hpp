// Tags of a set-associative cache with way partitioning and a replacement policy (cache/replacement.hpp:
// LRU by default, or SRRIP). Plain C++ (no SystemC): the cache module decides timing, this class decides hits
// and victims.
//
// Partitioning: every line belongs to a class (local or remote data, by its home socket). An insertion says
// how many ways of the set its class may hold (its quota). Lookups consult all usable ways (all of them
// unless set_usable_ways gave some to shared memory). A class below its quota
// takes an invalid way, else the policy's victim among the other class's lines; a class at (or, after the
// split moved, above) its quota replaces the policy's victim among its own lines. Lines above a new quota are
// thus evicted lazily, as the other class needs their ways. The policy only ever chooses among these
// candidates.
#pragma once

#include <cstdint>
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
    std::uint32_t dirty_sectors = 1;  // sectored: the dirty sectors (to write back); unsectored: 1
  };

  // `replacement`: which candidate to evict. A line number must not be all ones. `sectors`: sectors per line
  // (1: unsectored; at most 32): each way then keeps a valid and a dirty sector mask (bit i: sector i).
  // `hashed_sets`: a line's set is the XOR of its set-sized bit fields (from the lowest up) instead of the
  // line mod the sets, so that lines alike in some of the set index's bits still spread over every set
  // (l2.set_index: xor).
  TagArray(std::uint64_t sets, unsigned ways, ReplacementKind replacement = ReplacementKind::kLru,
           unsigned sectors = 1, bool hashed_sets = false);

  // True on a hit; the policy learns of the hit (LRU: the line becomes most recently used).
  bool access(std::uint64_t line);
  bool contains(std::uint64_t line) const;
  // Sectored lookup: the valid sectors of `line` (0 when absent; 1 when present and unsectored). A present
  // line is a tag hit: the policy learns of it, whatever sectors are valid.
  std::uint32_t access_sectors(std::uint64_t line);
  // The valid sectors of `line` without touching the policy (0 when absent).
  std::uint32_t valid_sectors(std::uint64_t line) const;
  // Adds sectors to a present line (valid; those of `dirty` also dirty, and the line dirty if any); returns
  // false if absent.
  bool add_sectors(std::uint64_t line, std::uint32_t valid, std::uint32_t dirty);
  // Inserts a line that is not present (the policy learns of the insertion); returns the valid line it
  // displaced.
  // `quota`: ways of the set the line's class may hold (at least 1; `ways()` for no partitioning).
  // Sectored: `sectors` are the valid ones (all of them dirty if `dirty`); ignored when unsectored.
  std::optional<Victim> insert(std::uint64_t line, bool dirty, LineClass cls = LineClass::kLocal,
                               unsigned quota = ~0u, std::uint32_t sectors = ~0u);
  // Marks a present line dirty (sectored: its valid sectors); returns false if absent.
  bool mark_dirty(std::uint64_t line);
  // Drops every line (kernel-boundary invalidation); returns how many valid lines were dropped.
  std::uint64_t invalidate_all();
  // Drops every line of a class; dirty ones are appended to `dirty_lines` (to be written back first), and
  // their dirty sector masks to `dirty_sectors` if given (1 per line when unsectored).
  std::uint64_t invalidate_class(LineClass cls, std::vector<std::uint64_t>& dirty_lines,
                                 std::vector<std::uint32_t>* dirty_sectors = nullptr);
  // Cleans every dirty line of a class and keeps it valid (a write-back without the invalidation); the
  // lines and their dirty sector masks are appended as by invalidate_class. Returns how many were dirty.
  std::uint64_t clean_class(LineClass cls, std::vector<std::uint64_t>& dirty_lines,
                            std::vector<std::uint32_t>* dirty_sectors = nullptr);
  // Valid lines of a class in the whole array (for tests and statistics).
  std::uint64_t count(LineClass cls) const;

  // Limits the array to its first `ways` ways (1 to ways()), as a unified L1 gives the rest to shared
  // memory; lines in the ways taken are dropped (returns how many). ways() stays the array's size.
  std::uint64_t set_usable_ways(unsigned ways);
  unsigned usable_ways() const { return usable_ways_; }

  std::uint64_t sets() const { return sets_; }
  unsigned ways() const { return ways_; }
  unsigned sectors() const { return sectors_; }
  ReplacementKind replacement() const { return replacement_; }
  // SRRIP's re-reference prediction of the way holding `line` (for tests); kNoRrpv when the line is absent or
  // the policy is not SRRIP.
  static constexpr std::uint8_t kNoRrpv = 0xff;
  std::uint8_t rrpv(std::uint64_t line) const {
    const std::int64_t i = find(line);
    if (i < 0 || replacement_ != ReplacementKind::kSrrip) return kNoRrpv;
    return srrip_.rrpv(static_cast<std::uint64_t>(i));
  }

 private:
  // Storage is flat and split by use, so that a lookup reads only the tags of one set: key[] holds line + 1
  // per way (0: invalid), meta[] the dirty and class bits, the policy its own per-way state; valid[] and
  // remote[] summarize each set as way masks.
  static constexpr std::uint8_t kDirty = 1, kRemote = 2;
  static std::uint8_t meta_of(bool dirty, LineClass cls) {
    return static_cast<std::uint8_t>((dirty ? kDirty : 0) | (cls == LineClass::kRemote ? kRemote : 0));
  }
  static LineClass class_of(std::uint8_t meta) {
    return (meta & kRemote) ? LineClass::kRemote : LineClass::kLocal;
  }
  std::uint64_t set_of(std::uint64_t line) const {
    if (fold_bits_ == 0) return set_mask_ ? (line & set_mask_) : line % sets_;
    std::uint64_t folded = 0;
    for (std::uint64_t rest = line; rest; rest >>= fold_bits_)
      folded ^= rest & fold_mask_;
    return set_mask_ ? folded : folded % sets_;
  }
  std::uint64_t first_way(std::uint64_t line) const { return set_of(line) * ways_; }
  // Index of `line`'s way in the flat arrays, or -1.
  std::int64_t find(std::uint64_t line) const {
    const std::uint64_t base = first_way(line);
    const std::uint64_t key = line + 1;
    if (key == 0) return -1;  // all ones: never stored (insert refuses it)
    for (unsigned w = 0; w < usable_ways_; ++w) {
      if (key_[base + w] == key) return static_cast<std::int64_t>(base + w);
    }
    return -1;
  }
  // The policy's hooks, by the configured kind (one predictable branch: no virtual call per access).
  void on_hit(std::uint64_t i) {
    if (replacement_ == ReplacementKind::kSrrip) {
      srrip_.on_hit(i);
    } else {
      lru_.on_hit(i);
    }
  }
  void on_insert(std::uint64_t i) {
    if (replacement_ == ReplacementKind::kSrrip) {
      srrip_.on_insert(i);
    } else {
      lru_.on_insert(i);
    }
  }
  unsigned pick_victim(std::uint64_t set, std::uint64_t candidates) {
    if (replacement_ == ReplacementKind::kSrrip) return srrip_.pick(set * ways_, candidates);
    return lru_.pick(set * ways_, candidates);
  }

  std::uint64_t sets_;
  // Hashed set index: the width of a folded field (enough bits for every set) and its mask; 0: linear.
  unsigned fold_bits_ = 0;
  std::uint64_t fold_mask_ = 0;
  unsigned ways_;
  unsigned usable_ways_;       // ways_ unless set_usable_ways took some (the others are always invalid)
  std::uint64_t usable_mask_;  // the usable ways as a way mask (insert's candidates)
  static std::uint64_t first_ways(unsigned n) {
    return n == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << n) - 1;
  }
  std::uint64_t set_mask_ = 0;  // sets - 1 when the set count is a power of two (and above 1), else 0
  std::vector<std::uint64_t> key_;
  std::vector<std::uint8_t> meta_;
  // Per set, one bit per way: valid ways, and valid ways holding remote lines (insert needs both, and
  // reading them here saves a pass over the set).
  std::vector<std::uint64_t> valid_;
  std::vector<std::uint64_t> remote_;
  // Sectored only (sectors_ > 1; empty otherwise): per way, the valid and the dirty sectors.
  unsigned sectors_;
  std::uint32_t all_sectors_;
  std::vector<std::uint32_t> valid_sectors_;
  std::vector<std::uint32_t> dirty_sectors_;
  // Replacement: only the configured policy's state is allocated (the other's is empty).
  ReplacementKind replacement_;
  LruPolicy lru_;
  SrripPolicy srrip_;
};

}  // namespace numagpu
