// The end of every statistics window (`stats.sample_cycles`), for everything that samples: one SystemC
// process and one timed event for the whole system, whatever the number of components or observers. Each
// component's sample runs in the order it was added. Observers that only read (the activity recorder) add
// no event of their own, so recording activity cannot move the simulation's same-time event order.
#pragma once

#include <functional>
#include <vector>

#include <systemc>

#include "common/sim_context.hpp"

namespace numagpu {

class WindowSampler : public sc_core::sc_module {
 public:
  WindowSampler(const sc_core::sc_module_name& name, SimContext& ctx, Cycles window);

  void add(std::function<void()> sample) { samples_.push_back(std::move(sample)); }
  Cycles window() const { return window_; }
  void start();  // the first window ends `window` cycles from now
  void stop();   // no more windows (the workload is done)

 private:
  void tick();

  const GpuClock& clock_;
  Cycles window_;
  std::vector<std::function<void()>> samples_;
  sc_core::sc_event event_;
  bool running_ = false;
};

}  // namespace numagpu
