// Port groups that implement the TLM-2.0 base protocol (4-phase AT) once, for every component.
//
// RequestInputs faces upstream: it receives BEGIN_REQ, grants END_REQ at once when the owner has room and
// otherwise holds the request (back-pressure by withholding END_REQ), delivers the request to the owner at
// its annotated arrival time, and sends responses (BEGIN_RESP) in order, waiting for END_RESP when the
// initiator asks for it. RequestOutputs faces downstream: it queues requests per port, sends one BEGIN_REQ at
// a time (request exclusion rule), and delivers responses to the owner at their arrival time, completing them
// on the spot (responses are never back-pressured, which keeps the request/response network deadlock-free).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "common/arrival_queue.hpp"
#include "common/port_table.hpp"
#include "common/ring_queue.hpp"
#include "common/sim_context.hpp"
#include "common/txn.hpp"

namespace numagpu {

using Payload = tlm::tlm_generic_payload;
class RequestInputs;
class RequestOutputs;
class ForeignInputs;

// Binds `from` to `to` through their sockets. Without a checker in between, the two port groups also learn
// each other and call each other's transport functions directly: the same calls with the same phases, in
// the same order, without the socket's indirect calls through objects spread over memory (binder,
// functor, member pointer). A port bound any other way (a protocol checker, a test bench) goes through its
// socket. The target's number for the binding is only known once elaboration has completed the bindings:
// the initiator asks for it at its first BEGIN_REQ on the port, with a transport_dbg probe through the
// socket (a payload of its own with TLM_IGNORE_COMMAND; the target notes the port it arrived on, which the
// initiator reads as soon as the call returns).
void bind_direct(RequestOutputs& from, RequestInputs& to);

class InputOwner {
 public:
  virtual ~InputOwner() = default;
  // At BEGIN_REQ: reserve room for the request, or refuse (it then waits until retry_blocked()).
  virtual bool try_accept(unsigned port, Payload& gp) = 0;
  // What a refused request waits for (an output queue, a binding's slots): retry_blocked(key) retries only
  // the requests waiting on `key`. An owner that keys its refusals promises that try_accept of a request
  // waiting on one key cannot succeed until that key is retried, and that it answers every request waiting
  // on the same key alike (the answer depends on the key and the owner's state, and a refusal changes
  // neither): a retry then stops at the first refusal, and skipping the others changes nothing but the
  // cost. The default, one key for all, retries every held request (retry_blocked()).
  virtual unsigned wait_key(unsigned /*port*/, const Payload& /*gp*/) const { return 0; }
  // At the request's annotated arrival time.
  virtual void on_request(unsigned port, Payload& gp) = 0;
  // A blocking access (b_transport) of an owner that can serve one without the AT network: serves `gp`,
  // adds its latency to `delay` and returns true; the default (false) answers TLM_COMMAND_ERROR_RESPONSE.
  virtual bool serve_blocking(Payload& /*gp*/, sc_core::sc_time& /*delay*/) { return false; }
};

class OutputOwner {
 public:
  virtual ~OutputOwner() = default;
  // At the response's annotated arrival time.
  virtual void on_response(unsigned port, Payload& gp) = 0;
  // The downstream component granted END_REQ: room the owner reserved for the request can be released.
  virtual void on_request_accepted(unsigned /*port*/, Payload& /*gp*/) {}
};

// Arrivals handed to one of the owner's callbacks with the port they came in on (which the port group wrote
// into the payload's attributes when it queued them).
template <class Owner, void (Owner::*kHandle)(unsigned, Payload&)>
class OwnerArrivals final : public ArrivalQueue {
 public:
  OwnerArrivals(DeliveryScheduler& scheduler, Owner& owner) : ArrivalQueue(scheduler), owner_(owner) {}
  void deliver(Payload* gp) override { (owner_.*kHandle)(attr(*gp).arrival_port, *gp); }

