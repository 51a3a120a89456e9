#include "system/derived_params.hpp"

#include <algorithm>

namespace numagpu {

Topology switch_topology(unsigned sockets, const LinkSpec& link) {
  Topology t;
  t.name = "switch";
  t.gpus = sockets;
  if (sockets < 2) return t;
  t.switches = 1;
  for (unsigned g = 0; g < sockets; ++g)
    t.links.push_back(TopologyLink{g, sockets, link});
  return t;
}

Topology system_topology(const SystemSpec& spec) {
  return spec.topology.links.empty() ? switch_topology(spec.sockets, spec.link) : spec.topology;
}

policy::LinkBalancer::Params balancer_params(const SystemSpec& spec, const LinkSpec& link) {
  policy::LinkBalancer::Params p;
  p.lanes = link.lanes;
  p.sample_cycles = static_cast<std::uint32_t>(spec.balancer.sample_cycles);
  p.switch_cycles = static_cast<std::uint32_t>(spec.balancer.switch_cycles);
  p.sat_num = spec.balancer.saturation_percent;
  p.sat_den = 100;
  return p;
}

policy::PartitionController::Params partition_params(const SystemSpec& spec, const Topology& topology,
                                                     unsigned socket) {
  policy::PartitionController::Params p;
  p.ways = spec.l2.ways;
  p.sample_cycles = static_cast<std::uint32_t>(spec.partition.sample_cycles);
  p.sat_num = spec.partition.saturation_percent;
  p.sat_den = 100;
  p.resp_bytes = static_cast<std::uint32_t>(spec.facts.read_response_bytes());
  std::uint64_t ingress = 0;
  for (unsigned l : topology.links_of(socket)) {
    const LinkSpec& ls = topology.links[l].spec;
    ingress += std::uint64_t(ls.lanes / 2) * ls.lane_rate_num / ls.lane_rate_den;
  }
  p.ingress_bytes_per_cycle = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(ingress, 1, 65535));
  return p;
}

ByteRate link_port_rate(const LinkSpec& link) {
  return ByteRate{std::uint64_t(link.lanes) * link.lane_rate_num, link.lane_rate_den};
}

CrossbarPorts crossbar_ports(const SystemSpec& spec, const Topology& topology, unsigned socket) {
  CrossbarPorts ports;
  ports.sms = spec.sms_per_socket;
  ports.copy_engine = spec.copy_engines;
  for (const ExternalPortSpec& e : spec.external)
    ports.host_initiators += e.kind == ExternalPortSpec::Kind::kXbarInitiator && e.index == socket ? 1 : 0;
  ports.l2_banks = spec.l2_banks;
  ports.gpu_side_l2 = spec.l2.gpu_side;
  // The port to a link moves what all the link's lanes can carry (docs/fabric.md).
  for (unsigned l : topology.links_of(socket))
    ports.link_port_rates.push_back(link_port_rate(topology.links[l].spec));
  return ports;
}

}  // namespace numagpu
