// One DRAM alone behind scripted initiators (tests/integration/scripted_endpoint.hpp): a line's channel is
// its line number mod channels, a channel moves bandwidth / channels bytes per cycle, and a response leaves
// `latency` after its line's transfer ends. Each expectation is derived by hand below.
#include "mem/dram.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "scripted_endpoint.hpp"

namespace numagpu {
namespace {

using numagpu::testing::Endpoint;
using sc_core::SC_NS;
using sc_core::sc_time;
constexpr std::uint64_t kNs = numagpu::testing::kPsPerCycle;

// 64 B per cycle over 2 channels: 32 B per cycle per channel, a 128 B line in 4 cycles; 100-cycle latency.
DramSpec spec(unsigned queue_depth) {
  DramSpec d;
  d.bandwidth_bytes_num = 64;
  d.bandwidth_den = 1;
  d.channels = 2;
  d.latency = 100;
  d.queue_depth = queue_depth;
  return d;
}

struct DramBench : numagpu::testing::ScriptedBench<DramBench> {
  Endpoint a{"a"}, b{"b"};  // two L2 banks' bindings (ports 0 and 1)
  std::unique_ptr<Dram> dram;

  DramBench(const sc_core::sc_module_name& n, const DramSpec& s, std::function<void(DramBench&)> f,
            const MachineFacts& facts = numagpu::testing::kBenchFacts)
      : ScriptedBench(n, std::move(f)) {
    dram = std::make_unique<Dram>("dram", ctx, s, facts, reg);
    a.init.bind(dram->in.socket);
    b.init.bind(dram->in.socket);
  }
  std::uint64_t counter(const char* leaf) const {
    return ScriptedBench::counter(std::string("bench.dram.") + leaf);
  }
};

// N = 4 reads of lines 0, 2, 4, 6 (all channel 0) at cycle 0 from a: the channel moves them one after the
// other, the k-th (k = 1..4) ending its transfer at 4k cycles and answered 100 later: 104, 108, 112, 116 —
// latency + k x serialization. A read of line 1 (channel 1) at cycle 0 from b does not wait for channel 0:
// 4 + 100 = 104. A write of line 0 at cycle 1000 from a, on an idle channel: 1000 + 4 + 100 = 1104.
TEST(DramBench, LineReadsOnOneChannelFinishAtLatencyPlusTheirSerialization) {
  DramBench d("bench", spec(32), [](DramBench& self) {
    for (std::uint64_t n : {0, 2, 4, 6})
      ASSERT_TRUE(self.a.send(self.line(MemOp::kRead, n)));
    ASSERT_TRUE(self.b.send(self.line(MemOp::kRead, 1)));
    sc_core::wait(1000, SC_NS);
    ASSERT_TRUE(self.a.send(self.line(MemOp::kWrite, 0)));
  });
  sc_core::sc_start(sc_time(2000, SC_NS));
  ASSERT_EQ(d.a.responses.size(), 5u);
  for (unsigned k = 1; k <= 4; ++k)
    EXPECT_EQ(d.a.responses[k - 1].ps, (100 + 4 * k) * kNs) << "read " << k;
  EXPECT_EQ(d.a.responses[4].ps, 1104 * kNs);
  ASSERT_EQ(d.b.responses.size(), 1u);
  EXPECT_EQ(d.b.responses[0].ps, 104 * kNs);
  EXPECT_EQ(d.counter("reads"), 5u);
  EXPECT_EQ(d.counter("read_bytes"), 5u * 128);
  EXPECT_EQ(d.counter("writes"), 1u);
  EXPECT_EQ(d.counter("write_bytes"), 128u);
}

// Back-pressure: queue_depth 2 lets a channel's backlog reach 2 line transfers (8 cycles). Reads of lines
// 0, 2, 4, 6 (channel 0), one per cycle from cycle 0: the first books the channel for cycles 0-4, the second
// (cycle 1, backlog 3 cycles) 4-8, the third (cycle 2, backlog 6) 8-12. The fourth (cycle 3) finds a backlog
// of 9 > 8 cycles: held, without END_REQ. The channel drains to 8 at cycle 4: the request is taken then
// (END_REQ at cycle 4) and booked for 12-16. Answers: 104, 108, 112, 116, as without back-pressure.
TEST(DramBench, AChannelBackPressuresBeyondItsQueueDepth) {
  DramBench d("bench", spec(2), [](DramBench& self) {
    for (std::uint64_t n : {0, 2, 4}) {
      ASSERT_TRUE(self.a.send(self.line(MemOp::kRead, n)));
      sc_core::wait(1, SC_NS);
    }
    EXPECT_FALSE(self.a.send(self.line(MemOp::kRead, 6)));  // held
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(d.a.end_reqs.size(), 1u);
  EXPECT_EQ(d.a.end_reqs[0].ps, 4 * kNs);
  ASSERT_EQ(d.a.responses.size(), 4u);
  for (unsigned k = 1; k <= 4; ++k)
    EXPECT_EQ(d.a.responses[k - 1].ps, (100 + 4 * k) * kNs) << "read " << k;
}

// memory.interleave ipoly over 2 channels: P(x) = x + 1, so a line's channel is the parity of its bits.
// Lines 0, 2, 4, 6, all channel 0 in the first test, go to channels 0, 1 (0b10), 1 (0b100) and 0 (0b110):
// each channel moves two of them, ending at 4 and 8 cycles: 104, 108 on each, where one channel took them
// all until 116.
TEST(DramBench, IpolyInterleaveSpreadsOneChannelsStrideOverBoth) {
  MachineFacts facts = numagpu::testing::kBenchFacts;
  facts.interleave = LineInterleave::ipoly(1);
  DramBench d(
      "bench", spec(32),
      [](DramBench& self) {
        for (std::uint64_t n : {0, 2, 4, 6})
          ASSERT_TRUE(self.a.send(self.line(MemOp::kRead, n)));
      },
      facts);
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(d.a.responses.size(), 4u);
  // Responses leave in order of their times: line 0 and line 2 at 104, line 4 and line 6 at 108.
  EXPECT_EQ(d.a.responses[0].ps, 104 * kNs);
  EXPECT_EQ(d.a.responses[1].ps, 104 * kNs);
  EXPECT_EQ(d.a.responses[2].ps, 108 * kNs);
  EXPECT_EQ(d.a.responses[3].ps, 108 * kNs);
}

// Refresh every 20 cycles for 6 (the bench's 1 GHz: 20 and 6 ns). A refresh due while its channel moves data
// waits for the transfer; one due while it is idle starts when due; the request after it waits for it.
// Channel 0 (port a): line 0 at cycle 0 moves 0-4 (104). Line 2 at 18 moves 18-22 (122): the refresh due at
// 20 is not yet booked. Line 4 at 21: the refresh due at 20 waited for 22 and runs 22-28; the line moves
// 28-32 (132). Line 6 at 100: refreshes were due at 40, 60, 80 (the channel idle since 32) and 100, which
// runs 100-106; the line moves 106-110 (210). Channel 1 (port b): line 1 at 21, the channel idle since 0:
// the refresh due at 20 runs 20-26; the line moves 26-30 (130). Refreshes: 5 on channel 0, 1 on channel 1.
TEST(DramBench, ARefreshHoldsItsChannelOnceTheTransferUnderWayEnds) {
  DramSpec s = spec(32);
  s.refresh_interval_ps = 20 * kNs;
  s.refresh_ps = 6 * kNs;
  DramBench d("bench", s, [](DramBench& self) {
    ASSERT_TRUE(self.a.send(self.line(MemOp::kRead, 0)));
    sc_core::wait(18, SC_NS);
    ASSERT_TRUE(self.a.send(self.line(MemOp::kRead, 2)));
    sc_core::wait(3, SC_NS);
    ASSERT_TRUE(self.a.send(self.line(MemOp::kRead, 4)));
    ASSERT_TRUE(self.b.send(self.line(MemOp::kRead, 1)));
    sc_core::wait(79, SC_NS);
    ASSERT_TRUE(self.a.send(self.line(MemOp::kRead, 6)));
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(d.a.responses.size(), 4u);
  EXPECT_EQ(d.a.responses[0].ps, 104 * kNs);
  EXPECT_EQ(d.a.responses[1].ps, 122 * kNs);
  EXPECT_EQ(d.a.responses[2].ps, 132 * kNs);
  EXPECT_EQ(d.a.responses[3].ps, 210 * kNs);
  ASSERT_EQ(d.b.responses.size(), 1u);
  EXPECT_EQ(d.b.responses[0].ps, 130 * kNs);
  EXPECT_EQ(d.counter("refreshes"), 6u);
}

// Without refresh (the default) the DRAM registers no refresh counter: other configurations' statistics
// are unchanged.
TEST(DramBench, WithoutRefreshThereIsNoRefreshCounter) {
  DramBench d("bench", spec(32), [](DramBench&) {});
  sc_core::sc_start(sc_time(10, SC_NS));
  EXPECT_EQ(d.reg.find_counter("bench.dram.refreshes"), nullptr);
}

// With banks (spec.hbm): the module's timing is the channel's (tests/unit/model/hbm_channel_test.cpp) at the
// DRAM's clock, plus `latency` after the last data. A command cycle is decided as it begins, so a request
// takes part from the first cycle after the one it arrived in. The DRAM clock here is the bench's 1 GHz, so a
// command cycle is a bench cycle. Map: 7 column bits (a 128 B line), 2 bank bits, then the row: within
// channel 0 (even lines), line 0 is the channel's line 0 (bank 0), line 2 its line 1 (bank 1). Bank groups
// 2: banks 0 and 1 differ. A reads line 0 and B line 2 at cycle 0, 4 bursts of 32 B each, taking part from
// cycle 1. Bank 0 activates at 1, bank 1 at 4 (tRRD); bank 0 reads at 13, 15, 17, 19 (tCCDL 2), bank 1 in
// between at 16, 18, 20, 22; the last data ends CL + 1 later: 32 and 35, answered 100 later: 132 and 135.
DramSpec with_banks(std::uint64_t clock_mhz) {
  DramSpec s = spec(32);
  HbmSpec& h = s.hbm;
  h.banks = 4;
  h.bank_groups = 2;
  h.clock_mhz = clock_mhz;
  h.burst_bytes = 32;
  h.queue_entries = 64;
  h.bank_bits = {7, 8};
  h.row_bits = {};
  h.map_bits = 9;
  h.t.ccd = 1;
  h.t.ccdl = 2;
  h.t.rrd = 3;
  h.t.rcd = 12;
  h.t.ras = 28;
  h.t.rp = 12;
  h.t.rc = 40;
  h.t.cl = 12;
  h.t.burst = 1;
  return s;
}

TEST(DramBench, WithBanksAResponseLeavesLatencyAfterItsLastBurst) {
  DramBench d("bench", with_banks(1000), [](DramBench& self) {
    ASSERT_TRUE(self.a.send(self.line(MemOp::kRead, 0)));
    ASSERT_TRUE(self.b.send(self.line(MemOp::kRead, 2)));
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(d.a.responses.size(), 1u);
  ASSERT_EQ(d.b.responses.size(), 1u);
  EXPECT_EQ(d.a.responses[0].ps, 132 * kNs);
  EXPECT_EQ(d.b.responses[0].ps, 135 * kNs);
  EXPECT_EQ(d.counter("row_empty"), 2u);
  EXPECT_EQ(d.counter("row_hits"), 0u);
}

// A request arriving inside a command cycle takes part from the next one. At 400 MHz (2.5 ns a command
// cycle) a read of line 0 at 1 ns is in cycle 0: activate at 1, reads at 13, 15, 17, 19 (one bank: tCCDL 2),
// last data ending 19 + CL + 1 = 32 cycles = 80 ns, answered 100 ns later: 180 ns.
TEST(DramBench, WithBanksARequestInsideACommandCycleTakesPartFromTheNext) {
  DramBench d("bench", with_banks(400), [](DramBench& self) {
    sc_core::wait(1, SC_NS);
    ASSERT_TRUE(self.a.send(self.line(MemOp::kRead, 0)));
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(d.a.responses.size(), 1u);
  EXPECT_EQ(d.a.responses[0].ps, 180000u);
}

}  // namespace
}  // namespace numagpu
