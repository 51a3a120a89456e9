// The watchdog: while requests are outstanding, no completion for `window` cycles means the model is stuck.
// It then prints every component's queue occupancy, records a RunHealth error and stops the simulation,
// instead of letting the run hang. It samples once per window (no per-cycle cost).
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <vector>

#include <systemc>

#include "common/sim_context.hpp"

namespace numagpu {

class QueueReporter {
 public:
  virtual ~QueueReporter() = default;
  // One line per queue worth reporting: "<component>: <queue> <occupancy>"; nothing when all are empty.
  virtual void report_queues(std::ostream& os) const = 0;
};

class Watchdog : public sc_core::sc_module {
 public:
  struct Probes {
    std::function<std::uint64_t()> completed;    // monotonically increasing progress count
    std::function<std::uint64_t()> outstanding;  // requests in flight
  };
  Watchdog(const sc_core::sc_module_name& name, SimContext& ctx, Cycles window, Probes probes,
           std::ostream& dump);

  void add_reporter(const QueueReporter* r) { reporters_.push_back(r); }
  void start();  // begins sampling; call at the start of simulation
  void stop();   // no more samples (the run finished)
  bool fired() const { return fired_; }
  // Called after a report instead of sc_stop() (a System in a host's simulation ends alone), when set.
  std::function<void()> on_fire;
  static constexpr std::size_t kDumpLines = 40;

 private:
  void sample();

  SimContext& ctx_;
  Cycles window_;
  Probes probes_;
  std::ostream& dump_;
  std::vector<const QueueReporter*> reporters_;
  sc_core::sc_event tick_;
  std::uint64_t last_completed_ = 0;
  bool running_ = false;
  bool fired_ = false;
};

}  // namespace numagpu
