#include "common/ports.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/tlm_edge.hpp"
#include "common/txn.hpp"

namespace numagpu {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

// Exact times through a socket. Inside the model a phase's time is exact picoseconds; a TLM annotated delay
// is whole ticks of the SystemC resolution. Two port groups bound directly (bind_direct) hand each other the
// exact time. Through a socket (a protocol checker or a host component in between), the sender annotates
// the delay to the first tick not before the exact time and writes the exact time into the payload's
// attributes; the receiver takes it when it rounds to the annotated tick (no one in between changed the
// delay) and is not before now, and otherwise the annotated time.
namespace {

std::uint64_t exact_time(const GpuClock& clock, const Payload& gp, const sc_time& delay) {
  const std::uint64_t now_ps = clock.now_ps();
  const std::uint64_t exact = attr(gp).phase_at_ps;
  if (exact >= now_ps && clock.tick_of_ps(exact) == sim_now().value() + delay.value()) return exact;
  return now_ps + clock.ps_of(delay);
}

// The annotated delay for a phase at exact time `at_ps`, written beside it for the receiver.
sc_time annotate(const GpuClock& clock, Payload& gp, std::uint64_t at_ps) {
  attr(gp).phase_at_ps = at_ps;
  return clock.until(at_ps);
}

}  // namespace

void bind_direct(RequestOutputs& from, RequestInputs& to) {
  // An initiator socket numbers its bindings in the order they are made, counted here (so an initiator is
  // bound only this way: System::connect binds all or none so); the target's number is resolved later.
  const unsigned out_port = from.direct_bindings_++;
  from.socket.bind(to.socket);
  from.port_state(out_port).peer = &to;
}

void RequestOutputs::resolve_peer(unsigned port) {
  PortState& ps = ports_[port];
  // The probe carries nothing and is this call's own: the target notes the port it arrives on.
  Payload probe;
  probe.set_command(tlm::TLM_IGNORE_COMMAND);
  socket[port]->transport_dbg(probe);
  ps.peer_port = ps.peer->probed_port_;
  RequestInputs::PortState& target = ps.peer->port_state(ps.peer_port);
  target.peer = this;
  target.peer_port = port;
}

// ------------------------------------------------------------------------------------ foreign payloads

// A foreign payload (a host's, not from a TxnPool) arriving through the socket: checked (an error status
// otherwise, and the request ends there), then represented inside by a pooled stand-in of this port group's
// own pool, which takes the foreign payload's phases; its response carries the status and (functional
// memory) the data back. The model's own traffic never comes here (common/tlm_edge.hpp).
class ForeignInputs {
 public:
  explicit ForeignInputs(RequestInputs& in) : in_(in) {}

  tlm::tlm_sync_enum forward(int port, Payload& foreign, tlm::tlm_phase& phase, sc_time& delay) {
    const auto p = static_cast<unsigned>(port);
    if (phase == tlm::BEGIN_REQ && p < in_.ports_.size() && in_.ports_[p].held) {
      return violation(foreign, "BEGIN_REQ while its previous request waits for END_REQ");
    }
    if (phase == tlm::BEGIN_REQ) {
      ++requests;
      const tlm::tlm_response_status status = check_foreign(foreign, in_.ctx_.edge);
      if (status != tlm::TLM_OK_RESPONSE || foreign.get_command() == tlm::TLM_IGNORE_COMMAND) {
        if (status != tlm::TLM_OK_RESPONSE) ++errors;
        foreign.set_response_status(status);
        return tlm::TLM_COMPLETED;  // answered at once: nothing entered the model
      }
      Payload& stand_in = open_stand_in(pool_, foreign, in_.ctx_.edge);
      attr(stand_in).home_socket = foreign_attr(foreign).home_socket;
      if (foreign.has_mm()) foreign.acquire();
      // END_REQ now, or later on the backward path.
      return in_.forward_at(p, stand_in, phase, in_.ctx_.clock.now_ps() + in_.ctx_.clock.ps_of(delay));
    }
    NumaAttr* a = foreign.get_extension<NumaAttr>();
    if (phase == tlm::END_RESP && a && a->counterpart && p < in_.ports_.size() &&
        in_.ports_[p].resp_in_flight == a->counterpart) {
      Payload& stand_in = *a->counterpart;
      const tlm::tlm_sync_enum status = in_.forward_at(p, stand_in, phase, in_.ctx_.clock.now_ps());
      finish(stand_in);
      return status;
    }
    return violation(foreign, std::string("unexpected ") + phase.get_name());
  }

