// Everything needed to build a system, as plain values: filled from the validated configuration
// (system_config.cpp) or directly by tests. Each fact is stated once: what several components share is in
// `facts`, what follows from other values (the policies' parameters, a bank's index bits, the crossbar's
// ports) is derived when the system is built (system/derived_params.hpp), never stored here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cache/cache.hpp"
#include "common/machine_facts.hpp"
#include "fabric/crossbar.hpp"
#include "fabric/link.hpp"
#include "fabric/switch.hpp"
#include "fabric/topology.hpp"
#include "mem/dram.hpp"
#include "mem/home_map.hpp"
#include "runtime/cta_schedule.hpp"
#include "sm/sm.hpp"
#include "workload/kernel.hpp"

namespace numagpu {

// The link balancer's own settings (`link.sample_cycles`, `switch_cycles`, `saturation_percent`); its lane
// count comes from each link.
struct BalancerSpec {
  Cycles sample_cycles = 5000;
  Cycles switch_cycles = 100;
  unsigned saturation_percent = 99;
};

// The cache partition controller's own settings; its ways come from the L2, its response size from the
// packet format, its ingress capacity from the socket's links.
struct PartitionSpec {
  Cycles sample_cycles = 5000;
  unsigned saturation_percent = 99;
};

struct SystemSpec {
  unsigned sockets = 4;
  std::uint64_t clock_mhz = 1000;
  unsigned sms_per_socket = 64;
  unsigned l2_banks = 16;
  MachineFacts facts;  // line size, packet header, statistics window: given to every component
  SmSpec sm;
  CacheSpec l1;
  CacheSpec l2;  // per bank: size_bytes is the bank's share
  CrossbarSpec crossbar;
  DramSpec dram;
  LinkSpec link;  // the defaults of switch-topology links
  SwitchSpec sw;
  // The fabric. Empty (no links) means the paper's switch topology is built from `link` and `sw` by
  // switch_topology(); a single socket has no fabric.
  Topology topology;
  enum class LinkMode { kStatic, kDynamic, kDoubleBandwidth } link_mode = LinkMode::kStatic;
  BalancerSpec balancer;       // dynamic mode
  bool rtl_policies = false;   // the Verilated RTL decides instead of the C++ reference
  bool l2_numa_aware = false;  // the partition controller drives the L2 way split
  PartitionSpec partition;
  runtime::PlacementPolicy placement = runtime::PlacementPolicy::kPageInterleave;
  std::uint64_t page_bytes = 4096;
  std::uint64_t migration_cycles = 0;            // first touch: reported, not charged
  std::vector<runtime::Allocation> allocations;  // named data structures (LADM's placements need them)
  runtime::CtaScheduleParams cta{runtime::CtaPolicy::kInterleave};
  unsigned chiplets_per_gpu = 1;  // sockets = GPUs x chiplets (hierarchical scheduling)
  Cycles launch_cycles = 0;
  bool ideal_coherence = false;  // GPU-side L2: skip the kernel-boundary write-back and invalidation
  bool protocol_checks = false;
  bool step_idle_windows = false;   // debug: no closed-form skip of quiet policy windows
  std::uint64_t max_windows = 256;  // statistics windows kept before the window doubles (0: no limit)
  Cycles watchdog_cycles = 1000000;
  Cycles max_cycles = 0;      // 0: run to completion
  bool copy_engines = false;  // a CopyEngine on every socket's crossbar (numagpu bench-fabric)
  std::string workload_name = "default";
  std::vector<KernelSpec> kernels;
};

// N sockets on one switch, each through one link with the given spec (the paper's system).
Topology switch_topology(unsigned sockets, const LinkSpec& link);

}  // namespace numagpu
