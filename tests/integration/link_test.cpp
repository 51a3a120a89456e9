// One link between two scripted endpoints, with the real link balancer: the exact cycles of a lane turn
// (quiesce until drained, then switch_cycles), and a packet's serialization before and after it.
#include "fabric/link.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "common/sim_context.hpp"
#include "common/txn.hpp"
#include "scripted_endpoint.hpp"
#include "stats/registry.hpp"

namespace numagpu {
namespace {

// 128 B lines, 16 B headers (a read request is 16 B, a write 144 B), no utilization series.
const MachineFacts kFacts{128, 16, 0};

using sc_core::SC_NS;
using sc_core::sc_time;

// Sends scripted requests into the link and records when packets arrive from it, in picoseconds (at 1 GHz,
// 1000 ps = 1 cycle).
using numagpu::testing::Endpoint;

struct Bench : sc_core::sc_module {
  SimContext ctx;  // 1 GHz
  stats::Registry reg;
  TxnPool pool;
  Endpoint a{"a"}, b{"b"};
  std::unique_ptr<Link> link;
  std::vector<int> b_reads_at;  // cycles at which side b sends a read request towards a

  static LinkSpec spec() {
    LinkSpec s;
    s.lanes = 4;          // 2 each way: 16 B/cycle per direction
    s.lane_rate_num = 8;  // 8 B per lane per cycle
    s.latency = 0;
    return s;
  }
  static policy::LinkBalancer::Params params() {
    policy::LinkBalancer::Params p;
    p.lanes = 4;
    p.sample_cycles = 4;
    p.switch_cycles = 2;
    return p;
  }

  explicit Bench(const sc_core::sc_module_name& n, std::vector<int> b_reads)
      : sc_module(n), b_reads_at(std::move(b_reads)) {
    link =
        std::make_unique<Link>("link", ctx, spec(), kFacts,
                               std::make_unique<policy::ReferenceImpl<policy::LinkBalancer>>(params()), reg);
    a.init.bind(link->in.socket);
    link->out.socket.bind(a.targ);
    b.init.bind(link->in.socket);
    link->out.socket.bind(b.targ);
    SC_HAS_PROCESS(Bench);
    SC_THREAD(script);
  }

  tlm::tlm_generic_payload& packet(MemOp op) { return pool.allocate(op, 0, 128); }

  // Side a: one 16 B read request per cycle in cycles 0..7 (direction A busy every cycle of windows 0 and
  // 1), then one 144 B write request at cycle 12. Side b: 16 B read requests at the scripted cycles.
  void script() {
    for (int c = 0; c < 13; ++c) {
      if (c < 8) a.send(packet(MemOp::kRead));
      if (c == 12) a.send(packet(MemOp::kWrite));
      for (int r : b_reads_at) {
        if (r == c) b.send(packet(MemOp::kRead));
      }
      wait(1, SC_NS);
    }
  }
};

struct Change {
  Cycles cycle;
  unsigned a, b;
  bool quiescing, switching;
};

void expect_changes(const Link& link, const std::vector<Change>& want) {
  const auto& got = link.lane_changes();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].cycle, want[i].cycle) << "change " << i;
    EXPECT_EQ(got[i].lanes[0], want[i].a) << "change " << i;
    EXPECT_EQ(got[i].lanes[1], want[i].b) << "change " << i;
    EXPECT_EQ(got[i].quiescing, want[i].quiescing) << "change " << i;
    EXPECT_EQ(got[i].switching, want[i].switching) << "change " << i;
  }
}

// B idle. Window 0 (cycles 0-3): A busy 4/4 (saturated), B 0/4: one B lane turns toward A. It quiesces from
// cycle 4 and, carrying nothing, is drained at once (d = 0): it switches in cycles 5 and 6 (switch_cycles 2)
// and serves A from cycle 7 (docs/policies.md, "A turn"). Window 1 ends with the turn complete and B at one
// lane: blocked; later windows change nothing. The write at cycle 12 then has 3 lanes (24 B/cycle, exact):
// 144 / 24 = 6 cycles exactly, arriving at cycle 18 — with the original 2 lanes it would take 9.
TEST(LinkTurnaround, IdleLaneTurnsAfterSwitchCycles) {
  Bench bench("bench", {});
  sc_core::sc_start(sc_time(30, SC_NS));
  bench.link->finish();
  expect_changes(
      *bench.link,
      {{0, 2, 2, false, false}, {4, 2, 1, true, false}, {5, 2, 1, false, true}, {7, 3, 1, false, false}});
  const auto& at_b = bench.b.arrivals;
  ASSERT_EQ(at_b.size(), 9u);
  for (int c = 0; c < 7; ++c)
    EXPECT_EQ(at_b[c].ps, std::uint64_t(c + 1) * 1000) << "read " << c;  // 16 B / 16 B per cycle: 1 cycle
  // The read of cycle 7 already has the turned lane: 16 B / 24 B per cycle = 2/3 cycle, 667 ps rounded up.
  EXPECT_EQ(at_b[7].ps, 7667u);
  EXPECT_EQ(at_b[8].ps, 18000u);
  EXPECT_EQ(bench.reg.find_counter("bench.link.turnarounds")->value(), 1u);
  EXPECT_EQ(bench.reg.find_counter("bench.link.turnaround_cycles")->value(), 3u);  // cycles 4, 5, 6
}

