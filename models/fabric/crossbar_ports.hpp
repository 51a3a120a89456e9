// What a socket's crossbar is wired to, and its ports by role (common/port_map.hpp): which peers send into
// it and which it sends to. Plain C++, no SystemC.
#pragma once

#include <string>
#include <vector>

#include "common/port_map.hpp"
#include "fabric/crossbar_spec.hpp"

namespace numagpu {

// Input roles, in port order. The first three send what an SM sends (request network 0, the local L2 first
// when it is GPU-side).
enum class XbarIn {
  kSm,             // each SM's L1
  kCopyEngine,     // the socket's copy engine (numagpu bench-fabric)
  kHostInitiator,  // the host's initiators at this crossbar (docs/tlm-edges.md)
  kL2Miss,         // each GPU-side L2 bank: its remote misses and write-backs
  kLink,           // each of the socket's fabric links, in topology order
  kCount
};
// Output roles, in port order. Each L2 bank is bound twice, once per request network (fabric/crossbar.hpp).
enum class XbarOut {
  kBankNet0,  // each bank, for requests from this socket's SMs
  kBankNet1,  // each bank again, for requests from the fabric (only with links)
  kLink,      // each link, in topology order
  kCount
};

struct CrossbarPorts {
  unsigned sms = 1;
  bool copy_engine = false;
  unsigned host_initiators = 0;
  unsigned l2_banks = 1;
  bool gpu_side_l2 = false;  // each bank also sends into the crossbar (an L2-miss input per bank)
  std::vector<ByteRate> link_port_rates;  // one per attached link, in topology order: its lanes x lane rate

  unsigned links() const { return static_cast<unsigned>(link_port_rates.size()); }

  // Each side's ranges, `owner` naming the crossbar in errors.
  PortMap<XbarIn> inputs(const std::string& owner) const {
    return PortMap<XbarIn>(
        owner + " input", {"sm", "copy engine", "host initiator", "l2 miss", "link"},
        {sms, copy_engine ? 1u : 0u, host_initiators, gpu_side_l2 ? l2_banks : 0u, links()});
  }
  PortMap<XbarOut> outputs(const std::string& owner) const {
    return PortMap<XbarOut>(owner + " output", {"bank network 0", "bank network 1", "link"},
                            {l2_banks, links() > 0 ? l2_banks : 0u, links()});
  }
};

}  // namespace numagpu
