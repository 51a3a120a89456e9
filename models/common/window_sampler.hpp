// The end of every statistics window (`stats.sample_cycles`), for everything that samples: one SystemC
// process and one timed event for the whole system, whatever the number of components or observers. Each
// component's sample runs in the order it was added. Observers that only read (the activity recorder) add
// no event of their own, so recording activity cannot move the simulation's same-time event order.
//
// A long run does not grow its per-window records without bound: after `max_windows` windows the window
// doubles and every observer merges its records pairwise (on_coarsen), so there are never more than
// max_windows windows, each as long as the current window (stats.max_windows; docs/stats.md). The number of
// window ends, and so the sampling cost, grows with the logarithm of the run's length beyond that.
#pragma once

#include <functional>
#include <vector>

#include <systemc>

#include "common/sim_context.hpp"

namespace numagpu {

class WindowSampler : public sc_core::sc_module {
 public:
  // max_windows: 0 for no limit, else even and at least 2 (pairs merge).
  WindowSampler(const sc_core::sc_module_name& name, SimContext& ctx, Cycles window,
                std::uint64_t max_windows);

  // Called at each window end with the length of the window that ended.
  void add(std::function<void(Cycles window)> sample) { samples_.push_back(std::move(sample)); }
  // Called when the window doubles, right after the samples of the window end that filled max_windows.
  void on_coarsen(std::function<void()> coarsen) { coarsens_.push_back(std::move(coarsen)); }
  Cycles window() const { return window_; }
  std::uint64_t coarsenings() const { return coarsenings_; }
  void start();  // the first window ends `window` cycles from now
  void stop();   // no more windows (the workload is done)
  // After a clock change (GpuClock::retime): the window still ends at its cycle, now at that cycle's new
  // time (it was notified in the old period).
  void follow_clock();

 private:
  void tick();

  const GpuClock& clock_;
  Cycles window_;
  const std::uint64_t max_windows_;
  std::uint64_t windows_ = 0;  // window ends since start at the current window length, after merging
  std::uint64_t coarsenings_ = 0;
  std::vector<std::function<void(Cycles)>> samples_;
  std::vector<std::function<void()>> coarsens_;
  sc_core::sc_event event_;
  bool running_ = false;
  Cycles next_end_ = 0;  // the cycle the current window ends at
};

}  // namespace numagpu
