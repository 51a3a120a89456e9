#include "cache/tag_array.hpp"

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

std::optional<TagArray::Victim> TagArray::insert(std::uint64_t line, bool dirty) {
  Way* set = &ways_storage_[set_of(line) * ways_];
  Way* slot = &set[0];
  for (unsigned w = 0; w < ways_; ++w) {
    if (!set[w].valid) {  // an invalid way is always the first choice
      slot = &set[w];
      break;
    }
    if (set[w].last_use < slot->last_use) slot = &set[w];
  }
  std::optional<Victim> victim;
  if (slot->valid) victim = Victim{slot->line, slot->dirty};
  *slot = Way{line, ++clock_, true, dirty};
  return victim;
}

bool TagArray::mark_dirty(std::uint64_t line) {
  Way* w = find(line);
  if (!w) return false;
  w->dirty = true;
  return true;
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
