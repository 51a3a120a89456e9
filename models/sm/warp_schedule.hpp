// Which warps of an SM may issue, without scanning every warp per activation: the ready warps in age order
// (for greedy-then-oldest) and by number (for loose round-robin), per processing block, and the future cycles
// at which warps become ready (for the SM's next wake-up).
//
// Plain C++, no SystemC. The SM owns the warps' state and reports every change that matters:
// - ready warps: a bit per warp, kept in an array ordered by age, so the oldest ready warp is the first set
//   bit (at most 256 warps: four words). Ages change only when a CTA is launched into a slot, and then its
//   warps become the youngest, so the order is updated only at launches (`relaunched`). The same bits are
//   kept by warp number too (`by_number_`) when a round-robin pick asks for them (reset's `by_number`).
// - processing blocks: warp w belongs to block w mod blocks (sm/issue_pipes.hpp); a pick looks at one block's
//   warps through a mask per block, in age order (recomputed at launches) and by number (fixed).
// - future ready cycles: a min-heap of (cycle, warp). An entry is not removed when the warp's ready cycle
//   changes; a stale entry is dropped when it reaches the top, and the SM's predicate says which are
//   current. The heap stays small: a few entries per warp.
//
// Exactness: with every change reported, the set bits are exactly the ready warps, and the top current timer
// entry is the earliest future ready cycle: the same answers as a scan of all warps.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

namespace numagpu {

class WarpSchedule {
 public:
  using Cycle = std::uint64_t;
  static constexpr Cycle kNever = std::numeric_limits<Cycle>::max();
  static constexpr unsigned kMaxWarps = 256;

  static constexpr unsigned kMaxBlocks = 8;

  // Forgets everything; warps are numbered 0 .. warps-1 and, until relaunched, ordered by number. Warp w
  // belongs to processing block w mod `blocks` (1..kMaxBlocks). `by_number`: keep the ready warps by number
  // too, for next_ready_after (a cost on every change that greedy-then-oldest does not need).
  void reset(unsigned warps, unsigned blocks = 1, bool by_number = false) {
    if (warps > kMaxWarps) throw std::invalid_argument("WarpSchedule: at most 256 warps");
    if (blocks < 1 || blocks > kMaxBlocks) throw std::invalid_argument("WarpSchedule: 1 to 8 blocks");
    blocks_ = blocks;
    track_numbers_ = by_number;
    order_.resize(warps);
    position_.resize(warps);
    for (unsigned w = 0; w < warps; ++w)
      order_[w] = position_[w] = static_cast<std::uint16_t>(w);
    ready_.assign(warps, 0);
    std::fill(std::begin(bits_), std::end(bits_), 0);
    std::fill(std::begin(by_number_), std::end(by_number_), 0);
    for (unsigned b = 0; b < kMaxBlocks; ++b) {
      std::fill(std::begin(number_mask_[b]), std::end(number_mask_[b]), 0);
      for (unsigned w = b; b < blocks && w < warps; w += blocks)
        number_mask_[b][w >> 6] |= std::uint64_t(1) << (w & 63);
      std::copy(std::begin(number_mask_[b]), std::end(number_mask_[b]), std::begin(age_mask_[b]));
    }
    timers_.clear();
    timer_at_.assign(warps, kNever);
    timers_.reserve(2 * std::size_t(warps));
  }
  unsigned blocks() const { return blocks_; }

  // Warps first .. first+count-1 were given new ages, younger than every other warp and increasing with
  // their number: they move to the young end of the order.
  void relaunched(unsigned first, unsigned count) {
    // In place: the others keep their order (out never passes p), then the relaunched warps by number.
    std::size_t out = 0;
    for (std::size_t p = 0; p < order_.size(); ++p) {
      if (order_[p] < first || order_[p] >= first + count) order_[out++] = order_[p];
    }
    for (unsigned w = first; w < first + count; ++w)
      order_[out++] = static_cast<std::uint16_t>(w);
    std::fill(std::begin(bits_), std::end(bits_), 0);
    if (blocks_ > 1) {
      for (unsigned b = 0; b < blocks_; ++b)
        std::fill(std::begin(age_mask_[b]), std::end(age_mask_[b]), 0);
    }
    for (unsigned p = 0; p < order_.size(); ++p) {
      position_[order_[p]] = static_cast<std::uint16_t>(p);
      const std::uint64_t bit = std::uint64_t(1) << (p & 63);
      if (ready_[order_[p]]) bits_[p >> 6] |= bit;
      if (blocks_ > 1) age_mask_[order_[p] % blocks_][p >> 6] |= bit;
    }
  }