 private:
  Owner& owner_;
};

class RequestInputs {
 public:
  using Socket = tlm_utils::multi_passthrough_target_socket<RequestInputs, 32, tlm::tlm_base_protocol_types,
                                                            0, sc_core::SC_ZERO_OR_MORE_BOUND>;
  // `ctx`: the machine the owner belongs to (its DeliveryScheduler times the arrivals).
  RequestInputs(const char* name, SimContext& ctx, InputOwner& owner, std::uint16_t component_id);
  ~RequestInputs();

  Socket socket;

  // Sends the response for a request that arrived on `port`, `delay` from now. A delay in picoseconds is
  // kept exact at every SystemC time resolution (an sc_time is whole ticks: a cycle count is, a fraction of
  // a cycle at a coarse resolution is not).
  void respond(unsigned port, Payload& gp, const sc_core::sc_time& delay);
  void respond_ps(unsigned port, Payload& gp, std::uint64_t delay_ps);
  // The owner has room again: grant END_REQ to held requests, round-robin across ports: the offer starts at
  // the port after the one granted last and goes once around; a retry that grants nothing leaves the start
  // where it was. For owners with one key for all (the default wait_key): the start is key 0's.
  void retry_blocked();
  // The same, for the requests waiting on `key` only, up to the first refusal (InputOwner::wait_key: an
  // owner that keys its refusals refuses the others then too). Each key is an arbiter of its own (a
  // crossbar output, a link side) with its own start, after the port it granted last. Only for owners that
  // key their refusals.
  void retry_blocked(unsigned key);

  std::size_t held_requests() const { return held_; }
  std::size_t queued_responses() const;
  // Foreign payloads (not from a TxnPool: common/tlm_edge.hpp) received and answered with an error status.
  std::uint64_t foreign_requests() const;
  std::uint64_t foreign_errors() const;

 private:
  friend class RequestOutputs;
  friend class ForeignInputs;
  friend void bind_direct(RequestOutputs& from, RequestInputs& to);
  struct PortState {
    RequestOutputs* peer = nullptr;     // bound directly (bind_direct): the initiator, and its port
    unsigned peer_port = 0;             // (set when the initiator resolves the binding)
    Payload* held = nullptr;            // request waiting for END_REQ
    unsigned held_key = 0;              // what it waits for (InputOwner::wait_key)
    std::uint64_t held_at = 0;          // its arrival time, ps
    Payload* resp_in_flight = nullptr;  // BEGIN_RESP sent, END_RESP awaited
    RingQueue<std::pair<Payload*, std::uint64_t>> responses;  // absolute send times, ps
    std::uint64_t last_resp_at = 0;
  };

