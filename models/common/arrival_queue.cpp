#include "common/arrival_queue.hpp"

#include "common/time.hpp"

namespace numagpu {

ArrivalQueue::ArrivalQueue(const char* name, Deliver deliver)
    : deliver_(std::move(deliver)), scheduler_(DeliveryScheduler::shared()) {
  if (!scheduler_) {
    own_ = std::make_unique<DeliveryScheduler>(name, GpuClock::period_ps());
    scheduler_ = own_.get();
  }
}

}  // namespace numagpu
