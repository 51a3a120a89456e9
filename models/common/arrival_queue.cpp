#include "common/arrival_queue.hpp"

namespace numagpu {

ArrivalQueue::ArrivalQueue(const char* name) : scheduler_(DeliveryScheduler::shared()) {
  if (!scheduler_) {
    // Outside a system the clock is not known here; the bucket width only tunes speed (1 ns: 1 GHz).
    own_ = std::make_unique<DeliveryScheduler>(name, 1000);
    scheduler_ = own_.get();
  }
}

}  // namespace numagpu
