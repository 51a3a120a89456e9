// A FIFO on a power-of-two ring that grows and never shrinks. A port's queue of requests or responses fills
// and drains all the time; std::deque allocated and freed a block every few dozen items there.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace numagpu {

template <typename T>
class RingQueue {
 public:
  bool empty() const { return head_ == tail_; }
  std::size_t size() const { return tail_ - head_; }
  const T& front() const { return items_[head_ & mask_]; }
  void pop_front() { ++head_; }
  void push_back(const T& item) {
    if (size() == items_.size()) grow();
    items_[tail_++ & mask_] = item;
  }

 private:
  void grow() {
    std::vector<T> bigger(items_.empty() ? 8 : 2 * items_.size());
    for (std::size_t i = 0; i < size(); ++i)
      bigger[i] = items_[(head_ + i) & mask_];
    tail_ = size();
    head_ = 0;
    items_ = std::move(bigger);
    mask_ = items_.size() - 1;
  }

  std::vector<T> items_;
  std::size_t mask_ = 0;
  std::size_t head_ = 0;  // counts items popped; the index is taken modulo the size
  std::size_t tail_ = 0;  // counts items pushed
};

}  // namespace numagpu
