// A copy engine for fabric microbenchmarks (numagpu bench-fabric): attached to a socket's crossbar, it moves
// a buffer to or from another socket's memory as line-sized writes (push) or reads (pull), keeping at most
// `outstanding` requests in flight, after a fixed start-up cost (the driver overhead Comm|Scope measures).
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>

#include "common/ports.hpp"
#include "common/sim_context.hpp"
#include "common/timed_event.hpp"
#include "common/watchdog.hpp"

namespace numagpu {

class TxnPool;
class HomeMap;

class CopyEngine : public sc_core::sc_module, public OutputOwner, public QueueReporter {
 public:
  CopyEngine(const sc_core::sc_module_name& name, SimContext& ctx, std::uint16_t socket, TxnPool& pool,
             const HomeMap& homes, unsigned line_bytes);

  RequestOutputs out;  // to the socket's crossbar

  struct Job {
    std::uint16_t peer = 0;         // the other socket: written to (push) or read from (pull)
    std::uint64_t bytes = 0;        // rounded up to whole lines
    bool push = true;               // true: writes homed at peer; false: reads homed at peer
    unsigned outstanding = 64;      // requests in flight at most
    Cycles startup = 0;             // cycles before the first request
    std::uint64_t base_offset = 0;  // where in the peer's memory the buffer starts
  };
  // Starts a job now; `done` is called when its last response has arrived.
  void start(const Job& job, std::function<void()> done);
  bool busy() const { return lines_done_ < lines_; }
  void report_queues(std::ostream& os) const override;

 private:
  void on_response(unsigned port, Payload& gp) override;
  void issue();
  void on_start_event() {
    const auto resumed = start_event_.resume();
    issue();
  }

  const GpuClock& clock_;
  RunHealth& health_;
  std::uint16_t socket_;
  TxnPool& pool_;
  const HomeMap& homes_;
  unsigned line_bytes_;
  Job job_;
  std::uint64_t lines_ = 0, lines_issued_ = 0, lines_done_ = 0;
  unsigned in_flight_ = 0;
  std::function<void()> done_;
  TimedEvent start_event_{clock_};
};

}  // namespace numagpu
