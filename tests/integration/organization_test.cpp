// L2 organizations end to end (2 sockets, checker on). Every byte of data is homed at socket 1 (one 1 GiB
// page at 1 GiB, round-robin pages), and a streaming kernel of 16 CTAs x 2 warps x 4 loads reads 128
// distinct lines: CTAs interleave, so socket 0 runs 8 CTAs = 64 remote loads, socket 1 runs 8 = 64 local
// loads. The kernel runs twice (the L1s are invalidated in between).
#include <algorithm>

#include <gtest/gtest.h>

#include <sstream>

#include "common/health.hpp"
#include "small_system.hpp"
#include "system/system.hpp"

namespace numagpu {
namespace {

using testing::small_spec;
using testing::stream_kernel;

struct Org {
  bool gpu_side;
  L2Coherence coherence;
  bool once;
  bool writes;
  bool static_split = false;     // half the L2 ways for each class
  bool write_then_read = false;  // kernel 0 stores to the lines, kernel 1 loads them
};

constexpr L2Coherence kSoftware = L2Coherence::kSoftware;
constexpr L2Coherence kIdeal = L2Coherence::kIdeal;
constexpr L2Coherence kNoCoherence = L2Coherence::kNone;

std::uint64_t counter(const stats::Registry& r, const std::string& path) {
  const auto* c = r.find_counter(path);
  if (!c) ADD_FAILURE() << "no counter " << path;
  return c ? c->value() : 0;
}

std::uint64_t l2_sum(const stats::Registry& r, unsigned socket, const std::string& leaf) {
  std::uint64_t n = 0;
  for (unsigned b = 0; b < 4; ++b) {
    n += counter(r, "system.socket" + std::to_string(socket) + ".l2_" + std::to_string(b) + "." + leaf);
  }
  return n;
}

class OrganizationTest : public ::testing::Test {
 protected:
  void run(const Org& o) {
    SystemSpec spec = small_spec(2);
    spec.page_bytes = std::uint64_t(1) << 30;
    spec.l2.gpu_side = o.gpu_side;
    spec.l2.insert_remote_requests = !o.once;
    spec.coherence = o.coherence;
    if (o.static_split) {
      spec.l2.local_quota = spec.l2.ways / 2;
      spec.l2.remote_quota = spec.l2.ways - spec.l2.ways / 2;
    }
    KernelSpec k = stream_kernel("k", 16, 2, 4);
    k.base_address = std::uint64_t(1) << 30;  // page 1: homed at socket 1
    if (o.writes) k.write_percent = 100;
    spec.kernels = {k, k};
    if (o.write_then_read) {
      spec.kernels[0].write_percent = 100;
      spec.kernels[1].write_percent = 0;
    }
    sys = std::make_unique<System>("system", spec, reg, diag);
    sys->run();
    ASSERT_TRUE(sys->context().health.ok()) << diag.str();
  }
  std::uint64_t to_link(unsigned socket) {
    return counter(reg, "system.socket" + std::to_string(socket) + ".xbar.requests_to_link");
  }
  stats::Registry reg;
  std::ostringstream diag;
  std::unique_ptr<System> sys;
};

// Memory-side L2: socket 0's 64 remote loads go straight to the link in each kernel (128 in all), and its L2
// never sees them; socket 1's L2 serves all 128 lines: 128 misses in kernel 0, 128 hits in kernel 1.
TEST_F(OrganizationTest, MemsideSendsEveryRemoteLoadToTheHome) {
  run({false, kSoftware, false, false});
  EXPECT_EQ(to_link(0), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "read_misses.local_remote") + l2_sum(reg, 0, "read_hits.local_remote"), 0u);
  EXPECT_EQ(l2_sum(reg, 1, "read_misses.remote_local"), 64u);
  EXPECT_EQ(l2_sum(reg, 1, "read_hits.remote_local"), 64u);
  EXPECT_EQ(counter(reg, "system.runtime.coherence_cycles"), 0u);
}

// GPU-side (shared) with ideal coherence: socket 0's L2 caches the 64 remote lines in kernel 0 and hits on
// all of them in kernel 1: only 64 requests cross the link, and nothing is invalidated.
TEST_F(OrganizationTest, GpuSideL2KeepsRemoteLinesUnderIdealCoherence) {
  run({true, kIdeal, false, false});
  EXPECT_EQ(to_link(0), 64u);
  EXPECT_EQ(l2_sum(reg, 0, "read_misses.local_remote"), 64u);
  EXPECT_EQ(l2_sum(reg, 0, "read_hits.local_remote"), 64u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 0u);
}

// The paper's ideal (Figure 9: invalidations ignored, write-backs kept) against software coherence and no
// coherence, when kernel 0 stores to the 128 lines and kernel 1 loads them. Socket 0 stores its 64 remote
// lines into its L2, dirty. Ideal: at the first boundary it writes the 64 back (64 requests on the link) and
// keeps them, clean; kernel 1's 64 loads hit them; at the second boundary nothing is dirty: 64 coherence
// write-backs, no invalidation, 64 requests on the link in all.
TEST_F(OrganizationTest, IdealCoherenceWritesBackAndKeepsTheLines) {
  run({true, kIdeal, false, false, false, true});
  EXPECT_EQ(l2_sum(reg, 0, "coherence_writebacks"), 64u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 0u);
  EXPECT_EQ(l2_sum(reg, 0, "read_hits.local_remote"), 64u);
  EXPECT_EQ(to_link(0), 64u);
}

// Software: the first boundary writes the 64 back and drops them (64 on the link), kernel 1's 64 loads miss
// and cross the link (64 more), the second boundary drops those 64 clean lines: 64 write-backs, 128
// invalidations, 128 requests on the link.
TEST_F(OrganizationTest, SoftwareCoherenceWritesBackAndDropsTheLines) {
  run({true, kSoftware, false, false, false, true});
  EXPECT_EQ(l2_sum(reg, 0, "coherence_writebacks"), 64u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "read_hits.local_remote"), 0u);
  EXPECT_EQ(to_link(0), 128u);
}

