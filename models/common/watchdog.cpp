#include "common/watchdog.hpp"

#include <sstream>

namespace numagpu {

Watchdog::Watchdog(const sc_core::sc_module_name& name, SimContext& ctx, Cycles window, Probes probes,
                   std::ostream& dump)
    : sc_module(name), ctx_(ctx), window_(window), probes_(std::move(probes)), dump_(dump) {
  SC_HAS_PROCESS(Watchdog);
  SC_METHOD(sample);
  sensitive << tick_;
  dont_initialize();
}

void Watchdog::start() {
  if (window_ == 0) return;  // disabled by configuration
  running_ = true;
  last_completed_ = probes_.completed();
  tick_.notify(ctx_.clock.cycles(window_));
}

void Watchdog::stop() {
  running_ = false;
  tick_.cancel();
}

void Watchdog::sample() {
  if (!running_) return;
  const std::uint64_t completed = probes_.completed();
  const std::uint64_t outstanding = probes_.outstanding();
  if (outstanding > 0 && completed == last_completed_) {
    fired_ = true;
    running_ = false;
    std::ostringstream head;
    head << "no request completed for " << window_ << " cycles with " << outstanding
         << " outstanding (at cycle " << ctx_.clock.now() << "); queue occupancy follows";
    ctx_.health.report(RunHealth::Kind::kWatchdog, head.str());
    dump_ << "numagpu: watchdog: " << head.str() << "\n";
    // Every component with something queued, at most kDumpLines of them: a stuck system has hundreds.
    std::ostringstream all;
    for (const auto* r : reporters_)
      r->report_queues(all);
    std::istringstream lines(all.str());
    std::size_t shown = 0, total = 0;
    for (std::string line; std::getline(lines, line); ++total) {
      if (shown < kDumpLines) {
        dump_ << line << "\n";
        ++shown;
      }
    }
    if (total > shown) dump_ << "  ... and " << (total - shown) << " more components with queued work\n";
    dump_.flush();
    if (on_fire) {
      on_fire();
    } else {
      sc_core::sc_stop();
    }
    return;
  }
  last_completed_ = completed;
  tick_.notify(ctx_.clock.cycles(window_));
}

}  // namespace numagpu
