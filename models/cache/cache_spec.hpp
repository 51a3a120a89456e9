// The caches' parameters, in two forms. CacheParams and L2Params are the `l1` and `l2` sections of the
// configuration as the user writes them (capacity per socket, an organization by name), each key declared
// once beside its field with its default and documentation (config/keys.hpp). CacheSpec is what one Cache
// module is built from (an L1, or one L2 bank: capacity per bank, way quotas); the system derives it from
// the parameters (system/derive_spec.hpp), so the model's rules live there and not here. Plain C++.
#pragma once

#include <cstdint>

#include "cache/replacement.hpp"
#include "common/cycles.hpp"
#include "policy/partition_controller.hpp"

namespace numagpu {

struct CacheSpec {
  std::uint64_t size_bytes = 0;
  unsigned ways = 0;
  ReplacementKind replacement = ReplacementKind::kLru;  // which line of a full set to evict
  Cycles hit_latency = 1;
  unsigned sectors = 1;          // sectors per line (1: unsectored; sector_bytes = line / sectors)
  unsigned max_in_process = 64;  // requests accepted and not yet answered, per input binding
  bool write_back = false;       // false: write-through, no write-allocate
  bool caches_atomics = false;   // true at the L2, where atomics are performed
  // GPU-side L2 (organizations static and shared): data homed at other sockets is cached here too; misses
  // for it, and write-backs of it, leave on output 1 (to the crossbar and the fabric) instead of output 0.
  bool gpu_side = false;
  unsigned local_quota = ~0u;          // ways per set local lines may hold (~0: no partitioning)
  unsigned remote_quota = ~0u;         // ways per set remote lines may hold
  bool insert_remote_requests = true;  // false (remote_insert: once): other sockets' requests do not allocate
  bool hashed_sets = false;            // set_index: xor (TagArray's hashed set index)
};

// The keys both cache levels have. The defaults given to the constructor are each level's own.
struct CacheParams {
  std::uint64_t size_bytes;
  unsigned line_bytes = 128;
  unsigned sector_bytes = 128;  // at least line_bytes: unsectored
  unsigned ways;
  ReplacementKind replacement = ReplacementKind::kLru;
  Cycles hit_latency_cycles;
  unsigned max_in_process;

  CacheParams(std::uint64_t size, unsigned ways_, Cycles latency, unsigned in_process)
      : size_bytes(size), ways(ways_), hit_latency_cycles(latency), max_in_process(in_process) {}

  template <class Keys>
  void keys(Keys& k) {
    k.integer("size_bytes", size_bytes, "Capacity (for the L2: per socket, all banks together)")
        .range(256, std::int64_t(1) << 34)
        .unit("B");
    k.integer("line_bytes", line_bytes, "Line size; must be a power of two and equal at both levels")
        .range(32, 128)
        .unit("B");
    k.integer(
         "sector_bytes", sector_bytes,
         "Sector size: below line_bytes the cache is sectored (a valid bit per sector; a miss fetches, and "
         "DRAM and the wires move, only the missing sectors); at or above line_bytes (the default, as the "
         "paper's 128 B lines) unsectored. A power of two, at least 32")
        .range(32, 128)
        .unit("B");
    k.integer("ways", ways, "Associativity").range(1, 64);
    k.choice("replacement", replacement, {{"lru", ReplacementKind::kLru}, {"srrip", ReplacementKind::kSrrip}},
             "Victim in a full set: lru, or srrip (2-bit RRIP, Jaleel et al. ISCA 2010)");
    k.integer("hit_latency_cycles", hit_latency_cycles,
              "Tag access to data, for hits; misses leave after the same time")
        .range(1, 10000)
        .unit("cycles");
    k.integer("max_in_process", max_in_process,
              "Requests accepted and not yet answered, per cache (per bank for the L2)")
        .range(1, 4096);
  }
};

// The L2 partition controller's own settings (`l2.partition_sample_cycles`, `l2.saturation_percent`); its
// ways come from the L2, its response size from the packet format, its ingress capacity from the socket's
// links (system/derived_params.hpp). The defaults are the paper's, as the reference policy states them.
struct PartitionSpec {
  Cycles sample_cycles = policy::PartitionController::Params{}.sample_cycles;
  unsigned saturation_percent =
      policy::PartitionController::Params{}.sat_num * 100 / policy::PartitionController::Params{}.sat_den;
  bool l1 = true;  // the L1s follow the split too (scaled to their ways), as the paper's both levels
};

// How the L2s of the sockets share data (docs/memory-system.md).
enum class L2Organization { kMemside, kStatic, kShared, kNumaAware };

// What a GPU-side L2 does with its remote lines at a kernel boundary (l2.coherence, docs/memory-system.md).
enum class L2Coherence : std::uint8_t {
  kSoftware,  // write the dirty ones back to their homes, then invalidate them all (the paper's §5 protocol)
  kIdeal,     // write the dirty ones back, invalidate none: the paper's Figure 9 upper bound
  kNone,      // neither: dirty remote lines reach their homes only when evicted (not a coherent machine)
};

struct L2Params : CacheParams {
  unsigned banks = 16;
  bool write_back = true;
  L2Organization organization = L2Organization::kMemside;
  unsigned static_remote_ways = 0;     // static: remote ways per set; 0: half (the paper's 50-50)
  bool insert_remote_requests = true;  // remote_insert: twice
  bool hashed_sets = false;            // set_index: linear
  PartitionSpec partition;
  L2Coherence coherence = L2Coherence::kSoftware;

