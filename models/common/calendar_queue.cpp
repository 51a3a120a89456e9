#include "common/calendar_queue.hpp"

#include <algorithm>
#include <stdexcept>

namespace numagpu {

namespace {
bool later(const CalendarQueue::Item& a, const CalendarQueue::Item& b) {
  return a.at > b.at || (a.at == b.at && a.seq > b.seq);
}
}  // namespace

CalendarQueue::CalendarQueue(std::uint64_t bucket_width, std::size_t buckets)
    : width_(bucket_width), mask_(buckets - 1), ring_(buckets), occupied_((buckets + 63) / 64, 0) {
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

void CalendarQueue::push(std::uint64_t at, void* to, void* what) {
  const Item item{at, next_seq_++, to, what};
  const std::uint64_t bucket = at / width_;
  if (bucket < current_) throw std::logic_error("CalendarQueue: an item earlier than the current bucket");
  ++size_;
  if (bucket >= current_ + ring_.size()) {
    far_.push_back(item);
    std::push_heap(far_.begin(), far_.end(), later);
    return;
  }
  Bucket& b = ring_[slot_of(bucket)];
  if (bucket == current_ && current_sorted_) {
    // The current bucket is being read in order: the item goes after everything due no later than it (its
    // seq is the largest so far), and never before the read position, which holds items already due.
    if (b.size() == read_ || !before(item, b.back())) {
      b.push_back(item);  // the usual case: no earlier than anything waiting
    } else {
      b.insert(std::upper_bound(b.begin() + static_cast<std::ptrdiff_t>(read_), b.end(), item, before), item);
    }
  } else {
    b.push_back(item);
  }
  mark(slot_of(bucket), true);
}

std::uint64_t CalendarQueue::next_time() const {
  const Bucket& current = ring_[slot_of(current_)];
  if (read_ < current.size()) {
    if (current_sorted_) return current[read_].at;
    std::uint64_t t = ~std::uint64_t(0);
    for (const Item& i : current)
      t = std::min(t, i.at);
    return t;
  }
  std::uint64_t t = far_.empty() ? ~std::uint64_t(0) : far_.front().at;
  const std::size_t slot = next_occupied_slot();
  if (slot != kNone) {
    for (const Item& i : ring_[slot])
      t = std::min(t, i.at);
  }
  return t;
}

// The first occupied ring slot after the current one, in time order (the current slot itself excluded: it
// may hold items already read), or kNone.
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

void CalendarQueue::advance() {
  Bucket* b = &ring_[slot_of(current_)];
  if (read_ < b->size()) {
    if (!current_sorted_) {
      std::sort(b->begin(), b->end(), before);
      current_sorted_ = true;
    }
    return;
  }
  // The current bucket is used up: empty it, then find the next bucket holding items.
  b->clear();
  mark(slot_of(current_), false);
  read_ = 0;
  current_sorted_ = false;
  std::uint64_t next = ~std::uint64_t(0);  // no ring item: the far heap's first
  const std::size_t slot = next_occupied_slot();
  if (slot != kNone) next = current_ + 1 + ((slot - slot_of(current_ + 1)) & mask_);
  if (!far_.empty()) next = std::min(next, far_.front().at / width_);
  current_ = next;
  // The ring now covers [current_, current_ + size): bring in the far items it reaches.
  while (!far_.empty() && far_.front().at / width_ < current_ + ring_.size()) {
    const Item item = far_.front();
    std::pop_heap(far_.begin(), far_.end(), later);
    far_.pop_back();
    ring_[slot_of(item.at / width_)].push_back(item);
    mark(slot_of(item.at / width_), true);
  }
  std::sort(ring_[slot_of(current_)].begin(), ring_[slot_of(current_)].end(), before);
  current_sorted_ = true;
}

}  // namespace numagpu
