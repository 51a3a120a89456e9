// Ports by role (common/port_map.hpp): the crossbar's role ranges for a small system, derived by hand, and
// a wrong binding (a role's ports all bound, a port bound out of order or twice, a port left unbound) as one
// error naming the crossbar, the role and the slot.
#include "common/port_map.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "fabric/crossbar_ports.hpp"
#include "system/derived_params.hpp"

namespace numagpu {
namespace {

// 2 sockets of 3 SMs and 2 GPU-side L2 banks, a copy engine on each, one host initiator at socket 1's
// crossbar, and the paper's switch: each socket has one link (gpu0-switch0, gpu1-switch0).
SystemSpec two_sockets() {
  SystemSpec spec;
  spec.sockets = 2;
  spec.sms_per_socket = 3;
  spec.l2_banks = 2;
  spec.l2.gpu_side = true;
  spec.copy_engines = true;
  spec.link.lanes = 4;
  spec.link.lane_rate_num = 8;
  ExternalPortSpec host;
  host.kind = ExternalPortSpec::Kind::kXbarInitiator;
  host.index = 1;
  host.name = "host";
  spec.external.push_back(host);
  return spec;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

TEST(PortMap, CrossbarRangesFollowTheRolesInOrder) {
  const SystemSpec spec = two_sockets();
  const Topology t = system_topology(spec);
  const CrossbarPorts p1 = crossbar_ports(spec, t, 1);
  // Socket 1's link: 4 lanes x 8 B per cycle = 32 B per cycle.
  ASSERT_EQ(p1.links(), 1u);
  EXPECT_EQ(p1.link_port_rates[0].num, 32u);
  // Inputs: SMs 0-2, the copy engine 3, the host's initiator 4, the banks' misses 5-6, the link 7.
  const PortMap<XbarIn> in1 = p1.inputs("socket1.xbar");
  EXPECT_EQ(in1[XbarIn::kSm], (PortRange{0, 3}));
  EXPECT_EQ(in1[XbarIn::kCopyEngine], (PortRange{3, 1}));
  EXPECT_EQ(in1[XbarIn::kHostInitiator], (PortRange{4, 1}));
  EXPECT_EQ(in1[XbarIn::kL2Miss], (PortRange{5, 2}));
  EXPECT_EQ(in1[XbarIn::kLink], (PortRange{7, 1}));
  EXPECT_EQ(in1.size(), 8u);
  EXPECT_EQ(in1.span(XbarIn::kSm, XbarIn::kHostInitiator), (PortRange{0, 5}));  // what an SM sends
  // Outputs: the banks on network 0 (0-1), again on network 1 (2-3), the link 4.
  const PortMap<XbarOut> out1 = p1.outputs("socket1.xbar");
  EXPECT_EQ(out1[XbarOut::kBankNet0], (PortRange{0, 2}));
  EXPECT_EQ(out1[XbarOut::kBankNet1], (PortRange{2, 2}));
  EXPECT_EQ(out1[XbarOut::kLink], (PortRange{4, 1}));
  EXPECT_EQ(out1.size(), 5u);

  // Socket 0 has no host initiator: its range is empty and the misses move up by one (4-5), the link to 6.
  const PortMap<XbarIn> in0 = crossbar_ports(spec, t, 0).inputs("socket0.xbar");
  EXPECT_EQ(in0[XbarIn::kHostInitiator], (PortRange{4, 0}));
  EXPECT_EQ(in0[XbarIn::kL2Miss], (PortRange{4, 2}));
  EXPECT_EQ(in0[XbarIn::kLink], (PortRange{6, 1}));

  // One socket: no links, so no network 1 either; a memory-side L2 sends no misses in.
  SystemSpec one = spec;
  one.sockets = 1;
  one.l2.gpu_side = false;
  one.external.clear();
  const CrossbarPorts p = crossbar_ports(one, system_topology(one), 0);
  EXPECT_EQ(p.inputs("x").size(), 4u);  // 3 SMs and the copy engine
  EXPECT_EQ(p.outputs("x")[XbarOut::kBankNet1], (PortRange{2, 0}));
  EXPECT_EQ(p.outputs("x").size(), 2u);
}

// Binding in role order claims each port once; the map is then complete.
TEST(PortMap, BindingInRoleOrderCompletes) {
  const SystemSpec spec = two_sockets();
  PortMap<XbarOut> out = crossbar_ports(spec, system_topology(spec), 1).outputs("socket1.xbar");
  EXPECT_EQ(out.claim(XbarOut::kBankNet0, 0), 0u);
  EXPECT_EQ(out.claim(XbarOut::kBankNet0, 1), 1u);
  EXPECT_EQ(out.claim(XbarOut::kBankNet1, 0), 2u);
  EXPECT_EQ(out.claim(XbarOut::kBankNet1, 1), 3u);
  EXPECT_EQ(out.claim(XbarOut::kLink, 0), 4u);
  EXPECT_NO_THROW(out.check_complete());
}

TEST(PortMap, AWrongBindingIsOneErrorNamingRoleAndSlot) {
  const SystemSpec spec = two_sockets();
  const CrossbarPorts p = crossbar_ports(spec, system_topology(spec), 1);
  PortMap<XbarIn> in = p.inputs("socket1.xbar");
  for (unsigned sm = 0; sm < 3; ++sm)
    in.claim(XbarIn::kSm, sm);
  // A fourth SM: the role has 3 ports.
  EXPECT_EQ(error_of([&] { in.claim(XbarIn::kSm, 3); }),
            "socket1.xbar input 'sm' 3: the role has 3 port(s), all bound");
  // The link before the copy engine, the host's initiator and the misses (ports 3-6).
  EXPECT_EQ(
      error_of([&] { in.claim(XbarIn::kLink, 0); }),
      "socket1.xbar input 'link' 0 (port 7) bound before 'copy engine' 0 (port 3): bind in port order (a "
      "socket numbers its bindings as they are made)");
  EXPECT_EQ(error_of([&] { in.claim(XbarIn::kSm, 1); }), "socket1.xbar input 'sm' 1 (port 1) is bound twice");
  in.claim(XbarIn::kCopyEngine, 0);
  // The host's initiator never bound: the first port left is named.
  EXPECT_EQ(error_of([&] { in.check_complete(); }),
            "socket1.xbar input 'host initiator' 0 (port 4) is not bound");
}

// A node's link slots follow the topology's link order: in a triangle, GPU 1's links are 0 (0-1) and 2 (1-2).
TEST(PortMap, LinkSlotsFollowTopologyOrder) {
  Topology t;
  t.gpus = 3;
  t.links = {TopologyLink{0, 1, LinkSpec{}}, TopologyLink{0, 2, LinkSpec{}}, TopologyLink{1, 2, LinkSpec{}}};
  EXPECT_EQ(t.link_slot(1, 0), 0u);
  EXPECT_EQ(t.link_slot(1, 2), 1u);
  EXPECT_EQ(t.link_slot(2, 1), 0u);
  EXPECT_EQ(t.link_slot(2, 2), 1u);
}

}  // namespace
}  // namespace numagpu
