#include "fabric/crossbar.hpp"

#include "common/txn.hpp"

namespace numagpu {

using sc_core::sc_time;

Crossbar::Crossbar(const sc_core::sc_module_name& name, SimContext& ctx, const CrossbarSpec& spec,
                   const CrossbarPorts& ports, const MachineFacts& facts, std::uint16_t socket,
                   stats::Registry& stats)
    : sc_module(name),
      in("in", ctx, *this, ctx.names.add(this->name())),
      out("out", ctx, *this),
      clock_(ctx.clock),
      spec_(spec),
      latency_ps_(ctx.clock.cycles_ps(spec.latency)),
      period_ps_(ctx.clock.period_ps()),
      gpu_side_l2_(ports.gpu_side_l2),
      inputs_(ports.inputs(this->name())),
      outputs_(ports.outputs(this->name())),
      sm_side_(inputs_.span(XbarIn::kSm, XbarIn::kHostInitiator)),
      facts_(facts),
      line_size_(facts.line_bytes),
      bank_count_(ports.l2_banks),
      socket_(socket),
      reserved_(outputs_.size(), 0),
      pipe_of_output_(outputs_.size()),
      pipe_of_input_(inputs_.size()),
      requests_(stats.counter(std::string(this->name()) + ".requests", "requests", "Requests routed")),
      remote_requests_(
          stats.counter(std::string(this->name()) + ".requests_to_link", "requests",
                        "Requests routed to a fabric link (remote homes, and traffic passing through)")),
      bytes_(
          stats.counter(std::string(this->name()) + ".bytes", "bytes", "Request and response bytes moved")) {
  auto pipe = [&](std::uint64_t num, std::uint64_t den) {
    port_pipes_.push_back(std::make_unique<BandwidthPipe>(clock_, num, den));
    return port_pipes_.back().get();
  };
  for (unsigned i = sm_side_.first; i < sm_side_.end(); ++i)
    core_pipes_.push_back(pipe_of_input_[i] = pipe(spec.port_bytes_per_cycle, 1));
  for (unsigned b = 0; b < ports.l2_banks; ++b) {
    BandwidthPipe* bank = pipe(spec.port_bytes_per_cycle, 1);
    core_pipes_.push_back(bank);
    for (XbarOut network : {XbarOut::kBankNet0, XbarOut::kBankNet1}) {
      if (b < outputs_[network].count) pipe_of_output_[outputs_[network].first + b] = bank;
    }
    if (b < inputs_[XbarIn::kL2Miss].count) pipe_of_input_[inputs_[XbarIn::kL2Miss].first + b] = bank;
  }
  for (unsigned l = 0; l < ports.links(); ++l) {
    const ByteRate& r = ports.link_port_rates[l];
    pipe_of_output_[outputs_[XbarOut::kLink].first + l] = pipe_of_input_[inputs_[XbarIn::kLink].first + l] =
        pipe(r.num, r.den);
  }
}

void Crossbar::refollow_clock() {
  period_ps_ = clock_.period_ps();
  latency_ps_ = clock_.cycles_ps(spec_.latency);
  for (BandwidthPipe* p : core_pipes_)
    p->follow_period(period_ps_);
}

void Crossbar::end_of_elaboration() {
  inputs_.check_complete();
  outputs_.check_complete();
}

// Homed here: the L2 bank of the line, on the network of where the request comes from. Homed elsewhere: the
// link towards the home — except a request from an SM when the L2 is GPU-side, which first tries the local
// L2 (its bank sends a miss back through here).
unsigned Crossbar::route(unsigned in_port, const Payload& gp) const {
  const NumaAttr& a = attr(gp);
  const unsigned bank = static_cast<unsigned>(
      bank_count_.remainder(facts_.interleave.index(line_size_.quotient(gp.get_address()))));
  if (a.home_socket == socket_) {
    const bool network1 = inputs_[XbarIn::kLink].contains(in_port) && !spec_.shared_request_network;
    return outputs_[network1 ? XbarOut::kBankNet1 : XbarOut::kBankNet0].first + bank;
  }
  if (gpu_side_l2_ && sm_side_.contains(in_port)) return outputs_[XbarOut::kBankNet0].first + bank;
  return outputs_[XbarOut::kLink].first + unsigned(link_for_gpu_[a.home_socket]);
}

bool Crossbar::try_accept(unsigned port, Payload& gp) {
  unsigned& r = reserved_[route(port, gp)];
  if (r >= spec_.queue_depth) return false;
  ++r;
  return true;
}

void Crossbar::on_request(unsigned port, Payload& gp) {
  NumaAttr& a = attr(gp);
  const unsigned o = route(port, gp);
  requests_.add();
  if (outputs_[XbarOut::kLink].contains(o)) {
    remote_requests_.add();
    if (on_remote_read && a.origin_socket == socket_ && a.op != MemOp::kWrite) on_remote_read();
  }
  a.push_return_port(static_cast<std::uint16_t>(port));
  const std::uint64_t bytes = facts_.request_bytes(a);
  bytes_.add(bytes);
  follow_clock();
  out.send_ps(o, gp, pipe_of_output_[o]->reserve_delay_ps(clock_.now_ps(), bytes, latency_ps_));
}

void Crossbar::on_request_accepted(unsigned port, Payload&) {
  --reserved_[port];
  in.retry_blocked(port);  // only requests routed to this output can use the room
}

void Crossbar::on_response(unsigned, Payload& gp) {
  NumaAttr& a = attr(gp);
  const unsigned back = a.pop_return_port();
  const std::uint64_t bytes = facts_.response_bytes(a);
  bytes_.add(bytes);
  follow_clock();
  in.respond_ps(back, gp, pipe_of_input_[back]->reserve_delay_ps(clock_.now_ps(), bytes, latency_ps_));
}

void Crossbar::report_queues(std::ostream& os) const {
  std::size_t reserved = 0;
  for (unsigned r : reserved_)
    reserved += r;
  if (reserved == 0 && in.held_requests() == 0 && in.queued_responses() == 0) return;
  os << "  " << name() << ": accepted-not-forwarded " << reserved << ", held " << in.held_requests()
     << ", responses queued " << in.queued_responses() << "\n";
}

}  // namespace numagpu
