#include "cli/progress.hpp"

#include <cstdio>

namespace numagpu {

ProgressLine::ProgressLine(const sc_core::sc_module_name& name, SimContext& ctx, Probes probes,
                           std::ostream& os, Cycles every)
    : sc_module(name), clock_(ctx.clock), probes_(std::move(probes)), os_(os), every_(every) {
  SC_HAS_PROCESS(ProgressLine);
  SC_METHOD(tick);
  sensitive << tick_event_;
  dont_initialize();
}

void ProgressLine::start() {
  started_ = last_draw_ = std::chrono::steady_clock::now();
  tick_event_.notify(clock_.cycles(every_));
}

void ProgressLine::tick() {
  if (probes_.finished()) return;  // stop ticking: the run is draining or done
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ >= std::chrono::milliseconds(250)) {
    last_draw_ = now;
    draw(false);
  }
  tick_event_.notify(clock_.cycles(every_));
}

void ProgressLine::draw(bool) {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const std::uint64_t done = probes_.requests_completed();
  char line[160];
  char kernels[32];  // kernels_total 0: not known in advance (an application's launches)
  if (probes_.kernels_total)
    std::snprintf(kernels, sizeof kernels, "%u/%u", probes_.kernels_done(), probes_.kernels_total);
  else
    std::snprintf(kernels, sizeof kernels, "%u", probes_.kernels_done());
  std::snprintf(line, sizeof line, "\r[numagpu] cycle %llu | kernels %s | requests %llu | %.2f M req/s   ",
                static_cast<unsigned long long>(clock_.now()), kernels, static_cast<unsigned long long>(done),
                wall > 0 ? double(done) / wall / 1e6 : 0.0);
  os_ << line << std::flush;
  drawn_ = true;
}

void ProgressLine::halt() {
  tick_event_.cancel();
}

void ProgressLine::finish() {
  tick_event_.cancel();
  if (drawn_) os_ << "\r" << std::string(100, ' ') << "\r" << std::flush;
}

}  // namespace numagpu
