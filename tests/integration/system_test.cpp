// End-to-end runs of the TLM system with the protocol checker on every binding.
#include "system/system.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "common/health.hpp"
#include "small_system.hpp"

namespace numagpu {
namespace {

using testing::small_spec;
using testing::stream_kernel;

std::uint64_t value(const stats::Registry& r, const std::string& path) {
  const auto* c = r.find_counter(path);
  if (!c) ADD_FAILURE() << "no counter " << path;
  return c ? c->value() : 0;
}

std::uint64_t sum_classes(const stats::Registry& r, const std::string& prefix) {
  return value(r, prefix + ".local_local") + value(r, prefix + ".local_remote") +
         value(r, prefix + ".remote_local");
}

class SystemTest : public ::testing::Test {
 protected:
  std::ostringstream diag;
  stats::Registry reg;
};

// Two identical streaming kernels of 16 CTAs x 2 warps x 4 loads. Warp g (0..31) at access k reads line
// k*32 + g: 128 distinct lines, each read once per kernel.
//  - kernel 0: every L1 and L2 access misses; DRAM reads 128 lines.
//  - kernel 1: the L1s were invalidated at the boundary, so 128 L1 misses again; the L2 (64 KiB = 512 lines)
//    still holds all 128 lines: 128 L2 hits, no new DRAM reads.
TEST_F(SystemTest, OneSocketEndToEndWithCheckerOnEveryHop) {
  SystemSpec spec = small_spec(1);
  spec.kernels = {stream_kernel("first", 16, 2, 4), stream_kernel("again", 16, 2, 4)};
  System sys("system", spec, reg, diag);
  sys.run();

  EXPECT_TRUE(sys.context().health.ok()) << diag.str();
  EXPECT_TRUE(sys.dispatcher().finished());
  EXPECT_EQ(sys.dispatcher().kernels_done(), 2u);
  // 4 SMs x (sm->l1, l1->xbar) + 4 banks x (xbar->l2, l2->dram) = 16 checked hops.
  EXPECT_EQ(sys.checker_count(), 16u);
  EXPECT_GT(sys.protocol_phases_checked(), 0u);
  EXPECT_EQ(sys.pool().allocated_total(), 256u);  // 2 kernels x 128 loads, no write-backs
  EXPECT_EQ(sys.pool().live(), 0u);

  std::uint64_t l1_misses = 0, l1_hits = 0, l2_misses = 0, l2_hits = 0;
  for (int i = 0; i < 4; ++i) {
    l1_misses += sum_classes(reg, "system.socket0.l1_" + std::to_string(i) + ".read_misses");
    l1_hits += sum_classes(reg, "system.socket0.l1_" + std::to_string(i) + ".read_hits");
    l2_misses += sum_classes(reg, "system.socket0.l2_" + std::to_string(i) + ".read_misses");
    l2_hits += sum_classes(reg, "system.socket0.l2_" + std::to_string(i) + ".read_hits");
  }
  EXPECT_EQ(l1_misses, 256u);
  EXPECT_EQ(l1_hits, 0u);
  EXPECT_EQ(l2_misses, 128u);
  EXPECT_EQ(l2_hits, 128u);
  EXPECT_EQ(value(reg, "system.socket0.dram.reads"), 128u);
  EXPECT_EQ(value(reg, "system.socket0.dram.read_bytes"), 128u * 128u);
  EXPECT_EQ(value(reg, "system.runtime.l1_lines_invalidated"), 256u);  // 128 lines after each kernel
}

// Same kernels on 4 sockets. Pages of 4096 B hold 32 lines, so access k of every warp falls in page k, homed
// at socket k (round-robin pages). CTA c runs on socket c mod 4: each socket runs 4 CTAs = 8 warps, i.e. 32
// loads per kernel, 8 of them local (k = its own id) and 24 remote.
//  - requests to the link: 24 per socket per kernel -> 48 per socket over both kernels.
//  - each home socket serves 32 distinct lines per kernel: DRAM reads 32 (kernel 1 hits the home L2).
//  - link bytes per socket per kernel, egress: 24 read requests x 16 B header + 24 responses to the other
//    sockets x (16 + 128) B = 384 + 3456 = 3840; ingress the same by symmetry. Two kernels: 7680 each way.
TEST_F(SystemTest, FourSocketsRemoteTrafficCrossesLinksAndSwitch) {
  SystemSpec spec = small_spec(4);
  spec.kernels = {stream_kernel("first", 16, 2, 4), stream_kernel("again", 16, 2, 4)};
  System sys("system", spec, reg, diag);
  sys.run();

  EXPECT_TRUE(sys.context().health.ok()) << diag.str();
  EXPECT_EQ(sys.dispatcher().kernels_done(), 2u);
  // Per socket 16 hops + 4 banks' second binding (xbar->l2, request network 1) + xbar->link + link->xbar =
  // 22; x4 = 88; plus switch->link and link->switch x4 = 96.
  EXPECT_EQ(sys.checker_count(), 96u);
  for (int s = 0; s < 4; ++s) {
    const std::string sock = "system.socket" + std::to_string(s);
    EXPECT_EQ(value(reg, sock + ".xbar.requests_to_link"), 48u) << sock;
    EXPECT_EQ(value(reg, sock + ".dram.reads"), 32u) << sock;
    const std::string link = "system.link_gpu" + std::to_string(s) + "_switch0";
    EXPECT_EQ(value(reg, link + ".to_switch0.bytes"), 7680u) << link;
    EXPECT_EQ(value(reg, link + ".to_gpu" + std::to_string(s) + ".bytes"), 7680u) << link;
    EXPECT_EQ(sys.fabric_bytes_out(s), 7680u);
    EXPECT_EQ(sys.fabric_bytes_in(s), 7680u);
    std::uint64_t remote_local_misses = 0, local_local_misses = 0;
    for (int b = 0; b < 4; ++b) {
      const std::string l2 = sock + ".l2_" + std::to_string(b);
      remote_local_misses += value(reg, l2 + ".read_misses.remote_local");
      local_local_misses += value(reg, l2 + ".read_misses.local_local");
    }
    EXPECT_EQ(local_local_misses, 8u) << sock;    // its own 8 warps' access to its page, kernel 0
    EXPECT_EQ(remote_local_misses, 24u) << sock;  // the other 24 warps' access to its page, kernel 0
  }
  EXPECT_EQ(value(reg, "system.switch0.requests"), 4u * 48u);
}

// One load through an idle one-socket system, with the latency rules of each hop (docs/architecture.md):
//  cycle 1     the load issues (cycle 0 ran the warp's 1-cycle compute step); L1 receives it at 1
//  1 + 20      L1 tag access (hit latency 20) finds a miss and forwards: 21
//  + 0.25 + 10 crossbar: 16 B header at 64 B/cycle, then 10 cycles: 31.25
//  L2          tag access starts at cycle 31 (whole cycles), + 30 -> forwards the miss at 61
//  + 1.334     DRAM channel: 128 B at 96 B/cycle = 1.3333 cycles, rounded up to the picosecond
//  + 100       DRAM latency -> response leaves DRAM at 162.334
//  + 2.25 + 10 crossbar back: 144 B at 64 B/cycle, then 10 cycles -> 174.584 at the L1 and the SM
//  latency = floor(174.584) - 1 = 173 cycles.
// One CTA of 8 warps, 4 loads each, on one SM: responses arrive one by one and wake the SM while the other
// warps still wait, so most activations issue nothing. Every cycle up to the end is at most one of: a cycle
// that issued, or a stall cycle of one reason; so issue cycles + all stall cycles <= the finish cycle. (The
// SM used to charge the whole gap since its last issue again at each such activation: several times the
// run's length.)
TEST_F(SystemTest, StallCyclesCountEachCycleOnce) {
  SystemSpec spec = small_spec(1);
  spec.kernels = {stream_kernel("waits", 1, 8, 4)};
  System sys("system", spec, reg, diag);
  sys.run();
  ASSERT_TRUE(sys.context().health.ok()) << diag.str();
  const std::string sm = "system.socket0.sm0";
  std::uint64_t stalled = 0;
  for (const char* why : {"memory", "barrier", "compute", "outstanding_limit", "no_warp"})
    stalled += value(reg, sm + ".stall_cycles." + why);
  EXPECT_GT(value(reg, sm + ".stall_cycles.memory"), 0u);
  EXPECT_LE(value(reg, sm + ".issue_cycles") + stalled, sys.finish_cycle());
}

// A C++ kernel's compute step bundles several warp instructions (saxpy: the index arithmetic and the bounds
// test before its loads); with one issue slot a cycle each of them takes a cycle of its own
// (sm/issue_pipes.hpp), so every SM's issue cycles equal its instructions exactly, and no SM can finish
// before it issued them all. (When a bundle took one issue slot, issue cycles counted steps, fewer than the
// instructions.)
TEST_F(SystemTest, BundledInstructionsTakeOneIssueSlotEach) {
  SystemSpec spec = small_spec(1);
  spec.sm.issue_width = 1;
  spec.sm.processing_blocks = 1;  // one slot a cycle for the whole SM (the default is the paper's 2 x 1)
  KernelSpec k;
  k.name = "saxpy";
  k.kernel = "example/saxpy";
  k.args = "n=8192";  // 32 CTAs of 256 threads (8 warps), 2 CTAs resident per SM (16 warps)
  k.warps_per_cta = 8;
  spec.kernels = {k};
  System sys("system", spec, reg, diag);
  sys.run();
  ASSERT_TRUE(sys.context().health.ok()) << diag.str();
  std::uint64_t total = 0, compute = 0;
  for (int i = 0; i < 4; ++i) {
    const std::string sm = "system.socket0.sm" + std::to_string(i);
    const std::uint64_t instructions = value(reg, sm + ".instructions");
    EXPECT_EQ(value(reg, sm + ".issue_cycles"), instructions) << sm;
    EXPECT_LE(instructions, sys.finish_cycle()) << sm;
    total += instructions;
    for (const char* c : {"fp32", "int", "branch"})
      compute += value(reg, sm + ".instructions_" + c);
  }
  // 256 warps; each runs at least one FP32 instruction and more than one integer or branch instruction
  // between its loads, so bundles of several instructions were issued.
  EXPECT_GE(compute, 256u * 3);
  EXPECT_GT(total, 0u);
}

TEST_F(SystemTest, IsolatedLoadSeesTheSumOfHopLatencies) {
  SystemSpec spec = small_spec(1);
  KernelSpec k = stream_kernel("one", 1, 1, 1);
  spec.kernels = {k};
  System sys("system", spec, reg, diag);
  sys.run();
  ASSERT_TRUE(sys.context().health.ok()) << diag.str();
  const auto* lat = reg.find_average("system.socket0.sm0.load_latency");
  ASSERT_NE(lat, nullptr);
  EXPECT_EQ(lat->count(), 1u);
  EXPECT_DOUBLE_EQ(lat->mean(), 173.0);
}

// Processing blocks (sm.issue_width of them) count the cycles they hold a resident warp, as Nsight's
// smsp__cycles_active. One warp of one load, on an SM of 4 blocks: it is warp slot 0, so block 0's; it is
// resident from the kernel's start (cycle 0: the synthetic pattern's 1-cycle compute step, then the load at
// cycle 1) until its load's data returns 173 cycles later (the hop latencies above) and it retires, so
// block 0 counts 1 + 173 = 174 cycles and the other blocks nothing. The SMs without a CTA
// count nothing.
TEST_F(SystemTest, ProcessingBlocksCountTheCyclesTheyHoldAWarp) {
  SystemSpec spec = small_spec(1);
  spec.sm.issue_width = 4;
  spec.sm.processing_blocks = 1;  // a block per issue slot (the default is the paper's 2 blocks)
  spec.kernels = {stream_kernel("one", 1, 1, 1)};
  System sys("system", spec, reg, diag);
  sys.run();
  ASSERT_TRUE(sys.context().health.ok()) << diag.str();
  EXPECT_EQ(value(reg, "system.socket0.sm0.block_active_cycles"), 1u + 173u);
  for (int i = 1; i < 4; ++i)
    EXPECT_EQ(value(reg, "system.socket0.sm" + std::to_string(i) + ".block_active_cycles"), 0u) << i;
}

// Eight warps of one CTA on an SM of 4 blocks: slots 0-7, two per block (i mod 4), all resident from cycle
// 0. Each warp is resident at least its load's 1 + 173 cycles, and a block counts a cycle once however many
// of its warps are resident: each block counts from 0 until its later warp retires, between 174 cycles and
// the run's length, so the SM counts at most 4 x the run. The eight one-line loads queue behind each other
// for a few cycles only, so the run ends before 2 x 174 (asserted): counting warps instead of blocks would
// reach 8 x 174 and fail the upper bound.
TEST_F(SystemTest, ProcessingBlocksCountACycleOnceForAllTheirWarps) {
  SystemSpec spec = small_spec(1);
  spec.sm.issue_width = 4;
  spec.sm.processing_blocks = 1;  // a block per issue slot (the default is the paper's 2 blocks)
  spec.kernels = {stream_kernel("eight", 1, 8, 1)};
  System sys("system", spec, reg, diag);
  sys.run();
  ASSERT_TRUE(sys.context().health.ok()) << diag.str();
  ASSERT_LT(sys.finish_cycle(), 2u * (1 + 173));
  const std::uint64_t active = value(reg, "system.socket0.sm0.block_active_cycles");
  EXPECT_GE(active, 4u * (1 + 173));
  EXPECT_LE(active, 4u * sys.finish_cycle());
}

// Write-back: one bank, one set of 2 ways (256 B). Stores to lines 0,1,2,3: lines 0,1 fill the set dirty;
// line 2 evicts line 0 (LRU) and line 3 evicts line 1 -> 2 dirty write-backs reach DRAM; nothing is read.
TEST_F(SystemTest, WriteBackL2EvictsDirtyLinesToDram) {
  SystemSpec spec = small_spec(1);
  spec.sms_per_socket = 1;
  spec.l2_banks = 1;
  spec.l2.size_bytes = 256;
  spec.l2.ways = 2;
  KernelSpec k = stream_kernel("stores", 1, 1, 4);
  k.write_percent = 100;
  spec.kernels = {k};
  System sys("system", spec, reg, diag);
  sys.run();
  ASSERT_TRUE(sys.context().health.ok()) << diag.str();
  EXPECT_EQ(value(reg, "system.socket0.sm0.stores"), 4u);
  EXPECT_EQ(sum_classes(reg, "system.socket0.l2_0.writes"), 4u);
  EXPECT_EQ(value(reg, "system.socket0.l2_0.evictions"), 2u);
  EXPECT_EQ(value(reg, "system.socket0.l2_0.writebacks"), 2u);
  EXPECT_EQ(value(reg, "system.socket0.dram.writes"), 2u);
  EXPECT_EQ(value(reg, "system.socket0.dram.reads"), 0u);
  EXPECT_EQ(sys.pool().allocated_total(), 6u);  // 4 stores + 2 write-backs, all completed
  EXPECT_EQ(sys.pool().live(), 0u);
}

// The audit: DRAM swallows the first response. With the watchdog and the periodic samplers off, nothing is
// left to happen and the simulation runs out of events; the audit must name the lost transaction and its
// path.
TEST_F(SystemTest, AuditReportsADroppedResponseWithItsPath) {
  SystemSpec spec = small_spec(1);
  spec.watchdog_cycles = 0;
  spec.facts.sample_cycles = 0;
  spec.dram.inject_drop_response = true;
  spec.kernels = {stream_kernel("k", 2, 1, 2)};
  System sys("system", spec, reg, diag);
  sys.run();
  EXPECT_FALSE(sys.dispatcher().finished());
  EXPECT_EQ(sys.pool().live(), 1u);
  ASSERT_EQ(sys.context().health.count(RunHealth::Kind::kAudit),
            2u);  // "ran out of events" + the transaction
  EXPECT_NE(sys.context().health.messages(RunHealth::Kind::kAudit)[0].find("ran out of events"),
            std::string::npos);
  const std::string& lost = sys.context().health.messages(RunHealth::Kind::kAudit)[1];
  EXPECT_NE(lost.find("never completed; path: system.socket0.l1_"), std::string::npos) << lost;
  EXPECT_NE(lost.find("-> system.socket0.xbar -> system.socket0.l2_"), std::string::npos) << lost;
  EXPECT_NE(lost.find("-> system.socket0.dram"), std::string::npos) << lost;
  EXPECT_EQ(sys.context().health.count(RunHealth::Kind::kProtocol), 0u);
}

// The watchdog: DRAM accepts requests and never serves them. Within one window of no progress the watchdog
// must stop the run and dump queue occupancy, naming the stuck DRAM.
TEST_F(SystemTest, WatchdogFiresOnAStuckTargetAndDumpsQueues) {
  SystemSpec spec = small_spec(1);
  spec.watchdog_cycles = 5000;
  spec.dram.inject_stuck = true;
  spec.kernels = {stream_kernel("k", 8, 2, 8)};
  System sys("system", spec, reg, diag);
  sys.run();
  EXPECT_FALSE(sys.dispatcher().finished());
  EXPECT_EQ(sys.context().health.count(RunHealth::Kind::kWatchdog), 1u);
  // Nothing completes at all, so it fires at the end of the first window after the one where requests were
  // first outstanding: cycle 10000 at the latest.
  EXPECT_LE(sys.context().clock.now(), 10000u);
  const std::string dump = diag.str();
  EXPECT_NE(dump.find("watchdog: no request completed for 5000 cycles"), std::string::npos) << dump;
  EXPECT_NE(dump.find("system.socket0.dram: busy channels"), std::string::npos) << dump;
  EXPECT_NE(dump.find("stuck in service 16"), std::string::npos) << dump;  // dram.queue_depth
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
