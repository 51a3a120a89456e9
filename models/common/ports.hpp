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
#include <deque>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "common/arrival_queue.hpp"

namespace numagpu {

using Payload = tlm::tlm_generic_payload;

class InputOwner {
 public:
  virtual ~InputOwner() = default;
  // At BEGIN_REQ: reserve room for the request, or refuse (it then waits until retry_blocked()).
  virtual bool try_accept(unsigned port, Payload& gp) = 0;
  // At the request's annotated arrival time.
  virtual void on_request(unsigned port, Payload& gp) = 0;
};

class OutputOwner {
 public:
  virtual ~OutputOwner() = default;
  // At the response's annotated arrival time.
  virtual void on_response(unsigned port, Payload& gp) = 0;
  // The downstream component granted END_REQ: room the owner reserved for the request can be released.
  virtual void on_request_accepted(unsigned /*port*/, Payload& /*gp*/) {}
};

class RequestInputs {
 public:
  using Socket = tlm_utils::multi_passthrough_target_socket<RequestInputs, 32, tlm::tlm_base_protocol_types,
                                                            0, sc_core::SC_ZERO_OR_MORE_BOUND>;
  RequestInputs(const char* name, InputOwner& owner, std::uint16_t component_id);

  Socket socket;

  // Sends the response for a request that arrived on `port`, `delay` from now.
  void respond(unsigned port, Payload& gp, const sc_core::sc_time& delay);
  // The owner has room again: grant END_REQ to held requests (round-robin across ports).
  void retry_blocked();

  std::size_t held_requests() const { return held_; }
  std::size_t queued_responses() const;

 private:
  struct PortState {
    Payload* held = nullptr;  // request waiting for END_REQ
    sc_core::sc_time held_at;
    Payload* resp_in_flight = nullptr;                            // BEGIN_RESP sent, END_RESP awaited
    std::deque<std::pair<Payload*, sc_core::sc_time>> responses;  // absolute send times
    sc_core::sc_time last_resp_at;
  };

  tlm::tlm_sync_enum nb_transport_fw(int port, Payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void b_transport(int port, Payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(int port, Payload& gp);
  void send_responses(unsigned port);
  PortState& port_state(unsigned port);

  InputOwner& owner_;
  std::uint16_t component_id_;
  std::deque<PortState> ports_;  // deque: growing keeps references to existing ports valid
  std::size_t held_ = 0;         // ports holding a request: retry_blocked() is free when none is
  unsigned retry_start_ = 0;
  ArrivalQueue arrivals_;  // requests, delivered to the owner at their arrival time
};

class RequestOutputs {
 public:
  using Socket =
      tlm_utils::multi_passthrough_initiator_socket<RequestOutputs, 32, tlm::tlm_base_protocol_types, 0,
                                                    sc_core::SC_ZERO_OR_MORE_BOUND>;
  RequestOutputs(const char* name, OutputOwner& owner);

  Socket socket;

  // Sends a request on `port`, `delay` from now (later if the port is busy).
  void send(unsigned port, Payload& gp, const sc_core::sc_time& delay);
  std::size_t queued(unsigned port) const;
  std::size_t queued_total() const;

 private:
  struct PortState {
    Payload* in_request_phase = nullptr;
    std::deque<std::pair<Payload*, sc_core::sc_time>> queue;  // absolute earliest send times
    sc_core::sc_time last_req_at;
    bool sending = false;
  };

  tlm::tlm_sync_enum nb_transport_bw(int port, Payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void invalidate_dmi(int, sc_dt::uint64, sc_dt::uint64) {}
  void pump(unsigned port);
  void request_accepted(unsigned port, Payload& gp);
  PortState& port_state(unsigned port);

  OutputOwner& owner_;
  std::deque<PortState> ports_;
  ArrivalQueue arrivals_;  // responses, delivered to the owner at their arrival time
};

}  // namespace numagpu
