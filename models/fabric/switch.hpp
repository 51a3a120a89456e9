// A fabric switch: non-blocking between its links, per-output queueing (bounded, back-pressured), a fixed
// latency; a request leaves on the link the topology's route table names for its home GPU, a response goes
// back the way its request came.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "common/ports.hpp"
#include "common/sim_context.hpp"
#include "common/watchdog.hpp"
#include "fabric/link_spec.hpp"
#include "stats/registry.hpp"

namespace numagpu {

class Switch : public sc_core::sc_module, public InputOwner, public OutputOwner, public QueueReporter {
 public:
  Switch(const sc_core::sc_module_name& name, SimContext& ctx, const SwitchSpec& spec,
         stats::Registry& stats);

  RequestInputs in;
  RequestOutputs out;

  void report_queues(std::ostream& os) const override;
  // For each GPU: the port (0-based) leading towards it.
  void set_routes(std::vector<int> port_for_gpu) { port_for_gpu_ = std::move(port_for_gpu); }

  // The counters other parts of the model read (the activity recorder), by reference: a statistic renamed
  // or removed then breaks the build, not a run. The registered names are in switch.cpp.
  struct Counters {
    const stats::Counter& requests;
  };
  Counters counters() const { return {packets_}; }

 private:
  bool try_accept(unsigned port, Payload& gp) override;
  unsigned wait_key(unsigned port, const Payload& gp) const override;  // the output towards the home
  void on_request(unsigned port, Payload& gp) override;
  void on_response(unsigned port, Payload& gp) override;
  void on_request_accepted(unsigned port, Payload& gp) override;

  const GpuClock& clock_;
  SwitchSpec spec_;
  const sc_core::sc_time latency_ = clock_.cycles(spec_.latency);  // a traversal, made once
  std::vector<int> port_for_gpu_;
  std::vector<unsigned> reserved_;
  stats::Counter& packets_;
};

}  // namespace numagpu