// B sends read requests in cycles 2, 3 and 4 (one cycle each on its 2 lanes): window 0 sees B busy 2/4, not
// saturated, so the same turn is decided; but the turning lane carries B's packet of cycle 4 (booked before
// it quiesced) and only drains at the end of cycle 4: drained in cycle 5 (d = 1). It switches in cycles 6 and
// 7 and serves A from cycle 8. Window 1 ends (cycle 7) with the turn in progress: no decision.
TEST(LinkTurnaround, QuiescingLaneWaitsForItsPacketsToDrain) {
  Bench bench("bench", {2, 3, 3});
  sc_core::sc_start(sc_time(30, SC_NS));
  bench.link->finish();
  expect_changes(
      *bench.link,
      {{0, 2, 2, false, false}, {4, 2, 1, true, false}, {6, 2, 1, false, true}, {8, 3, 1, false, false}});
  EXPECT_EQ(bench.reg.find_counter("bench.link.turnaround_cycles")->value(), 4u);  // cycles 4 to 7
}

// A static link between two endpoints, driven by a script run in an SC_THREAD.
struct Wire : numagpu::testing::ScriptedBench<Wire> {
  Endpoint a{"a"}, b{"b"};
  std::unique_ptr<Link> link;

  Wire(const sc_core::sc_module_name& n, const LinkSpec& spec, std::function<void(Wire&)> s)
      : ScriptedBench(n, std::move(s)) {
    link = std::make_unique<Link>("link", ctx, spec, kFacts, nullptr, reg);
    a.init.bind(link->in.socket);
    link->out.socket.bind(a.targ);
    b.init.bind(link->in.socket);
    link->out.socket.bind(b.targ);
  }
};

// Zero load: one 16 B read request on an idle paper link (8 lanes x 8 B = 64 B per cycle each way) is
// serialized at the exact byte rate, 16/64 = 0.25 cycle, plus the traversal latency (64, half of Table 1's
// 128-cycle socket-to-socket trip): it arrives at 64.25 cycles = 64,250 ps. A 144 B write on the same idle
// link: 144/64 = 2.25 cycles + 64, arriving 66.25 cycles after it was sent at cycle 1000: 1,066,250 ps.
TEST(LinkTiming, ZeroLoadLatencyIsSerializationPlusTheConfiguredLatency) {
  LinkSpec spec;
  spec.lanes = 16;
  spec.lane_rate_num = 8;
  spec.latency = 64;
  Wire w("wire", spec, [](Wire& self) {
    self.a.send(self.pool.allocate(MemOp::kRead, 0, 128));
    sc_core::wait(1000, SC_NS);
    self.a.send(self.pool.allocate(MemOp::kWrite, 0, 128));
  });
  sc_core::sc_start(sc_time(2000, SC_NS));
  ASSERT_EQ(w.b.arrivals.size(), 2u);
  EXPECT_EQ(w.b.arrivals[0].ps, 64250u);
  EXPECT_EQ(w.b.arrivals[1].ps, 1066250u);
}

// A link given in GB/s keeps its rate exact: a 25 GB/s link (NVLink 2.0) of 8 lanes each way moves
// 25 B/cycle at 1 GHz, i.e. 3.125 B per lane per cycle = 25000 / (1000 x 8) as configured by a topology
// file. 1000 write packets of 144 B sent at once leave back to back: 144000 B / 25 B per cycle = 5760 cycles
// exactly (5.76 cycles each, not rounded to 6): 25 GB/s, not a rounded number of bytes per cycle.
TEST(LinkTiming, GbpsLinkDeliversItsExactRate) {
  LinkSpec spec;
  spec.lanes = 16;
  spec.lane_rate_num = 25000;
  spec.lane_rate_den = 1000 * 8;
  spec.latency = 0;
  spec.queue_depth = 1000;  // all 1000 are sent in one go, without waiting for END_REQ in between
  Wire w("wire", spec, [](Wire& self) {
    for (int i = 0; i < 1000; ++i)
      self.a.send(self.pool.allocate(MemOp::kWrite, 0, 128));
  });
  sc_core::sc_start(sc_time(10000, SC_NS));
  ASSERT_EQ(w.b.arrivals.size(), 1000u);
  EXPECT_EQ(w.b.arrivals.front().ps, 5760u);  // 5.76 cycles
  EXPECT_EQ(w.b.arrivals.back().ps, 5760000u);
  EXPECT_EQ(w.reg.find_counter("wire.link.dir0.bytes")->value(), 144000u);
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
