#include "common/protocol_checker.hpp"

#include <sstream>

#include "common/txn.hpp"

namespace numagpu {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

ProtocolChecker::ProtocolChecker(const sc_core::sc_module_name& name, RunHealth& health)
    : sc_module(name), target("target"), initiator("initiator"), health_(health) {
  target.register_nb_transport_fw(this, &ProtocolChecker::nb_transport_fw);
  target.register_b_transport(this, &ProtocolChecker::b_transport);
  target.register_transport_dbg(this, &ProtocolChecker::transport_dbg);
  initiator.register_nb_transport_bw(this, &ProtocolChecker::nb_transport_bw);
}

void ProtocolChecker::violation(const tlm::tlm_generic_payload& gp, const std::string& what) {
  ++violations_;
  std::ostringstream msg;
  msg << name() << ": " << what << " (txn";
  if (const auto* a = gp.get_extension<NumaAttr>()) msg << " id " << a->id;
  msg << " @" << &gp << ", at " << sc_time_stamp() << ")";
  health_.report(RunHealth::Kind::kProtocol, msg.str());
}

void ProtocolChecker::check_mm(const tlm::tlm_generic_payload& gp, const char* where) {
  if (!gp.has_mm())
    violation(gp, std::string(where) + ": payload has no memory manager");
  else if (gp.get_ref_count() <= 0)
    violation(gp, std::string(where) + ": payload used with reference count 0");
}

void ProtocolChecker::on_phase(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase, const sc_time& at,
                               bool forward) {
  ++phases_checked_;
  check_mm(gp, forward ? "forward path" : "backward path");
  // Transactions start and respond in time order on a hop: successive BEGIN_REQs (and BEGIN_RESPs) carry
  // non-decreasing effective times, so a receiver's event queue never has to look into the past.
  if (phase == tlm::BEGIN_REQ || phase == tlm::BEGIN_RESP) {
    sc_time& last = phase == tlm::BEGIN_REQ ? last_begin_req_at_ : last_begin_resp_at_;
    if (at < last)
      violation(gp, std::string(phase.get_name()) + " annotated earlier than the previous one on this hop");
    last = std::max(last, at);
  }

  auto it = txns_.find(&gp);
  if (it != txns_.end()) {
    if (at < it->second.last_at)
      violation(gp, std::string(phase.get_name()) + " earlier than the previous phase");
    it->second.last_at = std::max(it->second.last_at, at);
  }

  if (phase == tlm::BEGIN_REQ) {
    if (!forward) return violation(gp, "BEGIN_REQ on the backward path");
    if (it != txns_.end()) return violation(gp, "BEGIN_REQ for a transaction already active on this hop");
    if (request_open_) violation(gp, "BEGIN_REQ before END_REQ of the previous request (request exclusion)");
    if (gp.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE) {
      violation(gp, "BEGIN_REQ with a response status other than TLM_INCOMPLETE_RESPONSE");
    }
    txns_.emplace(&gp, Txn{State::kRequest, at});
    request_open_ = &gp;
    return;
  }
  if (it == txns_.end())
    return violation(gp, std::string(phase.get_name()) + " for a transaction not active on this hop");
  Txn& t = it->second;
  if (phase == tlm::END_REQ) {
    if (forward) return violation(gp, "END_REQ on the forward path");
    if (t.state != State::kRequest) return violation(gp, "END_REQ outside the request phase");
    t.state = State::kRequestDone;
    if (request_open_ == &gp) request_open_ = nullptr;
  } else if (phase == tlm::BEGIN_RESP) {
    if (forward) return violation(gp, "BEGIN_RESP on the forward path");
    if (t.state == State::kResponse) return violation(gp, "second BEGIN_RESP for the same transaction");
    if (response_open_)
      violation(gp, "BEGIN_RESP before END_RESP of the previous response (response exclusion)");
    if (gp.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
      violation(gp, "BEGIN_RESP with the response status still TLM_INCOMPLETE_RESPONSE");
    }
    if (request_open_ == &gp) request_open_ = nullptr;  // BEGIN_RESP implies END_REQ
    t.state = State::kResponse;
    response_open_ = &gp;
  } else if (phase == tlm::END_RESP) {
    if (!forward) return violation(gp, "END_RESP on the backward path");
    if (t.state != State::kResponse) return violation(gp, "END_RESP outside the response phase");
    if (response_open_ == &gp) response_open_ = nullptr;
    txns_.erase(it);
  } else {
    violation(gp, std::string("unknown phase ") + phase.get_name());
  }
}

void ProtocolChecker::on_completed(tlm::tlm_generic_payload& gp, const sc_time& at) {
  ++phases_checked_;
  auto it = txns_.find(&gp);
  if (it == txns_.end()) return;  // already closed by an END_RESP
  if (at < it->second.last_at) violation(gp, "TLM_COMPLETED annotated earlier than the previous phase");
  if (gp.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
    violation(gp, "transaction completed with the response status still TLM_INCOMPLETE_RESPONSE");
  }
  if (request_open_ == &gp) request_open_ = nullptr;
  if (response_open_ == &gp) response_open_ = nullptr;
  txns_.erase(it);
}

tlm::tlm_sync_enum ProtocolChecker::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                    sc_time& delay) {
  const sc_time call_at = sc_time_stamp() + delay;
  on_phase(gp, phase, call_at, true);
  const auto status = initiator->nb_transport_fw(gp, phase, delay);
  const sc_time ret_at = sc_time_stamp() + delay;
  if (ret_at < call_at) violation(gp, "target returned a timing annotation earlier than the call's");
  if (status == tlm::TLM_UPDATED) {
    on_phase(gp, phase, ret_at, false);  // the returned phase travels target -> initiator
  } else if (status == tlm::TLM_COMPLETED) {
    on_completed(gp, ret_at);
  }
  return status;
}

tlm::tlm_sync_enum ProtocolChecker::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                    sc_time& delay) {
  const sc_time call_at = sc_time_stamp() + delay;
  on_phase(gp, phase, call_at, false);
  const auto status = target->nb_transport_bw(gp, phase, delay);
  const sc_time ret_at = sc_time_stamp() + delay;
  if (ret_at < call_at) violation(gp, "initiator returned a timing annotation earlier than the call's");
  if (status == tlm::TLM_UPDATED) {
    on_phase(gp, phase, ret_at, true);
  } else if (status == tlm::TLM_COMPLETED) {
    on_completed(gp, ret_at);
  }
  return status;
}

void ProtocolChecker::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  // A blocking call needs no memory manager (the caller owns the payload for the call's duration); one that
  // has a manager must hold a reference.
  if (gp.has_mm()) check_mm(gp, "b_transport");
  initiator->b_transport(gp, delay);
}

unsigned ProtocolChecker::transport_dbg(tlm::tlm_generic_payload& gp) {
  return initiator->transport_dbg(gp);
}

}  // namespace numagpu
