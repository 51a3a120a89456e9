// The socket memory system under load.
#include <gtest/gtest.h>

#include <sstream>

#include "common/health.hpp"
#include "small_system.hpp"
#include "system/system.hpp"

namespace numagpu {
namespace {

using testing::small_spec;
using testing::stream_kernel;

// One paper socket (64 SMs x 64 warps, 768 B/cycle of DRAM in 8 channels) streaming 16 MiB of reads once:
// 4096 loads in flight against a ~170-cycle round trip ask for ~24 lines per cycle, far above the 6 lines
// per cycle (768 B) the DRAM can move, so the DRAM saturates. Every full 5000-cycle window between the
// ramp-up (the first) and the drain (the last) must show at least 97 % utilization, and no window more
// than 100 %: the channels never move more than their configured bandwidth.
TEST(Memory, SaturatingStreamUsesAllButNeverMoreThanTheDramBandwidth) {
  SystemSpec spec = small_spec(1);
  spec.protocol_checks = false;
  spec.sms_per_socket = 64;
  spec.sm.max_warps = 64;
  spec.sm.max_outstanding = 128;
  spec.l1.max_in_process = 128;
  spec.l2_banks = 16;
  spec.l2 = testing::l2_bank_spec(4 * 1024 * 1024 / 16);  // the paper's 4 MiB over 16 banks
  spec.l2.max_in_process = 64;
  spec.crossbar.queue_depth = 16;
  spec.dram.queue_depth = 32;
  spec.kernels = {stream_kernel("stream", 1024, 8, 16)};  // 131072 lines = 16 MiB
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  System& sys = *run.system;
  EXPECT_EQ(reg.find_counter("system.socket0.dram.reads")->value(), 131072u);
  const auto* util = reg.find_series("system.socket0.dram.utilization");
  ASSERT_NE(util, nullptr);
  const auto& w = util->values();
  ASSERT_GE(w.size(), 3u);
  for (std::size_t i = 0; i < w.size(); ++i)
    EXPECT_LE(w[i], 100.0 + 1e-9) << "window " << i;
  for (std::size_t i = 1; i + 1 < w.size(); ++i)
    EXPECT_GE(w[i], 97.0) << "window " << i;
  // Over the whole kernel: 16 MiB at 768 B/cycle needs 16777216 / 768 = 21846 cycles at least. And at most:
  // the windows between the first and the last run at >= 97 %, so the reads they hold take at most
  // 21846 / 0.97 = 22522 cycles; the first window adds its ramp-up (the first read reaches the DRAM after the
  // L1, crossbar and L2, 20 + 10 + 30 = 60 cycles) and the last its drain (the last read's data comes back
  // about one 170-cycle round trip after the DRAM sends it). 1000 cycles covers both with room to spare, so
  // the kernel ends by cycle 23522. A DRAM at half its bandwidth (384 B/cycle) would need 43691 cycles.
  EXPECT_GE(sys.finish_cycle(), 21846u);
  EXPECT_LE(sys.finish_cycle(), 23522u);
}

// MSHR merging: 4 warps of one CTA on one SM read the same line (a 1-line footprint): the first read misses
// the L1 and goes on; the other three find the miss outstanding and wait for its data. One L2 access, one
// DRAM read, three merges at the L1.
TEST(Memory, ReadsToALineWithAnOutstandingMissAreMerged) {
  SystemSpec spec = small_spec(1);
  KernelSpec k = stream_kernel("same_line", 1, 4, 1);
  k.footprint_bytes = 128;
  spec.kernels = {k};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(reg.find_counter("system.socket0.sm0.loads")->value(), 4u);
  EXPECT_EQ(reg.find_counter("system.socket0.l1_0.mshr_merges")->value(), 3u);
  EXPECT_EQ(reg.find_counter("system.socket0.dram.reads")->value(), 1u);
  std::uint64_t l2_lookups = 0;
  for (int b = 0; b < 4; ++b) {
    for (const char* c : {"local_local", "local_remote", "remote_local"}) {
      l2_lookups += reg.find_counter("system.socket0.l2_" + std::to_string(b) + ".read_misses." + c)->value();
      l2_lookups += reg.find_counter("system.socket0.l2_" + std::to_string(b) + ".read_hits." + c)->value();
    }
  }
  EXPECT_EQ(l2_lookups, 1u);
}

// A cache-friendly kernel (docs/memory-system.md): 4 CTAs x 4 warps, each warp reading its own 4 lines 4
// times (16 loads; footprint 16 warps x 4 lines = 64 lines). The socket has one SM, which takes all 4 CTAs
// (16 warp slots; with 4 SMs the breadth-first dispatcher would give each SM one), so all 64 lines meet in
// its L1 (16 KiB: 32 sets x 4 ways). Warp g's lines g, 16+g, 32+g, 48+g fall in sets
// g mod 32 and (16+g) mod 32: two lines per set at most, no conflict. So each warp misses its first pass
// (4 loads) and hits the other 12: L1 hits 16 x 12 = 192, misses 64 — a 75 % hit rate; the L2 sees the 64
// misses once, all cold: 64 DRAM reads.
TEST(Memory, CacheFriendlyKernelHitsThreeQuartersInTheL1) {
  SystemSpec spec = small_spec(1);
  spec.sms_per_socket = 1;
  KernelSpec k = stream_kernel("reuse", 4, 4, 16);
  k.footprint_bytes = 64 * 128;
  spec.kernels = {k};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(reg.find_counter("system.socket0.sm0.ctas")->value(), 4u);
  EXPECT_EQ(reg.find_counter("system.socket0.l1_0.read_hits.local_local")->value(), 192u);
  EXPECT_EQ(reg.find_counter("system.socket0.l1_0.read_misses.local_local")->value(), 64u);
  EXPECT_EQ(reg.find_counter("system.socket0.dram.reads")->value(), 64u);
}

}  // namespace
}  // namespace numagpu

