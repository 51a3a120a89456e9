#include "cli/bench_sm_suite.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace numagpu {

namespace {

// Chain lengths of the latency benchmarks: the difference (1024 steps) is what is timed.
constexpr unsigned kShortChain = 64, kLongChain = 1088;
// Throughput: 2 CTAs of 1024 threads on every SM (64 warps: full occupancy on a GV100), 4 independent chains
// a thread, 16 and 80 steps (the difference, 64 steps x 4 chains x 64 warps, is what is timed).
constexpr unsigned kFullThreads = 1024, kCtasPerSm = 2, kChains = 4, kShortRun = 16, kLongRun = 80;

std::string arg(const char* name, std::uint64_t v) {
  return std::string(name) + "=" + std::to_string(v) + " ";
}

// The latency of one step of a chain: the difference of the two lengths' cycles over the steps between them.
std::function<double(const std::vector<double>&)> per_step(double steps, double ops_per_step = 1) {
  return [steps, ops_per_step](const std::vector<double>& c) { return (c[1] - c[0]) / steps / ops_per_step; };
}

struct OpSpec {
  const char* id;     // the benchmark ids' stem
  unsigned op;        // ubench/ops' op argument
  unsigned per_step;  // operations a step is (two conversions for a round trip)
  const char* what;
  bool latency = true;  // false: two independent chains a step (the mix), no latency to speak of
};

// ubench/ops' operations (models/kernels/ubench/ops.cpp).
const OpSpec kOps[] = {
    {"ffma", 0, 1, "FFMA (fp32)"},
    {"fadd", 1, 1, "FADD (fp32)"},
    {"fmul", 2, 1, "FMUL (fp32)"},
    {"imad", 3, 1, "IMAD (int)"},
    {"iadd3", 4, 1, "IADD3 (int)"},
    {"lop3", 5, 1, "LOP3 (int)"},
    {"shf", 6, 1, "shift (int)"},
    {"mufu", 7, 1, "MUFU (sfu: sin, ex2, rcp, rsq alike in the model)"},
    {"dfma", 8, 1, "DFMA (fp64)"},
    {"hmma", 9, 1, "HMMA step (tensor)"},
    {"i2f_f2i", 10, 2, "I2F and F2I conversions (sfu), per conversion"},
    {"f2f", 11, 2, "F2F float-double conversions (fp64, two passes), per conversion"},
    {"shfl", 12, 1, "SHFL (int in the model: no shuffle unit)"},
    {"idiv", 13, 1, "32-bit integer division by a run-time value (nvcc's sequence)"},
    {"fdiv", 14, 1, "fp32 division (nvcc's IEEE sequence)"},
    {"ddiv", 15, 1, "fp64 division (nvcc's sequence)"},
    {"ffma_iadd3", 16, 2, "FFMA and IADD3 interleaved (two pipes: the issue width), per instruction", false},
    {"ffma_bank_conflict", 17, 1,
     "FFMA with its three sources in one register bank (Jia et al.'s FFMA R6, R97, R99, RX, RX odd)", false},
};

}  // namespace

