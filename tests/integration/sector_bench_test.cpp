// Sectored caches and DRAM alone between scripted endpoints (tests/integration/scripted_endpoint.hpp), as in
// cache_bench_test.cpp and dram_bench_test.cpp but with 128 B lines of four 32 B sectors: a request carries
// its sectors (NumaAttr::sectors, bit i = bytes [32 i, 32 i + 32)), a miss asks only for the missing ones,
// DRAM moves only those. Every count and cycle is derived by hand below.
#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "cache/cache.hpp"
#include "mem/dram.hpp"
#include "scripted_endpoint.hpp"

namespace numagpu {
namespace {

using numagpu::testing::Endpoint;
using sc_core::SC_NS;
using sc_core::sc_time;
constexpr std::uint64_t kNs = numagpu::testing::kPsPerCycle;

// The benches' facts (128 B lines, 16 B headers), sectored.
MachineFacts sectored_facts() {
  MachineFacts f = numagpu::testing::kBenchFacts;
  f.sectored = true;
  return f;
}

struct SectorCacheBench : numagpu::testing::ScriptedBench<SectorCacheBench> {
  Endpoint up{"up"}, mem{"mem"};
  std::unique_ptr<Cache> cache;

  // 2 sets x 4 ways of 128 B lines, 4 sectors of 32 B each, 10-cycle hits; write-through (an L1) unless
  // `write_back` (an L2 bank).
  static CacheSpec spec(bool write_back) {
    CacheSpec c;
    c.size_bytes = 2 * 4 * 128;
    c.ways = 4;
    c.sectors = 4;
    c.hit_latency = 10;
    c.max_in_process = 8;
    c.write_back = write_back;
    return c;
  }