  // A foreign initiator broke the base protocol: reported (the run fails its checks), answered with an
  // error status, and the model's state left as it was.
  tlm::tlm_sync_enum violation(Payload& foreign, const std::string& what) {
    in_.ctx_.health.report(RunHealth::Kind::kProtocol,
                           std::string(in_.socket.name()) + ": foreign initiator: " + what);
    foreign.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }

  tlm::tlm_sync_enum backward(unsigned port, Payload& stand_in, tlm::tlm_phase& phase, std::uint64_t at_ps) {
    Payload& foreign = *attr(stand_in).counterpart;
    sc_time delay = in_.ctx_.clock.until(at_ps);
    if (phase != tlm::BEGIN_RESP) return in_.socket[port]->nb_transport_bw(foreign, phase, delay);
    answer_foreign(stand_in, in_.ctx_.edge);
    const tlm::tlm_sync_enum status = in_.socket[port]->nb_transport_bw(foreign, phase, delay);
    if (status == tlm::TLM_COMPLETED || (status == tlm::TLM_UPDATED && phase == tlm::END_RESP))
      finish(stand_in);
    return status;
  }

  bool owns(const Payload& gp) const { return pool_.owns(gp); }

  std::uint64_t requests = 0;
  std::uint64_t errors = 0;

 private:
  void finish(Payload& stand_in) {
    Payload& foreign = close_stand_in(stand_in);
    if (foreign.has_mm()) foreign.release();
  }

