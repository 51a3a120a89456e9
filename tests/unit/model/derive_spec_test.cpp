// system/derive_spec.hpp: the model's rules from configured parameters to the SystemSpec, each expected value
// derived by hand from the parameters in the test.
#include <gtest/gtest.h>

#include "common/cycles.hpp"
#include "system/derive_spec.hpp"

namespace numagpu {
namespace {

SystemParams one_kernel() {
  SystemParams p;
  KernelSpec k;
  k.name = "k";
  k.ctas = 8;
  p.workload.kernels = {k};
  return p;
}

std::string blamed(const SystemParams& p) {
  try {
    derive_system_spec(p);
  } catch (const SpecError& e) {
    return e.key();
  }
  return "";
}

TEST(DeriveSpec, UnitsFollowTheClock) {
  SystemParams p = one_kernel();
  p.clock_mhz = 500;
  p.dram.bandwidth_gbps = 768;
  p.dram.latency_ns = 101;
  const SystemSpec s = derive_system_spec(p);
  // 768 GB/s at 500 MHz = 768e9 / 500e6 = 1536 B/cycle, kept as 768 * 1000 / 500.
  EXPECT_EQ(s.dram.bandwidth_bytes_num, 768000u);
  EXPECT_EQ(s.dram.bandwidth_den, 500u);
  // 101 ns at 2 ns per cycle = 50.5 cycles, rounded up to 51.
  EXPECT_EQ(s.dram.latency, 51u);
  // 128 cycles socket to socket = 64 on each of the two links.
  EXPECT_EQ(s.link.latency, 64u);
}

TEST(DeriveSpec, L2BanksAndOrganizations) {
  SystemParams p = one_kernel();
  p.l2.size_bytes = 4 << 20;
  p.l2.banks = 16;
  p.l2.ways = 15;  // 4 MiB / 16 banks = 256 KiB per bank; 256 KiB / (15 x 128 B) is not whole...
  EXPECT_EQ(blamed(p), "l2.size_bytes");
  p.l2.ways = 16;  // ... with 16 ways: 256 KiB / 2 KiB = 128 sets, a power of two
  p.l2.organization = L2Organization::kStatic;
  SystemSpec s = derive_system_spec(p);
  EXPECT_EQ(s.l2.size_bytes, 256u * 1024);  // a bank's share
  EXPECT_TRUE(s.l2.gpu_side);
  EXPECT_EQ(s.l2.local_quota, 8u);  // half the ways each
  EXPECT_EQ(s.l2.remote_quota, 8u);
  EXPECT_TRUE(s.l2.write_back);
  EXPECT_TRUE(s.l2.caches_atomics);
  p.l2.organization = L2Organization::kMemside;
  s = derive_system_spec(p);
  EXPECT_FALSE(s.l2.gpu_side);
  EXPECT_EQ(s.l2.local_quota, ~0u);  // no partitioning
  p.l2.organization = L2Organization::kNumaAware;
  EXPECT_TRUE(derive_system_spec(p).l2_numa_aware);
  p.l2.ways = 1;
  p.l2.size_bytes = 16 * 128 * 16;  // 16 banks of 16 one-way sets
  EXPECT_EQ(blamed(p), "l2.ways");  // numa_aware needs a way per class
}

// l2.static_remote_ways moves the static organization's split: remote data gets that many ways of each set
// and local data the rest; 0 keeps the paper's half and half, and a split must leave each class a way.
TEST(DeriveSpec, StaticSplitFollowsRemoteWays) {
  SystemParams p = one_kernel();
  p.l2.organization = L2Organization::kStatic;
  p.l2.static_remote_ways = 12;
  SystemSpec s = derive_system_spec(p);
  EXPECT_EQ(s.l2.remote_quota, 12u);
  EXPECT_EQ(s.l2.local_quota, 4u);  // 16 - 12
  p.l2.static_remote_ways = 1;
  s = derive_system_spec(p);
  EXPECT_EQ(s.l2.remote_quota, 1u);
  EXPECT_EQ(s.l2.local_quota, 15u);
  p.l2.static_remote_ways = 16;  // no way left for local data
  EXPECT_EQ(blamed(p), "l2.static_remote_ways");
  p.l2.static_remote_ways = 0;  // the default: 16 / 2 each
  s = derive_system_spec(p);
  EXPECT_EQ(s.l2.remote_quota, 8u);
  EXPECT_EQ(s.l2.local_quota, 8u);
  p.l2.static_remote_ways = 12;  // only the static organization reads it
  p.l2.organization = L2Organization::kShared;
  s = derive_system_spec(p);
  EXPECT_EQ(s.l2.remote_quota, ~0u);
  EXPECT_EQ(s.l2.local_quota, ~0u);
}

// rtl.waves dumps the Verilated policy blocks: it needs them to be the RTL, and to exist.
TEST(DeriveSpec, RtlWavesNeedVerilatedBlocks) {
  SystemParams p = one_kernel();
  p.rtl_waves = true;
  EXPECT_EQ(blamed(p), "rtl.waves");  // policy.impl: model
  p.rtl_policies = true;
  EXPECT_EQ(blamed(p), "rtl.waves");  // static links, memory-side L2: no block
#ifdef NUMAGPU_HAVE_RTL_LOOP
  p.link.mode = LinkMode::kDynamic;
  p.rtl_waves_start = 7;
  p.rtl_waves_cycles = 11;
  const SystemSpec s = derive_system_spec(p);
  EXPECT_TRUE(s.rtl_waves.enabled);
  EXPECT_FALSE(s.rtl_waves.covers(6));
  EXPECT_TRUE(s.rtl_waves.covers(7));
  EXPECT_TRUE(s.rtl_waves.covers(17));  // 7 + 11 - 1
  EXPECT_FALSE(s.rtl_waves.covers(18));
  EXPECT_TRUE(s.rtl_waves.overlaps(0, 8));   // [0, 8) reaches cycle 7
  EXPECT_FALSE(s.rtl_waves.overlaps(0, 7));  // [0, 7) ends before it
  EXPECT_FALSE(s.rtl_waves.overlaps(18, 100));
#endif
}

TEST(DeriveSpec, ProcessingBlocksDivideTheIssueWidth) {
  // Each block has issue_width / processing_blocks slots: 4 blocks of an SM issuing 2 a cycle would have
  // half a slot each.
  SystemParams p = one_kernel();
  p.sm.issue_width = 2;
  p.sm.processing_blocks = 4;
  EXPECT_EQ(blamed(p), "sm.processing_blocks");
  p.sm.issue_width = 4;
  EXPECT_EQ(derive_system_spec(p).sm.processing_blocks, 4u);
}

TEST(DeriveSpec, LanesAreCheckedAndDoubledOnce) {
  SystemParams p = one_kernel();
  p.link.lanes = 15;
  EXPECT_EQ(blamed(p), "link.lanes");
  p.link.lanes = 16;
  p.link.mode = LinkMode::kDoubleBandwidth;
  EXPECT_EQ(derive_system_spec(p).link.lanes, 32u);
  // A custom link: 2 parallel links of 8 lanes = 16, doubled = 32; 25 GB/s per direction over 4 lanes at
  // 1000 MHz = 25000 / (1000 x 4) B per lane and cycle.
  p.topology.custom = true;
  p.sockets = 2;
  TopologyLinkParams l;
  l.a = "gpu0";
  l.b = "gpu1";
  l.count = 2;
  l.lanes = 8;
  l.gbps = 25;
  l.latency_cycles = 10;
  p.topology.links = {l};
  const SystemSpec s = derive_system_spec(p);
  ASSERT_EQ(s.topology.links.size(), 1u);
  EXPECT_EQ(s.topology.links[0].spec.lanes, 32u);
  EXPECT_EQ(s.topology.links[0].spec.lane_rate_num, 25000u);
  EXPECT_EQ(s.topology.links[0].spec.lane_rate_den, 4000u);
  EXPECT_EQ(s.topology.links[0].spec.latency, 10u);
  p.topology.links[0].lanes = 7;
  EXPECT_EQ(blamed(p), "topology.links.0.lanes");
  p.topology.links[0].lanes = 8;
  p.topology.links[0].b = "gpu0";
  EXPECT_EQ(blamed(p), "topology.links.0.b");  // a link to itself
}

TEST(DeriveSpec, KernelRulesBlameTheKernelsKey) {
  SystemParams p = one_kernel();
  p.workload.scale = 3;
  EXPECT_EQ(derive_system_spec(p).kernels[0].ctas, 24u);  // 8 CTAs x scale 3
  p.workload.kernels[0].grid_x = 3;                       // 8 CTAs do not make rows of 3
  EXPECT_EQ(blamed(p), "workload.kernels.0.grid_x");
  p.workload.kernels[0].grid_x = 4;
  p.workload.kernels[0].warps_per_cta = p.sm.max_warps + 1;
  EXPECT_EQ(blamed(p), "workload.kernels.0.warps_per_cta");
  p.workload.kernels[0].warps_per_cta = 4;
  p.workload.kernels[0].ctas = 0;
  EXPECT_EQ(blamed(p), "workload.kernels.0.ctas");
}

// A clock's period is 1/f rounded to the nearest picosecond (common/cycles.hpp), and a whole-picosecond
// period maps back to the whole-MHz clock that has it, if one does.
TEST(DeriveSpec, AClockPeriodIsTheNearestWholePicosecond) {
  EXPECT_EQ(period_ps_of_mhz(1000), 1000u);
  EXPECT_EQ(period_ps_of_mhz(1600), 625u);
  EXPECT_EQ(period_ps_of_mhz(1400), 714u);  // 714.29
  EXPECT_EQ(period_ps_of_mhz(1447), 691u);  // 691.09
  EXPECT_EQ(period_ps_of_mhz(1500), 667u);  // 666.67 rounds up
  EXPECT_EQ(period_ps_of_mhz(10000), 100u);
  EXPECT_EQ(period_ps_of_mhz(1), 1000000u);
  // 1e6 / 714 = 1400.56: 1401, nearest; 1400 MHz runs at 714 ps too (a period can have two clocks).
  EXPECT_EQ(mhz_of_period_ps(714), 1401u);
  EXPECT_EQ(mhz_of_period_ps(667), 1499u);  // 1499.25: 1499 MHz's period is 667.11 -> 667 (so is 1500's)
  EXPECT_EQ(mhz_of_period_ps(2000), 500u);
  EXPECT_EQ(mhz_of_period_ps(2001), 0u);  // 500 MHz is 2000 ps, 499 MHz 2004 ps: nothing has 2001
  EXPECT_EQ(mhz_of_period_ps(3000), 0u);  // 333 MHz is 3003 ps
  EXPECT_EQ(mhz_of_period_ps(0), 0u);
}

TEST(DeriveSpec, FactsAreSharedAndChecked) {
  SystemParams p = one_kernel();
  p.l2.line_bytes = 64;
  EXPECT_EQ(blamed(p), "l2.line_bytes");  // both levels use one line size
  p.l2.line_bytes = 128;
  p.memory.page_bytes = 64;  // smaller than a 128 B line
  EXPECT_EQ(blamed(p), "memory.page_bytes");
}

// Sectors: the default (128 B, the line) leaves the machine unsectored; 32 B at the L2 makes the L2 four
// sectors per line and the machine sectored (requests carry sectors), the L1 staying unsectored; a size that
// is not a power of two is refused at its key.
TEST(DeriveSpec, SectorsAreAConfigurationChoice) {
  SystemParams p = one_kernel();
  SystemSpec s = derive_system_spec(p);
  EXPECT_FALSE(s.facts.sectored);
  EXPECT_EQ(s.l1.sectors, 1u);
  EXPECT_EQ(s.l2.sectors, 1u);
  p.l2.sector_bytes = 32;
  s = derive_system_spec(p);
  EXPECT_TRUE(s.facts.sectored);
  EXPECT_EQ(s.l1.sectors, 1u);
  EXPECT_EQ(s.l2.sectors, 4u);
  p.l1.sector_bytes = 48;
  EXPECT_EQ(blamed(p), "l1.sector_bytes");
}

// memory.interleave: plain (the default) keeps the line number; ipoly hashes over the larger of l2.banks and
// dram.channels: 64 banks and 32 channels give a hash over 64 = 2^6 (line 64 -> x^6 mod x^6 + x + 1 = 3),
// 16 banks and 32 channels one over 32 = 2^5. Channels that are not a power of two are refused at their key.
TEST(DeriveSpec, IpolyInterleaveHashesOverTheLargerOfBanksAndChannels) {
  SystemParams p = one_kernel();
  EXPECT_FALSE(derive_system_spec(p).facts.interleave.hashed());
  p.memory.ipoly_interleave = true;
  p.l2.banks = 64;
  p.dram.channels = 32;
  SystemSpec s = derive_system_spec(p);
  EXPECT_EQ(s.facts.interleave.bits(), 6u);
  EXPECT_EQ(s.facts.interleave.index(64), 3u);
  p.l2.banks = 16;
  EXPECT_EQ(derive_system_spec(p).facts.interleave.bits(), 5u);
  p.dram.channels = 24;
  EXPECT_EQ(blamed(p), "dram.channels");
}

// dram.refresh_interval_ns / refresh_ns: kept in picoseconds (the channels' time), 3900 ns -> 3,900,000 ps
// and 260 ns -> 260,000 ps; none by default; a refresh of 0 ns or not shorter than the interval is refused.
TEST(DeriveSpec, RefreshIsInPicosecondsAndShorterThanItsInterval) {
  SystemParams p = one_kernel();
  EXPECT_EQ(derive_system_spec(p).dram.refresh_interval_ps, 0u);
  p.dram.refresh_interval_ns = 3900;
  p.dram.refresh_ns = 260;
  const SystemSpec s = derive_system_spec(p);
  EXPECT_EQ(s.dram.refresh_interval_ps, 3900000u);
  EXPECT_EQ(s.dram.refresh_ps, 260000u);
  p.dram.refresh_ns = 3900;
  EXPECT_EQ(blamed(p), "dram.refresh_ns");
  p.dram.refresh_ns = 0;
  EXPECT_EQ(blamed(p), "dram.refresh_ns");
}

}  // namespace
}  // namespace numagpu

