// Replacement policies for TagArray: which of the candidate ways of a set to evict. TagArray decides the
// candidates (free ways first, then the partition's quota rules); the policy keeps its per-way state and
// chooses among them. TagArray holds the configured policy's state and switches on its ReplacementKind at
// each hit, insertion and eviction: one predictable branch, where a virtual call per access cost a call
// through memory on the hot path (docs/architecture.md, "Adding a replacement policy").
//
// A policy is a class with three members over `i`, a way's index in the tag array's flat storage
// (set x ways + way): on_hit(i), on_insert(i) and pick(first, candidates), where `first` is the set's first
// index and `candidates` a non-zero mask of its ways, returning the way to evict.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace numagpu {

// The configuration's choices l1.replacement and l2.replacement (CacheSpec::replacement).
enum class ReplacementKind : std::uint8_t { kLru, kSrrip };

inline const char* to_string(ReplacementKind kind) {
  return kind == ReplacementKind::kSrrip ? "srrip" : "lru";
}
inline std::optional<ReplacementKind> replacement_kind(std::string_view name) {
  if (name == "lru") return ReplacementKind::kLru;
  if (name == "srrip") return ReplacementKind::kSrrip;
  return std::nullopt;
}

// Least recently used: a timestamp per way from one clock per array; a hit and an insertion both make the way
// the most recently used. The victim is the candidate with the oldest timestamp, the lowest way on a tie
// (ways never used, whose timestamp is 0).
class LruPolicy {
 public:
  explicit LruPolicy(std::size_t entries = 0) : last_use_(entries, 0) {}
  void on_hit(std::size_t i) { last_use_[i] = ++clock_; }
  void on_insert(std::size_t i) { last_use_[i] = ++clock_; }
  unsigned pick(std::size_t first, std::uint64_t candidates) const {
    const std::uint64_t* use = &last_use_[first];
    unsigned best = 0;
    bool found = false;
    for (std::uint64_t c = candidates; c; c &= c - 1) {
      const auto w = static_cast<unsigned>(__builtin_ctzll(c));
      if (!found || use[w] < use[best]) {
        best = w;
        found = true;
      }
    }
    return best;
  }

 private:
  std::vector<std::uint64_t> last_use_;
  std::uint64_t clock_ = 0;
};

// Static re-reference interval prediction (Jaleel et al., ISCA 2010), 2 bits per way: a line is inserted
// predicting a long re-reference interval (2), a hit predicts a near one (0). The victim is the first
// (lowest) candidate way predicted distant (3); when no candidate is, every candidate ages by one and the
// search repeats. Only the candidates age: lines that are not candidates (under way partitioning, those of
// the class not being replaced) keep their predictions. A scan of lines used once thus displaces lines that
// were hit before it only after they age from 0 to 3, where LRU displaces any line older than the scan.
class SrripPolicy {
 public:
  static constexpr std::uint8_t kNear = 0, kLong = 2, kDistant = 3;
  explicit SrripPolicy(std::size_t entries = 0) : rrpv_(entries, kDistant) {}
  void on_hit(std::size_t i) { rrpv_[i] = kNear; }
  void on_insert(std::size_t i) { rrpv_[i] = kLong; }
  unsigned pick(std::size_t first, std::uint64_t candidates) {
    std::uint8_t* rrpv = &rrpv_[first];
    for (;;) {
      for (std::uint64_t c = candidates; c; c &= c - 1) {
        const auto w = static_cast<unsigned>(__builtin_ctzll(c));
        if (rrpv[w] >= kDistant) return w;
      }
      for (std::uint64_t c = candidates; c; c &= c - 1)
        ++rrpv[__builtin_ctzll(c)];
    }
  }
  std::uint8_t rrpv(std::size_t i) const { return rrpv_[i]; }

 private:
  std::vector<std::uint8_t> rrpv_;  // re-reference prediction value per way
};

}  // namespace numagpu