// None: neither boundary writes back or drops anything, kernel 1's loads hit the dirty lines, and nothing of
// socket 0's crosses the link: the stores never reach their home (why it is not the paper's ideal).
TEST_F(OrganizationTest, NoCoherenceNeverWritesTheRemoteLinesBack) {
  run({true, kNoCoherence, false, false, false, true});
  EXPECT_EQ(l2_sum(reg, 0, "coherence_writebacks"), 0u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 0u);
  EXPECT_EQ(l2_sum(reg, 0, "read_hits.local_remote"), 64u);
  EXPECT_EQ(to_link(0), 0u);
}

// Real software coherence: after each kernel socket 0's L2 drops its 64 remote lines (128 over the two
// boundaries), so kernel 1 misses again: 128 requests cross the link. Reads leave nothing dirty.
TEST_F(OrganizationTest, KernelBoundaryInvalidatesRemoteLines) {
  run({true, kSoftware, false, false});
  EXPECT_EQ(to_link(0), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "read_hits.local_remote"), 0u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_writebacks"), 0u);
  EXPECT_EQ(l2_sum(reg, 1, "coherence_invalidations"), 0u);  // socket 1 holds only its own data
}

// The static organization behaves the same here: 64 remote lines per kernel fit in half of socket 0's L2
// (8 of 16 ways x 32 sets x 4 banks = 1024 lines), so the counts are those of the shared one.
TEST_F(OrganizationTest, StaticSplitInvalidatesTheSameRemoteLines) {
  run({true, kSoftware, false, false, true});
  EXPECT_EQ(to_link(0), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 128u);
}

// remote_insert twice (the default): socket 0's remote reads also allocate in the home L2, so in kernel 1
// they hit there: socket 1's DRAM reads only the 128 distinct lines once. once: they do not allocate at the
// home, so kernel 1's 64 remote reads miss the home L2 again: 128 + 64 = 192 DRAM reads.
TEST_F(OrganizationTest, RemoteInsertTwiceCachesAtTheHomeToo) {
  run({true, kSoftware, false, false});
  EXPECT_EQ(counter(reg, "system.socket1.dram.reads"), 128u);
}

TEST_F(OrganizationTest, RemoteInsertOnceSkipsTheHome) {
  run({true, kSoftware, true, false});
  EXPECT_EQ(counter(reg, "system.socket1.dram.reads"), 192u);
}

// Stores: socket 0's GPU-side write-back L2 takes its 64 remote stores dirty; at each boundary it writes
// them back to socket 1 and drops them: 64 coherence write-backs per kernel, 128 in all, costing cycles.
TEST_F(OrganizationTest, DirtyRemoteLinesAreWrittenBackAtTheBoundary) {
  run({true, kSoftware, false, true});
  EXPECT_EQ(l2_sum(reg, 0, "coherence_writebacks"), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 128u);
  EXPECT_GT(counter(reg, "system.runtime.coherence_cycles"), 0u);
  // The stores themselves stay in socket 0's L2; only the 128 write-backs cross the link.
  EXPECT_EQ(to_link(0), 128u);
}

