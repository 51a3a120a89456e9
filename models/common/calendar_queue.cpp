#include "common/calendar_queue.hpp"

#include <algorithm>
#include <stdexcept>

namespace numagpu {

namespace {
struct Later {
  template <class T>
  bool operator()(const T& a, const T& b) const {
    return a.at > b.at || (a.at == b.at && a.seq > b.seq);
  }
};
}  // namespace

CalendarQueue::CalendarQueue(std::uint64_t bucket_width, std::size_t buckets)
    : width_(bucket_width ? bucket_width : 1),
      mask_(buckets - 1),
      ring_(buckets),
      occupied_((buckets + 63) / 64, 0) {
  if (bucket_width == 0 || buckets == 0 || (buckets & (buckets - 1)) != 0)
    throw std::invalid_argument("CalendarQueue: bucket width must be positive and buckets a power of two");
}

void CalendarQueue::mark(std::size_t slot, bool occupied) {
  const std::uint64_t bit = std::uint64_t(1) << (slot % 64);
  if (occupied) {
    occupied_[slot / 64] |= bit;
  } else {
    occupied_[slot / 64] &= ~bit;
  }
}

void CalendarQueue::push_elsewhere(std::uint64_t at, void* to, void* what) {
  const std::uint64_t bucket = width_.quotient(at);
  if (bucket < current_) throw std::logic_error("CalendarQueue: an item earlier than the current bucket");
  ++size_;
  if (bucket >= current_ + ring_.size()) {
    far_.push_back(FarItem{at, next_seq_++, to, what});
    std::push_heap(far_.begin(), far_.end(), Later());
    return;
  }
  // A later bucket of the ring (the current one goes the fast way in push()): appended, so each time's items
  // stay in push order.
  ring_[slot_of(bucket)].push_back(Item{at, to, what});
  mark(slot_of(bucket), true);
}

bool CalendarQueue::scan_current() {
  Bucket& b = ring_[slot_of(current_)];
  for (;;) {
    // Items due later than the instant move down to the kept part, in order; the first one due at the
    // instant stops the scan.
    for (const std::size_t end = b.size(); read_ < end; ++read_) {
      const Item& item = b[read_];
      if (item.at == instant_) return true;
      kept_min_ = std::min(kept_min_, item.at);
      b[kept_++] = item;
    }
    // Nothing more is due at the instant: the kept items are the bucket, the earliest of them the next
    // instant.
    b.resize(kept_);
    read_ = 0;
    kept_ = 0;
    instant_ = kept_min_;
    kept_min_ = kNever;
    if (b.empty()) return false;
  }
}

std::size_t CalendarQueue::next_occupied_slot() const {
  const std::size_t words = occupied_.size();
  const std::size_t current = slot_of(current_);
  const std::size_t start = slot_of(current_ + 1);
  for (std::size_t k = 0; k <= words; ++k) {
    const std::size_t word = (start / 64 + k) % words;
    std::uint64_t bits = occupied_[word];
    if (k == 0) bits &= ~std::uint64_t(0) << (start % 64);
    if (k == words) bits &= ~(~std::uint64_t(0) << (start % 64));  // the wrapped part of the first word
    if (word == current / 64) bits &= ~(std::uint64_t(1) << (current % 64));
    if (bits) return word * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
  }
  return kNone;
}

std::uint64_t CalendarQueue::next_bucket() const {
  std::uint64_t next = kNever;
  const std::size_t slot = next_occupied_slot();
  if (slot != kNone) next = current_ + 1 + ((slot - slot_of(current_ + 1)) & mask_);
  if (!far_.empty()) next = std::min(next, width_.quotient(far_.front().at));
  return next;
}

std::uint64_t CalendarQueue::next_time() {
  if (due_in_current()) return instant_;
  // The current bucket is used up; look into the next one without making it current.
  std::uint64_t t = far_.empty() ? kNever : far_.front().at;
  const std::size_t slot = next_occupied_slot();
  if (slot != kNone) {
    for (const Item& i : ring_[slot])
      t = std::min(t, i.at);
  }
  return t;
}

bool CalendarQueue::advance_until(std::uint64_t bucket) {
  if (next_bucket() > bucket) return false;
  advance();
  return true;
}

void CalendarQueue::advance() {
  // The current bucket is empty (scan_current() found nothing): leave it, then find the next bucket
  // holding items.
  mark(slot_of(current_), false);
  current_ = next_bucket();
  current_first_ = current_ * width_.divisor();
  // The ring now covers [current_, current_ + size): bring in the far items it reaches. They come in (time,
  // push) order, before any item pushed directly into their bucket (which is pushed later).
  while (!far_.empty() && width_.quotient(far_.front().at) < current_ + ring_.size()) {
    const FarItem item = far_.front();
    std::pop_heap(far_.begin(), far_.end(), Later());
    far_.pop_back();
    ring_[slot_of(width_.quotient(item.at))].push_back(Item{item.at, item.to, item.what});
    mark(slot_of(width_.quotient(item.at)), true);
  }
  instant_ = kNever;
  for (const Item& i : ring_[slot_of(current_)])
    instant_ = std::min(instant_, i.at);
  scan_current();
}

}  // namespace numagpu
