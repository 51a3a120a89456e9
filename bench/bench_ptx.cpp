// Speed of the PTX executor, functional (a sink that models nothing): warp instructions per host-second
// (the items/s column) on clang's PTX of tests/data/ptx. Release build; run ./build/bench/bench_ptx.
#include <benchmark/benchmark.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "ptx/kernel.hpp"
#include "ptx/module.hpp"

namespace {

using namespace numagpu;
using namespace numagpu::ptx;

struct NullSink : WarpSink {
  std::uint32_t compute(unsigned, InstrClass, std::uint32_t, std::uint32_t, unsigned) override { return 0; }
  void global_access(unsigned, Step::Kind, std::uint32_t, const std::uint64_t*, unsigned,
                     std::uint32_t) override {}
  std::uint32_t shared_access(unsigned, std::uint32_t, const std::uint64_t*, unsigned,
                              std::uint32_t) override {
    return 0;
  }
  std::uint32_t constant_access(unsigned, std::uint32_t, const std::uint64_t*, std::uint32_t) override {
    return 0;
  }
  void barrier(unsigned, std::uint32_t) override {}
};

// Arrays at simulated addresses 1 GiB apart.
struct Arrays : GlobalMemory {
  std::vector<std::vector<std::uint8_t>> blocks;
  std::uint64_t add(std::size_t bytes) {
    blocks.emplace_back(bytes, 0);
    return (blocks.size()) << 30;
  }
  std::uint8_t* resolve(std::uint64_t a, std::uint64_t n) override {
    const std::uint64_t i = (a >> 30) - 1;
    const std::uint64_t off = a & ((1ull << 30) - 1);
    if (i >= blocks.size() || off + n > blocks[i].size()) return nullptr;
    return blocks[i].data() + off;
  }
};

std::shared_ptr<const Module> load(const char* name) {
  std::ifstream f(std::string(NUMAGPU_PTX_DATA) + "/" + name);
  std::stringstream s;
  s << f.rdbuf();
  return parse_module(s.str(), name);
}

template <class T>
void put(std::vector<std::uint8_t>& p, const Kernel& k, unsigned i, T v) {
  const ParamInfo& info = k.params().at(i);
  if (p.size() < info.offset + sizeof(T)) p.resize(info.offset + sizeof(T));
  std::memcpy(p.data() + info.offset, &v, sizeof(T));
}

void run(benchmark::State& state, const Kernel& k, const LaunchSpec& launch, Arrays& mem) {
  NullSink sink;
  std::uint64_t instructions = 0;
  for (auto _ : state) {
    for (std::uint32_t b = 0; b < launch.grid.x; ++b)
      instructions += k.execute_cta(launch, {b, 0, 0}, mem, sink, {}).warp_instructions;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(instructions));
}

void BM_Saxpy(benchmark::State& state) {
  Kernel k(load("saxpy.clang.ptx"), "_Z5saxpyifPKfPf");
  const int n = 1 << 16;
  Arrays mem;
  LaunchSpec launch;
  launch.grid = {n / 256, 1, 1};
  launch.block = {256, 1, 1};
  put(launch.params, k, 0, n);
  put(launch.params, k, 1, 2.0f);
  put(launch.params, k, 2, mem.add(n * 4));
  put(launch.params, k, 3, mem.add(n * 4));
  run(state, k, launch, mem);
}
BENCHMARK(BM_Saxpy)->Unit(benchmark::kMillisecond);

void BM_SgemmSharedTiles(benchmark::State& state) {
  Kernel k(load("sgemm.clang.ptx"), "_Z5sgemmPKfS0_Pfi");
  const int n = 128;
  Arrays mem;
  LaunchSpec launch;
  launch.grid = {(n / 16) * (n / 16), 1, 1};
  launch.block = {256, 1, 1};
  put(launch.params, k, 0, mem.add(n * n * 4));
  put(launch.params, k, 1, mem.add(n * n * 4));
  put(launch.params, k, 2, mem.add(n * n * 4));
  put(launch.params, k, 3, n);
  run(state, k, launch, mem);
}
BENCHMARK(BM_SgemmSharedTiles)->Unit(benchmark::kMillisecond);

void BM_Reduction(benchmark::State& state) {
  Kernel k(load("reduce.clang.ptx"), "_Z6reducePKfPf");
  Arrays mem;
  LaunchSpec launch;
  launch.grid = {256, 1, 1};
  launch.block = {256, 1, 1};
  put(launch.params, k, 0, mem.add(256 * 256 * 4));
  put(launch.params, k, 1, mem.add(256 * 4));
  run(state, k, launch, mem);
}
BENCHMARK(BM_Reduction)->Unit(benchmark::kMillisecond);

void BM_MixedKernel(benchmark::State& state) {
  Kernel k(load("mix.clang.ptx"), "_Z3mixPKfPfPjPdii");
  const int n = 1 << 14;
  Arrays mem;
  LaunchSpec launch;
  launch.grid = {n / 256, 1, 1};
  launch.block = {256, 1, 1};
  put(launch.params, k, 0, mem.add(n * 4));
  put(launch.params, k, 1, mem.add(n * 4));
  put(launch.params, k, 2, mem.add(18 * 4));
  put(launch.params, k, 3, mem.add(n * 8));
  put(launch.params, k, 4, n);
  put(launch.params, k, 5, 3);
  run(state, k, launch, mem);
}
BENCHMARK(BM_MixedKernel)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
