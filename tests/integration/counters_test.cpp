// The run summary (system/run_summary.hpp) and the activity recorder (system/activity_recorder.hpp) read the
// components' counters by reference (each component's counters()). These tests hold them to the registered
// statistics, by name, from outside: a counters() that hands over the wrong member, or a reader that sums
// the wrong counters, disagrees with the statistic of that name in stats.json and fails here.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/health.hpp"
#include "small_system.hpp"
#include "system/activity_recorder.hpp"
#include "system/run_summary.hpp"
#include "system/system.hpp"

namespace numagpu {
namespace {

using testing::small_spec;
using testing::stream_kernel;

const power::Instance& find(const power::Activity& a, const std::string& name) {
  for (const power::Instance& i : a.instances)
    if (i.name == name) return i;
  throw std::runtime_error("no instance " + name);
}

// A registered counter by its documented name (docs/stats.md); fails the test when there is none.
std::uint64_t stat(const stats::Registry& r, const std::string& path) {
  const stats::Counter* c = r.find_counter(path);
  EXPECT_NE(c, nullptr) << "no counter " << path;
  return c ? c->value() : 0;
}

double scalar(const stats::Registry& r, const std::string& path) {
  const stats::Scalar* s = r.find_scalar(path);
  EXPECT_NE(s, nullptr) << "no scalar " << path;
  return s ? s->value() : -1;
}

const char* const kClasses[] = {"local_local", "local_remote", "remote_local"};

// A system with its activity recorder, run to the end; then the summary and the activity record are
// gathered as numagpu run gathers them (cli/run.cpp).
struct RecordedRun {
  explicit RecordedRun(const SystemSpec& spec)
      : system("system", spec, reg, diag), recorder("activity", system, 0) {
    system.run();
    ok = system.context().health.ok();
    facts = collect_facts(system, 0.0);
    activity = recorder.finish();
  }
  std::ostringstream diag;
  stats::Registry reg;  // before the system, which keeps references into it
  System system;
  ActivityRecorder recorder;
  bool ok = false;
  RunFacts facts;
  power::Activity activity;
};

// The cache-friendly kernel of docs/memory-system.md (tests/integration/memory_test.cpp derives it): 4 CTAs
// x 4 warps, each warp reading its own 4 lines 4 times. The socket's 4 SMs get one CTA each (the dispatcher
// spreads a grid breadth-first), so each SM runs 4 warps x 16 accesses = 64 loads, 128 instructions, and its
// L1 holds its CTA's 16 lines. By hand: 16 warps x 16 accesses = 256 loads; compute_cycles 0 makes each
// access a compute instruction and a load, so 512 instructions. The L1 misses each warp's first pass (64) and
// hits the rest (192): 75 %. The L2 sees the 64 misses once, all cold (0 % hits, 64 fills over its 4 banks),
// and the DRAM reads 64 lines = 8192 B. One socket: nothing goes to a link.
TEST(Counters, SummaryAndActivityGiveTheHandCounts) {
  SystemSpec spec = small_spec(1);
  KernelSpec kernel = stream_kernel("reuse", 4, 4, 16);
  kernel.footprint_bytes = 64 * 128;
  spec.kernels = {kernel};
  const RecordedRun run(spec);
  ASSERT_TRUE(run.ok) << run.diag.str();
  const stats::Registry& reg = run.reg;
  const RunFacts& f = run.facts;
  const power::Activity& a = run.activity;

  EXPECT_EQ(f.loads, 256u);
  EXPECT_EQ(f.instructions, 512u);
  EXPECT_EQ(f.stores, 0u);
  EXPECT_EQ(f.atomics, 0u);
  ASSERT_EQ(f.sockets.size(), 1u);
  EXPECT_DOUBLE_EQ(f.sockets[0].l1_read_hit_percent, 75.0);
  EXPECT_DOUBLE_EQ(f.sockets[0].l2_read_hit_percent, 0.0);
  EXPECT_EQ(f.sockets[0].remote_requests, 0u);
  ASSERT_GT(f.sim_cycles, 0u);
  // 1000 MHz: GB/s is bytes per cycle.
  EXPECT_DOUBLE_EQ(f.sockets[0].dram_gbps, 8192.0 / double(f.sim_cycles));

  // What the summary recorded in the statistics.
  EXPECT_DOUBLE_EQ(scalar(reg, "summary.socket0.l1_read_hit_percent"), 75.0);
  EXPECT_DOUBLE_EQ(scalar(reg, "summary.socket0.l2_read_hit_percent"), 0.0);
  EXPECT_DOUBLE_EQ(scalar(reg, "summary.socket0.dram_gbps"), 8192.0 / double(f.sim_cycles));
  EXPECT_DOUBLE_EQ(scalar(reg, "summary.sim_cycles"), double(f.sim_cycles));
  EXPECT_DOUBLE_EQ(scalar(reg, "summary.ipc"), 512.0 / double(f.sim_cycles));
  for (int sm = 0; sm < 4; ++sm) {
    const std::string name = "system.socket0.sm" + std::to_string(sm);
    EXPECT_DOUBLE_EQ(scalar(reg, name + ".ipc"), 128.0 / double(f.sim_cycles));
    // The same counts in the activity record; each L1 misses its CTA's 16 lines once and hits 48 times.
    EXPECT_EQ(find(a, name).total("instructions"), 128u);
    EXPECT_EQ(find(a, name).total("loads"), 64u);
    const power::Instance& l1 = find(a, "system.socket0.l1_" + std::to_string(sm));
    EXPECT_EQ(l1.total("reads"), 64u);
    EXPECT_EQ(l1.total("read_hits"), 48u);
    EXPECT_EQ(l1.total("read_misses"), 16u);
    EXPECT_EQ(l1.total("fills"), 16u);
  }
  std::uint64_t l2_reads = 0, l2_hits = 0, l2_fills = 0;
  for (int b = 0; b < 4; ++b) {
    const power::Instance& bank = find(a, "system.socket0.l2_" + std::to_string(b));
    l2_reads += bank.total("reads");
    l2_hits += bank.total("read_hits");
    l2_fills += bank.total("fills");
  }
  EXPECT_EQ(l2_reads, 64u);
  EXPECT_EQ(l2_hits, 0u);
  EXPECT_EQ(l2_fills, 64u);
  EXPECT_EQ(find(a, "system.socket0.dram").total("reads"), 64u);
  EXPECT_EQ(find(a, "system.socket0.dram").total("read_bits"), 8192u * 8);
  EXPECT_EQ(find(a, "system.socket0.xbar").total("requests_to_link"), 0u);
}

// Two sockets with every reader's component present: dynamic links (link balancers), numa_aware L2s
// (partition drivers), a switch, and a kernel whose pages are interleaved over both sockets (remote traffic
// on every path). Every counter a reader takes by reference is the statistic registered under its
// documented name, and every count the recorder and the summary report equals those statistics.
TEST(Counters, ReadersAgreeWithTheRegisteredStatistics) {
  SystemSpec spec = small_spec(2);
  spec.protocol_checks = false;
  spec.link_mode = SystemSpec::LinkMode::kDynamic;
  spec.l2.gpu_side = true;
  spec.l2_numa_aware = true;
  spec.partition.sample_cycles = 1000;
  spec.facts.sample_cycles = 1000;
  spec.kernels = {stream_kernel("mixed", 32, 8, 32)};
  RecordedRun run(spec);
  ASSERT_TRUE(run.ok) << run.diag.str();
  System& system = run.system;
  const stats::Registry& reg = run.reg;
  const RunFacts& f = run.facts;
  const power::Activity& a = run.activity;

  std::uint64_t instructions = 0, loads = 0, remote = 0;
  for (unsigned s = 0; s < spec.sockets; ++s) {
    Socket& socket = system.socket(s);
    for (const auto& sm : socket.sms) {
      const std::string n = sm->name();
      const Sm::Counters c = sm->counters();
      EXPECT_EQ(&c.instructions, reg.find_counter(n + ".instructions")) << n;
      EXPECT_EQ(&c.loads, reg.find_counter(n + ".loads")) << n;
      EXPECT_EQ(&c.stores, reg.find_counter(n + ".stores")) << n;
      EXPECT_EQ(&c.atomics, reg.find_counter(n + ".atomics")) << n;
      const power::Instance& i = find(a, n);
      for (const char* leaf : {"instructions", "loads", "stores", "atomics"})
        EXPECT_EQ(i.total(leaf), stat(reg, n + "." + leaf)) << n << " " << leaf;
      instructions += stat(reg, n + ".instructions");
      loads += stat(reg, n + ".loads");
    }
    auto check_cache = [&](const Cache& cache) {
      const std::string n = cache.name();
      const Cache::Counters c = cache.counters();
      std::uint64_t hits = 0, misses = 0, writes = 0;
      for (int k = 0; k < 3; ++k) {  // indexed by TrafficClass
        const std::string cls = kClasses[k];
        EXPECT_EQ(c.read_hits[k], reg.find_counter(n + ".read_hits." + cls)) << n;
        EXPECT_EQ(c.read_misses[k], reg.find_counter(n + ".read_misses." + cls)) << n;
        EXPECT_EQ(c.writes[k], reg.find_counter(n + ".writes." + cls)) << n;
        hits += stat(reg, n + ".read_hits." + cls);
        misses += stat(reg, n + ".read_misses." + cls);
        writes += stat(reg, n + ".writes." + cls);
      }
      EXPECT_EQ(&c.atomics, reg.find_counter(n + ".atomics")) << n;
      EXPECT_EQ(&c.fills, reg.find_counter(n + ".fills")) << n;
      EXPECT_EQ(&c.evictions, reg.find_counter(n + ".evictions")) << n;
      EXPECT_EQ(&c.writebacks, reg.find_counter(n + ".writebacks")) << n;
      EXPECT_EQ(&c.coherence_writebacks, reg.find_counter(n + ".coherence_writebacks")) << n;
      EXPECT_EQ(&c.mshr_merges, reg.find_counter(n + ".mshr_merges")) << n;
      EXPECT_EQ(&c.bank_conflicts, reg.find_counter(n + ".bank_conflicts")) << n;
      // Sectored caches only: this system is unsectored, so neither the reader nor the statistic exists
      // (tests/integration/sector_bench_test.cpp checks them on a sectored cache).
      EXPECT_EQ(c.read_sector_hits, reg.find_counter(n + ".read_sector_hits")) << n;
      EXPECT_EQ(c.read_sector_misses, reg.find_counter(n + ".read_sector_misses")) << n;
      EXPECT_EQ(c.write_sector_hits, reg.find_counter(n + ".write_sector_hits")) << n;
      EXPECT_EQ(c.write_sector_misses, reg.find_counter(n + ".write_sector_misses")) << n;
      const power::Instance& i = find(a, n);
      EXPECT_EQ(i.total("reads"), hits + misses) << n;
      EXPECT_EQ(i.total("read_hits"), hits) << n;
      EXPECT_EQ(i.total("read_misses"), misses) << n;
      EXPECT_EQ(i.total("writes"), writes) << n;
      EXPECT_EQ(i.total("atomics_performed") + i.total("atomics_forwarded"), stat(reg, n + ".atomics")) << n;
      for (const char* leaf :
           {"fills", "evictions", "writebacks", "coherence_writebacks", "mshr_merges", "bank_conflicts"})
        EXPECT_EQ(i.total(leaf), stat(reg, n + "." + leaf)) << n << " " << leaf;
      return std::pair{hits, misses};
    };
    std::uint64_t l1_hits = 0, l1_lookups = 0, l2_hits = 0, l2_lookups = 0;
    for (const auto& l1 : socket.l1s) {
      const auto [h, m] = check_cache(*l1);
      l1_hits += h;
      l1_lookups += h + m;
    }
    for (const auto& bank : socket.l2_banks) {
      const auto [h, m] = check_cache(*bank);
      l2_hits += h;
      l2_lookups += h + m;
    }
    ASSERT_GT(l1_lookups, 0u);
    ASSERT_GT(l2_lookups, 0u);
    EXPECT_DOUBLE_EQ(f.sockets[s].l1_read_hit_percent, 100.0 * double(l1_hits) / double(l1_lookups));
    EXPECT_DOUBLE_EQ(f.sockets[s].l2_read_hit_percent, 100.0 * double(l2_hits) / double(l2_lookups));

    const std::string x = socket.xbar->name();
    const Crossbar::Counters xc = socket.xbar->counters();
    EXPECT_EQ(&xc.requests, reg.find_counter(x + ".requests"));
    EXPECT_EQ(&xc.requests_to_link, reg.find_counter(x + ".requests_to_link"));
    EXPECT_EQ(&xc.bytes, reg.find_counter(x + ".bytes"));
    EXPECT_EQ(find(a, x).total("bits"), 8 * stat(reg, x + ".bytes"));
    EXPECT_EQ(find(a, x).total("requests"), stat(reg, x + ".requests"));
    EXPECT_EQ(find(a, x).total("requests_to_link"), stat(reg, x + ".requests_to_link"));
    EXPECT_EQ(f.sockets[s].remote_requests, stat(reg, x + ".requests_to_link"));
    remote += stat(reg, x + ".requests_to_link");

    const std::string d = socket.dram->name();
    const Dram::Counters dc = socket.dram->counters();
    EXPECT_EQ(&dc.reads, reg.find_counter(d + ".reads"));
    EXPECT_EQ(&dc.writes, reg.find_counter(d + ".writes"));
    EXPECT_EQ(&dc.read_bytes, reg.find_counter(d + ".read_bytes"));
    EXPECT_EQ(&dc.write_bytes, reg.find_counter(d + ".write_bytes"));
    EXPECT_EQ(dc.read_sectors, reg.find_counter(d + ".read_sectors"));  // sectored machines only
    EXPECT_EQ(dc.write_sectors, reg.find_counter(d + ".write_sectors"));
    EXPECT_EQ(find(a, d).total("reads"), stat(reg, d + ".reads"));
    EXPECT_EQ(find(a, d).total("writes"), stat(reg, d + ".writes"));
    EXPECT_EQ(find(a, d).total("read_bits"), 8 * stat(reg, d + ".read_bytes"));
    EXPECT_EQ(find(a, d).total("write_bits"), 8 * stat(reg, d + ".write_bytes"));
    EXPECT_DOUBLE_EQ(
        f.sockets[s].dram_gbps,
        double(stat(reg, d + ".read_bytes") + stat(reg, d + ".write_bytes")) / double(f.sim_cycles));

    ASSERT_TRUE(socket.partition);
    const std::string p = socket.partition->name();
    EXPECT_EQ(&socket.partition->counters().changes, reg.find_counter(p + ".changes"));
    EXPECT_EQ(find(a, p).total("way_changes"), stat(reg, p + ".changes"));
  }
  EXPECT_EQ(f.instructions, instructions);
  EXPECT_EQ(f.loads, loads);
  EXPECT_GT(remote, 0u);  // the fabric was used: the link and switch checks below are not about zeros

  const Topology& topo = system.topology();
  ASSERT_FALSE(system.links().empty());
  for (std::size_t l = 0; l < system.links().size(); ++l) {
    const Link& link = *system.links()[l];
    const std::string n = link.name();
    const std::string to_b = n + ".to_" + topo.node_name(topo.links[l].b);
    const std::string to_a = n + ".to_" + topo.node_name(topo.links[l].a);
    const Link::Counters c = link.counters();
    EXPECT_EQ(&c.dir[0].bytes, reg.find_counter(to_b + ".bytes")) << n;
    EXPECT_EQ(&c.dir[0].packets, reg.find_counter(to_b + ".packets")) << n;
    EXPECT_EQ(&c.dir[1].bytes, reg.find_counter(to_a + ".bytes")) << n;
    EXPECT_EQ(&c.dir[1].packets, reg.find_counter(to_a + ".packets")) << n;
    EXPECT_EQ(&c.turnarounds, reg.find_counter(n + ".turnarounds")) << n;
    EXPECT_EQ(&c.turnaround_cycles, reg.find_counter(n + ".turnaround_cycles")) << n;
    const power::Instance& i = find(a, n);
    EXPECT_EQ(i.total("bits_a_to_b"), 8 * stat(reg, to_b + ".bytes")) << n;
    EXPECT_EQ(i.total("bits_b_to_a"), 8 * stat(reg, to_a + ".bytes")) << n;
    EXPECT_EQ(i.total("packets_a_to_b"), stat(reg, to_b + ".packets")) << n;
    EXPECT_EQ(i.total("packets_b_to_a"), stat(reg, to_a + ".packets")) << n;
    EXPECT_EQ(i.total("turnarounds"), stat(reg, n + ".turnarounds")) << n;
    EXPECT_EQ(i.total("turnaround_cycles"), stat(reg, n + ".turnaround_cycles")) << n;
    EXPECT_EQ(find(a, n + ".balancer").total("lane_turns"), stat(reg, n + ".turnarounds")) << n;
  }
  ASSERT_EQ(system.switches().size(), topo.switches);
  for (unsigned k = 0; k < topo.switches; ++k) {
    const Switch& sw = *system.switches()[k];
    const std::string n = sw.name();
    EXPECT_EQ(n, "system." + topo.node_name(topo.gpus + k));
    EXPECT_EQ(&sw.counters().requests, reg.find_counter(n + ".requests"));
    EXPECT_EQ(find(a, n).total("requests"), stat(reg, n + ".requests"));
    // Bits sent: the directions of its links that leave it, named after the node they go to.
    std::uint64_t out = 0;
    for (std::size_t l = 0; l < topo.links.size(); ++l) {
      const TopologyLink& tl = topo.links[l];
      if (tl.a != topo.gpus + k && tl.b != topo.gpus + k) continue;
      const unsigned other = tl.a == topo.gpus + k ? tl.b : tl.a;
      out += stat(reg, std::string(system.links()[l]->name()) + ".to_" + topo.node_name(other) + ".bytes");
    }
    EXPECT_GT(out, 0u);
    EXPECT_EQ(find(a, n).total("bits"), 8 * out);
  }
}

}  // namespace
}  // namespace numagpu

// SystemC wants an sc_main; the tests run from gtest's main (each in its own process, tests/CMakeLists.txt).
extern "C" int sc_main(int, char*[]) {
  return 0;
}