  SectorCacheBench(const sc_core::sc_module_name& n, const CacheSpec& s,
                   std::function<void(SectorCacheBench&)> f)
      : ScriptedBench(n, std::move(f)) {
    cache = std::make_unique<Cache>("cache", ctx, s, sectored_facts(), 0, pool, reg);
    up.init.bind(cache->in.socket);
    cache->out.socket.bind(mem.targ);
    mem.respond_after = sc_time(50, SC_NS);
  }
  // An access to line `n` touching the 32 B sectors `sectors`.
  void access(MemOp op, std::uint64_t n, std::uint8_t sectors) {
    tlm::tlm_generic_payload& gp = line(op, n);
    attr(gp).sectors = sectors;
    ASSERT_TRUE(up.send(gp));
  }
  std::uint64_t counter(const char* leaf) const {
    return ScriptedBench::counter(std::string("bench.cache.") + leaf);
  }
};

// Line 0, sectors 0..3. Cycle 0: a 32 B read of sector 0 (mask 0001) misses that sector: it leaves after the
// tag access (cycle 10) asking for sector 0 alone, memory answers at 60, the line is filled with sector 0
// valid. Cycle 100: a read of sector 1 (0010) finds the line but not the sector: a partial hit, a miss of one
// sector, sent at 110 asking for 0010 only, answered at 160. Cycle 200: a read of both (0011) hits: 210.
// Sector counts: misses 1 + 1 = 2, hits 0 + 0 + 2 = 2; requests: 2 misses, 1 hit; one fill (the line is
// allocated once, the second miss adds a sector to it).
TEST(SectorCacheBench, AReadFetchesOnlyItsMissingSectors) {
  SectorCacheBench b("bench", SectorCacheBench::spec(false), [](SectorCacheBench& self) {
    self.access(MemOp::kRead, 0, 0b0001);
    sc_core::wait(100, SC_NS);
    self.access(MemOp::kRead, 0, 0b0010);
    sc_core::wait(100, SC_NS);
    self.access(MemOp::kRead, 0, 0b0011);
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(b.mem.arrivals.size(), 2u);
  EXPECT_EQ(b.mem.arrivals[0].ps, 10 * kNs);
  EXPECT_EQ(b.mem.arrival_sectors[0], 0b0001);
  EXPECT_EQ(b.mem.arrivals[1].ps, 110 * kNs);
  EXPECT_EQ(b.mem.arrival_sectors[1], 0b0010);
  ASSERT_EQ(b.up.responses.size(), 3u);
  EXPECT_EQ(b.up.responses[0].ps, 60 * kNs);
  EXPECT_EQ(b.up.responses[1].ps, 160 * kNs);
  EXPECT_EQ(b.up.responses[2].ps, 210 * kNs);
  // Each response goes back up with the sectors it asked for.
  EXPECT_EQ(attr(*b.up.responses[1].gp).sectors, 0b0010);
  EXPECT_EQ(b.counter("read_sector_misses"), 2u);
  EXPECT_EQ(b.counter("read_sector_hits"), 2u);
  EXPECT_EQ(b.counter("read_misses.local_local"), 2u);
  EXPECT_EQ(b.counter("read_hits.local_local"), 1u);
  EXPECT_EQ(b.counter("fills"), 1u);
  const Cache::Counters c = b.cache->counters();
  ASSERT_NE(c.read_sector_hits, nullptr);
  EXPECT_EQ(c.read_sector_hits, b.reg.find_counter("bench.cache.read_sector_hits"));
  EXPECT_EQ(c.read_sector_misses, b.reg.find_counter("bench.cache.read_sector_misses"));
  EXPECT_EQ(c.write_sector_hits, b.reg.find_counter("bench.cache.write_sector_hits"));
  EXPECT_EQ(c.write_sector_misses, b.reg.find_counter("bench.cache.write_sector_misses"));
  EXPECT_EQ(c.read_sector_hits->value(), 2u);
  EXPECT_EQ(c.read_sector_misses->value(), 2u);
}

// Two reads of line 1 in cycle 0: sectors 0 and 1 (0011), then sectors 1 and 2 (0110). The first misses both
// and goes down at 10 for 0011. The second (tag port: done at 11) finds sector 1 on its way (the first miss
// fetches it: a sector hit, as the hardware's lookup counters count a sector already requested) and sector
// 2 missing (1 more sector miss), and merges with the outstanding miss. At 60 the answer fills 0011; the
// merged read still lacks sector 2, so it goes down for 0100 alone (at 60, no new tag access), answered at
// 110. Memory thus sees 0011 then 0100: three sectors, none twice. Sector misses 2 + 1 = 3, hits 1; one fill.
TEST(SectorCacheBench, AMergedReadAsksOnlyForTheSectorsTheMissDidNotBring) {
  SectorCacheBench b("bench", SectorCacheBench::spec(false), [](SectorCacheBench& self) {
    self.access(MemOp::kRead, 1, 0b0011);
    self.access(MemOp::kRead, 1, 0b0110);
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(b.mem.arrivals.size(), 2u);
  EXPECT_EQ(b.mem.arrival_sectors[0], 0b0011);
  EXPECT_EQ(b.mem.arrivals[1].ps, 60 * kNs);
  EXPECT_EQ(b.mem.arrival_sectors[1], 0b0100);
  ASSERT_EQ(b.up.responses.size(), 2u);
  EXPECT_EQ(b.up.responses[0].ps, 60 * kNs);
  EXPECT_EQ(b.up.responses[1].ps, 110 * kNs);
  EXPECT_EQ(b.counter("read_sector_misses"), 3u);
  EXPECT_EQ(b.counter("read_sector_hits"), 1u);
  EXPECT_EQ(b.counter("mshr_merges"), 1u);
  EXPECT_EQ(b.counter("fills"), 1u);
}

// Three reads of line 1 in cycle 0: sector 0 (0001), then sector 1 (0010) twice. The first misses and goes
// down at 10 for 0001. The second finds sector 1 neither valid nor on its way: a sector miss; it merges with
// the outstanding miss and will ask for sector 1 when that miss is answered. The third finds sector 1 already
// missed by the read waiting on the line: a sector hit, as the hardware's lookup counters count a sector
// that a miss has asked for (on the GPU the second read's miss goes down at once; here it waits for the
// line's miss, a timing approximation, but each sector is counted a miss once, when it is first missed).
// At 60 the answer fills 0001; the two merged reads still lack sector 1: the first goes down for 0010 at
// 60, the second merges with it; both are answered at 110. Memory sees 0001 then 0010, each sector once.
// Sector misses 1 + 1 = 2 (one per sector fetched), hits 0 + 0 + 1 = 1.
TEST(SectorCacheBench, ASectorAWaitingReadHasMissedCountsAsAHitForTheNext) {
  SectorCacheBench b("bench", SectorCacheBench::spec(false), [](SectorCacheBench& self) {
    self.access(MemOp::kRead, 1, 0b0001);
    self.access(MemOp::kRead, 1, 0b0010);
    self.access(MemOp::kRead, 1, 0b0010);
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(b.mem.arrivals.size(), 2u);
  EXPECT_EQ(b.mem.arrivals[0].ps, 10 * kNs);
  EXPECT_EQ(b.mem.arrival_sectors[0], 0b0001);
  EXPECT_EQ(b.mem.arrivals[1].ps, 60 * kNs);
  EXPECT_EQ(b.mem.arrival_sectors[1], 0b0010);
  ASSERT_EQ(b.up.responses.size(), 3u);
  EXPECT_EQ(b.up.responses[0].ps, 60 * kNs);
  EXPECT_EQ(b.up.responses[1].ps, 110 * kNs);
  EXPECT_EQ(b.up.responses[2].ps, 110 * kNs);
  EXPECT_EQ(b.counter("read_sector_misses"), 2u);
  EXPECT_EQ(b.counter("read_sector_hits"), 1u);
  EXPECT_EQ(b.counter("mshr_merges"), 2u);
}

// A read that waits a second time keeps its sectors asked for. Cycle 0: reads of line 1's sector 0 (0001),
// sector 1 (0010) and sector 2 (0100); the first goes down at 10 for 0001, the other two miss their sectors
// and merge (misses 1 + 1 + 1). At 60 the answer fills 0001: the 0010 read goes down for 0010 at 60, and the
// 0100 read, still lacking sector 2, merges with that new miss: it will ask for sector 2 only when 0010 is
// answered. Cycle 70: another read of sector 2 (tag access done at 80) finds it asked for by the waiting
// read: a hit. At 110 the answer fills 0010 and the waiting read goes down for 0100 (the later read merges
// with it); 0100 is answered at 160, finishing both. Memory sees 0001 at 10, 0010 at 60, 0100 at 110; sector
// misses 3 (one per sector fetched), hits 1; merges 3 on arrival (a retry that waits again is no new merge).
TEST(SectorCacheBench, AReadWaitingAgainKeepsItsSectorsAskedFor) {
  SectorCacheBench b("bench", SectorCacheBench::spec(false), [](SectorCacheBench& self) {
    self.access(MemOp::kRead, 1, 0b0001);
    self.access(MemOp::kRead, 1, 0b0010);
    self.access(MemOp::kRead, 1, 0b0100);
    sc_core::wait(70, SC_NS);
    self.access(MemOp::kRead, 1, 0b0100);
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(b.mem.arrivals.size(), 3u);
  EXPECT_EQ(b.mem.arrivals[0].ps, 10 * kNs);
  EXPECT_EQ(b.mem.arrival_sectors[0], 0b0001);
  EXPECT_EQ(b.mem.arrivals[1].ps, 60 * kNs);
  EXPECT_EQ(b.mem.arrival_sectors[1], 0b0010);
  EXPECT_EQ(b.mem.arrivals[2].ps, 110 * kNs);
  EXPECT_EQ(b.mem.arrival_sectors[2], 0b0100);
  ASSERT_EQ(b.up.responses.size(), 4u);
  EXPECT_EQ(b.up.responses[0].ps, 60 * kNs);
  EXPECT_EQ(b.up.responses[1].ps, 110 * kNs);
  EXPECT_EQ(b.up.responses[2].ps, 160 * kNs);
  EXPECT_EQ(b.up.responses[3].ps, 160 * kNs);
  EXPECT_EQ(b.counter("read_sector_misses"), 3u);
  EXPECT_EQ(b.counter("read_sector_hits"), 1u);
  EXPECT_EQ(b.counter("mshr_merges"), 3u);
}

// A write-back bank. Cycle 0: a write of sector 3 of line 0 (1000) allocates the line with sector 3 valid and
// dirty (a write sector miss; nothing goes down). Cycle 100: a read of sector 3 hits (1 sector hit), a read
// of sector 0 misses one sector (sent for 0001). Then lines 2, 4, 6, 8 (all set 0, 4 ways) are read whole
// (mask 0: all four sectors, 16 sector misses): the fourth evicts the LRU line, line 0, whose only dirty
// sector goes down as a write of 1000 — 32 B of data, not the line.
TEST(SectorCacheBench, WritesAllocateTheirSectorsAndAVictimWritesBackOnlyItsDirtySectors) {
  SectorCacheBench b("bench", SectorCacheBench::spec(true), [](SectorCacheBench& self) {
    self.access(MemOp::kWrite, 0, 0b1000);
    sc_core::wait(100, SC_NS);
    self.access(MemOp::kRead, 0, 0b1000);
    self.access(MemOp::kRead, 0, 0b0001);
    sc_core::wait(100, SC_NS);
    for (std::uint64_t n : {2, 4, 6, 8}) {
      self.access(MemOp::kRead, n, 0);
      sc_core::wait(100, SC_NS);
    }
  });
  sc_core::sc_start(sc_time(2000, SC_NS));
  EXPECT_EQ(b.counter("write_sector_misses"), 1u);
  EXPECT_EQ(b.counter("write_sector_hits"), 0u);
  EXPECT_EQ(b.counter("read_sector_hits"), 1u);
  EXPECT_EQ(b.counter("read_sector_misses"), 1u + 16u);
  EXPECT_EQ(b.counter("writebacks"), 1u);
  // Memory saw: the read of sector 0 of line 0, four whole-line reads, and the write-back.
  ASSERT_EQ(b.mem.arrivals.size(), 6u);
  EXPECT_EQ(b.mem.arrival_sectors[0], 0b0001);
  unsigned writes = 0;
  for (std::size_t k = 0; k < b.mem.arrivals.size(); ++k) {
    if (attr(*b.mem.arrivals[k].gp).op != MemOp::kWrite) continue;
    ++writes;
    EXPECT_EQ(b.mem.arrivals[k].gp->get_address(), 0u);
    EXPECT_EQ(b.mem.arrival_sectors[k], 0b1000);
    EXPECT_EQ(sectored_facts().request_bytes(attr(*b.mem.arrivals[k].gp)), 16u + 32u);
  }
  EXPECT_EQ(writes, 1u);
}

// 64 B per cycle over 2 channels (32 B per cycle per channel), 100-cycle latency, sectored. Cycle 0: a read
// of two sectors of line 0 (0011, 64 B) on channel 0 transfers in 2 cycles: answered at 102. A whole-line
// read of line 1 (mask 0: 128 B) on channel 1: 4 cycles, 104. Cycle 200: a write of one sector of line 2
// (1000) on the idle channel 0 moves 32 B in 1 cycle: 301. Sectors read 2 + 4 = 6, written 1; bytes 192
// and 32.
TEST(SectorDramBench, DramMovesOnlyTheRequestedSectors) {
  struct Bench : numagpu::testing::ScriptedBench<Bench> {
    Endpoint a{"a"};
    std::unique_ptr<Dram> dram;
    Bench(const sc_core::sc_module_name& n, std::function<void(Bench&)> f) : ScriptedBench(n, std::move(f)) {
      DramSpec d;
      d.bandwidth_bytes_num = 64;
      d.bandwidth_den = 1;
      d.channels = 2;
      d.latency = 100;
      d.queue_depth = 32;
      dram = std::make_unique<Dram>("dram", ctx, d, sectored_facts(), reg);
      a.init.bind(dram->in.socket);
    }
  };
  Bench d("bench", [](Bench& self) {
    auto send = [&](MemOp op, std::uint64_t n, std::uint8_t sectors) {
      tlm::tlm_generic_payload& gp = self.line(op, n);
      attr(gp).sectors = sectors;
      ASSERT_TRUE(self.a.send(gp));
    };
    send(MemOp::kRead, 0, 0b0011);
    send(MemOp::kRead, 1, 0);
    sc_core::wait(200, SC_NS);
    send(MemOp::kWrite, 2, 0b1000);
  });
  sc_core::sc_start(sc_time(1000, SC_NS));
  ASSERT_EQ(d.a.responses.size(), 3u);
  EXPECT_EQ(d.a.responses[0].ps, 102 * kNs);
  EXPECT_EQ(d.a.responses[1].ps, 104 * kNs);
  EXPECT_EQ(d.a.responses[2].ps, 301 * kNs);
  const Dram::Counters c = d.dram->counters();
  ASSERT_NE(c.read_sectors, nullptr);
  EXPECT_EQ(c.read_sectors, d.reg.find_counter("bench.dram.read_sectors"));
  EXPECT_EQ(c.write_sectors, d.reg.find_counter("bench.dram.write_sectors"));
  EXPECT_EQ(c.read_sectors->value(), 6u);
  EXPECT_EQ(c.write_sectors->value(), 1u);
  EXPECT_EQ(c.read_bytes.value(), 192u);
  EXPECT_EQ(c.write_bytes.value(), 32u);
}

// Unsectored facts register no sector counters (the unsectored stats.json keeps its statistics).
TEST(SectorDramBench, UnsectoredDramHasNoSectorCounters) {
  struct Bench : numagpu::testing::ScriptedBench<Bench> {
    std::unique_ptr<Dram> dram;
    Bench(const sc_core::sc_module_name& n) : ScriptedBench(n, nullptr) {
      DramSpec d;
      d.bandwidth_bytes_num = 64;
      d.bandwidth_den = 1;
      d.channels = 2;
      dram = std::make_unique<Dram>("dram", ctx, d, numagpu::testing::kBenchFacts, reg);
    }
  };
  Bench d("bench");
  EXPECT_EQ(d.dram->counters().read_sectors, nullptr);
  EXPECT_EQ(d.reg.find_counter("bench.dram.read_sectors"), nullptr);
}

}  // namespace
}  // namespace numagpu
