// One crossbar alone between scripted endpoints (tests/integration/scripted_endpoint.hpp): two SM-side
// inputs and two L2 banks, each bank answering 10 cycles after a request arrives. Routing by line, and each
// attachment's port moving port_bytes_per_cycle (requests towards a bank, responses towards an SM), checked
// against cycles derived by hand.
#include "fabric/crossbar.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>

#include "scripted_endpoint.hpp"

namespace numagpu {
namespace {

using numagpu::testing::Endpoint;
using numagpu::testing::kBenchFacts;  // a read request 16 B, its response 144 B
using sc_core::SC_NS;
using sc_core::sc_time;
constexpr std::uint64_t kNs = numagpu::testing::kPsPerCycle;

struct XbarBench : numagpu::testing::ScriptedBench<XbarBench> {
  Endpoint sm0{"sm0"}, sm1{"sm1"}, bank0{"bank0"}, bank1{"bank1"};
  std::unique_ptr<Crossbar> xbar;

  // 2-cycle latency, 16 B per cycle per port; one socket (socket 0), no links.
  XbarBench(const sc_core::sc_module_name& n, std::function<void(XbarBench&)> f)
      : ScriptedBench(n, std::move(f)) {
    CrossbarSpec spec;
    spec.latency = 2;
    spec.port_bytes_per_cycle = 16;
    CrossbarPorts ports;
    ports.sms = 2;
    ports.l2_banks = 2;
    xbar = std::make_unique<Crossbar>("xbar", ctx, spec, ports, kBenchFacts, 0, reg);
    xbar->set_routes({-1});  // GPU 0 is this socket
    sm0.init.bind(xbar->input(XbarIn::kSm, 0).socket);
    sm1.init.bind(xbar->input(XbarIn::kSm, 1).socket);
    xbar->output(XbarOut::kBankNet0, 0).socket.bind(bank0.targ);
    xbar->output(XbarOut::kBankNet0, 1).socket.bind(bank1.targ);
    bank0.respond_after = bank1.respond_after = sc_time(10, SC_NS);
  }
  std::uint64_t counter(const char* leaf) const {
    return ScriptedBench::counter(std::string("bench.xbar.") + leaf);
  }
};

// At cycle 0, sm0 reads lines 0, 2, 4 (bank 0: line mod 2) and sm1 reads line 1 (bank 1).
// Requests: bank 0's port moves sm0's three 16 B requests one per cycle, leaving at 1, 2, 3, arriving 2
// cycles later: 3, 4, 5. Bank 1's port is free: line 1 arrives at 1 + 2 = 3.
// Responses (144 B: 9 cycles on a 16 B port): bank 0 answers at 13, 14, 15. sm0's port moves them back to
// back: the first leaves at 13 + 9 = 22 (arrives 24), the second starts when it ends, 22 + 9 = 31 (33), the
// third 40 (42). sm1's answer from bank 1 at 13 has its own port: 22, arriving 24.
// A write of line 3 from sm1 at cycle 100: 144 B request on bank 1's port, 9 cycles: leaves 109, arrives 111;
// its 16 B acknowledgement at 121 takes 1 cycle on sm1's port: 122, arriving 124.
// Bytes: 4 x 16 + 4 x 144 (reads) + 144 + 16 (the write) = 800.
TEST(CrossbarBench, RoutesByLineAndSerializesOnEachPort) {
  XbarBench x("bench", [](XbarBench& self) {
    for (std::uint64_t n : {0, 2, 4})
      ASSERT_TRUE(self.sm0.send(self.line(MemOp::kRead, n)));
    ASSERT_TRUE(self.sm1.send(self.line(MemOp::kRead, 1)));
    sc_core::wait(100, SC_NS);
    ASSERT_TRUE(self.sm1.send(self.line(MemOp::kWrite, 3)));
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(x.bank0.arrivals.size(), 3u);
  for (unsigned k = 0; k < 3; ++k) {
    EXPECT_EQ(x.bank0.arrivals[k].gp->get_address(), 256u * k);
    EXPECT_EQ(x.bank0.arrivals[k].ps, (3 + k) * kNs);
  }
  ASSERT_EQ(x.bank1.arrivals.size(), 2u);
  EXPECT_EQ(x.bank1.arrivals[0].gp->get_address(), 128u);
  EXPECT_EQ(x.bank1.arrivals[0].ps, 3 * kNs);
  EXPECT_EQ(x.bank1.arrivals[1].gp->get_address(), 384u);
  EXPECT_EQ(x.bank1.arrivals[1].ps, 111 * kNs);

  ASSERT_EQ(x.sm0.responses.size(), 3u);
  EXPECT_EQ(x.sm0.responses[0].ps, 24 * kNs);
  EXPECT_EQ(x.sm0.responses[1].ps, 33 * kNs);
  EXPECT_EQ(x.sm0.responses[2].ps, 42 * kNs);
  ASSERT_EQ(x.sm1.responses.size(), 2u);
  EXPECT_EQ(x.sm1.responses[0].ps, 24 * kNs);
  EXPECT_EQ(x.sm1.responses[1].ps, 124 * kNs);
  EXPECT_EQ(x.counter("requests"), 5u);
  EXPECT_EQ(x.counter("requests_to_link"), 0u);
  EXPECT_EQ(x.counter("bytes"), 800u);
}

// One SM, two banks and one 16 B/cycle link port, GPU 1 behind it (routes {-1, 0}); every port bound, the
// link's input (port 1, after the SM's) only when `bind_link_input`.
struct LinkBench : numagpu::testing::ScriptedBench<LinkBench> {
  Endpoint sm{"sm"}, b0{"b0"}, b1{"b1"}, n0{"n0"}, n1{"n1"}, link{"link"};
  std::unique_ptr<Crossbar> xbar;
  LinkBench(const sc_core::sc_module_name& n, std::function<void(LinkBench&)> f, bool bind_link_input)
      : ScriptedBench(n, std::move(f)) {
    CrossbarPorts ports;
    ports.sms = 1;
    ports.l2_banks = 2;
    ports.link_port_rates = {ByteRate{16, 1}};
    xbar = std::make_unique<Crossbar>("xbar", ctx, CrossbarSpec{}, ports, kBenchFacts, 0, reg);
    xbar->set_routes({-1, 0});
    sm.init.bind(xbar->input(XbarIn::kSm, 0).socket);
    if (bind_link_input) link.init.bind(xbar->input(XbarIn::kLink, 0).socket);  // unused here
    xbar->output(XbarOut::kBankNet0, 0).socket.bind(b0.targ);
    xbar->output(XbarOut::kBankNet0, 1).socket.bind(b1.targ);
    xbar->output(XbarOut::kBankNet1, 0).socket.bind(n0.targ);
    xbar->output(XbarOut::kBankNet1, 1).socket.bind(n1.targ);
    xbar->output(XbarOut::kLink, 0).socket.bind(link.targ);
  }
};

// A request homed at another socket leaves on the link towards it: sm's read of a line homed at socket 1
// goes to the link endpoint, and counts as a request to a link.
TEST(CrossbarBench, RemoteHomesLeaveOnTheRoutedLink) {
  LinkBench b(
      "bench",
      [](LinkBench& self) {
        Payload& gp = self.line(MemOp::kRead, 0);
        attr(gp).home_socket = 1;
        ASSERT_TRUE(self.sm.send(gp));
      },
      true);
  sc_core::sc_start(sc_time(100, SC_NS));
  EXPECT_EQ(b.link.arrivals.size(), 1u);
  EXPECT_TRUE(b.b0.arrivals.empty());
  EXPECT_EQ(b.counter("bench.xbar.requests_to_link"), 1u);
}

// A port left unbound stops elaboration with one error naming the crossbar, the role and the slot: here the
// link's input, port 1, while every other port is bound.
TEST(CrossbarBench, AnUnboundPortStopsElaborationNamingIt) {
  LinkBench b("bench", nullptr, false);
  try {
    sc_core::sc_start(sc_time(10, SC_NS));
    ADD_FAILURE() << "elaboration went through with the link's input unbound";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "bench.xbar input 'link' 0 (port 1) is not bound");
  }
}

}  // namespace
}  // namespace numagpu
