// A FIFO on a power-of-two ring that grows and never shrinks. A port's queue of requests or responses fills
// and drains all the time; std::deque allocated and freed a block every few dozen items there.
//
// The first few items live inside the queue itself: a port's queue is short (rarely more than a couple of
// items), so the item to send next lies next to the port's other state instead of in a block of its own
// elsewhere in memory (one cache miss less per hop). Longer queues move to the heap. The storage may point
// into the object, so a RingQueue is neither copied nor moved.
#pragma once

#include <cstddef>
#include <memory>

namespace numagpu {

template <typename T, std::size_t kInline = 4>
class RingQueue {
  static_assert(kInline > 0 && (kInline & (kInline - 1)) == 0, "the inline capacity is a power of two");

 public:
  RingQueue() = default;
  RingQueue(const RingQueue&) = delete;
  RingQueue& operator=(const RingQueue&) = delete;

  bool empty() const { return head_ == tail_; }
  std::size_t size() const { return tail_ - head_; }
  const T& front() const { return items_[head_ & mask_]; }
  void pop_front() { ++head_; }
  void push_back(const T& item) {
    if (size() == mask_ + 1) grow();
    items_[tail_++ & mask_] = item;
  }

 private:
  void grow() {
    const std::size_t capacity = 2 * (mask_ + 1);
    auto bigger = std::make_unique<T[]>(capacity);
    const std::size_t n = size();
    for (std::size_t i = 0; i < n; ++i)
      bigger[i] = items_[(head_ + i) & mask_];
    heap_ = std::move(bigger);
    items_ = heap_.get();
    mask_ = capacity - 1;
    head_ = 0;
    tail_ = n;
  }

  T* items_ = inline_;
  std::size_t mask_ = kInline - 1;
  std::size_t head_ = 0;  // counts items popped; the index is taken modulo the capacity
  std::size_t tail_ = 0;  // counts items pushed
  T inline_[kInline] = {};
  std::unique_ptr<T[]> heap_;  // once the queue outgrew inline_
};

}  // namespace numagpu
