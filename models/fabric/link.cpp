#include "fabric/link.hpp"

#include <algorithm>

#include "common/txn.hpp"
#include "fabric/packet.hpp"

namespace numagpu {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

Link::Link(const sc_core::sc_module_name& name, const LinkSpec& spec, stats::Registry& stats)
    : sc_module(name),
      in("in", *this, ComponentNames::add(this->name())),
      out("out", *this),
      spec_(spec),
      lanes_per_direction_(spec.lanes / 2) {
  const char* dir_names[2] = {"egress", "ingress"};
  for (int d = 0; d < 2; ++d) {
    const std::string base = std::string(this->name()) + "." + dir_names[d];
    dirs_[d].bytes_stat = &stats.counter(base + ".bytes", "bytes", "Bytes sent in this direction");
    dirs_[d].packets_stat = &stats.counter(base + ".packets", "packets", "Packets sent in this direction");
    if (spec.sample_cycles) {
      dirs_[d].utilization = &stats.series(
          base + ".utilization", "percent",
          "Share of cycles the direction's lanes were busy, per sample window", spec.sample_cycles);
    }
  }
  SC_HAS_PROCESS(Link);
  SC_METHOD(sample);
  sensitive << sample_event_;
  dont_initialize();
}

sc_time Link::transmit(Dir dir, std::uint64_t bytes) {
  Direction& d = dirs_[dir];
  const std::uint64_t width = std::uint64_t(lanes_per_direction_) * spec_.lane_bytes;
  const Cycles occupancy = (bytes + width - 1) / width;
  const Cycles start = std::max(GpuClock::now(), d.free_cycle);
  d.free_cycle = start + occupancy;
  d.busy_cycles += occupancy;
  d.bytes += bytes;
  d.bytes_stat->add(bytes);
  d.packets_stat->add();
  return GpuClock::cycles(d.free_cycle) - sc_time_stamp();
}

// Room is reserved per output: a request from the socket side leaves on the switch side and vice versa.
bool Link::try_accept(unsigned port, Payload&) {
  unsigned& r = reserved_[1 - port];
  if (r >= spec_.queue_depth) return false;
  ++r;
  return true;
}

void Link::on_request(unsigned port, Payload& gp) {
  const NumaAttr& a = attr(gp);
  const std::uint64_t bytes = request_bytes(a, spec_.header_bytes, spec_.line_bytes);
  if (port == kSocketSide) {
    out.send(kSwitchSide, gp, transmit(kEgress, bytes) + GpuClock::cycles(spec_.latency));
  } else {
    out.send(kSocketSide, gp, transmit(kIngress, bytes));
  }
}

void Link::on_request_accepted(unsigned port, Payload&) {
  --reserved_[port];
  in.retry_blocked();
}

void Link::on_response(unsigned port, Payload& gp) {
  const NumaAttr& a = attr(gp);
  const std::uint64_t bytes = response_bytes(a, spec_.header_bytes, spec_.line_bytes);
  if (port == kSwitchSide) {
    in.respond(kSocketSide, gp, transmit(kIngress, bytes));  // our own request's response, coming home
  } else {
    in.respond(kSwitchSide, gp, transmit(kEgress, bytes) + GpuClock::cycles(spec_.latency));
  }
}

void Link::start_sampling() {
  if (spec_.sample_cycles == 0) return;
  sampling_ = true;
  sample_event_.notify(GpuClock::cycles(spec_.sample_cycles));
}

void Link::stop_sampling() {
  sampling_ = false;
  sample_event_.cancel();
}

void Link::sample() {
  if (!sampling_) return;
  for (auto& d : dirs_) {
    // Busy cycles booked in the window (booked when a packet is scheduled), capped at the window length.
    const std::uint64_t busy = d.busy_cycles - d.busy_at_last_sample;
    d.busy_at_last_sample = d.busy_cycles;
    d.utilization->push(std::min(100.0, 100.0 * double(busy) / double(spec_.sample_cycles)));
  }
  sample_event_.notify(GpuClock::cycles(spec_.sample_cycles));
}

void Link::report_queues(std::ostream& os) const {
  if (reserved_[0] + reserved_[1] == 0 && in.held_requests() == 0 && in.queued_responses() == 0) return;
  os << "  " << name() << ": ingress queued " << reserved_[0] << ", egress queued " << reserved_[1]
     << ", held " << in.held_requests() << ", responses queued " << in.queued_responses() << "\n";
}

}  // namespace numagpu
