// mem/hbm_channel.hpp: one HBM channel's banks, rows and FR-FCFS scheduler. Every expected cycle is derived
// by hand from the timing below (Accel-Sim's QV100 HBM2 values at 850 MHz, in command-clock cycles), with
// 4 banks in 2 bank groups (bank 0 and 2 in group 0, 1 and 3 in group 1).
#include "mem/hbm_channel.hpp"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace numagpu {
namespace {

HbmSpec spec() {
  HbmSpec s;
  s.banks = 4;
  s.bank_groups = 2;
  s.clock_mhz = 850;
  s.queue_entries = 8;
  s.t.ccd = 1;
  s.t.ccdl = 2;
  s.t.rrd = 3;
  s.t.rcd = 12;
  s.t.ras = 28;
  s.t.rp = 12;
  s.t.rc = 40;
  s.t.cl = 12;
  s.t.wl = 2;
  s.t.cdlr = 3;
  s.t.wr = 10;
  s.t.rtp = 3;
  s.t.burst = 1;
  return s;
}

struct Recorder : HbmChannel::Sink {
  std::map<std::uint64_t, HbmChannel::Cycle> done_at;  // tag -> last data
  std::vector<HbmChannel::Cycle> bursts;               // data start of each burst, in order
  void burst(HbmChannel::Cycle start, HbmChannel::Cycle end) override {
    EXPECT_EQ(end, start + 1);
    bursts.push_back(start);
  }
  void done(std::uint64_t tag, HbmChannel::Cycle end) override { done_at[tag] = end; }
};

HbmChannel::Request req(std::uint64_t tag, unsigned bank, std::uint64_t row, unsigned bursts = 1,
                        bool write = false) {
  HbmChannel::Request r;
  r.tag = tag;
  r.bank = bank;
  r.row = row;
  r.bursts = bursts;
  r.write = write;
  return r;
}

// Four one-burst reads of bank 0, row 5, queued at cycle 0. The first activates the row at 0, reads at 0 +
// tRCD = 12, its data on the bus 12 + CL = 24 to 25. The rest are row hits: each reads tCCDL = 2 after the
// previous (the same bank group; a burst takes 1 cycle), 14, 16, 18: data ending 27, 29, 31.
TEST(HbmChannel, RowHitsFollowEachOtherAtTheColumnToColumnDelay) {
  HbmChannel ch(spec());
  for (unsigned i = 0; i < 4; ++i)
    ch.enqueue(req(i, 0, 5));
  Recorder rec;
  ch.advance(1000, rec);
  EXPECT_EQ(rec.done_at, (std::map<std::uint64_t, HbmChannel::Cycle>{{0, 25}, {1, 27}, {2, 29}, {3, 31}}));
  EXPECT_EQ(ch.counts().row_empty, 1u);
  EXPECT_EQ(ch.counts().row_hits, 3u);
  EXPECT_TRUE(ch.idle());
}

// Four reads of bank 0, rows 1 to 4. The first as above: activate 0, read 12, done 25. Each next one
// conflicts: precharge when tRAS allows (activate + 28; the read's tRTP, read + 3, is earlier), activate
// tRP = 12 later, which is also the activate + tRC = 40, read tRCD later, data CL + 1 after: a row miss every
// 40 cycles, done 25, 65, 105, 145 (against 2 cycles apart for row hits).
TEST(HbmChannel, RowMissesToOneBankFollowEachOtherAtTheRowCycle) {
  HbmChannel ch(spec());
  for (unsigned i = 0; i < 4; ++i)
    ch.enqueue(req(i, 0, 1 + i));
  Recorder rec;
  ch.advance(1000, rec);
  EXPECT_EQ(rec.done_at, (std::map<std::uint64_t, HbmChannel::Cycle>{{0, 25}, {1, 65}, {2, 105}, {3, 145}}));
  EXPECT_EQ(ch.counts().row_empty, 1u);
  EXPECT_EQ(ch.counts().row_conflicts, 3u);
}

// Queued at cycle 0, oldest first: A (bank 0, row 1), B (row 2), C (row 1). A opens row 1 and is done at 25
// (above). When the bank is free again (cycle 13) B is the older, but C hits the open row: C goes first,
// reading at 14 (tCCDL after A's read at 12), done 27. B then precharges at A's activate + tRAS = 28,
// activates at 40 and reads at 52: done 65. In arrival order (first come, first served) B would have been
// done at 65 and C, after another precharge and activate, at 105.
TEST(HbmChannel, FrFcfsServesARowHitBeforeAnOlderRowMiss) {
  HbmChannel ch(spec());
  ch.enqueue(req('A', 0, 1));
  ch.enqueue(req('B', 0, 2));
  ch.enqueue(req('C', 0, 1));
  Recorder rec;
  ch.advance(1000, rec);
  EXPECT_EQ(rec.done_at, (std::map<std::uint64_t, HbmChannel::Cycle>{{'A', 25}, {'C', 27}, {'B', 65}}));
  EXPECT_EQ(ch.counts().row_hits, 1u);
  EXPECT_EQ(ch.counts().row_conflicts, 1u);
}

// Two banks in different groups interleave their column commands. Bank 0 (group 0) and bank 1 (group 1),
// two bursts each, queued at 0: bank 0 activates at 0, bank 1 tRRD = 3 later. Bank 0 reads at 12 and, tCCDL
// later, 14; bank 1 reads at 15 (3 + tRCD) and 17 — on the bus (data CL later) 24, 26, 27, 29: done 27
// and 30.
TEST(HbmChannel, BanksOfTwoGroupsShareTheBus) {
  HbmChannel ch(spec());
  ch.enqueue(req(0, 0, 7, 2));
  ch.enqueue(req(1, 1, 7, 2));
  Recorder rec;
  ch.advance(1000, rec);
  EXPECT_EQ(rec.bursts, (std::vector<HbmChannel::Cycle>{24, 26, 27, 29}));
  EXPECT_EQ(rec.done_at, (std::map<std::uint64_t, HbmChannel::Cycle>{{0, 27}, {1, 30}}));
}

// Bank 0, row 3: a read, then a write, then a read, queued at 0. Read at 12 (data 24-25). The write waits for
// the read-to-write turnaround, CL + burst + 2 - WL = 13 after the read: 25, data 27-28. The read after it
// waits WL + burst + tCDLR = 6 after the write: 31, data 43-44.
TEST(HbmChannel, ReadWriteTurnarounds) {
  HbmChannel ch(spec());
  ch.enqueue(req(0, 0, 3));
  ch.enqueue(req(1, 0, 3, 1, true));
  ch.enqueue(req(2, 0, 3));
  Recorder rec;
  ch.advance(1000, rec);
  EXPECT_EQ(rec.done_at, (std::map<std::uint64_t, HbmChannel::Cycle>{{0, 25}, {1, 28}, {2, 44}}));
}

// The queue holds 8 column commands: two 4-burst requests fill it, a third does not fit. At cycle 0 bank 0
// takes the first (out of the queue): 4 in it, room for another 4.
TEST(HbmChannel, AFullQueueHasRoomOnceABankTakesARequest) {
  HbmChannel ch(spec());
  ASSERT_TRUE(ch.has_room(4));
  ch.enqueue(req(0, 0, 1, 4));
  ASSERT_TRUE(ch.has_room(4));
  ch.enqueue(req(1, 0, 1, 4));
  EXPECT_FALSE(ch.has_room(4));
  EXPECT_FALSE(ch.has_room(1));
  Recorder rec;
  ch.advance(1, rec);  // decides cycle 0
  EXPECT_TRUE(ch.has_room(4));
  EXPECT_FALSE(ch.has_room(5));
}

// Refresh every 100 cycles for 20. A read of bank 0, row 2 at 0: done 25, row 2 left open. A read of the
// same row at 100 would hit (read at 100, done 113), but the refresh due at 100 precharges (12) and refreshes
// (20): the row is closed until 132, activated then, read at 144: done 157.
TEST(HbmChannel, ARefreshClosesTheRows) {
  HbmSpec s = spec();
  s.t.refresh_interval = 100;
  s.t.refresh = 20;
  HbmChannel ch(s);
  ch.enqueue(req(0, 0, 2));
  Recorder rec;
  ch.advance(100, rec);
  ch.enqueue(req(1, 0, 2));
  ch.advance(1000, rec);
  EXPECT_EQ(rec.done_at, (std::map<std::uint64_t, HbmChannel::Cycle>{{0, 25}, {1, 157}}));
  EXPECT_EQ(ch.counts().row_empty, 2u);
  EXPECT_EQ(ch.counts().row_hits, 0u);
  // The refreshes at 100, 200, ..., 900 while idle are counted when the channel next decides.
  EXPECT_EQ(ch.counts().refreshes, 1u);
}

}  // namespace
}  // namespace numagpu
