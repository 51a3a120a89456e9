#include "cache/tag_array.hpp"

#include <algorithm>
#include <stdexcept>

namespace numagpu {

TagArray::TagArray(std::uint64_t sets, unsigned ways, std::unique_ptr<ReplacementPolicy> replacement)
    : sets_(sets), ways_(ways), ways_storage_(sets * ways), replacement_(std::move(replacement)) {
  if (sets == 0 || ways == 0) throw std::invalid_argument("TagArray: sets and ways must be positive");
  if (ways > 64) throw std::invalid_argument("TagArray: at most 64 ways");
  if (!replacement_) replacement_ = std::make_unique<LruReplacement>(sets, ways);
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
  const std::uint64_t set = set_of(line);
  replacement_->on_use(set, static_cast<unsigned>(w - &ways_storage_[set * ways_]));
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
  const std::uint64_t set_index = set_of(line);
  int slot_way = -1;
  for (unsigned w = 0; w < ways_ && !replace_own; ++w) {
    if (!set[w].valid) {
      slot_way = int(w);
      break;
    }
  }
  if (slot_way < 0) {
    std::uint64_t candidates = 0;
    for (unsigned w = 0; w < ways_; ++w) {
      if (!set[w].valid) continue;
      const bool candidate = !partitioned || (replace_own ? set[w].cls == cls : set[w].cls != cls);
      if (candidate) candidates |= std::uint64_t(1) << w;
    }
    // No candidate only when the set holds nothing of the class to replace (e.g. a quota above the ways of
    // a set full of this class): any way.
    if (!candidates) candidates = ways_ == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << ways_) - 1;
    slot_way = int(replacement_->pick(set_index, candidates));
  }
  Way* slot = &set[slot_way];
  std::optional<Victim> victim;
  if (slot->valid) victim = Victim{slot->line, slot->dirty, slot->cls};
  *slot = Way{line, true, dirty, cls};
  replacement_->on_use(set_index, static_cast<unsigned>(slot_way));
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
