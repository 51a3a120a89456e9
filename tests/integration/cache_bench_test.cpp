// One cache alone between two scripted endpoints (tests/integration/scripted_endpoint.hpp): `up` plays the
// SM, `mem` the next level, answering every request 50 cycles after it arrives. Hit latency, miss
// forwarding, MSHR merging and the tag port, each checked against cycles derived by hand.
#include "cache/cache.hpp"

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

struct CacheBench : numagpu::testing::ScriptedBench<CacheBench> {
  Endpoint up{"up"}, mem{"mem"};
  std::unique_ptr<Cache> cache;

  // 2 sets x 4 ways of 128 B, 10-cycle hits, write-through (an L1).
  static CacheSpec spec() {
    CacheSpec c;
    c.size_bytes = 2 * 4 * 128;
    c.ways = 4;
    c.hit_latency = 10;
    c.max_in_process = 8;
    return c;
  }

  CacheBench(const sc_core::sc_module_name& n, const CacheSpec& s, std::function<void(CacheBench&)> f,
             const MachineFacts& facts = numagpu::testing::kBenchFacts, CacheBank bank = {})
      : ScriptedBench(n, std::move(f)) {
    cache = std::make_unique<Cache>("cache", ctx, s, facts, 0, pool, reg, bank);
    up.init.bind(cache->in.socket);
    cache->out.socket.bind(mem.targ);
    mem.respond_after = sc_time(50, SC_NS);
  }
  void read(std::uint64_t n) { ASSERT_TRUE(up.send(line(MemOp::kRead, n))); }
  void write(std::uint64_t n) { ASSERT_TRUE(up.send(line(MemOp::kWrite, n))); }
  std::uint64_t counter(const char* leaf) const {
    return ScriptedBench::counter(std::string("bench.cache.") + leaf);
  }
};

