#include "fabric/crossbar.hpp"

#include "common/txn.hpp"

namespace numagpu {

using sc_core::sc_time;

Crossbar::Crossbar(const sc_core::sc_module_name& name, SimContext& ctx, const CrossbarSpec& spec,
                   CrossbarPorts ports, const MachineFacts& facts, std::uint16_t socket,
                   stats::Registry& stats)
    : sc_module(name),
      in("in", ctx, *this, ctx.names.add(this->name())),
      out("out", ctx, *this),
      clock_(ctx.clock),
      spec_(spec),
      latency_(ctx.clock.cycles(spec.latency)),
      ports_(std::move(ports)),
      facts_(facts),
      line_size_(facts.line_bytes),
      bank_count_(ports_.l2_banks),
      socket_(socket),
      reserved_(2 * ports_.l2_banks + ports_.link_ports(), 0),
      requests_(stats.counter(std::string(this->name()) + ".requests", "requests", "Requests routed")),
      remote_requests_(
          stats.counter(std::string(this->name()) + ".requests_to_link", "requests",
                        "Requests routed to a fabric link (remote homes, and traffic passing through)")),
      bytes_(
          stats.counter(std::string(this->name()) + ".bytes", "bytes", "Request and response bytes moved")) {
  for (unsigned p = 0; p < ports_.sm_ports + ports_.l2_banks; ++p)
    port_pipes_.push_back(std::make_unique<BandwidthPipe>(clock_, spec.port_bytes_per_cycle, 1));
  for (const ByteRate& r : ports_.link_port_rates)
    port_pipes_.push_back(std::make_unique<BandwidthPipe>(clock_, r.num, r.den));
}

BandwidthPipe& Crossbar::pipe_of_output(unsigned o) {
  const unsigned banks = ports_.l2_banks;
  if (o < 2 * banks) return *port_pipes_[ports_.sm_ports + o % banks];
  return *port_pipes_[ports_.sm_ports + banks + (o - 2 * banks)];
}

BandwidthPipe& Crossbar::pipe_of_input(unsigned i) {
  if (i < ports_.sm_ports) return *port_pipes_[i];
  if (i < ports_.sm_ports + ports_.l2_ports) return *port_pipes_[i];  // bank (i - sm_ports)
  return *port_pipes_[ports_.sm_ports + ports_.l2_banks + (i - ports_.sm_ports - ports_.l2_ports)];
}

// Homed here: the L2 bank of the line, on the network of where the request comes from. Homed elsewhere: the
// link towards the home — except a request from an SM when the L2 is GPU-side, which first tries the local
// L2 (its bank sends a miss back through here).
unsigned Crossbar::route(unsigned in_port, const Payload& gp) const {
  const NumaAttr& a = attr(gp);
  const unsigned bank = static_cast<unsigned>(bank_count_.remainder(line_size_.quotient(gp.get_address())));
  const bool from_fabric = in_port >= ports_.sm_ports + ports_.l2_ports;
  if (a.home_socket == socket_)
    return from_fabric && !spec_.shared_request_network ? ports_.l2_banks + bank : bank;
  if (ports_.gpu_side_l2 && in_port < ports_.sm_ports) return bank;
  return 2 * ports_.l2_banks + unsigned(link_for_gpu_[a.home_socket]);
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
  if (o >= 2 * ports_.l2_banks) {
    remote_requests_.add();
    if (on_remote_read && a.origin_socket == socket_ && a.op != MemOp::kWrite) on_remote_read();
  }
  a.push_return_port(static_cast<std::uint16_t>(port));
  const std::uint64_t bytes = facts_.request_bytes(a);
  bytes_.add(bytes);
  const sc_time leaves = pipe_of_output(o).reserve(sim_now(), bytes);
  out.send(o, gp, leaves - sim_now() + latency_);
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
  const sc_time leaves = pipe_of_input(back).reserve(sim_now(), bytes);
  in.respond(back, gp, leaves - sim_now() + latency_);
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
