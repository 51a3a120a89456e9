#include "system/external_ports.hpp"

#include <ostream>

#include "common/health.hpp"
#include "common/tlm_edge.hpp"
#include "common/txn.hpp"

namespace numagpu {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

// ------------------------------------------------------------------------------------ host initiators

HostInitiatorPort::HostInitiatorPort(const sc_core::sc_module_name& name, SimContext& ctx, TxnPool& pool,
                                     HomeMap& homes, std::uint16_t origin_socket, std::uint16_t origin_index,
                                     stats::Registry& stats, std::string key)
    : sc_module(name),
      target("target"),
      out("out", ctx, *this),
      ctx_(ctx),
      pool_(pool),
      homes_(homes),
      origin_socket_(origin_socket),
      origin_index_(origin_index),
      key_(std::move(key)),
      requests_(
          stats.counter(std::string(this->name()) + ".requests", "requests",
                        "Requests the host's initiator sent (any base-protocol payload, blocking or not)")),
      blocking_requests_(stats.counter(std::string(this->name()) + ".blocking_requests", "requests",
                                       "Of those, sent with b_transport")),
      errors_(stats.counter(std::string(this->name()) + ".error_responses", "requests",
                            "Of those, answered with a TLM error status without entering the model (a field "
                            "missing or inconsistent, docs/tlm-edges.md)")) {
  target.bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
}

bool HostInitiatorPort::admit(tlm::tlm_generic_payload& gp) {
  requests_.add();
  const tlm::tlm_response_status status = check_foreign(gp, ctx_.edge);
  if (status != tlm::TLM_OK_RESPONSE) errors_.add();
  if (status != tlm::TLM_OK_RESPONSE || gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
    gp.set_response_status(status);
    return false;
  }
  return true;
}

Payload& HostInitiatorPort::stand_in_for(tlm::tlm_generic_payload& gp) {
  Payload& s = open_stand_in(pool_, gp, ctx_.edge);
  const std::uint64_t address = s.get_address();
  NumaAttr& a = attr(s);
  a.origin_socket = origin_socket_;
  a.origin_sm = origin_index_;
  a.issue_cycle = ctx_.clock.now();
  a.home_socket = homes_.decide_for_request(address, origin_socket_ == kNoSocket ? 0 : origin_socket_).home;
  // The host can read what the model made of its request from its payload's extension.
  NumaAttr& theirs = foreign_attr(gp);
  theirs.id = a.id;
  theirs.origin_socket = a.origin_socket;
  theirs.origin_sm = a.origin_sm;
  theirs.home_socket = a.home_socket;
  theirs.issue_cycle = a.issue_cycle;
  ++outstanding_;
  return s;
}

tlm::tlm_sync_enum HostInitiatorPort::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                      sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    if (awaiting_end_req_) {
      ctx_.health.report(RunHealth::Kind::kProtocol,
                         std::string(name()) + ": BEGIN_REQ before the previous request's END_REQ");
    }
    if (!admit(gp)) return tlm::TLM_COMPLETED;  // answered now, with its status
    Payload& s = stand_in_for(gp);
    if (gp.has_mm()) gp.acquire();
    awaiting_end_req_ = &s;
    in_send_ = true;
    out.send(0, s, delay);
    in_send_ = false;
    if (awaiting_end_req_ == &s) return tlm::TLM_ACCEPTED;  // END_REQ when the model takes it
    phase = tlm::END_REQ;                                   // taken at once
    return tlm::TLM_UPDATED;
  }
  if (phase == tlm::END_RESP && resp_in_flight_ == &gp) {
    resp_in_flight_ = nullptr;
    done_with(gp);
    send_responses();
    return tlm::TLM_COMPLETED;
  }
  ctx_.health.report(RunHealth::Kind::kProtocol,
                     std::string(name()) + ": unexpected " + phase.get_name() + " from the host's initiator");
  return tlm::TLM_COMPLETED;
}

void HostInitiatorPort::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  blocking_requests_.add();
  if (!admit(gp)) return;
  if (decoupled()) {
    post(gp, delay);
    return;
  }
  Payload& s = stand_in_for(gp);
  BlockingCall call;
  blocking_[&s] = &call;
  out.send(0, s, delay);  // from the caller's local time
  while (!call.done)
    sc_core::wait(call.done_event);
  delay = SC_ZERO_TIME;  // the time has passed in the wait
}

