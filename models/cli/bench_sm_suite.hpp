// The Volta microbenchmark suite of `numagpu bench-sm` (docs/microbenchmarks.md): each benchmark is a few
// launches of the ubench/* library kernels and the arithmetic that turns their elapsed cycles into the
// quantity the published measurements give (a latency in cycles, a throughput per SM a cycle, a bandwidth).
// Latencies are the difference of two dependent chains of different lengths run by one warp, so the launch
// and the end of the kernel cancel; throughputs the difference of two lengths at full occupancy.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace numagpu {

// What the suite needs to know of the system it measures.
struct SuiteFacts {
  unsigned sms = 80;          // SMs in the whole system (system.sockets x sm.per_socket)
  unsigned clock_mhz = 1600;  // system.clock_mhz
  double dram_gbps = 870;     // dram.bandwidth_gbps, per socket
  unsigned sockets = 1;
};

// One launch of a library kernel, in the run of configuration `variant` ("" the configuration as given;
// otherwise one of the suite's variants, BenchSuite::variants).
struct BenchLaunch {
  BenchLaunch(std::string k, std::string a, std::string v = "")
      : kernel(std::move(k)), args(std::move(a)), variant(std::move(v)) {}
  std::string kernel, args;
  std::string variant;
};

struct Benchmark {
  std::string id;     // unique, [a-z0-9_]+
  std::string group;  // compute, shared, l1, l2, dram, constant, atomics, barrier, launch, scheduler, texture
  std::string unit;
  std::string what;  // one line: what is measured, how
  std::vector<BenchLaunch> launches;
  // The measurement from the launches' elapsed cycles (same order as `launches`).
  std::function<double(const std::vector<double>& cycles)> value;
  // Not empty: the model cannot run it (not modelled, or a key it needs is missing); why, in a few words.
  std::string not_run;
};

struct BenchVariant {
  std::string name;
  std::vector<std::string> sets;  // KEY=VALUE applied over the configuration
};

struct BenchSuite {
  std::vector<Benchmark> benchmarks;
  std::vector<BenchVariant> variants;
};

// The warp scheduler's configuration key and its two policies for the scheduler benchmark (sm.scheduler, the
// "sm" engineer's key of issue 46). Where the configuration has no such key (a model before it), that
// benchmark is listed as pending (bench-sm checks the key against the configuration).
inline constexpr const char* kSchedulerKey = "sm.scheduler";
inline constexpr const char* kGreedyThenOldest = "gto";
inline constexpr const char* kLooseRoundRobin = "lrr";

// The suite for a system of these facts. `scheduler_key_known`: whether the configuration has kSchedulerKey.
BenchSuite volta_suite(const SuiteFacts& facts, bool scheduler_key_known);

}  // namespace numagpu
