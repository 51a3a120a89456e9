// A priority queue of timed items for a simulator whose times cluster a few cycles ahead of now: items go
// into one bucket per cycle of a ring that covers the next `buckets` cycles (far items wait in a heap until
// the ring reaches them). Pushing is an append and popping a read, where a binary heap over the thousands of
// payloads in flight paid ~20 compares per item (measured: 0.9 G instructions in the default run,
// docs/performance.md).
//
// Order: by time, then by push order (FIFO at equal times). Times never go back: an item is pushed no
// earlier than the last item popped. Plain C++, no SystemC (tests/unit/model/calendar_queue_test.cpp).
//
// A bucket is never sorted. Its items are kept in push order for each time (appending keeps it so), and the
// bucket being read is drained one time ("instant") after the other: a scan hands out the items due at the
// instant in the order they lie, and moves the others down (kept, in order) for the next instant. A cycle
// holds only a few distinct picosecond times, so each item is looked at a few times, and an item pushed for
// the instant being drained (a zero-delay hop, the common case) is just appended: the scan reaches it after
// everything already due. Sorting each bucket and inserting such pushes in order cost 13 % of the default
// run's instructions (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/divider.hpp"

namespace numagpu {

class CalendarQueue {
 public:
  struct Item {
    std::uint64_t at;  // time, in the unit of bucket_width (ps)
    void* to;          // what the item is for and what it carries (the user's; opaque here)
    void* what;
  };

  // `bucket_width`: time one bucket covers (a cycle); `buckets`: ring size, a power of two. 256 cycles
  // cover the latencies a request meets between hops; a larger ring only keeps more bucket storage warm
  // (1,024 touched 13 MiB more memory in the default run and ran ~10 % slower, docs/performance.md).
  explicit CalendarQueue(std::uint64_t bucket_width, std::size_t buckets = 256);

  void push(std::uint64_t at, void* to, void* what) {
    // Most pushes are for the bucket being read (unsigned: an earlier time wraps and goes the slow way,
    // which refuses it).
    if (at - current_first_ < width_.divisor()) {
      ring_[slot_of(current_)].push_back(Item{at, to, what});
      if (at < instant_) instant_ = at;  // earlier than the instant being drained: drained first
      ++size_;
      return;
    }
    push_elsewhere(at, to, what);
  }
  // The item the current bucket holds after the last one popped, if any (it may be due later): a hint for
  // prefetching what the next delivery will touch, nothing more.
  const Item* peek_following() const {
    const Bucket& b = ring_[slot_of(current_)];
    return read_ < b.size() ? &b[read_] : nullptr;
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // When the earliest item is due (call only when not empty). Moves no time forward: items may still be
  // pushed for any time from the last popped item's on, earlier than this one included.
  std::uint64_t next_time();
  // The earliest item (call only when not empty, and only to pop it: the queue then takes no item earlier
  // than it).
  const Item& top() {
    if (!due_in_current()) advance();
    return ring_[slot_of(current_)][read_];
  }
  // Removes the earliest item (call only after top(), with no push in between).
  void pop() {
    ++read_;
    --size_;
  }
  // The earliest item if it is due no later than `now`, removed from the queue (and true); else false and
  // the queue as it was. `now` must not be earlier than the last item popped, and no item may be pushed
  // for a time before `now` afterwards (a simulator calls it at the current time).
  bool pop_due(std::uint64_t now, Item& out) {
    if (!due_in_current() && !advance_until(width_.quotient(now))) return false;
    const Item& item = ring_[slot_of(current_)][read_];
    if (item.at > now) return false;
    out = item;
    pop();
    return true;
  }

 private:
  using Bucket = std::vector<Item>;
  struct FarItem {
    std::uint64_t at;
    std::uint64_t seq;  // push order among far items (they enter the ring sorted, before later pushes)
    void* to;
    void* what;
  };
  static constexpr std::uint64_t kNever = ~std::uint64_t(0);
  static constexpr std::size_t kNone = ~std::size_t(0);

  std::size_t slot_of(std::uint64_t bucket) const { return static_cast<std::size_t>(bucket) & mask_; }
  void push_elsewhere(std::uint64_t at, void* to, void* what);
  // True with read_ at the current bucket's next item due at `instant_`; the scan moves the items due later
  // down to the kept part, and starts over at the next instant when it reaches the end. False when the
  // current bucket holds nothing more (it is then empty).
  bool due_in_current() {
    const Bucket& b = ring_[slot_of(current_)];
    if (read_ < b.size() && b[read_].at == instant_) return true;
    return scan_current();
  }
  bool scan_current();
  // Makes the bucket of the earliest item current (the current one is used up).
  void advance();
  // advance(), if the earliest item's bucket is no later than `bucket`; false (nothing moved) otherwise.
  bool advance_until(std::uint64_t bucket);
  // The first occupied ring slot after the current one, in time order, or kNone.
  std::size_t next_occupied_slot() const;
  // The bucket number the earliest item outside the current bucket lies in, or kNever.
  std::uint64_t next_bucket() const;
  void mark(std::size_t slot, bool occupied);

  Divider width_;  // a bucket's span (a shift when a power of two)
  std::size_t mask_;
  std::vector<Bucket> ring_;
  std::vector<std::uint64_t> occupied_;  // bit per ring slot: its bucket holds items (current slot: unused)
  std::vector<FarItem> far_;             // beyond the ring, a min-heap by (at, seq)
  std::uint64_t current_ = 0;            // bucket number (at / width) being drained
  std::uint64_t current_first_ = 0;      // its first time, current_ * width_
  // The scan of the current bucket: [0, kept_) holds the items due after the instant (in order), [kept_,
  // read_) items already popped, [read_, end) items not looked at yet.
  std::size_t read_ = 0;
  std::size_t kept_ = 0;
  std::uint64_t instant_ = kNever;   // the time being drained: no item is earlier
  std::uint64_t kept_min_ = kNever;  // the earliest time in [0, kept_)
  std::uint64_t next_seq_ = 0;
  std::size_t size_ = 0;
};

}  // namespace numagpu
