// Plug points for a host platform's own components (docs/tlm-edges.md): ports that speak the TLM-2.0 base
// protocol with any tlm_generic_payload on the host's side and numagpu's pooled payloads on the model's side.
//
// HostInitiatorPort: the host's initiator (a traffic generator, a DMA engine, a CPU) binds to `target` and
// sends requests into a socket's crossbar (as an SM does) or a switch port (routed to each address's home).
// nb_transport (4 phases, END_REQ withheld while the model back-pressures), b_transport (waits for the
// response) and transport_dbg (the memory's data, memory.functional) all work. Each request is checked
// (common/tlm_edge.hpp): a malformed one is answered with a TLM error status and never enters the model.
//
// HostTargetPort: replaces a socket's DRAM: the L2 banks' misses and write-backs go out of `initiator` to the
// host's target, one request in its request phase at a time, and its responses (any status) come back. The
// socket's Dram is still built, unbound: its statistics stay zero, and the partition controller sees it idle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/ports.hpp"
#include "common/ring_queue.hpp"
#include "common/sim_context.hpp"
#include "common/watchdog.hpp"
#include "mem/home_map.hpp"
#include "stats/registry.hpp"

namespace numagpu {

class HostInitiatorPort : public sc_core::sc_module,
                          public OutputOwner,
                          public QueueReporter,
                          private tlm::tlm_fw_transport_if<> {
 public:
  using TargetSocket =
      tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
  // `origin_socket`: the socket whose crossbar it feeds (kNoSocket at a switch), which also first-touches
  // pages (socket 0 at a switch); `origin_index`: its number there (NumaAttr::origin_sm); `key`: the
  // configuration entry, for errors.
  static constexpr std::uint16_t kNoSocket = 0xffff;
  HostInitiatorPort(const sc_core::sc_module_name& name, SimContext& ctx, TxnPool& pool, HomeMap& homes,
                    std::uint16_t origin_socket, std::uint16_t origin_index, stats::Registry& stats,
                    std::string key);

  TargetSocket target;  // the host's initiator binds here
  RequestOutputs out;   // into the crossbar or the switch

  bool bound() const { return target.get_base_port().size() > 0; }
  const std::string& config_key() const { return key_; }
  void report_queues(std::ostream& os) const override;

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  // DMI to the functional store (memory.functional), read and write, a page (or a mapped host region) at a
  // time; refused without it. Accesses through the pointer are functional only: the timed model sees none.
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) override;
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) override;
  void on_response(unsigned port, Payload& gp) override;
  // Temporal decoupling (a global quantum is set, tlm_utils::tlm_quantumkeeper): b_transport moves the data
  // at once and posts the request into the timed model at the caller's local time, returning without a
  // wait(); its response is absorbed here.
  static bool decoupled() { return tlm::tlm_global_quantum::instance().get() != sc_core::SC_ZERO_TIME; }
  void post(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void on_request_accepted(unsigned port, Payload& gp) override;
  // Checks a host payload: false (and its error status set) when it may not enter the model.
  bool admit(tlm::tlm_generic_payload& gp);
  Payload& stand_in_for(tlm::tlm_generic_payload& gp);
  void send_responses();
  void done_with(tlm::tlm_generic_payload& gp) {
    if (gp.has_mm()) gp.release();
  }

  struct BlockingCall {
    sc_core::sc_event done_event;
    bool done = false;
  };

  SimContext& ctx_;
  TxnPool& pool_;
  HomeMap& homes_;
  std::uint16_t origin_socket_;
  std::uint16_t origin_index_;
  std::string key_;
  Payload* awaiting_end_req_ = nullptr;  // the stand-in of the host's request in its request phase
  bool in_send_ = false;                 // inside out.send() from nb_transport_fw
  std::unordered_map<const Payload*, BlockingCall*> blocking_;  // stand-ins of b_transport calls
  // What a posted request's stand-in stands for: the host's payload returns at once, so a copy of its
  // command, address and length of the port's own does (recycled; the data has moved already).
  struct Posted {
    tlm::tlm_generic_payload gp;
    unsigned char data[8] = {};
  };
  std::vector<std::unique_ptr<Posted>> posted_all_;
  std::vector<Posted*> posted_free_;
  std::unordered_map<const Payload*, Posted*> posted_;          // stand-ins of posted requests
  RingQueue<tlm::tlm_generic_payload*> responses_;              // answered, BEGIN_RESP not yet sent
  tlm::tlm_generic_payload* resp_in_flight_ = nullptr;          // BEGIN_RESP sent, END_RESP awaited
  std::uint64_t outstanding_ = 0;
  stats::Counter& requests_;
  stats::Counter& blocking_requests_;
  stats::Counter& errors_;
};

class HostTargetPort : public sc_core::sc_module,
                       public InputOwner,
                       public QueueReporter,
                       private tlm::tlm_bw_transport_if<> {
 public:
  using InitiatorSocket =
      tlm::tlm_initiator_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
  // `queue_depth`: requests accepted from the banks and not yet taken by the host's target (END_REQ).
  // `protocol_checks` (checks.protocol): a response the host's target leaves at TLM_INCOMPLETE_RESPONSE is a
  // protocol violation of the run (else it is taken as OK, as a lenient target would be).
  HostTargetPort(const sc_core::sc_module_name& name, SimContext& ctx, unsigned queue_depth,
                 stats::Registry& stats, std::string key, bool protocol_checks = false);

  RequestInputs in;           // the L2 banks bind here (as to a Dram)
  InitiatorSocket initiator;  // bound to the host's target

  bool bound() const { return initiator.get_base_port().size() > 0; }
  const std::string& config_key() const { return key_; }
  void report_queues(std::ostream& os) const override;

 private:
  bool try_accept(unsigned port, Payload& gp) override;
  void on_request(unsigned port, Payload& gp) override;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  // DMI from the host's target (memory.functional): asked once at the start of simulation, for address 0;
  // the region it grants (read and write) holds the functional store's bytes there, so that what numagpu
  // writes the host's memory holds and what the host's memory holds numagpu reads. Invalidated: unmapped.
  void start_of_simulation() override;
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;
  void pump();
  void accepted();
  void answer(Payload& gp, const sc_core::sc_time& delay);

  SimContext& ctx_;
  unsigned queue_depth_;
  std::string key_;
  bool protocol_checks_;
  unsigned waiting_ = 0;  // accepted from the banks, not yet taken by the host's target
  RingQueue<Payload*> queue_;
  Payload* in_request_phase_ = nullptr;
  bool pumping_ = false;
  std::uint64_t outstanding_ = 0;
  stats::Counter& requests_;
  stats::Counter& errors_;
};

}  // namespace numagpu
