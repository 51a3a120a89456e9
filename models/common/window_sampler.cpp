#include "common/window_sampler.hpp"

namespace numagpu {

WindowSampler::WindowSampler(const sc_core::sc_module_name& name, SimContext& ctx, Cycles window)
    : sc_module(name), clock_(ctx.clock), window_(window) {
  SC_HAS_PROCESS(WindowSampler);
  SC_METHOD(tick);
  sensitive << event_;
  dont_initialize();
}

void WindowSampler::start() {
  if (window_ == 0 || samples_.empty()) return;
  running_ = true;
  event_.notify(clock_.cycles(window_));
}

void WindowSampler::stop() {
  running_ = false;
  event_.cancel();
}

void WindowSampler::tick() {
  if (!running_) return;
  for (auto& sample : samples_)
    sample();
  event_.notify(clock_.cycles(window_));
}

}  // namespace numagpu