void HostInitiatorPort::post(tlm::tlm_generic_payload& gp, sc_time& delay) {
  apply_data(gp, ctx_.edge);  // the host's core reads what every earlier access of its own left
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  if (posted_free_.empty()) {
    posted_all_.push_back(std::make_unique<Posted>());
    posted_free_.push_back(posted_all_.back().get());
  }
  Posted* copy = posted_free_.back();
  posted_free_.pop_back();
  copy->gp.set_command(gp.get_command());
  copy->gp.set_address(gp.get_address());
  copy->gp.set_data_ptr(copy->data);
  copy->gp.set_data_length(gp.get_data_length());
  copy->gp.set_streaming_width(gp.get_data_length());
  copy->gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  Payload& s = stand_in_for(copy->gp);
  posted_[&s] = copy;
  out.send(0, s, delay);          // enters the model at the caller's local time, whatever the quantum
  delay += ctx_.clock.cycles(1);  // the port's acceptance; the request's own latency stays inside
}

bool HostInitiatorPort::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  FunctionalMemory* memory = ctx_.edge.memory;
  const unsigned bits = ctx_.edge.address_bits;
  if (!memory || (bits < 64 && gp.get_address() >> bits != 0)) return false;  // no data, or outside memory
  const FunctionalMemory::Span span = memory->span(gp.get_address());
  dmi.set_dmi_ptr(span.bytes);
  dmi.set_start_address(span.start);
  dmi.set_end_address(span.end);
  dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
  dmi.set_read_latency(ctx_.clock.cycles(1));
  dmi.set_write_latency(ctx_.clock.cycles(1));
  return true;
}

unsigned HostInitiatorPort::transport_dbg(tlm::tlm_generic_payload& gp) {
  return debug_access(gp, ctx_.edge);
}

void HostInitiatorPort::on_request_accepted(unsigned, Payload& s) {
  if (&s != awaiting_end_req_) return;  // a blocking call's (no END_REQ to send)
  awaiting_end_req_ = nullptr;
  if (in_send_) return;  // answered on the return path of the host's own call
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_time delay = SC_ZERO_TIME;
  target->nb_transport_bw(*attr(s).counterpart, phase, delay);
}

void HostInitiatorPort::on_response(unsigned, Payload& s) {
  complete_once(s, name(), ctx_.health);
  --outstanding_;
  const auto posted = posted_.find(&s);
  if (posted != posted_.end()) {  // the host has its answer already
    posted_free_.push_back(posted->second);
    posted_.erase(posted);
    close_stand_in(s);
    return;
  }
  tlm::tlm_generic_payload& gp = answer_foreign(s, ctx_.edge);
  const auto blocking = blocking_.find(&s);
  close_stand_in(s);
  if (blocking != blocking_.end()) {
    blocking->second->done = true;
    blocking->second->done_event.notify(SC_ZERO_TIME);
    blocking_.erase(blocking);
    return;
  }
  responses_.push_back(&gp);
  send_responses();
}

void HostInitiatorPort::send_responses() {
  while (!resp_in_flight_ && !responses_.empty()) {
    tlm::tlm_generic_payload* gp = responses_.front();
    responses_.pop_front();
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_time delay = SC_ZERO_TIME;
    const tlm::tlm_sync_enum status = target->nb_transport_bw(*gp, phase, delay);
    if (status == tlm::TLM_ACCEPTED || (status == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP)) {
      resp_in_flight_ = gp;  // END_RESP before the next BEGIN_RESP
    } else {
      done_with(*gp);
    }
  }
}

void HostInitiatorPort::report_queues(std::ostream& os) const {
  if (outstanding_ == 0 && responses_.empty()) return;
  os << "  " << name() << ": outstanding " << outstanding_ << ", responses queued " << responses_.size()
     << "\n";
}

// --------------------------------------------------------------------------------------- host targets

HostTargetPort::HostTargetPort(const sc_core::sc_module_name& name, SimContext& ctx, unsigned queue_depth,
                               stats::Registry& stats, std::string key, bool protocol_checks)
    : sc_module(name),
      in("in", ctx, *this, ctx.names.add(this->name())),
      initiator("initiator"),
      ctx_(ctx),
      queue_depth_(queue_depth),
      key_(std::move(key)),
      protocol_checks_(protocol_checks),
      requests_(stats.counter(std::string(this->name()) + ".requests", "requests",
                              "Requests sent to the host's target in place of the DRAM")),
      errors_(stats.counter(std::string(this->name()) + ".error_responses", "requests",
                            "Of those, answered by the host's target with a TLM error status (passed on to "
                            "the L2 bank, which goes on)")) {
  initiator.bind(static_cast<tlm::tlm_bw_transport_if<>&>(*this));
}

