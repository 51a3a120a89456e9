// Microbenchmarks of the per-request hot paths (no simulation kernel involved). Whole-system speed is
// reported by every `numagpu run` (host transactions per second in the summary and in stats.json).
#include <benchmark/benchmark.h>

#include "cache/tag_array.hpp"
#include "common/bandwidth_pipe.hpp"
#include "common/time.hpp"
#include "common/txn.hpp"
#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"
#include "policy/link_balancer.hpp"
#include "runtime/placement.hpp"
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

// Reading a C++ kernel's recorded steps as the SMs take them (CppKernelProgram::step, docs/performance.md
// "Fifth pass"): rodinia/hotspot's first `range(0)` CTAs (8 warps each) resident, one step of each warp in
// turn, each warp going round its own steps (never past its last, so no CTA ends and no body runs again:
// the bodies run before the timing). With 2,048 CTAs resident (about what the paper system's 4 sockets
// hold) the records no longer fit the host's caches and a step costs its cache misses; with 16 they do.
void BM_CppKernelProgramStep(benchmark::State& state) {
  const auto resident = static_cast<std::uint32_t>(state.range(0));
  auto program = [] {
    return std::make_unique<kernels::CppKernelProgram>(
        "calculate_temp", kernels::make_kernel("rodinia/hotspot", "", std::uint64_t(1) << 32), 128);
  };
  const auto counter = program(), p = program();
  const std::uint32_t warps = p->warps_per_cta();
  std::vector<std::uint32_t> steps(std::size_t(resident) * warps, 0), next(steps.size(), 0);
  Step step;
  for (std::uint32_t cta = 0; cta < resident; ++cta) {
    for (std::uint32_t w = 0; w < warps; ++w) {
      std::uint32_t& n = steps[std::size_t(cta) * warps + w];
      while (counter->step(cta, w, n, step))
        ++n;
      if (n > 0) p->step(cta, w, 0, step);  // runs the CTA's body
    }
  }
  std::size_t k = 0;
  for (auto _ : state) {
    if (steps[k] != 0) {
      p->step(static_cast<std::uint32_t>(k / warps), static_cast<std::uint32_t>(k % warps), next[k], step);
      if (++next[k] == steps[k]) next[k] = 0;
    }
    benchmark::DoNotOptimize(step.kind);
    if (++k == steps.size()) k = 0;
  }
}
BENCHMARK(BM_CppKernelProgramStep)->Arg(16)->Arg(2048);

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

// Cost of one first-touch request's home lookup (runtime::Placement::touch, called for every line an SM asks
// for) once the pages are homed: 4 sockets, eight 32 MiB allocations of 4 KiB pages (256 MiB, the paper's
// Table 2 median footprint), lines visited in a scattered order as a large workload's requests are.
void BM_FirstTouchLookup(benchmark::State& state) {
  constexpr std::uint64_t kBytes = std::uint64_t(32) << 20;
  std::vector<runtime::Allocation> allocations;
  for (std::uint64_t i = 0; i < 8; ++i) {
    runtime::Allocation a;
    a.name = "a" + std::to_string(i);
    a.base = i * kBytes;
    a.bytes = kBytes;
    allocations.push_back(a);
  }
  runtime::PlacementParams params;
  params.policy = runtime::PlacementPolicy::kFirstTouch;
  runtime::Placement placement(4, params, allocations);
  const std::uint64_t lines = 8 * kBytes / 128;
  for (std::uint64_t line = 0; line < lines; line += 32)  // one touch per page homes them all
    placement.touch(line * 128, static_cast<runtime::SocketId>(line % 4));
  std::uint64_t line = 0;
  for (auto _ : state) {
    line = (line + 40503) % lines;  // a stride coprime with the line count: every line, scattered
    benchmark::DoNotOptimize(placement.touch(line * 128, 1));
  }
}
BENCHMARK(BM_FirstTouchLookup);

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
BENCHMARK_MAIN();