namespace numagpu {
namespace {

// Occupancy as NVIDIA's occupancy calculator computes it for compute capability 7.0 (65,536 registers per
// SM, allocated per warp in units of 256; shared memory per CTA in units of 256 B; 64 warps, 32 CTAs).
TEST(Occupancy, TheTightestLimitSetsTheCtaSlots) {
  SmSpec sm;
  sm.max_warps = 64;
  sm.max_ctas = 32;
  sm.registers = 65536;
  sm.shared_bytes = 32768;
  // hotspot: 256 threads (8 warps), 36 registers, 3 KiB shared. A warp's registers: 36 x 32 = 1,152, rounded
  // up to 1,280; a CTA's: 8 x 1,280 = 10,240; 65,536 / 10,240 = 6.4: 6 CTAs. Warps allow 64 / 8 = 8, shared
  // memory 32,768 / 3,072 = 10.67: 10. So 6.
  EXPECT_EQ(sm.cta_slots({8, 36, 3072}), 6u);
  // 32 registers: 1,024 per warp exactly, 8,192 per CTA: 8 CTAs, as the warps allow.
  EXPECT_EQ(sm.cta_slots({8, 32, 0}), 8u);
  // One-warp CTAs with nothing stated: 64 by warps, 32 by the CTA limit.
  EXPECT_EQ(sm.cta_slots({1, 0, 0}), 32u);
  // Shared memory is allocated in 256 B units: 8 KiB + 1 B takes 8,448 B; 32,768 / 8,448 = 3.88: 3.
  EXPECT_EQ(sm.cta_slots({1, 0, 8193}), 3u);
  // Without limits (the paper system's defaults) only the warps count: 64 / 8.
  EXPECT_EQ(SmSpec{}.cta_slots({8, 255, 1 << 20}), 8u);
  // A CTA that cannot fit at all: 64 KiB of shared memory on a 32 KiB carveout; 1,024 threads of 255
  // registers (255 x 32 = 8,160, rounded to 8,192 per warp, x 32 warps = 262,144 > 65,536).
  EXPECT_FALSE(sm.fits({8, 32, 65536}));
  EXPECT_FALSE(sm.fits({32, 255, 0}));
  EXPECT_TRUE(sm.fits({8, 36, 3072}));
}

// The one rule of what fits, and its reason: the tightest case of each limit fits, one more does not. The SM
// of the test above: 64 warps, 65,536 registers, 32 KiB of shared memory.
TEST(Occupancy, MisfitSaysWhichLimitACtaExceedsAndNothingWhenItFits) {
  SmSpec sm;
  sm.max_warps = 64;
  sm.registers = 65536;
  sm.shared_bytes = 32768;
  // 64 warps of 32 registers: 64 x 1,024 = 65,536 registers, exactly the SM's; 32,513 B of shared memory
  // rounds up to 128 x 256 = 32,768 B, exactly the carveout.
  EXPECT_EQ(sm.misfit({64, 32, 0}), "");
  EXPECT_EQ(sm.misfit({1, 0, 32513}), "");
  // 65 warps: more than the SM has, whatever else.
  EXPECT_EQ(sm.misfit({65, 0, 0}),
            "a CTA of 65 warps exceeds sm.max_warps (64): it would never fit on an SM");
  // 33 registers: 33 x 32 = 1,056 rounds up to 1,280 per warp, x 64 = 81,920 > 65,536.
  EXPECT_EQ(
      sm.misfit({64, 33, 0}),
      "a CTA of 64 warps, 33 registers per thread and 0 B of shared memory exceeds sm.registers (65536) or "
      "the shared memory an SM can give it (32768 B): it would never fit on an SM");
  // 32,769 B rounds up to 129 x 256 = 33,024 B > 32,768.
  EXPECT_FALSE(sm.misfit({1, 0, 32769}).empty());
  EXPECT_FALSE(sm.fits({1, 0, 32769}));
}

// Per-kernel carveouts (sm.shared_carveouts), Volta's 0, 8, 16, 32, 64 and 96 KiB with the limits above: the
// smallest carveout that holds as many CTAs as the largest does.
TEST(Occupancy, EachKernelGetsTheSmallestCarveoutThatDoesNotLimitIt) {
  SmSpec sm;
  sm.max_warps = 64;
  sm.max_ctas = 32;
  sm.registers = 65536;
  sm.carveout_bytes = {0, 8192, 16384, 32768, 65536, 98304};
  // No shared memory: the smallest, 0; 8 CTAs of 8 warps by the warps (64 / 8).
  EXPECT_EQ(sm.carveout_for({8, 32, 0}), 0u);
  EXPECT_EQ(sm.cta_slots({8, 32, 0}), 8u);
  // hotspot with 32 registers: 8 CTAs by warps and registers (above), 8 x 3,072 = 24,576 B: 32 KiB.
  EXPECT_EQ(sm.carveout_for({8, 32, 3072}), 32768u);
  EXPECT_EQ(sm.cta_slots({8, 32, 3072}), 8u);
  // With 36 registers 6 CTAs: 6 x 3,072 = 18,432 B still needs 32 KiB (16 KiB holds 5).
  EXPECT_EQ(sm.carveout_for({8, 36, 3072}), 32768u);
  // dct8x8's 1DCT: 2 warps, 512 B: 32 CTAs by the CTA limit, 32 x 512 = 16,384 B: exactly 16 KiB.
  EXPECT_EQ(sm.carveout_for({2, 0, 512}), 16384u);
  // 512 B + 1 rounds to 768 B: 32 x 768 = 24,576 B: 32 KiB.
  EXPECT_EQ(sm.carveout_for({2, 0, 513}), 32768u);
  // cudaTensorCoreGemm, 64 KiB per CTA: 96 KiB holds one CTA as 64 KiB does, so 64 KiB.
  EXPECT_EQ(sm.carveout_for({8, 0, 65536}), 65536u);
  EXPECT_EQ(sm.cta_slots({8, 0, 65536}), 1u);
  // 40 KiB per CTA: 64 KiB holds one, 96 KiB two: 96 KiB.
  EXPECT_EQ(sm.carveout_for({8, 0, 40960}), 98304u);
  EXPECT_EQ(sm.cta_slots({8, 0, 40960}), 2u);
  // The largest carveout bounds what fits: 96 KiB yes, 96 KiB + 1 B no; a carveout list of only 0 refuses
  // any shared memory.
  EXPECT_TRUE(sm.fits({8, 0, 98304}));
  EXPECT_FALSE(sm.fits({8, 0, 98305}));
  sm.carveout_bytes = {0};
  EXPECT_FALSE(sm.fits({1, 0, 4}));
  EXPECT_TRUE(sm.fits({1, 0, 0}));
}

// The carveouts are checked where they are written; a whole number of L1 ways each (the default L1, 32 KiB
// of 4 ways: 8 KiB ways), below the L1's size.
TEST(Occupancy, CarveoutsAreCheckedAtTheirKey) {
  SystemParams p = one_kernel();
  p.l1.size_bytes = 32768;
  p.l1.ways = 4;
  p.sm.shared_carveouts = "0, 8,16";
  const SystemSpec s = derive_system_spec(p);
  EXPECT_EQ(s.sm.carveout_bytes, (std::vector<std::uint64_t>{0, 8192, 16384}));
  for (const char* bad : {"8,x", "8,,16", "16,8", "8,8", "4", "32", "", "1234567"}) {
    p.sm.shared_carveouts = bad;
    EXPECT_EQ(blamed(p), *bad ? "sm.shared_carveouts" : "") << bad;
  }
  p.sm.shared_carveouts = "8";
  p.sm.shared_bytes = 8192;
  EXPECT_EQ(blamed(p), "sm.shared_bytes");
  // An L1 way partition would split ways the carveout takes: refused.
  p.sm.shared_bytes = 0;
  p.l2.organization = L2Organization::kNumaAware;
  p.l2.partition.l1 = true;
  EXPECT_EQ(blamed(p), "sm.shared_carveouts");
  p.l2.partition.l1 = false;
  EXPECT_EQ(blamed(p), "");
}

TEST(Occupancy, AKernelThatCannotFitIsRefusedAtItsKey) {
  SystemParams p;
  p.sm.shared_bytes = 32768;
  KernelSpec k;
  k.name = "k";
  k.kernel = "cuda-samples/cudaTensorCoreGemm";  // 64 KiB of shared memory per CTA
  p.workload.kernels = {k};
  try {
    derive_system_spec(p);
    FAIL() << "accepted a CTA larger than the SM's shared memory";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.key(), "workload.kernels.0.kernel");
  }
}

// The DRAM's bank model (dram.banks): each inconsistent key is blamed by name. The base is the GV100's: 32
// channels x 32 B per 850 MHz cycle = 870.4 GB/s, 16 banks from the map's four B bits.
SystemParams hbm() {
  SystemParams p = one_kernel();
  p.dram.bandwidth_gbps = 870;
  p.dram.channels = 32;
  p.dram.banks = 16;
  p.dram.bank_groups = 4;
  p.dram.clock_mhz = 850;
  p.dram.address_map = "RRRRRRRRRRRRR.BBBCCCB.CCCSSSSS";
  p.dram.timing.ras = 28;
  p.dram.timing.rc = 40;
  return p;
}

TEST(DeriveSpec, DramBanksReadTheAddressMap) {
  const SystemSpec s = derive_system_spec(hbm());
  // Least significant first: S 0-4, C 5-7, B 8, C 9-11, B 12-14, R 15-27.
  EXPECT_EQ(s.dram.hbm.bank_bits, (std::vector<unsigned>{8, 12, 13, 14}));
  ASSERT_EQ(s.dram.hbm.row_bits.size(), 13u);
  EXPECT_EQ(s.dram.hbm.row_bits.front(), 15u);
  EXPECT_EQ(s.dram.hbm.map_bits, 28u);
  EXPECT_EQ(s.dram.hbm.banks, 16u);
}

TEST(DeriveSpec, DramBanksBlameTheInconsistentKey) {
  EXPECT_EQ(blamed(hbm()), "");
  SystemParams p = hbm();
  p.dram.banks = 12;
  EXPECT_EQ(blamed(p), "dram.banks");
  p = hbm();
  p.dram.bank_groups = 3;
  EXPECT_EQ(blamed(p), "dram.bank_groups");
  p = hbm();
  p.dram.clock_mhz = 0;
  EXPECT_EQ(blamed(p), "dram.clock_mhz");
  p = hbm();
  p.dram.clock_mhz = 1000;  // 1024 GB/s, not 870
  EXPECT_EQ(blamed(p), "dram.burst_bytes");
  p = hbm();
  p.dram.address_map = "RRRR.BBBXCCB.CCCSSSSS";  // X is no bit's kind
  EXPECT_EQ(blamed(p), "dram.address_map");
  p = hbm();
  p.dram.address_map = "RRRR.BBCCCB.CCCSSSSS";  // 3 bank bits for 16 banks
  EXPECT_EQ(blamed(p), "dram.address_map");
  p = hbm();
  p.dram.scheduler_queue = 3;  // 3 x 32 B < a 128 B line: a line could never be queued
  EXPECT_EQ(blamed(p), "dram.scheduler_queue");
  p = hbm();
  p.dram.timing.rc = 20;  // below tRAS
  EXPECT_EQ(blamed(p), "dram.timing.rc");
}

}  // namespace
}  // namespace numagpu
