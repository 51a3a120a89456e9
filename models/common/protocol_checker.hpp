// A TLM-2.0 base-protocol checker inserted on a binding (initiator -> checker -> target). It forwards every
// call unchanged and reports violations to RunHealth: phase sequences per transaction, the request and
// response exclusion rules per hop, phases on the wrong path, non-decreasing timing annotations, the response
// status set by the target before the response, and memory-manager use (nb_transport: a memory manager and a
// live reference; b_transport: a live reference if the payload has a manager).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "common/health.hpp"

namespace numagpu {

class ProtocolChecker : public sc_core::sc_module {
 public:
  ProtocolChecker(const sc_core::sc_module_name& name, RunHealth& health);

  tlm_utils::simple_target_socket<ProtocolChecker> target;        // bind the initiator's socket here
  tlm_utils::simple_initiator_socket<ProtocolChecker> initiator;  // bind to the target

  std::uint64_t phases_checked() const { return phases_checked_; }
  std::uint64_t violations() const { return violations_; }
  std::size_t open_transactions() const { return txns_.size(); }

 private:
  enum class State : std::uint8_t { kRequest, kRequestDone, kResponse };
  struct Txn {
    State state;
    sc_core::sc_time last_at;
  };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);

  // One phase crossing this hop, in either direction, at effective time `at`.
  void on_phase(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase, const sc_core::sc_time& at,
                bool forward);
  void on_completed(tlm::tlm_generic_payload& gp, const sc_core::sc_time& at);
  void check_mm(const tlm::tlm_generic_payload& gp, const char* where);
  void violation(const tlm::tlm_generic_payload& gp, const std::string& what);

  RunHealth& health_;
  std::unordered_map<const tlm::tlm_generic_payload*, Txn> txns_;
  const tlm::tlm_generic_payload* request_open_ = nullptr;   // in BEGIN_REQ, no END_REQ yet
  const tlm::tlm_generic_payload* response_open_ = nullptr;  // in BEGIN_RESP, no END_RESP yet
  sc_core::sc_time last_begin_req_at_;
  sc_core::sc_time last_begin_resp_at_;
  std::uint64_t phases_checked_ = 0;
  std::uint64_t violations_ = 0;
};

}  // namespace numagpu