void HostTargetPort::start_of_simulation() {
  if (!ctx_.edge.memory || !bound()) return;
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(0);
  tlm::tlm_dmi dmi;
  if (!initiator->get_direct_mem_ptr(gp, dmi) || !dmi.is_read_write_allowed() || !dmi.get_dmi_ptr()) return;
  ctx_.edge.memory->map(dmi.get_start_address(), dmi.get_end_address(), dmi.get_dmi_ptr());
}

void HostTargetPort::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (ctx_.edge.memory) ctx_.edge.memory->unmap(start, end);
}

bool HostTargetPort::try_accept(unsigned, Payload&) {
  if (waiting_ >= queue_depth_) return false;
  ++waiting_;
  return true;
}

void HostTargetPort::on_request(unsigned port, Payload& gp) {
  attr(gp).push_return_port(static_cast<std::uint16_t>(port));
  requests_.add();
  ++outstanding_;
  queue_.push_back(&gp);
  pump();
}

void HostTargetPort::accepted() {
  in_request_phase_ = nullptr;
  --waiting_;
  in.retry_blocked();
}

void HostTargetPort::answer(Payload& gp, const sc_time& delay) {
  const tlm::tlm_response_status status = gp.get_response_status();
  if (status != tlm::TLM_OK_RESPONSE && status != tlm::TLM_INCOMPLETE_RESPONSE) errors_.add();
  // The base protocol has a target set the status before it responds (IEEE 1666-2011, 14.17): the checkers
  // bound on the model's own hops cannot see the host's target, so the port checks its answers itself.
  if (protocol_checks_ && status == tlm::TLM_INCOMPLETE_RESPONSE) {
    ctx_.health.report(RunHealth::Kind::kProtocol,
                       std::string(name()) + " (" + key_ +
                           "): the host's target responded with the status still TLM_INCOMPLETE_RESPONSE "
                           "(a target sets the response status before it responds)");
  }
  --outstanding_;
  in.respond(attr(gp).pop_return_port(), gp, delay);
}

void HostTargetPort::pump() {
  if (pumping_) return;  // re-entered from the host's target: the loop below continues
  pumping_ = true;
  while (!in_request_phase_ && !queue_.empty()) {
    Payload& gp = *queue_.front();
    queue_.pop_front();
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = SC_ZERO_TIME;
    in_request_phase_ = &gp;
    const tlm::tlm_sync_enum status = initiator->nb_transport_fw(gp, phase, delay);
    if (status == tlm::TLM_ACCEPTED) continue;  // END_REQ (or BEGIN_RESP) comes on the backward path
    if (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
      if (in_request_phase_ == &gp) accepted();
    } else if (status == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
      if (in_request_phase_ == &gp) accepted();
      answer(gp, delay);
      tlm::tlm_phase end = tlm::END_RESP;
      sc_time none = SC_ZERO_TIME;
      initiator->nb_transport_fw(gp, end, none);
    } else if (status == tlm::TLM_COMPLETED) {
      if (in_request_phase_ == &gp) accepted();
      answer(gp, delay);
    }
  }
  pumping_ = false;
}

tlm::tlm_sync_enum HostTargetPort::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                   sc_time& delay) {
  if (phase == tlm::END_REQ && &gp == in_request_phase_) {
    accepted();
    pump();
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP && is_pooled(gp)) {
    if (&gp == in_request_phase_) accepted();  // BEGIN_RESP implies END_REQ
    answer(gp, delay);
    pump();
    return tlm::TLM_COMPLETED;  // no END_RESP needed
  }
  ctx_.health.report(RunHealth::Kind::kProtocol,
                     std::string(name()) + ": unexpected " + phase.get_name() + " from the host's target");
  return tlm::TLM_COMPLETED;
}

void HostTargetPort::report_queues(std::ostream& os) const {
  if (outstanding_ == 0) return;
  os << "  " << name() << ": outstanding " << outstanding_ << ", waiting to be sent " << queue_.size()
     << "\n";
}

}  // namespace numagpu
