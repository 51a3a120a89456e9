// A priority queue of timed items for a simulator whose times cluster a few cycles ahead of now: items go
// into one bucket per cycle of a ring that covers the next `buckets` cycles (far items wait in a heap until
// the ring reaches them), and the bucket of the current cycle is sorted once when time reaches it. Pushing
// is an append and popping a read, where a binary heap over the thousands of payloads in flight paid ~20
// compares per item (measured: 0.9 G instructions in the default run, docs/performance.md).
//
// Order: by time, then by push order (FIFO at equal times). Times never go back: an item is pushed no
// earlier than the last item popped. Plain C++, no SystemC (tests/unit/model/calendar_queue_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace numagpu {

class CalendarQueue {
 public:
  struct Item {
    std::uint64_t at;   // time, in the unit of bucket_width (ps)
    std::uint64_t seq;  // push order
    void* to;           // what the item is for and what it carries (the user's; opaque here)
    void* what;
  };

  // `bucket_width`: time one bucket covers (a cycle); `buckets`: ring size, a power of two.
  explicit CalendarQueue(std::uint64_t bucket_width, std::size_t buckets = 1024);

  void push(std::uint64_t at, void* to, void* what);
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // When the earliest item is due (call only when not empty). Changes nothing: items may still be pushed
  // for any time from the last popped item's on, earlier than this one included.
  std::uint64_t next_time() const;
  // The earliest item (call only when not empty, and only to pop it: the queue then takes no item earlier
  // than it).
  const Item& top() {
    const Bucket& b = ring_[slot_of(current_)];
    if (current_sorted_ && read_ < b.size()) return b[read_];
    advance();
    return ring_[slot_of(current_)][read_];
  }
  // Removes the earliest item (call only after top(), with no push in between).
  void pop() {
    ++read_;
    --size_;
  }

 private:
  using Bucket = std::vector<Item>;
  static bool before(const Item& a, const Item& b) { return a.at < b.at || (a.at == b.at && a.seq < b.seq); }
  std::size_t slot_of(std::uint64_t bucket) const { return static_cast<std::size_t>(bucket) & mask_; }
  // Makes the bucket of the earliest item current and sorted.
  void advance();
  static constexpr std::size_t kNone = ~std::size_t(0);
  std::size_t next_occupied_slot() const;
  void mark(std::size_t slot, bool occupied);

  std::uint64_t width_;
  std::size_t mask_;
  std::vector<Bucket> ring_;
  std::vector<std::uint64_t> occupied_;  // bit per ring slot: its bucket holds items
  std::vector<Item> far_;                // beyond the ring, a min-heap by (at, seq)
  std::uint64_t current_ = 0;            // bucket number (at / width) being drained
  std::size_t read_ = 0;                 // next item of the current bucket
  bool current_sorted_ = false;
  std::uint64_t next_seq_ = 0;
  std::size_t size_ = 0;
};

}  // namespace numagpu
