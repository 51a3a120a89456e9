#include "cache/tag_array.hpp"

#include <algorithm>
#include <stdexcept>

namespace numagpu {

TagArray::TagArray(std::uint64_t sets, unsigned ways) : sets_(sets), ways_(ways), ways_storage_(sets * ways) {
  if (sets == 0 || ways == 0) throw std::invalid_argument("TagArray: sets and ways must be positive");
}

TagArray::Way* TagArray::find(std::uint64_t line) {
  Way* set = &ways_storage_[set_of(line) * ways_];
  for (unsigned w = 0; w < ways_; ++w) {
    if (set[w].valid && set[w].line == line) return &set[w];
  }
  return nullptr;
}

const TagArray::Way* TagArray::find(std::uint64_t line) const {
  return const_cast<TagArray*>(this)->find(line);
}

bool TagArray::access(std::uint64_t line) {
  Way* w = find(line);
  if (!w) return false;
  w->last_use = ++clock_;
  return true;
}

bool TagArray::contains(std::uint64_t line) const {
  return find(line) != nullptr;
}

std::optional<TagArray::Victim> TagArray::insert(std::uint64_t line, bool dirty, LineClass cls,
                                                 unsigned quota) {
  Way* set = &ways_storage_[set_of(line) * ways_];
  const bool partitioned = quota < ways_;
  unsigned own = 0;
  for (unsigned w = 0; w < ways_; ++w)
    own += (set[w].valid && set[w].cls == cls) ? 1 : 0;
  // Under its quota a class takes a free way or the other class's LRU line; at its quota, its own LRU line.
  // Unpartitioned: a free way, else the set's LRU line, whatever its class.
  const bool replace_own = partitioned && own >= std::max(1u, quota);
  Way* slot = nullptr;
  for (unsigned w = 0; w < ways_ && !replace_own; ++w) {
    if (!set[w].valid) {
      slot = &set[w];
      break;
    }
  }
  if (!slot) {
    for (unsigned w = 0; w < ways_; ++w) {
      if (!set[w].valid) continue;
      const bool candidate = !partitioned || (replace_own ? set[w].cls == cls : set[w].cls != cls);
      if (candidate && (!slot || set[w].last_use < slot->last_use)) slot = &set[w];
    }
  }
  if (!slot) {
    // Only reachable when the set holds nothing of the class to replace (e.g. a quota above the ways of a
    // set full of this class): plain LRU.
    slot = &set[0];
    for (unsigned w = 1; w < ways_; ++w) {
      if (set[w].last_use < slot->last_use) slot = &set[w];
    }
  }
  std::optional<Victim> victim;
  if (slot->valid) victim = Victim{slot->line, slot->dirty, slot->cls};
  *slot = Way{line, ++clock_, true, dirty, cls};
  return victim;
}

bool TagArray::mark_dirty(std::uint64_t line) {
  Way* w = find(line);
  if (!w) return false;
  w->dirty = true;
  return true;
}

std::uint64_t TagArray::invalidate_class(LineClass cls, std::vector<std::uint64_t>& dirty_lines) {
  std::uint64_t n = 0;
  for (auto& w : ways_storage_) {
    if (!w.valid || w.cls != cls) continue;
    if (w.dirty) dirty_lines.push_back(w.line);
    ++n;
    w = Way{};
  }
  return n;
}

std::uint64_t TagArray::count(LineClass cls) const {
  std::uint64_t n = 0;
  for (const auto& w : ways_storage_)
    n += (w.valid && w.cls == cls) ? 1 : 0;
  return n;
}

std::uint64_t TagArray::invalidate_all() {
  std::uint64_t n = 0;
  for (auto& w : ways_storage_) {
    n += w.valid ? 1 : 0;
    w = Way{};
  }
  return n;
}

}  // namespace numagpu
