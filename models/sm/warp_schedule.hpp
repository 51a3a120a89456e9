// Which warps of an SM may issue, without scanning every warp per activation: the ready warps ordered by age
// (for greedy-then-oldest) and the future cycles at which warps become ready (for the SM's next wake-up).
//
// Plain C++, no SystemC. The SM owns the warps' state; this class only keeps two min-heaps of candidates and
// asks the SM, through a predicate, whether a candidate is still current. Entries are never removed when a
// warp changes (that would need a position index per warp); a stale entry is dropped when it reaches the top
// of its heap. Both heaps stay small: at most a few entries per warp.
//
// Exactness: the SM must tell the schedule every time a warp becomes ready at once (`make_ready`) or gets a
// future ready cycle (`ready_at`). Then every ready warp has a current entry in the ready heap, so the top
// current entry is the oldest ready warp, and the top current timer entry is the earliest future ready cycle:
// the same answers as a scan of all warps.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace numagpu {

class WarpSchedule {
 public:
  using Cycle = std::uint64_t;
  static constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

  // Forgets everything; warps are numbered 0 .. warps-1 (at most 256: the index takes 8 bits of a key).
  void reset(unsigned warps) {
    ready_.clear();
    timers_.clear();
    queued_age_.assign(warps, kNoAge);
    timer_at_.assign(warps, kNever);
    ready_.reserve(2 * std::size_t(warps));
    timers_.reserve(2 * std::size_t(warps));
  }

  // Warp `w`, launched with `age` (unique, increasing: older warps have smaller ages), is ready now. Calling
  // it again while the entry is queued does nothing.
  void make_ready(unsigned w, std::uint64_t age) {
    if (queued_age_[w] == age) return;
    queued_age_[w] = age;
    ready_.push_back(age << kIndexBits | w);
    std::push_heap(ready_.begin(), ready_.end(), std::greater<>());
  }

  // Warp `w` will be ready at cycle `t` (later than now).
  void ready_at(unsigned w, Cycle t) {
    if (timer_at_[w] == t) return;  // an entry for this cycle is already queued
    timer_at_[w] = t;
    timers_.push_back(Timer{t, w});
    std::push_heap(timers_.begin(), timers_.end(), std::greater<>());
  }

  // Moves the warps whose cycle has come (t <= now) to the ready set: `promote(w)` checks the warp's current
  // state and calls make_ready if it is ready now (an entry may be stale).
  template <class Promote>
  void advance(Cycle now, Promote&& promote) {
    while (!timers_.empty() && timers_.front().t <= now) {
      const Timer top = pop_timer();
      promote(top.w);
    }
  }

  // The oldest ready warp, or -1: `is_ready(w, age)` says whether warp `w` still has that age and is ready.
  // The warp stays in the set (it leaves when it is found not ready, after it issued).
  template <class IsReady>
  int oldest_ready(IsReady&& is_ready) {
    while (!ready_.empty()) {
      const std::uint64_t key = ready_.front();
      const unsigned w = static_cast<unsigned>(key & kIndexMask);
      const std::uint64_t age = key >> kIndexBits;
      if (is_ready(w, age)) return static_cast<int>(w);
      std::pop_heap(ready_.begin(), ready_.end(), std::greater<>());
      ready_.pop_back();
      if (queued_age_[w] == age) queued_age_[w] = kNoAge;
    }
    return -1;
  }

  // The earliest queued future ready cycle still current (`current(w, t)`: warp `w` waits for cycle `t`), or
  // kNever. Call after advance() for this cycle, so every queued cycle is later than now.
  template <class Current>
  Cycle next_ready_cycle(Current&& current) {
    while (!timers_.empty()) {
      const Timer& top = timers_.front();
      if (current(top.w, top.t)) return top.t;
      pop_timer();
    }
    return kNever;
  }

  std::size_t queued() const { return ready_.size() + timers_.size(); }  // for tests

 private:
  static constexpr unsigned kIndexBits = 8;
  static constexpr std::uint64_t kIndexMask = (std::uint64_t(1) << kIndexBits) - 1;
  static constexpr std::uint64_t kNoAge = std::numeric_limits<std::uint64_t>::max();
  struct Timer {
    Cycle t;
    unsigned w;
    bool operator>(const Timer& o) const { return t != o.t ? t > o.t : w > o.w; }
  };

  Timer pop_timer() {
    std::pop_heap(timers_.begin(), timers_.end(), std::greater<>());
    const Timer top = timers_.back();
    timers_.pop_back();
    if (timer_at_[top.w] == top.t) timer_at_[top.w] = kNever;
    return top;
  }

  std::vector<std::uint64_t> ready_;       // min-heap of age << 8 | warp
  std::vector<Timer> timers_;              // min-heap of (cycle, warp)
  std::vector<std::uint64_t> queued_age_;  // per warp: the age of its entry in ready_, or kNoAge
  std::vector<Cycle> timer_at_;            // per warp: the cycle of its newest entry in timers_, or kNever
};

}  // namespace numagpu
