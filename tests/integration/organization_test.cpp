// L2 organizations end to end (2 sockets, checker on). Every byte of data is homed at socket 1 (one 1 GiB
// page at 1 GiB, round-robin pages), and a streaming kernel of 16 CTAs x 2 warps x 4 loads reads 128
// distinct lines: CTAs interleave, so socket 0 runs 8 CTAs = 64 remote loads, socket 1 runs 8 = 64 local
// loads. The kernel runs twice (the L1s are invalidated in between).
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
  bool ideal;
  bool once;
  bool writes;
  bool static_split = false;  // half the L2 ways for each class
};

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
    spec.ideal_coherence = o.ideal;
    if (o.static_split) {
      spec.l2.local_quota = spec.l2.ways / 2;
      spec.l2.remote_quota = spec.l2.ways - spec.l2.ways / 2;
    }
    KernelSpec k = stream_kernel("k", 16, 2, 4);
    k.base_address = std::uint64_t(1) << 30;  // page 1: homed at socket 1
    if (o.writes) k.write_percent = 100;
    spec.kernels = {k, k};
    RunHealth::reset();
    sys = std::make_unique<System>("system", spec, reg, diag);
    sys->run();
    ASSERT_TRUE(RunHealth::ok()) << diag.str();
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
  run({false, false, false, false});
  EXPECT_EQ(to_link(0), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "read_misses.local_remote") + l2_sum(reg, 0, "read_hits.local_remote"), 0u);
  EXPECT_EQ(l2_sum(reg, 1, "read_misses.remote_local"), 64u);
  EXPECT_EQ(l2_sum(reg, 1, "read_hits.remote_local"), 64u);
  EXPECT_EQ(counter(reg, "system.runtime.coherence_cycles"), 0u);
}

// GPU-side (shared) with ideal coherence: socket 0's L2 caches the 64 remote lines in kernel 0 and hits on
// all of them in kernel 1: only 64 requests cross the link, and nothing is invalidated.
TEST_F(OrganizationTest, GpuSideL2KeepsRemoteLinesUnderIdealCoherence) {
  run({true, true, false, false});
  EXPECT_EQ(to_link(0), 64u);
  EXPECT_EQ(l2_sum(reg, 0, "read_misses.local_remote"), 64u);
  EXPECT_EQ(l2_sum(reg, 0, "read_hits.local_remote"), 64u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 0u);
}

// Real software coherence: after each kernel socket 0's L2 drops its 64 remote lines (128 over the two
// boundaries), so kernel 1 misses again: 128 requests cross the link. Reads leave nothing dirty.
TEST_F(OrganizationTest, KernelBoundaryInvalidatesRemoteLines) {
  run({true, false, false, false});
  EXPECT_EQ(to_link(0), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "read_hits.local_remote"), 0u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_writebacks"), 0u);
  EXPECT_EQ(l2_sum(reg, 1, "coherence_invalidations"), 0u);  // socket 1 holds only its own data
}

// The static organization behaves the same here: 64 remote lines per kernel fit in half of socket 0's L2
// (8 of 16 ways x 32 sets x 4 banks = 1024 lines), so the counts are those of the shared one.
TEST_F(OrganizationTest, StaticSplitInvalidatesTheSameRemoteLines) {
  run({true, false, false, false, true});
  EXPECT_EQ(to_link(0), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 128u);
}

// remote_insert twice (the default): socket 0's remote reads also allocate in the home L2, so in kernel 1
// they hit there: socket 1's DRAM reads only the 128 distinct lines once. once: they do not allocate at the
// home, so kernel 1's 64 remote reads miss the home L2 again: 128 + 64 = 192 DRAM reads.
TEST_F(OrganizationTest, RemoteInsertTwiceCachesAtTheHomeToo) {
  run({true, false, false, false});
  EXPECT_EQ(counter(reg, "system.socket1.dram.reads"), 128u);
}

TEST_F(OrganizationTest, RemoteInsertOnceSkipsTheHome) {
  run({true, false, true, false});
  EXPECT_EQ(counter(reg, "system.socket1.dram.reads"), 192u);
}

// Stores: socket 0's GPU-side write-back L2 takes its 64 remote stores dirty; at each boundary it writes
// them back to socket 1 and drops them: 64 coherence write-backs per kernel, 128 in all, costing cycles.
TEST_F(OrganizationTest, DirtyRemoteLinesAreWrittenBackAtTheBoundary) {
  run({true, false, false, true});
  EXPECT_EQ(l2_sum(reg, 0, "coherence_writebacks"), 128u);
  EXPECT_EQ(l2_sum(reg, 0, "coherence_invalidations"), 128u);
  EXPECT_GT(counter(reg, "system.runtime.coherence_cycles"), 0u);
  // The stores themselves stay in socket 0's L2; only the 128 write-backs cross the link.
  EXPECT_EQ(to_link(0), 128u);
}

// numa_aware: socket 0 streams reads of data homed at socket 1 with 1024 warps (16 SMs x 64), enough to
// keep its link's ingress busy with 144 B responses (3 cycles of 64 B each = 192 B of lanes; 5000-cycle...
// here 1000-cycle windows need 0.99 x 64 x 1000 / 192 = 330 remote reads). Its DRAM serves nothing. Each
// window then finds the link saturated and the DRAM not: one way moves from local to remote per window, from
// the launch split 8/8 up to the floor of one local way: 15 remote ways after 7 windows. Socket 1 sends no
// remote reads and its DRAM (768 B/cycle) is far from saturated serving ~0.7 lines per cycle: it keeps 8.
TEST(NumaAware, SaturatedIngressMovesWaysToRemoteUpToTheFloor) {
  SystemSpec spec = small_spec(2);
  spec.protocol_checks = false;
  spec.sms_per_socket = 16;
  spec.sm.max_warps = 64;
  spec.sm.max_outstanding = 128;
  spec.page_bytes = std::uint64_t(1) << 30;
  spec.l2.gpu_side = true;
  spec.l2_numa_aware = true;
  spec.partition.ways = spec.l2.ways;
  spec.partition.sample_cycles = 1000;
  spec.partition.resp_bytes = 192;
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
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