  L2Params() : CacheParams(4194304, 16, 30, 64) {}

  template <class Keys>
  void keys(Keys& k) {
    CacheParams::keys(k);
    k.integer("banks", banks,
              "L2 banks per socket (a power of two; a line's bank is its line number mod banks)")
        .range(1, 256);
    k.choice("write_policy", write_back, {{"write_back", true}, {"write_through", false}}, "L2 write policy");
    k.choice(
        "organization", organization,
        {{"memside", L2Organization::kMemside},
         {"static", L2Organization::kStatic},
         {"shared", L2Organization::kShared},
         {"numa_aware", L2Organization::kNumaAware}},
        "memside: caches only data homed at its socket, remote requests are served by the home's L2 (the "
        "baseline); static: GPU-side, a fixed split of the ways between local and remote data (half each "
        "unless l2.static_remote_ways); shared: "
        "GPU-side, local and remote lines compete for all ways; numa_aware: GPU-side, the partition "
        "controller moves the split between local and remote ways");
    k.integer("static_remote_ways", static_remote_ways,
              "static: ways of each set for remote data, the rest for local data (1 to ways - 1); 0: half, "
              "the paper's 50-50 split (remote data takes the odd way of an odd count)")
        .range(0, 64);
    k.choice("remote_insert", insert_remote_requests, {{"twice", true}, {"once", false}},
             "GPU-side L2s: twice: a remote read is cached at the home L2 and at the requester's; once: "
             "requests from other sockets do not allocate in the home L2 (LADM)");
    k.choice("set_index", hashed_sets, {{"linear", false}, {"xor", true}},
             "How a bank picks a line's set: linear, its tag line (the line without the bank bits) mod the "
             "sets; xor, the XOR of the tag line's set-sized bit fields, so that lines alike in the bits a "
             "page placement fixes (every line one socket is home to under page interleaving) still fill "
             "every set (docs/memory-system.md, Not yet)");
    k.integer("partition_sample_cycles", partition.sample_cycles,
              "numa_aware: the partition controller decides once per window")
        .range(1, 100000000)
        .unit("cycles");
    k.integer("saturation_percent", partition.saturation_percent,
              "numa_aware: DRAM or estimated link ingress busy at least this share of a window is saturated")
        .range(1, 100)
        .unit("%");
    k.boolean("partition_l1", partition.l1,
              "numa_aware: the L1s follow the partition controller's split too, scaled to their ways (the "
              "paper adapts both levels); false: the L1s keep every way for either class. Must be false "
              "with sm.shared_carveouts");
    k.choice(
        "coherence", coherence,
        {{"software", L2Coherence::kSoftware}, {"ideal", L2Coherence::kIdeal}, {"none", L2Coherence::kNone}},
        "GPU-side L2s at each kernel boundary: software: write the dirty remote lines back to their homes "
        "and invalidate every remote line (the paper's software coherence, §5); ideal: the paper's "
        "Figure 9 upper bound, invalidations ignored and write-backs kept (the dirty remote lines are "
        "written back and stay, clean); none: neither (dirty remote data reaches its home only when "
        "evicted: a bound beyond the paper's, not a coherent machine)");
  }
};

}  // namespace numagpu
