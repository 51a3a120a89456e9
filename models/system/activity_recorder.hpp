// Records what every component instance of a System does (power/activity.hpp): totals over the run and,
// with a sample window, the counts within each window. It reads what the components count anyway (their
// statistics and a few accessors) and changes nothing in the simulation: its one periodic event stops with
// the workload, like the other samplers. Counters come from the components by reference (their counters()),
// never by statistic name, so a renamed statistic breaks the build rather than a run. Create it after the
// System and before the run; call finish() once the run has returned.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "common/time.hpp"
#include "power/activity.hpp"

namespace numagpu {

namespace stats {
class Counter;
}
class System;

class ActivityRecorder : public sc_core::sc_module {
 public:
  // window_cycles 0: totals only, no event at all.
  ActivityRecorder(const sc_core::sc_module_name& name, System& system, Cycles window_cycles);

  // Closes the last window at the current time (the end of the run: it runs from the last window boundary
  // and can be longer than a window when write-backs drain after the last kernel) and returns the activity.
  // The caller fills in the generator version, machine hash and configuration.
  power::Activity finish();

 private:
  // A cumulative value: most are sums of registered counters (times a scale: bytes to bits), read directly;
  // the rest (busy time, cycles) are computed by `read`. One probe per activity counter.
  struct Probe {
    std::vector<const stats::Counter*> sum;
    std::uint64_t scale = 1;
    std::function<std::uint64_t()> read;  // when set, instead of the sum
    std::uint64_t value() const;
  };
  struct Tracked {
    power::Instance instance;
    std::vector<Probe> probes;        // one per counter
    std::vector<std::uint64_t> last;  // at the previous window boundary
    // Counts per window, window after window (windows x counters): one growing array instead of a vector
    // per window keeps a window end to reading the probes (instance.windows is filled at finish()).
    std::vector<std::uint64_t> counts;
  };

  Tracked& track(std::string name, const char* kind, int socket);
  void probe(Tracked& t, const char* counter, std::function<std::uint64_t()> read);
  void sum(Tracked& t, const char* counter, std::vector<const stats::Counter*> counters,
           std::uint64_t scale = 1);
  void counter(Tracked& t, const char* counter, const stats::Counter& c) { sum(t, counter, {&c}); }
  void build();
  void sample();
  void close_window(Cycles end);
  void coarsen();

  System& system_;
  Cycles window_;
  Cycles now_ = 0;           // the cycle the probes are read at
  Cycles window_start_ = 0;  // start of the open window
  bool stopped_ = false;
  std::vector<Tracked> tracked_;
  std::vector<std::function<void()>> syncs_;  // bring lazily stepped policy blocks up to now
  std::vector<power::Window> windows_;
};

}  // namespace numagpu