  RequestInputs& in_;
  TxnPool pool_;
};

// ---------------------------------------------------------------------------------------------- inputs

RequestInputs::RequestInputs(const char* name, SimContext& ctx, InputOwner& owner, std::uint16_t component_id)
    : socket(name), owner_(owner), arrivals_(ctx.deliveries, owner), component_id_(component_id), ctx_(ctx) {
  socket.register_nb_transport_fw(this, &RequestInputs::socket_transport_fw);
  socket.register_b_transport(this, &RequestInputs::b_transport);
  socket.register_transport_dbg(this, &RequestInputs::transport_dbg);
}

RequestInputs::~RequestInputs() = default;

ForeignInputs& RequestInputs::foreign() {
  if (!foreign_) foreign_ = std::make_unique<ForeignInputs>(*this);
  return *foreign_;
}

std::uint64_t RequestInputs::foreign_requests() const {
  return foreign_ ? foreign_->requests : 0;
}

std::uint64_t RequestInputs::foreign_errors() const {
  return foreign_ ? foreign_->errors : 0;
}

tlm::tlm_sync_enum RequestInputs::socket_transport_fw(int port, Payload& gp, tlm::tlm_phase& phase,
                                                      sc_time& delay) {
  if (is_pooled(gp)) return nb_transport_fw(port, gp, phase, delay);
  return foreign().forward(port, gp, phase, delay);
}

tlm::tlm_sync_enum RequestInputs::nb_transport_fw(int port, Payload& gp, tlm::tlm_phase& phase,
                                                  sc_time& delay) {
  return forward_at(static_cast<unsigned>(port), gp, phase, exact_time(ctx_.clock, gp, delay));
}

tlm::tlm_sync_enum RequestInputs::forward_at(unsigned port, Payload& gp, tlm::tlm_phase& phase,
                                             std::uint64_t at_ps) {
  auto& ps = port_state(port);
  if (phase == tlm::BEGIN_REQ) {
    if (ps.held) throw std::logic_error("BEGIN_REQ while a request is held on the same port");
    attr(gp).record_hop(component_id_);
    if (owner_.try_accept(port, gp)) {
      attr(gp).arrival_port = static_cast<std::uint16_t>(port);
      arrivals_.push_at(gp, at_ps);
      phase = tlm::END_REQ;  // early END_REQ: same effective time as the BEGIN_REQ
      return tlm::TLM_UPDATED;
    }
    hold(port, gp, at_ps);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP) {
    if (ps.resp_in_flight != &gp) throw std::logic_error("END_RESP for a response not in flight");
    ps.resp_in_flight = nullptr;
    send_responses(port);
    return tlm::TLM_COMPLETED;
  }
  throw std::logic_error("unexpected phase on the forward path");
}

void RequestInputs::b_transport(int, Payload& gp, sc_time& delay) {
  // A blocking access: served by an owner that can (the DRAM), else answered with a command error; a foreign
  // payload is checked first and, served, moves its data (functional memory).
  const bool pooled = is_pooled(gp);
  if (!pooled) {
    ForeignInputs& f = foreign();
    ++f.requests;
    const tlm::tlm_response_status status = check_foreign(gp, ctx_.edge);
    if (status != tlm::TLM_OK_RESPONSE) ++f.errors;
    if (status != tlm::TLM_OK_RESPONSE || gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
      gp.set_response_status(status);
      return;
    }
  }
  if (!owner_.serve_blocking(gp, delay)) {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (gp.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) gp.set_response_status(tlm::TLM_OK_RESPONSE);
  if (!pooled && gp.is_response_ok()) apply_data(gp, ctx_.edge);
}

unsigned RequestInputs::transport_dbg(int port, Payload& gp) {
  // A probe (TLM_IGNORE_COMMAND) asks which port it arrived on; a read or write reaches the memory's data
  // when it holds data (memory.functional), whatever component it enters at.
  if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
    probed_port_ = static_cast<unsigned>(port);
    return 0;
  }
  return debug_access(gp, ctx_.edge);
}

void RequestInputs::hold(unsigned port, Payload& gp, std::uint64_t at_ps) {
  auto& ps = ports_[port];
  ps.held = &gp;
  ps.held_at = at_ps;
  ps.held_key = owner_.wait_key(port, gp);
  ++held_;
  if (ps.held_key >= waiting_.size()) {
    waiting_.resize(ps.held_key + 1);
    waiting_count_.resize(ps.held_key + 1, 0);
  }
  ++waiting_count_[ps.held_key];
  auto& bits = waiting_[ps.held_key];
  if (port / 64 >= bits.size()) bits.resize(port / 64 + 1, 0);
  bits[port / 64] |= std::uint64_t(1) << (port % 64);
}

unsigned RequestInputs::next_waiting(unsigned key, unsigned from, unsigned to) const {
  if (key >= waiting_.size()) return to;
  const auto& bits = waiting_[key];
  for (unsigned word = from / 64; word < bits.size() && word * 64 < to; ++word) {
    std::uint64_t w = bits[word];
    if (word == from / 64) w &= ~std::uint64_t(0) << (from % 64);
    if (w) return std::min(to, word * 64 + static_cast<unsigned>(__builtin_ctzll(w)));
  }
  return to;
}

void RequestInputs::retry_blocked() {
  if (held_ == 0) return;
  const unsigned n = static_cast<unsigned>(ports_.size());
  const unsigned start = retry_start(0);
  for (unsigned k = 0; k < n; ++k) {
    const unsigned port = (start + k) % n;
    if (ports_[port].held && retry_port(port)) granted(0, port, n);
  }
}

void RequestInputs::retry_blocked(unsigned key) {
  if (held_ == 0) return;
  if (key >= waiting_count_.size() || waiting_count_[key] == 0) return;
  const unsigned n = static_cast<unsigned>(ports_.size());
  // Round-robin from the port after the one this key granted last: [start, n), then [0, start). Waiting
  // bits are read afresh at each step, since granting one request may let its initiator send (and have
  // held) the next. The first refusal ends the retry: the owner would refuse the others waiting on the key
  // too (wait_key). A crossbar output that frees one place used to be offered to every input waiting for
  // it, each request read from memory again to be refused (two in three crossbar try_accept calls,
  // docs/performance.md).
  const unsigned start = retry_start(key);
  bool refused = false;
  for (unsigned port = next_waiting(key, start, n); port < n && !refused;
       port = next_waiting(key, port + 1, n)) {
    refused = !retry_port(port);
    if (!refused) granted(key, port, n);
  }
  for (unsigned port = next_waiting(key, 0, start); port < start && !refused;
       port = next_waiting(key, port + 1, start)) {
    refused = !retry_port(port);
    if (!refused) granted(key, port, n);
  }
}

bool RequestInputs::retry_port(unsigned port) {
  auto& ps = ports_[port];
  if (!owner_.try_accept(port, *ps.held)) return false;
  Payload& gp = *ps.held;
  ps.held = nullptr;
  --held_;
  waiting_[ps.held_key][port / 64] &= ~(std::uint64_t(1) << (port % 64));
  --waiting_count_[ps.held_key];
  const std::uint64_t at = std::max(ps.held_at, ctx_.clock.now_ps());
  attr(gp).arrival_port = static_cast<std::uint16_t>(port);
  arrivals_.push_at(gp, at);
  tlm::tlm_phase phase = tlm::END_REQ;
  // The initiator may send its next BEGIN_REQ from inside this call; our state is already consistent.
  send_backward(port, gp, phase, at);
  return true;
}

tlm::tlm_sync_enum RequestInputs::send_backward(unsigned port, Payload& gp, tlm::tlm_phase& phase,
                                                std::uint64_t at_ps) {
  const PortState& ps = ports_[port];
  if (ps.peer) return ps.peer->backward_at(ps.peer_port, gp, phase, at_ps);
  if (foreign_ && foreign_->owns(gp)) return foreign_->backward(port, gp, phase, at_ps);  // a stand-in
  sc_time delay = annotate(ctx_.clock, gp, at_ps);
  return socket[port]->nb_transport_bw(gp, phase, delay);
}

void RequestInputs::respond(unsigned port, Payload& gp, const sc_time& delay) {
  respond_ps(port, gp, ctx_.clock.ps_of(delay));
}

void RequestInputs::respond_ps(unsigned port, Payload& gp, std::uint64_t delay_ps) {
  if (gp.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) gp.set_response_status(tlm::TLM_OK_RESPONSE);
  auto& ps = port_state(port);
  ps.responses.push_back({&gp, ctx_.clock.now_ps() + delay_ps});
  send_responses(port);
}

void RequestInputs::send_responses(unsigned port) {
  auto& ps = ports_[port];
  while (!ps.resp_in_flight && !ps.responses.empty()) {
    auto [gp, at] = ps.responses.front();
    ps.responses.pop_front();
    // Pass-through components queue a phase no earlier than anything they queued before on the same port:
    // the base protocol requires non-decreasing timing annotations per socket.
    const std::uint64_t when = std::max({at, ctx_.clock.now_ps(), ps.last_resp_at});
    ps.last_resp_at = when;
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    const auto status = send_backward(port, *gp, phase, when);
    if (status == tlm::TLM_ACCEPTED || (status == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP)) {
      ps.resp_in_flight = gp;  // wait for END_RESP before the next BEGIN_RESP on this port
    }
  }
}

std::size_t RequestInputs::queued_responses() const {
  std::size_t n = 0;
  for (unsigned p = 0; p < ports_.size(); ++p)
    n += ports_[p].responses.size() + (ports_[p].resp_in_flight ? 1 : 0);
  return n;
}

// --------------------------------------------------------------------------------------------- outputs

RequestOutputs::RequestOutputs(const char* name, SimContext& ctx, OutputOwner& owner)
    : socket(name), owner_(owner), arrivals_(ctx.deliveries, owner), clock_(ctx.clock) {
  socket.register_nb_transport_bw(this, &RequestOutputs::nb_transport_bw);
  socket.register_invalidate_direct_mem_ptr(this, &RequestOutputs::invalidate_dmi);
}

void RequestOutputs::send(unsigned port, Payload& gp, const sc_time& delay) {
  send_ps(port, gp, clock_.ps_of(delay));
}

void RequestOutputs::send_ps(unsigned port, Payload& gp, std::uint64_t delay_ps) {
  port_state(port).queue.push_back({&gp, clock_.now_ps() + delay_ps});
  pump(port);
}

void RequestOutputs::pump(unsigned port) {
  auto& ps = ports_[port];
  if (ps.sending) return;  // re-entered from inside nb_transport_fw: the outer loop continues
  ps.sending = true;
  while (!ps.in_request_phase && !ps.queue.empty()) {
    auto [gp, at] = ps.queue.front();
    ps.queue.pop_front();
    // Non-decreasing per port, as RequestInputs::send_responses.
    const std::uint64_t when = std::max({at, clock_.now_ps(), ps.last_req_at});
    ps.last_req_at = when;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    ps.in_request_phase = gp;
    if (ps.peer && ps.peer_port == kUnresolved) resolve_peer(port);
    tlm::tlm_sync_enum status;
    std::uint64_t back_at = when;  // the time of a response the target answers with at once
    if (ps.peer) {
      status = ps.peer->forward_at(ps.peer_port, *gp, phase, when);
    } else {
      sc_time delay = annotate(clock_, *gp, when);
      status = socket[port]->nb_transport_fw(*gp, phase, delay);
      if (status != tlm::TLM_ACCEPTED) back_at = exact_time(clock_, *gp, delay);
    }
    if (status == tlm::TLM_ACCEPTED) continue;  // END_REQ will come on the backward path
    if (phase == tlm::END_REQ) {
      request_accepted(port, *gp);
    } else if (phase == tlm::BEGIN_RESP || status == tlm::TLM_COMPLETED) {
      request_accepted(port, *gp);
      attr(*gp).arrival_port = static_cast<std::uint16_t>(port);
      arrivals_.push_at(*gp, back_at);
    }
  }
  ps.sending = false;
}

void RequestOutputs::request_accepted(unsigned port, Payload& gp) {
  ports_[port].in_request_phase = nullptr;
  owner_.on_request_accepted(port, gp);
}

tlm::tlm_sync_enum RequestOutputs::nb_transport_bw(int port_id, Payload& gp, tlm::tlm_phase& phase,
                                                   sc_time& delay) {
  return backward_at(static_cast<unsigned>(port_id), gp, phase, exact_time(clock_, gp, delay));
}

tlm::tlm_sync_enum RequestOutputs::backward_at(unsigned port, Payload& gp, tlm::tlm_phase& phase,
                                               std::uint64_t at_ps) {
  auto& ps = port_state(port);
  if (phase == tlm::END_REQ) {
    if (ps.in_request_phase != &gp) throw std::logic_error("END_REQ for a request not in its request phase");
    request_accepted(port, gp);
    pump(port);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (ps.in_request_phase == &gp) {  // BEGIN_RESP implies END_REQ
      request_accepted(port, gp);
      pump(port);
    }
    attr(gp).arrival_port = static_cast<std::uint16_t>(port);
    arrivals_.push_at(gp, at_ps);
    return tlm::TLM_COMPLETED;  // responses are always taken: the owner reserved room when it sent the
                                // request
  }
  throw std::logic_error("unexpected phase on the backward path");
}

std::size_t RequestOutputs::queued(unsigned port) const {
  if (port >= ports_.size()) return 0;
  return ports_[port].queue.size() + (ports_[port].in_request_phase ? 1 : 0);
}

std::size_t RequestOutputs::queued_total() const {
  std::size_t n = 0;
  for (unsigned p = 0; p < ports_.size(); ++p)
    n += queued(p);
  return n;
}

}  // namespace numagpu
