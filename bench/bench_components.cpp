// Microbenchmarks of the per-request hot paths (no simulation kernel involved). Whole-system speed is
// reported by every `numagpu run` (host transactions per second in the summary and in stats.json).
#include <benchmark/benchmark.h>

#include "cache/tag_array.hpp"
#include "common/bandwidth_pipe.hpp"
#include "common/time.hpp"
#include "common/txn.hpp"
#include "policy/link_balancer.hpp"
#include "workload/kernel.hpp"

namespace numagpu {
namespace {

void BM_TxnPoolAllocateRelease(benchmark::State& state) {
  TxnPool pool;
  std::uint64_t addr = 0;
  for (auto _ : state) {
    auto& gp = pool.allocate(MemOp::kRead, addr += 128, 128);
    benchmark::DoNotOptimize(&gp);
    gp.release();
  }
}
BENCHMARK(BM_TxnPoolAllocateRelease);

void BM_TagArrayAccess(benchmark::State& state) {
  TagArray tags(256, 4);  // the L1: 128 KiB, 4 ways, 128 B lines
  std::uint64_t i = 0;
  const auto footprint = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    const std::uint64_t line = mix64(i++) % footprint;
    if (!tags.access(line)) tags.insert(line, false);
  }
}
BENCHMARK(BM_TagArrayAccess)->Arg(512)->Arg(8192);  // mostly hits / mostly misses

void BM_BandwidthPipeReserve(benchmark::State& state) {
  const GpuClock clock(1000);
  BandwidthPipe pipe(clock, 768, 8);
  std::uint64_t t = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(pipe.reserve(sc_core::sc_time::from_value(t += 700), 128));
}
BENCHMARK(BM_BandwidthPipeReserve);

void BM_WarpProgramStep(benchmark::State& state) {
  KernelSpec k;
  k.pattern = "random";
  k.ctas = 1024;
  k.warps_per_cta = 8;
  k.accesses_per_warp = 16;
  k.footprint_bytes = 1 << 25;
  k.compute_cycles = 0;
  WarpProgram p(k, 128);
  std::uint32_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.step(i % 1024, i % 8, (i % 16) * 2 + 1));
    ++i;
  }
}
BENCHMARK(BM_WarpProgramStep);

// Cost of one cycle of a dynamic link's lane control (docs/fabric.md: a dynamic link steps its balancer for
// every simulated cycle once something touches it).
void BM_LinkBalancerStep(benchmark::State& state) {
  policy::LinkBalancer balancer;
  policy::LinkBalancer::Inputs in;
  std::uint32_t i = 0;
  for (auto _ : state) {
    in.busy_a = (i & 7) != 0;
    in.busy_b = (i & 3) == 0;
    in.drained = true;
    benchmark::DoNotOptimize(balancer.step(in));
    ++i;
  }
}
BENCHMARK(BM_LinkBalancerStep);

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
BENCHMARK_MAIN();