// A read of line 0 at cycle 0: the tag access takes cycles 0..10 (hit_latency), a miss leaves at the same
// time (cycle 10), memory answers 50 later (60) and the response goes up on arrival: cycle 60. Line 0 is
// filled; the read of it at cycle 100 hits: 100 + 10 = 110, and memory sees nothing new.
TEST(CacheBench, MissIsForwardedAfterTheTagAccessAndAHitAnswersAfterHitLatency) {
  CacheBench b("bench", CacheBench::spec(), [](CacheBench& self) {
    self.read(0);
    sc_core::wait(100, SC_NS);
    self.read(0);
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(b.mem.arrivals.size(), 1u);
  EXPECT_EQ(b.mem.arrivals[0].ps, 10 * kNs);
  ASSERT_EQ(b.up.responses.size(), 2u);
  EXPECT_EQ(b.up.responses[0].ps, 60 * kNs);
  EXPECT_EQ(b.up.responses[1].ps, 110 * kNs);
  EXPECT_EQ(b.counter("read_misses.local_local"), 1u);
  EXPECT_EQ(b.counter("read_hits.local_local"), 1u);
  EXPECT_EQ(b.counter("fills"), 1u);
  EXPECT_EQ(b.counter("bank_conflicts"), 0u);
}

// Two reads of line 1 in cycle 0. The first takes the tag port in cycle 0 (done at 10), misses and goes
// down at 10. The second finds the port taken: it waits a cycle (a bank conflict, done at 11), misses too and
// finds the first miss outstanding in the MSHRs: merged, nothing sent. Memory answers the one request at 60;
// both reads are answered then. A third read of line 1 at cycle 30 (still outstanding) merges as well.
TEST(CacheBench, ReadMissesToOneLineMergeIntoOneRequest) {
  CacheBench b("bench", CacheBench::spec(), [](CacheBench& self) {
    self.read(1);
    self.read(1);
    sc_core::wait(30, SC_NS);
    self.read(1);
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(b.mem.arrivals.size(), 1u);
  EXPECT_EQ(b.mem.arrivals[0].ps, 10 * kNs);
  ASSERT_EQ(b.up.responses.size(), 3u);
  for (const auto& r : b.up.responses)
    EXPECT_EQ(r.ps, 60 * kNs);
  EXPECT_EQ(b.counter("read_misses.local_local"), 3u);
  EXPECT_EQ(b.counter("mshr_merges"), 2u);
  EXPECT_EQ(b.counter("bank_conflicts"), 1u);
  EXPECT_EQ(b.counter("fills"), 1u);
}

// Write-through, no write-allocate: the write of absent line 2 at cycle 0 goes down after the tag access
// (cycle 10), is answered at 60 and allocates nothing, so the read of line 2 at 100 misses (down at 110,
// filled at 160). Lines 0, 2, 4, 6, 8 share set 0 (2 sets, line mod 2). Reads one per 100 cycles, each a
// miss filled 50 cycles after it goes down: 2 (filled 160), 0 (260), 4 (360), 6 (460): the set is full; 8
// (at 500) evicts the least recently used line, 2. The read of 0 at 600 hits (answered at 610) and makes 0
// the most recent; the read of 2 at 700 misses (down at 710) and evicts the least recent of 8, 0, 4, 6: 4.
TEST(CacheBench, WritesPassThroughWithoutAllocatingAndAFullSetEvictsItsLruLine) {
  CacheBench b("bench", CacheBench::spec(), [](CacheBench& self) {
    self.write(2);
    sc_core::wait(100, SC_NS);
    for (std::uint64_t line : {2, 0, 4, 6, 8}) {
      self.read(line);
      sc_core::wait(100, SC_NS);
    }
    self.read(0);  // still present: a hit
    sc_core::wait(100, SC_NS);
    self.read(2);  // evicted: a miss
  });
  sc_core::sc_start(sc_time(2000, SC_NS));
  ASSERT_EQ(b.mem.arrivals.size(), 7u);  // the write, 5 read misses, the read of 2 again
  EXPECT_EQ(b.mem.arrivals[0].ps, 10 * kNs);
  EXPECT_EQ(b.mem.arrivals[1].ps, 110 * kNs);
  EXPECT_EQ(b.counter("writes.local_local"), 1u);
  EXPECT_EQ(b.counter("fills"), 6u);
  EXPECT_EQ(b.counter("evictions"), 2u);  // 8 evicts 2; 2 again evicts 4
  EXPECT_EQ(b.counter("read_hits.local_local"), 1u);
  ASSERT_EQ(b.up.responses.size(), 8u);
  EXPECT_EQ(b.up.responses[6].ps, 610 * kNs);  // the hit on 0 at 600
  EXPECT_EQ(b.mem.arrivals[6].ps, 710 * kNs);  // the read of 2 again
}

// Bank 1 of 2 of a write-back L2 under memory.interleave ipoly (P(x) = x + 1: a line's bank is the parity of
// its bits). The bank keeps line >> 1 as its tag line, whose low bit is the set (2 sets of 4 ways). Lines
// 1, 4, 8, 13 and 16 have odd parity (bank 1) and tag lines 0, 2, 4, 6 and 8 (set 0). Writing the first four
// fills set 0 with dirty lines; writing 16 evicts the least recently used, line 1, which goes down as a
// write of line 1 (address 128). Its low bit comes from the bank's number and the tag line (1 ^ parity of
// 0): taking it from the line being filled (16, low bit 0) would write back line 0.
TEST(CacheBench, AnIpolyBankWritesItsVictimBackToItsOwnLine) {
  MachineFacts facts = numagpu::testing::kBenchFacts;
  facts.interleave = LineInterleave::ipoly(1);
  CacheSpec spec = CacheBench::spec();
  spec.write_back = true;
  CacheBench b(
      "bench", spec,
      [](CacheBench& self) {
        for (std::uint64_t line : {1, 4, 8, 13, 16}) {
          self.write(line);
          sc_core::wait(100, SC_NS);
        }
      },
      facts, CacheBank{1, 1});
  sc_core::sc_start(sc_time(1000, SC_NS));
  EXPECT_EQ(b.counter("evictions"), 1u);
  EXPECT_EQ(b.counter("writebacks"), 1u);
  ASSERT_EQ(b.mem.arrivals.size(), 1u);  // write-allocate without fetching: only the victim goes down
  EXPECT_EQ(attr(*b.mem.arrivals[0].gp).op, MemOp::kWrite);
  EXPECT_EQ(b.mem.arrivals[0].gp->get_address(), 128u);
}

}  // namespace
}  // namespace numagpu
