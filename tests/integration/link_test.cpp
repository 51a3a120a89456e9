// One link between two scripted endpoints, with the real link balancer: the exact cycles of a lane turn
// (quiesce until drained, then switch_cycles), and a packet's serialization before and after it; on a static
// link, the timing of one packet and of many, and how requests and responses share a direction (virtual
// channels taken in turn).
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
  std::vector<int> b_reads_at;   // cycles at which side b sends a read request towards a
  std::vector<int> b_writes_at;  // ... and a write request

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

  explicit Bench(const sc_core::sc_module_name& n, std::vector<int> b_reads, std::vector<int> b_writes = {})
      : sc_module(n), b_reads_at(std::move(b_reads)), b_writes_at(std::move(b_writes)) {
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
      for (int w : b_writes_at) {
        if (w == c) b.send(packet(MemOp::kWrite));
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

// B sends a read request in cycle 2 (one cycle on its 2 lanes) and a 144 B write in cycle 3, on the lanes
// for 144 / 16 = 9 cycles: [3, 12). Window 0 sees B busy 2/4, not saturated, so the same turn is decided; but
// the turning lane carries B's write, on the lanes before it quiesced, and only drains at the end of cycle
// 11: drained in cycle 12 (d = 8). It switches in cycles 13 and 14 and serves A from cycle 15. Windows 1 and
// 2 end with the turn in progress: no decision; window 3 (cycles 12-15) ends with the turn complete and B at
// one lane: blocked.
TEST(LinkTurnaround, QuiescingLaneWaitsForItsPacketToDrain) {
  Bench bench("bench", {2}, {3});
  sc_core::sc_start(sc_time(40, SC_NS));
  bench.link->finish();
  expect_changes(
      *bench.link,
      {{0, 2, 2, false, false}, {4, 2, 1, true, false}, {13, 2, 1, false, true}, {15, 3, 1, false, false}});
  EXPECT_EQ(bench.reg.find_counter("bench.link.turnaround_cycles")->value(), 11u);  // cycles 4 to 14
  const auto& at_a = bench.a.arrivals;
  ASSERT_EQ(at_a.size(), 2u);
  EXPECT_EQ(at_a[0].ps, 3000u);
  EXPECT_EQ(at_a[1].ps, 12000u);
}

// A packet waiting for the lanes is not on them: B sends read requests in cycles 2, 3 and 3. The second of
// cycle 3 waits in the link until cycle 4, when the lanes come free; by then the lane has turned away from B
// (quiescing from cycle 4), so it takes B's one remaining lane: 16 / 8 = 2 cycles, arriving at cycle 6. The
// quiescing lane carried nothing (the packet of cycle 3 left at the end of cycle 3): drained at once, as in
// IdleLaneTurnsAfterSwitchCycles.
TEST(LinkTurnaround, PacketsWaitingForTheLanesDoNotHoldTheTurningLane) {
  Bench bench("bench", {2, 3, 3});
  sc_core::sc_start(sc_time(30, SC_NS));
  bench.link->finish();
  expect_changes(
      *bench.link,
      {{0, 2, 2, false, false}, {4, 2, 1, true, false}, {5, 2, 1, false, true}, {7, 3, 1, false, false}});
  const auto& at_a = bench.a.arrivals;
  ASSERT_EQ(at_a.size(), 3u);
  EXPECT_EQ(at_a[0].ps, 3000u);
  EXPECT_EQ(at_a[1].ps, 4000u);
  EXPECT_EQ(at_a[2].ps, 6000u);
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

// A small static link: 4 lanes, 2 each way, 8 B per lane per cycle (16 B/cycle per direction), no
// traversal latency; side b answers every request the moment it arrives.
LinkSpec small_static_link() {
  LinkSpec spec;
  spec.lanes = 4;
  spec.lane_rate_num = 8;
  spec.latency = 0;
  spec.queue_depth = 16;
  return spec;
}

// Requests and responses share direction 1 (b to a) in turn. Side a sends 4 reads at cycle 0; they cross
// direction 0 one cycle each (16 B / 16 B per cycle) and reach b at cycles 1, 2, 3 and 4, which answers each
// at once: four 144 B responses for direction 1, 9 cycles each. The first takes the lanes at cycle 1 and
// leaves at 10; the others wait. Side b sends two reads of its own at cycle 5. From cycle 10 the direction
// alternates between its channels: b's first read [10, 11), the second response [11, 20), b's second read
// [20, 21), then the two responses left, [21, 30) and [30, 39). With one queue in arrival order b's reads
// would have waited for all four responses (arriving at 38 and 39): the request channel takes them past the
// backlog. Either way the direction is busy from 1 to 39: 4 x 144 + 2 x 16 = 608 B at 16 B/cycle = 38 cycles.
TEST(LinkChannels, RequestsTakeTurnsWithAResponseBacklog) {
  Wire w("wire", small_static_link(), [](Wire& self) {
    self.b.respond_after = sc_core::SC_ZERO_TIME;
    for (int i = 0; i < 4; ++i)
      self.a.send(self.pool.allocate(MemOp::kRead, 0, 128));
    sc_core::wait(5, SC_NS);
    self.b.send(self.pool.allocate(MemOp::kRead, 0, 128));
    self.b.send(self.pool.allocate(MemOp::kRead, 0, 128));
  });
  sc_core::sc_start(sc_time(100, SC_NS));
  ASSERT_EQ(w.b.arrivals.size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(w.b.arrivals[i].ps, std::uint64_t(i + 1) * 1000) << "read " << i;
  ASSERT_EQ(w.a.arrivals.size(), 2u);  // b's reads
  EXPECT_EQ(w.a.arrivals[0].ps, 11000u);
  EXPECT_EQ(w.a.arrivals[1].ps, 21000u);
  ASSERT_EQ(w.a.responses.size(), 4u);  // the answers to a's reads
  EXPECT_EQ(w.a.responses[0].ps, 10000u);
  EXPECT_EQ(w.a.responses[1].ps, 20000u);
  EXPECT_EQ(w.a.responses[2].ps, 30000u);
  EXPECT_EQ(w.a.responses[3].ps, 39000u);
  EXPECT_EQ(w.counter("wire.link.dir1.bytes"), 608u);
  EXPECT_EQ(w.counter("wire.link.dir1.packets"), 6u);
}

// A lone channel runs at the full rate: with no requests waiting, responses go back to back (the turn skips
// an empty channel). Side a sends 3 reads at cycle 0, answered on arrival at cycles 1, 2 and 3; the responses
// leave direction 1 at 10, 19 and 28 (9 cycles each, the first starting at 1), no gap between them.
TEST(LinkChannels, AnEmptyChannelIsSkipped) {
  Wire w("wire", small_static_link(), [](Wire& self) {
    self.b.respond_after = sc_core::SC_ZERO_TIME;
    for (int i = 0; i < 3; ++i)
      self.a.send(self.pool.allocate(MemOp::kRead, 0, 128));
  });
  sc_core::sc_start(sc_time(100, SC_NS));
  ASSERT_EQ(w.a.responses.size(), 3u);
  EXPECT_EQ(w.a.responses[0].ps, 10000u);
  EXPECT_EQ(w.a.responses[1].ps, 19000u);
  EXPECT_EQ(w.a.responses[2].ps, 28000u);
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
