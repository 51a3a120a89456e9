// Interrupted runs keep their results. The first SIGINT or SIGTERM only raises a flag; the simulation looks
// at it every few thousand simulated cycles (InterruptPoller) and stops there, and `numagpu run` writes the
// statistics gathered so far, marked incomplete, before exiting with 128 + the signal number (130 for SIGINT,
// 143 for SIGTERM). A second signal exits at once. Outputs are written atomically, as one set (OutputSet), and
// the signals are held back while the set is written and moved into place (DeferSignals), so no output is
// ever torn and no temporary file or partial set is left behind.
#pragma once

#include <signal.h>

#include <functional>

#include <systemc>

#include "common/sim_context.hpp"

namespace numagpu::interrupt {

// Installs the handlers of SIGINT and SIGTERM (for the numagpu program; tests use request()).
void install_handlers();
// The signal that asked the run to stop, or 0.
int pending();
// What the handler does for a first signal: asks the run to stop (tests call it directly).
void request(int signal_number);
// Forgets a request (tests).
void reset();
inline int exit_status(int signal_number) {
  return 128 + signal_number;
}

// Blocks SIGINT and SIGTERM for its lifetime; one that arrives meanwhile is delivered when it ends.
class DeferSignals {
 public:
  DeferSignals();
  ~DeferSignals();
  DeferSignals(const DeferSignals&) = delete;
  DeferSignals& operator=(const DeferSignals&) = delete;

 private:
  sigset_t previous_;
};

// Looks at the flag at time zero and then every `every` simulated cycles, and calls `stop` once when it is
// raised. One timed event per window and nothing else, so the host cost is negligible; halt() cancels the
// pending look (call it when the workload finishes, so that a pending look does not outlive the last real
// event and push the end of the simulation later).
class InterruptPoller : public sc_core::sc_module {
 public:
  InterruptPoller(const sc_core::sc_module_name& name, SimContext& ctx, Cycles every,
                  std::function<void()> stop);
  void start();
  void halt();

 private:
  void look();

  const GpuClock& clock_;
  Cycles every_;
  std::function<void()> stop_;
  sc_core::sc_event tick_;
  bool running_ = false;
};

}  // namespace numagpu::interrupt
