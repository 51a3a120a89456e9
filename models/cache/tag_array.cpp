#include "cache/tag_array.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace numagpu {

TagArray::TagArray(std::uint64_t sets, unsigned ways, ReplacementKind replacement, unsigned sectors,
                   bool hashed_sets)
    : sets_(sets),
      ways_(ways),
      usable_ways_(ways),
      usable_mask_(first_ways(ways)),
      set_mask_(sets > 1 && (sets & (sets - 1)) == 0 ? sets - 1 : 0),
      key_(sets * ways, 0),
      meta_(sets * ways, 0),
      valid_(sets, 0),
      remote_(sets, 0),
      sectors_(sectors),
      all_sectors_(sectors >= 32 ? ~0u : (1u << sectors) - 1),
      valid_sectors_(sectors > 1 ? sets * ways : 0, 0),
      dirty_sectors_(sectors > 1 ? sets * ways : 0, 0),
      replacement_(replacement),
      lru_(replacement == ReplacementKind::kLru ? sets * ways : 0),
      srrip_(replacement == ReplacementKind::kSrrip ? sets * ways : 0) {
  if (sets == 0 || ways == 0) throw std::invalid_argument("TagArray: sets and ways must be positive");
  if (ways > 64) throw std::invalid_argument("TagArray: at most 64 ways");
  if (sectors == 0 || sectors > 32) throw std::invalid_argument("TagArray: 1 to 32 sectors per line");
  if (hashed_sets && sets > 1) {
    while ((std::uint64_t(1) << fold_bits_) < sets)
      ++fold_bits_;
    fold_mask_ = (std::uint64_t(1) << fold_bits_) - 1;
  }
}

std::uint32_t TagArray::access_sectors(std::uint64_t line) {
  const std::int64_t i = find(line);
  if (i < 0) return 0;
  on_hit(static_cast<std::uint64_t>(i));
  return sectors_ > 1 ? valid_sectors_[static_cast<std::uint64_t>(i)] : 1u;
}

std::uint32_t TagArray::valid_sectors(std::uint64_t line) const {
  const std::int64_t i = find(line);
  if (i < 0) return 0;
  return sectors_ > 1 ? valid_sectors_[static_cast<std::uint64_t>(i)] : 1u;
}

bool TagArray::add_sectors(std::uint64_t line, std::uint32_t valid, std::uint32_t dirty) {
  const std::int64_t f = find(line);
  if (f < 0) return false;
  const auto i = static_cast<std::uint64_t>(f);
  if (sectors_ > 1) {
    valid_sectors_[i] |= (valid | dirty) & all_sectors_;
    dirty_sectors_[i] |= dirty & all_sectors_;
  }
  if (dirty) meta_[i] |= kDirty;
  return true;
}

bool TagArray::access(std::uint64_t line) {
  const std::int64_t i = find(line);
  if (i < 0) return false;
  on_hit(static_cast<std::uint64_t>(i));
  return true;
}

bool TagArray::contains(std::uint64_t line) const {
  return find(line) >= 0;
}

std::optional<TagArray::Victim> TagArray::insert(std::uint64_t line, bool dirty, LineClass cls,
                                                 unsigned quota, std::uint32_t sectors) {
  if (line == std::numeric_limits<std::uint64_t>::max()) throw std::out_of_range("TagArray: line number");
  const std::uint64_t set = set_of(line);
  const std::uint64_t base = set * ways_;
  const std::uint64_t valid = valid_[set], remote = remote_[set];
  const std::uint64_t all = usable_mask_;
  const std::uint64_t own_mask = valid & (cls == LineClass::kRemote ? remote : ~remote);
  const bool partitioned = quota < usable_ways_;
  // Under its quota a class takes a free way or the policy's victim among the other class's lines; at its
  // quota, the victim among its own. Unpartitioned: a free way, else the victim among all, whatever its
  // class.
  const bool replace_own =
      partitioned && static_cast<unsigned>(__builtin_popcountll(own_mask)) >= std::max(1u, quota);
  unsigned way;
  if (!replace_own && valid != all) {
    way = static_cast<unsigned>(__builtin_ctzll(~valid & all));  // the lowest free way
  } else {
    std::uint64_t candidates = !partitioned ? valid : replace_own ? own_mask : valid & ~own_mask;
    // No candidate only when the set holds nothing of the class to replace (e.g. a quota above the ways of
    // a set full of this class): any way.
    if (!candidates) candidates = all;
    way = pick_victim(set, candidates);
  }
  const std::uint64_t i = base + way;
  std::optional<Victim> victim;
  if (key_[i] != 0) {
    victim = Victim{key_[i] - 1, (meta_[i] & kDirty) != 0, class_of(meta_[i]),
                    sectors_ > 1 ? dirty_sectors_[i] : 1u};
  }
  key_[i] = line + 1;
  meta_[i] = meta_of(dirty, cls);
  if (sectors_ > 1) {
    valid_sectors_[i] = sectors & all_sectors_;
    dirty_sectors_[i] = dirty ? valid_sectors_[i] : 0;
  }
  const std::uint64_t bit = std::uint64_t(1) << way;
  valid_[set] |= bit;
  remote_[set] = cls == LineClass::kRemote ? (remote_[set] | bit) : (remote_[set] & ~bit);
  on_insert(i);
  return victim;
}

