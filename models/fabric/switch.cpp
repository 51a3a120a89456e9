#include "fabric/switch.hpp"

#include "common/txn.hpp"

namespace numagpu {

Switch::Switch(const sc_core::sc_module_name& name, SimContext& ctx, const SwitchSpec& spec,
               stats::Registry& stats)
    : sc_module(name),
      in("in", ctx, *this, ctx.names.add(this->name())),
      out("out", ctx, *this),
      clock_(ctx.clock),
      spec_(spec),
      reserved_(spec.ports, 0),
      packets_(stats.counter(std::string(this->name()) + ".requests", "requests", "Requests switched")) {}

unsigned Switch::wait_key(unsigned, const Payload& gp) const {
  return unsigned(port_for_gpu_.at(attr(gp).home_socket));
}

bool Switch::try_accept(unsigned, Payload& gp) {
  unsigned& r = reserved_.at(unsigned(port_for_gpu_.at(attr(gp).home_socket)));
  if (r >= spec_.queue_depth) return false;
  ++r;
  return true;
}

void Switch::on_request(unsigned port, Payload& gp) {
  NumaAttr& a = attr(gp);
  packets_.add();
  a.push_return_port(static_cast<std::uint16_t>(port));
  out.send(unsigned(port_for_gpu_[a.home_socket]), gp, latency_);
}

void Switch::on_request_accepted(unsigned port, Payload&) {
  --reserved_[port];
  in.retry_blocked(port);
}

void Switch::on_response(unsigned, Payload& gp) {
  in.respond(attr(gp).pop_return_port(), gp, latency_);
}

void Switch::report_queues(std::ostream& os) const {
  unsigned total = 0;
  for (unsigned r : reserved_)
    total += r;
  if (total == 0 && in.held_requests() == 0 && in.queued_responses() == 0) return;
  os << "  " << name() << ": queued " << total << ", held " << in.held_requests() << ", responses queued "
     << in.queued_responses() << "\n";
}

}  // namespace numagpu
