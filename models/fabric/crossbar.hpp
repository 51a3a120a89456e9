// The intra-socket crossbar: the SMs' L1s and the socket's fabric links on the input side, the L2 banks and
// the same links on the output side. Requests homed here go to the L2 bank selected by the line's low bits;
// requests homed elsewhere leave on the link the topology's route table names for their home (memory-side
// L2: remote data is cached at its home), which also forwards traffic passing through this GPU to another.
// Each output port moves `port_bytes_per_cycle`, each input port returns responses at the same rate, plus a
// fixed latency.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "common/bandwidth_pipe.hpp"
#include "common/ports.hpp"
#include "common/time.hpp"
#include "common/watchdog.hpp"
#include "stats/registry.hpp"

namespace numagpu {

struct CrossbarSpec {
  unsigned sm_ports = 1;     // inputs 0..sm_ports-1 come from L1s; inputs sm_ports.. from links
  unsigned l2_banks = 1;     // outputs 0..l2_banks-1 go to L2 banks; outputs l2_banks.. to links
  unsigned l2_ports = 0;     // inputs sm_ports..sm_ports+l2_ports-1: GPU-side L2 banks sending remote misses
  unsigned link_ports = 0;   // fabric links attached to this socket, in topology order
  bool gpu_side_l2 = false;  // SMs' requests for remote data go to the local L2 first
  Cycles latency = 1;
  unsigned port_bytes_per_cycle = 64;
  unsigned queue_depth = 16;  // requests waiting per output port before inputs are back-pressured
  unsigned header_bytes = 16;
  unsigned line_bytes = 128;
};

class Crossbar : public sc_core::sc_module, public InputOwner, public OutputOwner, public QueueReporter {
 public:
  Crossbar(const sc_core::sc_module_name& name, const CrossbarSpec& spec, std::uint16_t socket,
           stats::Registry& stats);

  RequestInputs in;
  RequestOutputs out;

  // For each GPU: which of this socket's links leads towards it (0-based), or -1 for this socket itself.
  void set_routes(std::vector<int> link_for_gpu) { link_for_gpu_ = std::move(link_for_gpu); }
  // Called when a read or atomic of this socket's own leaves on a link (the partition controller's input).
  std::function<void()> on_remote_read;
  void report_queues(std::ostream& os) const override;

 private:
  bool try_accept(unsigned port, Payload& gp) override;
  void on_request(unsigned port, Payload& gp) override;
  void on_response(unsigned port, Payload& gp) override;
  void on_request_accepted(unsigned port, Payload& gp) override;
  unsigned route(unsigned in_port, const Payload& gp) const;

  CrossbarSpec spec_;
  std::uint16_t socket_;
  std::vector<int> link_for_gpu_;
  std::vector<unsigned> reserved_;                         // per output: accepted, not yet taken downstream
  std::vector<std::unique_ptr<BandwidthPipe>> out_pipes_;  // request direction
  std::vector<std::unique_ptr<BandwidthPipe>> in_pipes_;   // response direction
  stats::Counter& requests_;
  stats::Counter& remote_requests_;
  stats::Counter& bytes_;
};

}  // namespace numagpu