// Atomics are performed at the line's home, never on a GPU-side copy. One warp on socket 0 (CTA 0 under
// interleaved scheduling) performs 16 atomics on 8 lines homed at socket 1 (one 1 GiB page at 1 GiB), each
// line twice. Socket 0's L2 receives all 16 and passes every one on without keeping a copy; socket 1's L2,
// the home, performs all 16: the first touch of each line misses (8 DRAM reads), the second hits. Had
// socket 0 kept the line after the first atomic, the home would see only 8 and two sockets could update
// the same line at once.
TEST(Atomics, GpuSideL2PerformsRemoteAtomicsAtTheHome) {
  SystemSpec spec = small_spec(2);
  spec.l2.gpu_side = true;
  spec.page_bytes = std::uint64_t(1) << 30;
  KernelSpec k = stream_kernel("atomics", 1, 1, 16);
  k.atomic_percent = 100;
  k.footprint_bytes = 8 * 128;              // 8 lines, each accessed twice
  k.base_address = std::uint64_t(1) << 30;  // homed at socket 1
  spec.kernels = {k};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(l2_sum(reg, 0, "atomics"), 16u);
  EXPECT_EQ(l2_sum(reg, 1, "atomics"), 16u);
  EXPECT_EQ(counter(reg, "system.socket1.dram.reads"), 8u);
  EXPECT_EQ(counter(reg, "system.socket0.dram.reads"), 0u);
  std::uint64_t remote_lines = 0;
  for (const auto& bank : run.system->socket(0).l2_banks)
    remote_lines += bank->lines(TagArray::LineClass::kRemote);
  EXPECT_EQ(remote_lines, 0u);
}

// numa_aware: socket 0 streams reads of data homed at socket 1 with 1024 warps (16 SMs x 64). Its link's
// ingress carries the 144 B responses at 64 B/cycle: at most 64 x 1000 / 144 = 444 per 1000-cycle window.
// With the paper's 99 % the controller would need 440 remote reads sent in a window: a margin of 1 % that the
// window-to-window jitter of a saturated closed loop (about +-2 %) crosses in roughly half the windows
// (docs/memory-system.md). This test sets 95 %: ceil(0.95 x 64 x 1000 / 144) = 423 reads, so a saturated
// link is seen as saturated in every window and the timing below is exact.
// Enough are in flight: the L2 banks hold a slot per remote miss (4 banks x 128 = 512) over a round trip of
// ~450 cycles (2 x 128 link, 2 x 10 crossbar twice, 30 + 30 L2, 100 DRAM, serialization), about 1.1 reads
// per cycle offered against 0.44 carried, so the link saturates from the first window: 512 misses leave in
// its first cycles. Its DRAM serves nothing. Each window then finds the link saturated and the DRAM not: one
// way moves from local to remote at the end of every window, from the launch split 8/8 up to the floor of
// one local way: 9 after window 0, 10 after window 1, ..., 15 after window 6, then no change. The launch
// strobe takes cycle 0 (the controller restarts in it), so window k covers cycles 1000k+1..1000(k+1) and its
// decision is stepped in cycle 1000(k+1): the sample taken at cycle 1000(w+1) (steps cycles before it) still
// shows the split of window w-1, i.e. 8 + w remote ways, up to 15. Socket 1 sends
// no remote reads and its DRAM (768 B/cycle) is far from saturated serving ~0.44 lines per cycle: it keeps
// 8 all along. Windows of the time series are the controller's (stats sample = 1000 cycles).
TEST(NumaAware, SaturatedIngressMovesWaysToRemoteUpToTheFloor) {
  SystemSpec spec = small_spec(2);
  spec.protocol_checks = false;
  spec.sms_per_socket = 16;
  spec.sm.max_warps = 64;
  spec.sm.max_outstanding = 128;
  spec.l2.max_in_process = 128;
  spec.page_bytes = std::uint64_t(1) << 30;
  spec.l2.gpu_side = true;
  spec.l2_numa_aware = true;
  spec.partition.sample_cycles = 1000;
  spec.partition.saturation_percent = 95;  // ways (16) and response bytes (16 + 128) come from the system
  spec.facts.sample_cycles = 1000;         // DRAM and link series in the controller's windows
  KernelSpec k = stream_kernel("remote_reads", 64, 32, 64);  // socket 0: 32 CTAs x 32 warps = 1024 warps
  k.base_address = std::uint64_t(1) << 30;                   // everything homed at socket 1
  spec.kernels = {k};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  System& sys = *run.system;
  EXPECT_EQ(sys.socket(0).partition->remote_ways(), 15u);
  EXPECT_EQ(sys.socket(1).partition->remote_ways(), 8u);
  EXPECT_EQ(counter(reg, "system.socket0.partition.changes"), 7u);
  EXPECT_EQ(counter(reg, "system.socket1.partition.changes"), 0u);
  // Timing: one way per window from the first window on.
  const auto& split0 = reg.find_series("system.socket0.partition.remote_ways")->values();
  const auto& split1 = reg.find_series("system.socket1.partition.remote_ways")->values();
  ASSERT_GE(split0.size(), 8u);
  for (std::size_t w = 0; w < split0.size(); ++w) {
    EXPECT_EQ(split0[w], double(std::min<std::size_t>(8 + w, 15))) << "window " << w;
    EXPECT_EQ(split1[w], 8.0) << "window " << w;
  }
  // What the controller saw: socket 0's ingress really was saturated in every full window but the last.
  const auto& ingress = reg.find_series("system.link_gpu0_switch0.to_gpu0.utilization")->values();
  for (std::size_t w = 1; w + 1 < ingress.size(); ++w)
    EXPECT_GE(ingress[w], 97.0) << "window " << w;
}