  // Warp `w` may issue now (true) or not (false).
  void set_ready(unsigned w, bool ready) {
    if (ready_[w] == static_cast<std::uint8_t>(ready)) return;
    ready_[w] = static_cast<std::uint8_t>(ready);
    const unsigned p = position_[w];
    bits_[p >> 6] ^= std::uint64_t(1) << (p & 63);
    if (track_numbers_) by_number_[w >> 6] ^= std::uint64_t(1) << (w & 63);
  }
  bool is_ready(unsigned w) const { return ready_[w] != 0; }

  // The oldest ready warp (of processing block `block`), or -1.
  int oldest_ready(unsigned block = 0) const {
    const std::uint64_t* mask = age_mask_[block];
    for (unsigned k = 0; k < kWords; ++k) {
      const std::uint64_t m = bits_[k] & mask[k];
      if (m) return order_[k * 64 + static_cast<unsigned>(__builtin_ctzll(m))];
    }
    return -1;
  }

  // Loose round-robin: the first ready warp of `block` numbered after `last`, wrapping around to the lowest
  // (`last` itself only when it is the one ready), or -1. Needs reset(..., by_number = true).
  int next_ready_after(unsigned block, unsigned last) const {
    const std::uint64_t* mask = number_mask_[block];
    const unsigned from = last + 1;  // the first number to look at; kMaxWarps: wrap at once
    for (unsigned k = from >> 6; k < kWords; ++k) {
      std::uint64_t m = by_number_[k] & mask[k];
      if (k == from >> 6) m &= ~std::uint64_t(0) << (from & 63);
      if (m) return static_cast<int>(k * 64 + static_cast<unsigned>(__builtin_ctzll(m)));
    }
    for (unsigned k = 0; k <= (from >> 6) && k < kWords; ++k) {
      const std::uint64_t m = by_number_[k] & mask[k];
      if (m) return static_cast<int>(k * 64 + static_cast<unsigned>(__builtin_ctzll(m)));
    }
    return -1;
  }

  // Warp `w` will be ready at cycle `t` (later than now).
  void ready_at(unsigned w, Cycle t) {
    if (timer_at_[w] == t) return;  // an entry for this cycle is already queued
    timer_at_[w] = t;
    timers_.push_back(Timer{t, w});
    std::push_heap(timers_.begin(), timers_.end(), std::greater<>());
  }

  // Hands the warps whose cycle has come (t <= now) to `promote(w)`, which checks the warp's current state
  // (an entry may be stale) and calls set_ready if it is ready now.
  template <class Promote>
  void advance(Cycle now, Promote&& promote) {
    while (!timers_.empty() && timers_.front().t <= now)
      promote(pop_timer().w);
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

  std::size_t queued_timers() const { return timers_.size(); }  // for tests

 private:
  static constexpr unsigned kWords = kMaxWarps / 64;
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

  std::vector<std::uint16_t> order_;     // warps from oldest to youngest
  std::vector<std::uint16_t> position_;  // inverse of order_
  std::vector<std::uint8_t> ready_;  // per warp, 0 or 1 (bytes: a bit vector's proxies cost on every change)
  std::uint64_t bits_[kWords] = {};  // bit p: order_[p] is ready
  std::uint64_t by_number_[kWords] = {};  // bit w: warp w is ready (when track_numbers_)
  bool track_numbers_ = false;
  unsigned blocks_ = 1;
  std::uint64_t age_mask_[kMaxBlocks][kWords] = {};     // bit p: order_[p] is in the block
  std::uint64_t number_mask_[kMaxBlocks][kWords] = {};  // bit w: warp w is in the block
  std::vector<Timer> timers_;                           // min-heap of (cycle, warp)
  std::vector<Cycle> timer_at_;  // per warp: the cycle of its newest entry in timers_, or kNever
};

}  // namespace numagpu
