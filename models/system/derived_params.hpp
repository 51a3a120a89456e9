// Every value that follows from the system's facts, derived in one place after the whole SystemSpec is
// known: the policies' parameters (used to build the C++ policies, and compared with the RTL's compiled
// parameters by `policy.impl: rtl`), the fabric's topology and what each crossbar is wired to.
#pragma once

#include "fabric/crossbar_ports.hpp"
#include "policy/link_balancer.hpp"
#include "policy/partition_controller.hpp"
#include "system/system_spec.hpp"

namespace numagpu {

// The fabric: the custom topology as given, or the paper's switch built from `link` (none for one socket).
Topology system_topology(const SystemSpec& spec);

// The balancer of one link: its lanes, the `link` section's window, switch time and threshold.
policy::LinkBalancer::Params balancer_params(const SystemSpec& spec, const LinkSpec& link);

// The partition controller of one socket: the L2's ways, a read response's bytes on the wire, and the
// socket's links' inbound bytes per cycle at the symmetric split (clamped to the RTL's 16-bit input).
policy::PartitionController::Params partition_params(const SystemSpec& spec, const Topology& topology,
                                                     unsigned socket);

// Bytes per cycle a link can carry one way with all of its lanes: the crossbar port that feeds it.
ByteRate link_port_rate(const LinkSpec& link);

// What one socket's crossbar is wired to: its SMs, copy engine and the host's initiators there, its L2 banks,
// and its links in topology order.
CrossbarPorts crossbar_ports(const SystemSpec& spec, const Topology& topology, unsigned socket);

}  // namespace numagpu