// The L1 split (l2.partition_l1). One warp on socket 0's only SM reads 128 local lines twice in one kernel:
// stream, 1 CTA x 1 warp, footprint 16 KiB = 128 lines, 256 accesses, so access k reads line k mod 128 (one
// load at a time: a load blocks its warp). The L1 (16 KiB, 4 ways, 128 B lines) has 32 sets and each set gets
// exactly 4 of the lines (s, s+32, s+64, s+96). Unpartitioned, the first pass fills every way and the second
// hits all 128. Following the controller's split (half and half at launch; nothing saturates in so short a
// run, so it stays there: 2 local ways of 4), local lines may hold only 2 ways of a set even with the other 2
// empty, and cycling 4 lines through 2 LRU ways misses every time: 0 hits, 256 misses.
std::uint64_t l1_local_hits(bool partition_l1, std::uint64_t* misses) {
  SystemSpec spec = small_spec(2);
  spec.sms_per_socket = 1;
  spec.page_bytes = std::uint64_t(1) << 30;  // page 0: everything homed at socket 0
  spec.l2.gpu_side = true;
  spec.l2_numa_aware = true;
  spec.partition.l1 = partition_l1;
  KernelSpec k = stream_kernel("reread", 1, 1, 256);
  k.footprint_bytes = 128 * 128;
  spec.kernels = {k};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  EXPECT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(counter(reg, "system.socket0.partition.changes"), 0u);
  *misses = counter(reg, "system.socket0.l1_0.read_misses.local_local");
  return counter(reg, "system.socket0.l1_0.read_hits.local_local");
}

TEST(NumaAware, UnpartitionedL1KeepsAllItsWaysForLocalData) {
  std::uint64_t misses = 0;
  EXPECT_EQ(l1_local_hits(false, &misses), 128u);
  EXPECT_EQ(misses, 128u);
}

TEST(NumaAware, L1FollowingTheSplitHoldsLocalLinesInHalfItsWays) {
  std::uint64_t misses = 0;
  EXPECT_EQ(l1_local_hits(true, &misses), 0u);
  EXPECT_EQ(misses, 256u);
}

// Request networks. Two sockets with GPU-side L2s read each other's data (pages alternate between the
// sockets; CTAs interleave, so every socket's SMs read both), and each L2 bank has only 4 slots. A remote
// miss holds its slot while its request is served by the home socket's bank (docs/architecture.md, "Request
// networks"). When the home bank takes requests from the fabric on the same binding and slots as its own
// socket's requests (debug.inject_fault: shared_request_network), all 4 slots of a bank at each socket can be
// taken by remote misses that wait for slots at the other socket, which are taken the same way: nothing
// completes and the watchdog fires. With the fabric's requests on their own binding and slots, the home bank
// always serves them (they wait only on DRAM): the same run completes with the watchdog quiet.
SystemSpec cross_reading_spec(bool shared_network) {
  SystemSpec spec = small_spec(2);
  spec.protocol_checks = true;
  spec.l2.gpu_side = true;
  spec.l2.max_in_process = 4;
  spec.crossbar.shared_request_network = shared_network;
  spec.watchdog_cycles = 20000;
  spec.kernels = {stream_kernel("cross", 64, 4, 64)};  // 16384 reads, half of them remote
  return spec;
}

TEST(RequestNetworks, SharedQueuesDeadlockAGpuSideL2) {
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(cross_reading_spec(true), reg);
  EXPECT_FALSE(run.ok);
  EXPECT_NE(run.diagnostics.find("watchdog: no request completed"), std::string::npos) << run.diagnostics;
  EXPECT_FALSE(run.system->dispatcher().finished());
}

TEST(RequestNetworks, SeparateNetworksCompleteWithTheWatchdogQuiet) {
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(cross_reading_spec(false), reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_TRUE(run.system->dispatcher().finished());
  EXPECT_EQ(run.system->pool().live(), 0u);
  // Every read was issued and answered: 64 CTAs x 4 warps x 64 = 16384 SM requests (reads only: no
  // write-backs), none left in flight.
  EXPECT_EQ(run.system->pool().allocated_total(), 16384u);
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
