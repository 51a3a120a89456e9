// Replacement policies for TagArray: which of the candidate ways of a set to evict. TagArray decides the
// candidates (partition rules, free ways first); the policy orders them. LRU is the one provided.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace numagpu {

class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;
  // A hit or an insertion made `way` of `set` the most recently used.
  virtual void on_use(std::uint64_t set, unsigned way) = 0;
  // The way to evict among the bits of `candidates` (non-zero).
  virtual unsigned pick(std::uint64_t set, std::uint64_t candidates) const = 0;
};

class LruReplacement : public ReplacementPolicy {
 public:
  LruReplacement(std::uint64_t sets, unsigned ways) : ways_(ways), last_use_(sets * ways, 0) {}
  void on_use(std::uint64_t set, unsigned way) override { last_use_[set * ways_ + way] = ++clock_; }
  unsigned pick(std::uint64_t set, std::uint64_t candidates) const override {
    unsigned best = 0;
    bool found = false;
    for (unsigned w = 0; w < ways_; ++w) {
      if (!((candidates >> w) & 1)) continue;
      if (!found || last_use_[set * ways_ + w] < last_use_[set * ways_ + best]) best = w;
      found = true;
    }
    return best;
  }

 private:
  unsigned ways_;
  std::vector<std::uint64_t> last_use_;
  std::uint64_t clock_ = 0;
};

}  // namespace numagpu