bool TagArray::mark_dirty(std::uint64_t line) {
  const std::int64_t i = find(line);
  if (i < 0) return false;
  meta_[static_cast<std::uint64_t>(i)] |= kDirty;
  if (sectors_ > 1)
    dirty_sectors_[static_cast<std::uint64_t>(i)] |= valid_sectors_[static_cast<std::uint64_t>(i)];
  return true;
}

std::uint64_t TagArray::invalidate_class(LineClass cls, std::vector<std::uint64_t>& dirty_lines,
                                         std::vector<std::uint32_t>* dirty_sectors) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < key_.size(); ++i) {
    if (key_[i] == 0 || class_of(meta_[i]) != cls) continue;
    if (meta_[i] & kDirty) {
      dirty_lines.push_back(key_[i] - 1);
      if (dirty_sectors) dirty_sectors->push_back(sectors_ > 1 ? dirty_sectors_[i] : 1u);
    }
    ++n;
    key_[i] = 0;
    meta_[i] = 0;
    const std::uint64_t keep = ~(std::uint64_t(1) << (i % ways_));
    valid_[i / ways_] &= keep;
    remote_[i / ways_] &= keep;
  }
  return n;
}

std::uint64_t TagArray::clean_class(LineClass cls, std::vector<std::uint64_t>& dirty_lines,
                                    std::vector<std::uint32_t>* dirty_sectors) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < key_.size(); ++i) {
    if (key_[i] == 0 || class_of(meta_[i]) != cls || !(meta_[i] & kDirty)) continue;
    dirty_lines.push_back(key_[i] - 1);
    if (dirty_sectors) dirty_sectors->push_back(sectors_ > 1 ? dirty_sectors_[i] : 1u);
    meta_[i] = static_cast<std::uint8_t>(meta_[i] & ~kDirty);
    if (sectors_ > 1) dirty_sectors_[i] = 0;
    ++n;
  }
  return n;
}

std::uint64_t TagArray::count(LineClass cls) const {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < key_.size(); ++i)
    n += (key_[i] != 0 && class_of(meta_[i]) == cls) ? 1 : 0;
  return n;
}

std::uint64_t TagArray::set_usable_ways(unsigned ways) {
  if (ways == 0 || ways > ways_) throw std::invalid_argument("TagArray: usable ways must be 1 to ways()");
  std::uint64_t dropped = 0;
  for (std::uint64_t set = 0; set < sets_; ++set) {
    for (unsigned w = ways; w < ways_; ++w) {
      const std::uint64_t i = set * ways_ + w;
      dropped += key_[i] != 0 ? 1 : 0;
      key_[i] = 0;
      meta_[i] = 0;
    }
    valid_[set] &= first_ways(ways);
    remote_[set] &= first_ways(ways);
  }
  usable_ways_ = ways;
  usable_mask_ = first_ways(ways);
  return dropped;
}

std::uint64_t TagArray::invalidate_all() {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < key_.size(); ++i)
    n += key_[i] != 0 ? 1 : 0;
  std::fill(key_.begin(), key_.end(), 0);
  std::fill(meta_.begin(), meta_.end(), 0);
  std::fill(valid_.begin(), valid_.end(), 0);
  std::fill(remote_.begin(), remote_.end(), 0);
  return n;
}

}  // namespace numagpu