namespace numagpu {
namespace {

// One warp stores 4 times to the same line (a 128 B footprint). The L1 writes through: the L2 receives all
// 4. A write-back L2 absorbs them (the line stays dirty; nothing is evicted): no DRAM write. A write-through
// L2 passes each one on: 4 DRAM writes.
std::uint64_t dram_writes(bool write_back) {
  SystemSpec spec = testing::small_spec(1);
  spec.l2.write_back = write_back;
  KernelSpec k = testing::stream_kernel("stores", 1, 1, 4);
  k.write_percent = 100;
  k.footprint_bytes = 128;
  spec.kernels = {k};
  stats::Registry reg;
  std::ostringstream diag;
  System sys("system", spec, reg, diag);
  sys.run();
  EXPECT_TRUE(sys.context().health.ok()) << diag.str();
  std::uint64_t l2_writes = 0;
  for (int b = 0; b < 4; ++b) {
    l2_writes += reg.find_counter("system.socket0.l2_" + std::to_string(b) + ".writes.local_local")->value();
  }
  EXPECT_EQ(l2_writes, 4u);
  return reg.find_counter("system.socket0.dram.writes")->value();
}

TEST(Memory, WriteBackL2AbsorbsRepeatedStores) {
  EXPECT_EQ(dram_writes(true), 0u);
}
TEST(Memory, WriteThroughL2PassesEveryStoreOn) {
  EXPECT_EQ(dram_writes(false), 4u);
}

// L2 bank throughput: one tag access per cycle. 4 SMs (one warp slot each) load lines 0-3 at cycle 1; with a
// single bank all four go to it. Their L1s forward at cycle 21; the crossbar's port to the bank moves a
// 16 B header in a quarter cycle, so they arrive at 31.25, 31.5, 31.75 and 32.0 (+10 latency). The bank
// starts the first at cycle 31 and the others at 32, 33, 34: three of them waited for the tag port.
TEST(Memory, AnL2BankServesOneAccessPerCycle) {
  SystemSpec spec = testing::small_spec(1);
  spec.sm.max_warps = 1;
  spec.l2_banks = 1;
  spec.l2.size_bytes = 64 * 1024;
  spec.kernels = {testing::stream_kernel("four", 4, 1, 1)};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(reg.find_counter("system.socket0.l2_0.bank_conflicts")->value(), 3u);
  EXPECT_EQ(reg.find_counter("system.socket0.dram.reads")->value(), 4u);
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
