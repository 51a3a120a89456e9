// The switch between sockets' links: non-blocking, a fixed latency, routing a request to the link of its home
// socket and a response back the way its request came.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "common/ports.hpp"
#include "common/time.hpp"
#include "common/watchdog.hpp"
#include "stats/registry.hpp"

namespace numagpu {

struct SwitchSpec {
  unsigned ports = 1;  // one per socket link; port i connects socket i
  Cycles latency = 0;
  unsigned queue_depth = 64;
};

class Switch : public sc_core::sc_module, public InputOwner, public OutputOwner, public QueueReporter {
 public:
  Switch(const sc_core::sc_module_name& name, const SwitchSpec& spec, stats::Registry& stats);

  RequestInputs in;
  RequestOutputs out;

  void report_queues(std::ostream& os) const override;

 private:
  bool try_accept(unsigned port, Payload& gp) override;
  void on_request(unsigned port, Payload& gp) override;
  void on_response(unsigned port, Payload& gp) override;
  void on_request_accepted(unsigned port, Payload& gp) override;

  SwitchSpec spec_;
  std::vector<unsigned> reserved_;
  stats::Counter& packets_;
};

}  // namespace numagpu
