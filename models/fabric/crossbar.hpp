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
//
// Ports: numbered by role (fabric/crossbar_ports.hpp), each peer bound to its role through input() or
// output(); routing reads the roles' ranges, computed once when the crossbar is built.
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
#include "fabric/crossbar_ports.hpp"
#include "fabric/crossbar_spec.hpp"
#include "stats/registry.hpp"

namespace numagpu {

class Crossbar : public sc_core::sc_module, public InputOwner, public OutputOwner, public QueueReporter {
 public:
  Crossbar(const sc_core::sc_module_name& name, SimContext& ctx, const CrossbarSpec& spec,
           const CrossbarPorts& ports, const MachineFacts& facts, std::uint16_t socket,
           stats::Registry& stats);

  // For binding a peer to its role, the only way to the crossbar's ports: the input (or output) group, with
  // role r's port number `slot` claimed for the binding made next (common/port_map.hpp; an error when it is
  // not the next port).
  RequestInputs& input(XbarIn r, unsigned slot) {
    inputs_.claim(r, slot);
    return in;
  }
  RequestOutputs& output(XbarOut r, unsigned slot) {
    outputs_.claim(r, slot);
    return out;
  }

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
  void end_of_elaboration() override;  // every port bound (PortMap::check_complete)

  RequestInputs in;
  RequestOutputs out;
  const GpuClock& clock_;
  CrossbarSpec spec_;
  std::uint64_t latency_ps_;  // spec_.latency, converted once, and again after a clock change
  std::uint64_t period_ps_;   // the clock's period latency_ps_ and core_pipes_ were made with
  // A run-time clock change (System::set_clock_mhz): the crossbar is in the core clock domain, so its latency
  // and its SM-side and L2-bank ports follow the new period; its link ports keep the links' rate.
  void follow_clock() {
    if (clock_.period_ps() != period_ps_) refollow_clock();
  }
  void refollow_clock();
  std::vector<BandwidthPipe*> core_pipes_;
  bool gpu_side_l2_;
  PortMap<XbarIn> inputs_;
  PortMap<XbarOut> outputs_;
  PortRange sm_side_;  // inputs that send what an SM sends: SMs, the copy engine, the host's initiators
  MachineFacts facts_;
  Divider line_size_;   // facts_.line_bytes
  Divider bank_count_;  // L2 banks
  std::uint16_t socket_;
  std::vector<int> link_for_gpu_;
  std::vector<unsigned> reserved_;  // per output: accepted, not yet taken downstream
  // Outbound direction of each attachment's port: the SM-side inputs', the L2 banks', the links'; and which
  // of them each output and each input uses (a bank's two outputs and its L2-miss input share its port).
  std::vector<std::unique_ptr<BandwidthPipe>> port_pipes_;
  std::vector<BandwidthPipe*> pipe_of_output_;
  std::vector<BandwidthPipe*> pipe_of_input_;
  stats::Counter& requests_;
  stats::Counter& remote_requests_;
  stats::Counter& bytes_;
};

}  // namespace numagpu
