// The intra-socket crossbar: the SMs' L1s and the socket's fabric links on the input side, the L2 banks and
// the same links on the output side. Requests homed here go to the L2 bank selected by the line's low bits;
// requests homed elsewhere leave on the link the topology's route table names for their home (memory-side
// L2: remote data is cached at its home), which also forwards traffic passing through this GPU to another.
//
// Request networks: each L2 bank is bound twice. Requests of this socket's SMs use the first binding
// (network 0), requests that arrive from the fabric the second (network 1), each with its own output queue
// here and its own slots in the bank, so a remote request never waits behind a local one that may itself be
// waiting on the fabric. Responses need no network of their own: they are never held (whoever sent a
// request reserved room for its answer) and are booked on the return path as they come.
//
// Bandwidth: every attachment (an L1, an L2 bank, a link) has one physical port whose outbound direction
// carries requests towards it and responses towards it alike. L1 and L2 ports move `port_bytes_per_cycle`;
// a link's port moves the link's full lane capacity (all its lanes, whatever their direction), so the link
// and not the crossbar limits what crosses it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "common/bandwidth_pipe.hpp"
#include "common/divider.hpp"
#include "common/machine_facts.hpp"
#include "common/ports.hpp"
#include "common/sim_context.hpp"
#include "common/watchdog.hpp"
#include "fabric/crossbar_spec.hpp"
#include "stats/registry.hpp"

namespace numagpu {

// What the crossbar is wired to, which the socket knows (fabric/crossbar.cpp numbers the ports).
struct CrossbarPorts {
  unsigned sm_ports = 1;  // inputs 0..sm_ports-1 come from L1s (and a copy engine); then L2s, then links
  // outputs 0..l2_banks-1: the banks' network-0 bindings; l2_banks..2 l2_banks-1: their network-1 bindings;
  // then one per link
  unsigned l2_banks = 1;
  unsigned l2_ports = 0;     // inputs sm_ports..sm_ports+l2_ports-1: GPU-side L2 banks sending remote misses
  bool gpu_side_l2 = false;  // SMs' requests for remote data go to the local L2 first
  std::vector<ByteRate> link_port_rates;  // one per attached link, in topology order: its lanes x lane rate
  unsigned link_ports() const { return static_cast<unsigned>(link_port_rates.size()); }
};

class Crossbar : public sc_core::sc_module, public InputOwner, public OutputOwner, public QueueReporter {
 public:
  Crossbar(const sc_core::sc_module_name& name, SimContext& ctx, const CrossbarSpec& spec,
           CrossbarPorts ports, const MachineFacts& facts, std::uint16_t socket, stats::Registry& stats);

  RequestInputs in;
  RequestOutputs out;

  // For each GPU: which of this socket's links leads towards it (0-based), or -1 for this socket itself.
  void set_routes(std::vector<int> link_for_gpu) { link_for_gpu_ = std::move(link_for_gpu); }
  // Called when a read or atomic of this socket's own leaves on a link (the partition controller's input).
  std::function<void()> on_remote_read;
  void report_queues(std::ostream& os) const override;

  // The counters other parts of the model read (the run summary, the activity recorder), by reference: a
  // statistic renamed or removed then breaks the build, not a run. The registered names are in crossbar.cpp.
  struct Counters {
    const stats::Counter& requests;
    const stats::Counter& requests_to_link;  // requests whose home is another socket
    const stats::Counter& bytes;
  };
  Counters counters() const { return {requests_, remote_requests_, bytes_}; }

 private:
  bool try_accept(unsigned port, Payload& gp) override;
  unsigned wait_key(unsigned port, const Payload& gp) const override { return route(port, gp); }
  void on_request(unsigned port, Payload& gp) override;
  void on_response(unsigned port, Payload& gp) override;
  void on_request_accepted(unsigned port, Payload& gp) override;
  unsigned route(unsigned in_port, const Payload& gp) const;
  BandwidthPipe& pipe_of_output(unsigned out_port);
  BandwidthPipe& pipe_of_input(unsigned in_port);

  const GpuClock& clock_;
  CrossbarSpec spec_;
  sc_core::sc_time latency_;  // spec_.latency, converted once: a conversion is a library call per hop
  CrossbarPorts ports_;
  MachineFacts facts_;
  Divider line_size_;   // facts_.line_bytes
  Divider bank_count_;  // ports_.l2_banks
  std::uint16_t socket_;
  std::vector<int> link_for_gpu_;
  std::vector<unsigned> reserved_;  // per output: accepted, not yet taken downstream
  // Outbound direction of each attachment's port: L1s (sm_ports), then L2 banks, then links.
  std::vector<std::unique_ptr<BandwidthPipe>> port_pipes_;
  stats::Counter& requests_;
  stats::Counter& remote_requests_;
  stats::Counter& bytes_;
};

}  // namespace numagpu