  tlm::tlm_sync_enum nb_transport_fw(int port, Payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  // The same at exact time `at_ps` (a direct binding's call, or the socket's after exact_time()).
  tlm::tlm_sync_enum forward_at(unsigned port, Payload& gp, tlm::tlm_phase& phase, std::uint64_t at_ps);
  // What the socket calls: pooled payloads go on to nb_transport_fw, foreign ones through foreign_.
  tlm::tlm_sync_enum socket_transport_fw(int port, Payload& gp, tlm::tlm_phase& phase,
                                         sc_core::sc_time& delay);
  void b_transport(int port, Payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(int port, Payload& gp);
  ForeignInputs& foreign();
  void send_responses(unsigned port);
  PortState& port_state(unsigned port) { return ports_.grow_to(port); }
  tlm::tlm_sync_enum send_backward(unsigned port, Payload& gp, tlm::tlm_phase& phase, std::uint64_t at_ps);
  void hold(unsigned port, Payload& gp, std::uint64_t at_ps);
  // Grants END_REQ to the held request of `port` if the owner now takes it (true).
  bool retry_port(unsigned port);
  // The first port in [from, to) holding a request that waits on `key`, or `to`.
  unsigned next_waiting(unsigned key, unsigned from, unsigned to) const;

  // Every hop reads the owner and the arrival queue (its scheduler): they lie together, ahead of the ports.
  InputOwner& owner_;
  OwnerArrivals<InputOwner, &InputOwner::on_request> arrivals_;  // requests, at their arrival time
  std::uint16_t component_id_;
  // Grown as ports are first used; each port stays where it is (references to it survive growth).
  PortTable<PortState> ports_;
  std::size_t held_ = 0;  // ports holding a request: retry_blocked() is free when none is
  // retry_start_[key]: where the next retry of `key` starts offering room (the port after the one it
  // granted last; 0 before its first grant).
  std::vector<unsigned> retry_start_;
  // waiting_[key]: bit p set when port p holds a request waiting on key. Retrying one key then visits only
  // its waiters instead of every port (a crossbar has ~90 inputs and ~40 output queues).
  std::vector<std::vector<std::uint64_t>> waiting_;
  std::vector<unsigned> waiting_count_;     // waiting_count_[key]: ports whose held request waits on key
  unsigned probed_port_ = 0;                // the port the last binding probe arrived on
  SimContext& ctx_;                         // the edge facts, for foreign payloads
  std::unique_ptr<ForeignInputs> foreign_;  // made at the first foreign payload
  unsigned retry_start(unsigned key) const { return key < retry_start_.size() ? retry_start_[key] : 0; }
  // `port` of `n` was granted on `key`: the next retry of `key` starts after it.
  void granted(unsigned key, unsigned port, unsigned n) {
    if (key >= retry_start_.size()) retry_start_.resize(key + 1, 0);
    retry_start_[key] = port + 1 >= n ? 0 : port + 1;
  }
};

class RequestOutputs {
 public:
  using Socket =
      tlm_utils::multi_passthrough_initiator_socket<RequestOutputs, 32, tlm::tlm_base_protocol_types, 0,
                                                    sc_core::SC_ZERO_OR_MORE_BOUND>;
  RequestOutputs(const char* name, SimContext& ctx, OutputOwner& owner);

  Socket socket;

  // Sends a request on `port`, `delay` from now (later if the port is busy); in picoseconds as
  // RequestInputs::respond_ps.
  void send(unsigned port, Payload& gp, const sc_core::sc_time& delay);
  void send_ps(unsigned port, Payload& gp, std::uint64_t delay_ps);
  std::size_t queued(unsigned port) const;
  std::size_t queued_total() const;

 private:
  friend class RequestInputs;
  friend void bind_direct(RequestOutputs& from, RequestInputs& to);
  static constexpr unsigned kUnresolved = ~0u;
  struct PortState {
    RequestInputs* peer = nullptr;  // bound directly (bind_direct): the target, and its port
    unsigned peer_port = kUnresolved;
    Payload* in_request_phase = nullptr;
    RingQueue<std::pair<Payload*, std::uint64_t>> queue;  // absolute earliest send times, ps
    std::uint64_t last_req_at = 0;
    bool sending = false;
  };

  tlm::tlm_sync_enum nb_transport_bw(int port, Payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  // The same at exact time `at_ps` (a direct binding's call, or the socket's after exact_time()).
  tlm::tlm_sync_enum backward_at(unsigned port, Payload& gp, tlm::tlm_phase& phase, std::uint64_t at_ps);
  void invalidate_dmi(int, sc_dt::uint64, sc_dt::uint64) {}
  void pump(unsigned port);
  void resolve_peer(unsigned port);
  void request_accepted(unsigned port, Payload& gp);
  PortState& port_state(unsigned port) { return ports_.grow_to(port); }

  OutputOwner& owner_;                                              // with the arrivals, as in RequestInputs
  OwnerArrivals<OutputOwner, &OutputOwner::on_response> arrivals_;  // responses, at their arrival time
  const GpuClock& clock_;
  PortTable<PortState> ports_;    // as RequestInputs::ports_
  unsigned direct_bindings_ = 0;  // bindings made by bind_direct
};

}  // namespace numagpu
