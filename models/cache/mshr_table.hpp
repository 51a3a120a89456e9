// The outstanding read misses of a cache, by line, each with the requests that arrived for the same line
// meanwhile (merged, kept in arrival order). Plain C++, no SystemC.
//
// Sized once: a cache never has more misses or merged requests in process than it has request slots, so
// the table is allocated at construction and a miss costs no heap allocation. The lines sit in an
// open-addressed table (linear probing, at most half full, deletion by backward shift so no tombstones pile
// up); the merged requests of all lines share one pool of nodes, chained per line.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace numagpu {

template <class Item>
class MshrTable {
 public:
  // At most `capacity` lines outstanding and `capacity` requests merged at once (over all lines).
  explicit MshrTable(unsigned capacity) : nodes_(capacity == 0 ? 1 : capacity) {
    unsigned bits = 1;
    while ((std::size_t(1) << bits) < 2 * std::size_t(nodes_.size()))
      ++bits;
    shift_ = 64 - bits;
    slots_.assign(std::size_t(1) << bits, Slot{});
    mask_ = slots_.size() - 1;
    for (std::size_t n = 0; n < nodes_.size(); ++n)
      nodes_[n].next = n + 1 < nodes_.size() ? static_cast<std::int32_t>(n + 1) : kNone;
    free_ = 0;
  }

  // If a miss to `line` is outstanding, `item` joins it (returns true); otherwise a miss to `line` is
  // opened with nothing merged yet (returns false: the caller sends the miss on).
  bool merge_or_open(std::uint64_t line, Item* item) {
    std::size_t i = home(line);
    for (; slots_[i].line != kEmpty; i = (i + 1) & mask_) {
      if (slots_[i].line == line) {
        append(slots_[i], item);
        return true;
      }
    }
    if (lines_ == nodes_.size())
      throw std::length_error("MshrTable: more outstanding misses than its capacity");
    slots_[i] = Slot{line, kNone, kNone};
    ++lines_;
    return false;
  }

  // The miss to `line` was answered: stops tracking it, then calls `f(item)` for each merged request in
  // arrival order. Returns false if no miss to `line` was outstanding. `f` may open a new miss to the same
  // line (it is a new miss).
  template <class F>
  bool close(std::uint64_t line, F&& f) {
    std::size_t i = home(line);
    for (; slots_[i].line != line; i = (i + 1) & mask_) {
      if (slots_[i].line == kEmpty) return false;
    }
    std::int32_t n = slots_[i].head;
    erase_slot(i);
    while (n != kNone) {
      Node& node = nodes_[static_cast<std::size_t>(n)];
      Item* item = node.item;
      const std::int32_t next = node.next;
      node.next = free_;  // back to the pool before f runs, so that f may merge again
      free_ = n;
      --merged_;
      f(item);
      n = next;
    }
    return true;
  }

  bool contains(std::uint64_t line) const {
    for (std::size_t i = home(line); slots_[i].line != kEmpty; i = (i + 1) & mask_) {
      if (slots_[i].line == line) return true;
    }
    return false;
  }
  std::size_t lines() const { return lines_; }
  std::size_t merged() const { return merged_; }
  std::size_t capacity() const { return nodes_.size(); }

 private:
  static constexpr std::uint64_t kEmpty = std::numeric_limits<std::uint64_t>::max();
  static constexpr std::int32_t kNone = -1;
  struct Slot {
    std::uint64_t line = kEmpty;  // a line number is an address / line size: never all ones
    std::int32_t head = kNone;    // first and last merged request (nodes_)
    std::int32_t tail = kNone;
  };
  struct Node {
    Item* item = nullptr;
    std::int32_t next = kNone;
  };

  // Fibonacci hashing: the lines of one L2 bank share their low bits, so take the product's high bits.
  std::size_t home(std::uint64_t line) const {
    return static_cast<std::size_t>((line * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void append(Slot& s, Item* item) {
    if (free_ == kNone) throw std::length_error("MshrTable: more merged requests than its capacity");
    const std::int32_t n = free_;
    Node& node = nodes_[static_cast<std::size_t>(n)];
    free_ = node.next;
    node.item = item;
    node.next = kNone;
    if (s.tail == kNone) {
      s.head = n;
    } else {
      nodes_[static_cast<std::size_t>(s.tail)].next = n;
    }
    s.tail = n;
    ++merged_;
  }

  // Linear-probing deletion without tombstones: later entries of the probe run move back into the hole
  // unless their home lies cyclically after the hole (they would then be unreachable from their home).
  void erase_slot(std::size_t hole) {
    --lines_;
    std::size_t j = hole;
    for (;;) {
      j = (j + 1) & mask_;
      if (slots_[j].line == kEmpty) break;
      const std::size_t h = home(slots_[j].line);
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole] = Slot{};
  }

  std::vector<Slot> slots_;
  std::vector<Node> nodes_;
  std::size_t mask_ = 0;
  unsigned shift_ = 63;
  std::int32_t free_ = kNone;
  std::size_t lines_ = 0;
  std::size_t merged_ = 0;
};

}  // namespace numagpu
