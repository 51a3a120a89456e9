#include "common/window_sampler.hpp"

#include <stdexcept>

namespace numagpu {

WindowSampler::WindowSampler(const sc_core::sc_module_name& name, SimContext& ctx, Cycles window,
                             std::uint64_t max_windows)
    : sc_module(name), clock_(ctx.clock), window_(window), max_windows_(max_windows) {
  if (max_windows_ == 1 || max_windows_ % 2 != 0)
    throw std::invalid_argument("WindowSampler: max_windows must be 0 or even");
  SC_HAS_PROCESS(WindowSampler);
  SC_METHOD(tick);
  sensitive << event_;
  dont_initialize();
}

void WindowSampler::start() {
  if (window_ == 0 || samples_.empty()) return;
  running_ = true;
  next_end_ = clock_.now() + window_;
  event_.notify(clock_.cycles(window_));
}

void WindowSampler::follow_clock() {
  // A window that ends now has its tick due in this instant already (perhaps triggered): left as it is.
  if (!running_ || next_end_ <= clock_.now()) return;
  event_.cancel();
  event_.notify(clock_.until(clock_.cycle_start_ps(next_end_)));
}

void WindowSampler::stop() {
  running_ = false;
  event_.cancel();
}

void WindowSampler::tick() {
  if (!running_) return;
  for (auto& sample : samples_)
    sample(window_);
  if (++windows_ == max_windows_) {
    for (auto& coarsen : coarsens_)
      coarsen();
    window_ *= 2;
    windows_ /= 2;
    ++coarsenings_;
  }
  next_end_ = clock_.now() + window_;
  event_.notify(clock_.cycles(window_));
}

}  // namespace numagpu