BenchSuite volta_suite(const SuiteFacts& f, bool scheduler_key_known) {
  BenchSuite s;
  auto add = [&s](Benchmark b) { s.benchmarks.push_back(std::move(b)); };
  // A benchmark that is the ratio of two already added (their launches, run once each): `over` / `under`.
  auto ratio = [&s, &add](const std::string& id, const std::string& group, const std::string& what,
                          const std::string& over, const std::string& under) {
    auto find = [&s](const std::string& name) {
      for (const Benchmark& b : s.benchmarks)
        if (b.id == name) return b;
      throw std::logic_error("bench-sm suite: no benchmark " + name);
    };
    const Benchmark a = find(over), b = find(under);
    std::vector<BenchLaunch> launches = a.launches;
    launches.insert(launches.end(), b.launches.begin(), b.launches.end());
    const std::size_t split = a.launches.size();
    add({id, group, "ratio", what, launches,
         [split, va = a.value, vb = b.value](const std::vector<double>& c) {
           return va({c.begin(), c.begin() + std::ptrdiff_t(split)}) /
                  vb({c.begin() + std::ptrdiff_t(split), c.end()});
         },
         ""});
  };
  const unsigned full_ctas = kCtasPerSm * f.sms;
  const double full_warps = double(full_ctas) * (kFullThreads / 32);

  // ---- compute: latency by one warp, throughput at full occupancy ----
  for (const OpSpec& o : kOps) {
    const std::string op = arg("op", o.op);
    if (o.latency)
      add({std::string(o.id) + "_latency",
           "compute",
           "cycles",
           std::string(o.what) + ": dependent chain by one warp, cycles per operation",
           {{"ubench/ops", op + arg("length", kShortChain)}, {"ubench/ops", op + arg("length", kLongChain)}},
           per_step(kLongChain - kShortChain, o.per_step),
           ""});
    const std::string full =
        op + arg("chains", kChains) + arg("threads", kFullThreads) + arg("ctas", full_ctas);
    const double ops = full_warps * kChains * (kLongRun - kShortRun) * o.per_step;
    const double sms = f.sms;
    add({std::string(o.id) + "_throughput",
         "compute",
         "warp inst/clk/SM",
         std::string(o.what) +
             ": 4 independent chains a thread, 64 warps an SM, warp instructions a cycle per SM",
         {{"ubench/ops", full + arg("length", kShortRun)}, {"ubench/ops", full + arg("length", kLongRun)}},
         [ops, sms](const std::vector<double>& c) { return ops / (c[1] - c[0]) / sms; },
         ""});
  }

  ratio("ffma_bank_conflict_slowdown", "compute",
        "FFMA throughput with its sources in two register banks over that with all three in one (the "
        "register-bank conflict)",
        "ffma_throughput", "ffma_bank_conflict_throughput");

  // ---- shared memory: latency and bandwidth by bank-conflict degree ----
  for (unsigned ways = 1; ways <= 32; ways *= 2) {
    const std::string w = arg("ways", ways);
    add({"shared_latency_" + std::to_string(ways) + "way",
         "shared",
         "cycles",
         "shared load chased by one warp, " + std::to_string(ways) + "-way bank conflict: cycles per load",
         {{"ubench/shared", w + arg("length", kShortChain)},
          {"ubench/shared", w + arg("length", kLongChain)}},
         per_step(kLongChain - kShortChain),
         ""});
    const std::string full = w + arg("threads", kFullThreads) + arg("ctas", full_ctas);
    const double bytes = full_warps * 128.0 * (kLongRun - kShortRun);  // 32 lanes x 4 B a warp load
    const double sms = f.sms;
    add({"shared_bandwidth_" + std::to_string(ways) + "way",
         "shared",
         "B/clk/SM",
         "shared loads at full occupancy, " + std::to_string(ways) +
             "-way bank conflict: bytes delivered a cycle per SM",
         {{"ubench/shared", full + arg("length", kShortRun)},
          {"ubench/shared", full + arg("length", kLongRun)}},
         [bytes, sms](const std::vector<double>& c) { return bytes / (c[1] - c[0]) / sms; },
         ""});
  }

  // Wide loads (LDS.64, LDS.128) and broadcasts, conflict free: bytes delivered to the lanes a cycle.
  struct WideLoad {
    const char* id;
    unsigned width;  // bytes a lane
    bool broadcast;
    const char* what;
  };
  const WideLoad kWide[] = {
      {"shared_lds64_bandwidth", 8, false, "LDS.64, lane l on bytes 8 l .. 8 l + 7 (conflict free)"},
      {"shared_lds128_bandwidth", 16, false, "LDS.128, lane l on bytes 16 l .. 16 l + 15 (conflict free)"},
      {"shared_lds32_broadcast_bandwidth", 4, true, "LDS, every lane on one word"},
      {"shared_lds64_broadcast_bandwidth", 8, true, "LDS.64, every lane on the same 8 bytes"},
      {"shared_lds128_broadcast_bandwidth", 16, true, "LDS.128, every lane on the same 16 bytes"},
  };
  for (const WideLoad& l : kWide) {
    const std::string full = arg("width", l.width) + arg("broadcast", l.broadcast ? 1 : 0) +
                             arg("threads", kFullThreads) + arg("ctas", full_ctas);
    const double bytes = full_warps * 32.0 * l.width * (kLongRun - kShortRun);  // 32 lanes x width a load
    const double sms = f.sms;
    add({l.id,
         "shared",
         "B/clk/SM",
         std::string(l.what) + " at full occupancy: bytes delivered to the lanes a cycle per SM",
         {{"ubench/shared", full + arg("length", kShortRun)},
          {"ubench/shared", full + arg("length", kLongRun)}},
         [bytes, sms](const std::vector<double>& c) { return bytes / (c[1] - c[0]) / sms; },
         ""});
  }

  ratio("shared_conflict32_slowdown", "shared",
        "shared-memory bandwidth without a conflict over that with a 32-way conflict (the serialization)",
        "shared_bandwidth_1way", "shared_bandwidth_32way");

  // ---- global memory latency: pointer chase over growing footprints (warm), and cold ----
  const unsigned kShortChase = 64, kLongChase = 576;
  auto chase = [&](const std::string& id, const std::string& group, std::uint64_t kib, bool warm,
                   const std::string& what, bool texture = false) {
    const std::string a = arg("footprint_kib", kib) + arg("stride", 128) + arg("warm", warm ? 1 : 0) +
                          (texture ? arg("texture", 1) : std::string());
    add({id,
         group,
         "cycles",
         what,
         {{"ubench/pchase", a + arg("steps", kShortChase)}, {"ubench/pchase", a + arg("steps", kLongChase)}},
         per_step(kLongChase - kShortChase),
         ""});
  };
  chase("l1_hit_latency", "l1", 16, true, "pointer chase, 16 KiB footprint warmed: L1 hits, cycles per load");
  chase("l2_hit_latency", "l2", 1024, true,
        "pointer chase, 1 MiB footprint warmed (past the L1, within the L2): cycles per load");
  chase("dram_latency", "dram", 4096, false, "pointer chase, cold lines (L1 and L2 miss): cycles per load");
  for (const std::uint64_t kib : {8, 32, 64, 96, 128, 256, 2048, 4096, 8192, 16384}) {
    chase("chase_" + std::to_string(kib) + "kib", "plateau", kib, true,
          "pointer chase over " + std::to_string(kib) + " KiB, warmed, 128 B stride: cycles per load");
  }
  add({"dram_latency_tlb_miss",
       "dram",
       "cycles",
       "first access missing the L2 and the TLB",
       {},
       nullptr,
       "not modelled: numagpu has no TLB"});

  // ---- bandwidths ----
  {
    // L1: every CTA reads its own 32 KiB (within the L1) again and again; passes 2 and 34, the first pass the
    // same in both (its misses cancel). 32 hit passes (about 16,000 cycles) and not 2: with dram.refresh a
    // refresh may hold one run's cold pass up to its 260 ns (about 420 cycles) and not the other's, since
    // the kernels of a bench-sm run start at different points of the refresh schedule.
    const std::uint64_t kib = 32;
    const std::string a =
        arg("footprint_kib", kib) + arg("threads", kFullThreads) + arg("ctas", full_ctas) + arg("per_cta", 1);
    const double bytes = double(full_ctas) * kib * 1024 * 32, sms = f.sms;
    add({"l1_bandwidth",
         "l1",
         "B/clk/SM",
         "coalesced loads at full occupancy, 32 KiB per CTA in the L1",
         {{"ubench/stream", a + arg("passes", 2)}, {"ubench/stream", a + arg("passes", 34)}},
         [bytes, sms](const std::vector<double>& c) { return bytes / (c[1] - c[0]) / sms; },
         ""});
  }
  {
    // L2: 2 CTAs an SM (full occupancy) each read 256 KiB (twice the L1: in a cyclic walk every line misses
    // the L1) held in the L2; passes 2 and 3.
    const std::uint64_t kib = 256;
    const std::string a =
        arg("footprint_kib", kib) + arg("threads", kFullThreads) + arg("ctas", full_ctas) + arg("per_cta", 1);
    const double bytes = double(full_ctas) * kib * 1024;
    add({"l2_bandwidth",
         "l2",
         "B/clk",
         "coalesced loads at full occupancy, every CTA walking 256 KiB held in the L2 (whole GPU)",
         {{"ubench/stream", a + arg("passes", 2)}, {"ubench/stream", a + arg("passes", 3)}},
         [bytes](const std::vector<double>& c) { return bytes / (c[1] - c[0]); },
         ""});
  }
  {
    // DRAM: the grid streams 24 MiB (4 x the L2: a second pass finds none of it there) once and twice.
    const std::uint64_t kib = 24 * 1024;
    const std::string a =
        arg("footprint_kib", kib) + arg("threads", kFullThreads) + arg("ctas", full_ctas) + arg("per_cta", 0);
    const double bytes = double(kib) * 1024, mhz = f.clock_mhz, peak = f.dram_gbps * f.sockets;
    add({"dram_bandwidth",
         "dram",
         "GB/s",
         "coalesced loads by a full grid streaming 24 MiB",
         {{"ubench/stream", a + arg("passes", 1)}, {"ubench/stream", a + arg("passes", 2)}},
         [bytes, mhz](const std::vector<double>& c) { return bytes / (c[1] - c[0]) * mhz / 1000.0; },
         ""});
    add({"dram_bandwidth_fraction",
         "dram",
         "% of peak",
         "the same stream as a share of dram.bandwidth_gbps",
         {{"ubench/stream", a + arg("passes", 1)}, {"ubench/stream", a + arg("passes", 2)}},
         [bytes, mhz, peak](const std::vector<double>& c) {
           return 100.0 * bytes / (c[1] - c[0]) * mhz / 1000.0 / peak;
         },
         ""});
  }

  // ---- constant cache ----
  for (const unsigned distinct : {1u, 32u}) {
    const std::string d = arg("distinct", distinct), name = distinct == 1 ? "broadcast" : "divergent32";
    add({"constant_latency_" + name,
         "constant",
         "cycles",
         "__constant__ read chased by one warp, " + std::to_string(distinct) +
             " distinct address(es): cycles per read",
         {{"ubench/constant", d + arg("length", kShortChain)},
          {"ubench/constant", d + arg("length", kLongChain)}},
         per_step(kLongChain - kShortChain),
         ""});
    const std::string full = d + arg("threads", kFullThreads) + arg("ctas", full_ctas);
    const double reads = full_warps * (kLongRun - kShortRun), sms = f.sms;
    add({"constant_throughput_" + name,
         "constant",
         "warp reads/clk/SM",
         "__constant__ reads at full occupancy, " + std::to_string(distinct) + " distinct address(es) a warp",
         {{"ubench/constant", full + arg("length", kShortRun)},
          {"ubench/constant", full + arg("length", kLongRun)}},
         [reads, sms](const std::vector<double>& c) { return reads / (c[1] - c[0]) / sms; },
         ""});
  }
  ratio("constant_divergent32_slowdown", "constant",
        "__constant__ throughput with one address a warp over that with 32 distinct (the serialization)",
        "constant_throughput_broadcast", "constant_throughput_divergent32");
  add({"constant_miss_latency",
       "constant",
       "cycles",
       "a __constant__ read missing the constant caches",
       {},
       nullptr,
       "not modelled: constant reads always hit (no constant-cache contents or misses)"});

  // ---- atomics ----
  for (const bool distinct : {false, true}) {
    const std::string a =
        arg("distinct", distinct ? 1 : 0) + arg("threads", kFullThreads) + arg("ctas", f.sms);
    const double ops = double(f.sms) * kFullThreads * (12 - 4);
    add({std::string("atomic_global_") + (distinct ? "distinct" : "same"),
         "atomics",
         "atomics/clk",
         std::string("global atomicAdd by every thread, ") +
             (distinct ? "each on its own address" : "all on one address") + ": thread atomics a cycle (GPU)",
         {{"ubench/atomic", a + arg("length", 4)}, {"ubench/atomic", a + arg("length", 12)}},
         [ops](const std::vector<double>& c) { return ops / (c[1] - c[0]); },
         ""});
  }
  add({"atomic_shared",
       "atomics",
       "atomics/clk",
       "shared-memory atomics",
       {},
       nullptr,
       "not modelled: the kernels have no shared-memory atomics"});

  // ---- barrier, launch ----
  add({"barrier_latency",
       "barrier",
       "cycles",
       "__syncthreads() back to back by one CTA of 1024 threads",
       {{"ubench/barrier", arg("count", kShortChain) + arg("threads", 1024)},
        {"ubench/barrier", arg("count", kLongChain) + arg("threads", 1024)}},
       per_step(kLongChain - kShortChain),
       ""});
  add({"launch_overhead",
       "launch",
       "cycles",
       "an empty kernel of one CTA: its elapsed cycles",
       {{"ubench/empty", arg("ctas", 1)}},
       [](const std::vector<double>& c) { return c[0]; },
       ""});
  // The texture path: the same chases through tex1Dfetch (Arafa et al.'s texture benchmarks): a hit of the
  // unified L1 / texture cache, and a cold line.
  chase(
      "texture_latency", "texture", 16, true,
      "pointer chase through texture fetches, 16 KiB footprint warmed: texture-cache hits, cycles per fetch",
      true);
  chase("texture_miss_latency", "texture", 4096, false,
        "pointer chase through texture fetches, cold lines (texture cache and L2 miss): cycles per fetch",
        true);

  // ---- warp scheduler: a latency-bound benchmark under the two policies ----
  {
    // Rogers et al. (MICRO 2012) and Narasiman et al. (MICRO 2011): loose round-robin brings warps to their
    // long-latency loads together, greedy-then-oldest staggers them. One CTA of 8 warps (two a processing
    // block on a GV100), each alternating an L2-hit load (a 256 KiB walk, past the L1) with 32 FFMAs that use
    // it; 512 and 768 iterations (the first 256 warm the L2 and cancel). The value: cycles per iteration
    // under loose round-robin over those under greedy-then-oldest.
    const std::string a = arg("work", 32) + arg("threads", 256) + arg("ctas", 1) + arg("footprint_kib", 256);
    Benchmark b{"scheduler_lrr_over_gto",
                "scheduler",
                "ratio",
                "8 warps alternating an L2-hit load and 32 FFMAs: cycles under loose round-robin over "
                "greedy-then-oldest",
                {},
                [](const std::vector<double>& c) { return (c[3] - c[2]) / (c[1] - c[0]); },
                ""};
    if (scheduler_key_known) {
      s.variants.push_back({kGreedyThenOldest, {std::string(kSchedulerKey) + "=" + kGreedyThenOldest}});
      s.variants.push_back({kLooseRoundRobin, {std::string(kSchedulerKey) + "=" + kLooseRoundRobin}});
      b.launches = {{"ubench/interleave", a + arg("iterations", 512), kGreedyThenOldest},
                    {"ubench/interleave", a + arg("iterations", 768), kGreedyThenOldest},
                    {"ubench/interleave", a + arg("iterations", 512), kLooseRoundRobin},
                    {"ubench/interleave", a + arg("iterations", 768), kLooseRoundRobin}};
    } else {
      b.value = nullptr;
      b.not_run = std::string("pending: the configuration has no ") + kSchedulerKey;
    }
    add(std::move(b));
  }
  return s;
}

}  // namespace numagpu
