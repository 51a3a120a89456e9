#include "cli/interrupt.hpp"

#include <unistd.h>

#include "kernels/metis_graph.hpp"

namespace numagpu::interrupt {
namespace {

volatile sig_atomic_t g_signal = 0;

// Async-signal-safe: assigns a sig_atomic_t, or calls _exit.
extern "C" void on_signal(int signal_number) {
  if (g_signal != 0) _exit(exit_status(signal_number));  // the second signal: the user insists
  g_signal = signal_number;
}

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

void install_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes in progress resume: only the flag changes
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // Reading a large input file stops at the flag too (kernels/metis_graph.hpp).
  kernels::set_graph_interrupt_check([] { return g_signal != 0; });
}

int pending() {
  return g_signal;
}

void request(int signal_number) {
  g_signal = signal_number;
}

void reset() {
  g_signal = 0;
}

DeferSignals::DeferSignals() {
  const sigset_t set = stop_signals();
  sigprocmask(SIG_BLOCK, &set, &previous_);
}

DeferSignals::~DeferSignals() {
  sigprocmask(SIG_SETMASK, &previous_, nullptr);
}

InterruptPoller::InterruptPoller(const sc_core::sc_module_name& name, SimContext& ctx, Cycles every,
                                 std::function<void()> stop)
    : sc_module(name), clock_(ctx.clock), every_(every), stop_(std::move(stop)) {
  SC_HAS_PROCESS(InterruptPoller);
  SC_METHOD(look);
  sensitive << tick_;
  dont_initialize();
}

void InterruptPoller::start() {
  running_ = true;
  tick_.notify(sc_core::SC_ZERO_TIME);  // a signal that came during elaboration stops the run at cycle 0
}

void InterruptPoller::halt() {
  running_ = false;
  tick_.cancel();
}

void InterruptPoller::look() {
  if (!running_) return;
  if (pending() != 0) {
    running_ = false;
    stop_();
    return;
  }
  tick_.notify(clock_.cycles(every_));
}

}  // namespace numagpu::interrupt
