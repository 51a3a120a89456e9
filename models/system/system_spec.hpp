// Everything needed to build a system, as plain values: derived from the configuration's parameters
// (system/derive_spec.hpp) or filled directly by tests. Plain C++ (no SystemC), like every *_spec.hpp.
// Each fact is stated once: what several components share is in
// `facts`, what follows from other values (the policies' parameters, a bank's index bits, the crossbar's
// ports) is derived when the system is built (system/derived_params.hpp), never stored here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rtl_loop/rtl_waves.hpp"

#include "cache/cache_spec.hpp"
#include "common/machine_facts.hpp"
#include "fabric/crossbar_spec.hpp"
#include "fabric/link_spec.hpp"
#include "fabric/topology.hpp"
#include "mem/dram_spec.hpp"
#include "runtime/cta_schedule.hpp"
#include "runtime/placement.hpp"
#include "sm/sm_spec.hpp"
#include "workload/kernel.hpp"

namespace numagpu {

// A plug point (system/external_ports.hpp, docs/tlm-edges.md), from the configuration's `external` list or
// filled in code before the System is built.
struct ExternalPortSpec {
  enum class Kind { kDramTarget, kXbarInitiator, kSwitchInitiator };
  Kind kind = Kind::kXbarInitiator;
  unsigned index = 0;  // the socket (kDramTarget, kXbarInitiator) or the switch (kSwitchInitiator)
  std::string name;    // what the host looks the port up by
  std::string key;     // the configuration key it came from, for errors ("external.0"); empty: from code
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
  using LinkMode = numagpu::LinkMode;
  LinkMode link_mode = LinkMode::kStatic;
  BalancerSpec balancer;       // dynamic mode
  bool rtl_policies = false;   // the Verilated RTL decides instead of the C++ reference
  RtlWaveWindow rtl_waves;     // rtl.waves: the Verilated blocks' waveforms
  bool l2_numa_aware = false;  // the partition controller drives the L2 way split
  PartitionSpec partition;
  runtime::PlacementPolicy placement = runtime::PlacementPolicy::kPageInterleave;
  std::uint64_t page_bytes = 4096;
  std::uint64_t migration_cycles = 0;            // first touch: reported, not charged
  std::vector<runtime::Allocation> allocations;  // named data structures (LADM's placements need them)
  bool functional_memory = false;                // memory.functional: the memory holds data
  unsigned address_bits = 48;                    // memory.address_bits
  std::vector<ExternalPortSpec> external;        // plug points the host binds
  runtime::CtaScheduleParams cta{runtime::CtaPolicy::kInterleave};
  unsigned chiplets_per_gpu = 1;  // sockets = GPUs x chiplets (hierarchical scheduling)
  Cycles launch_cycles = 0;
  Cycles kernel_overhead_cycles = 0;               // runtime.kernel_overhead_cycles
  L2Coherence coherence = L2Coherence::kSoftware;  // GPU-side L2 at a kernel boundary (l2.coherence)
  bool protocol_checks = false;
  bool step_idle_windows = false;   // debug: no closed-form skip of quiet policy windows
  std::uint64_t max_windows = 256;  // statistics windows kept before the window doubles (0: no limit)
  Cycles watchdog_cycles = 1000000;
  Cycles max_cycles = 0;               // 0: run to completion
  std::uint64_t max_launches = 0;      // per application; 0: each application's own bound
  std::uint64_t max_record_bytes = 0;  // checks.max_record_bytes (kernels::RecordBounds::limit; 0: none)
  bool copy_engines = false;           // a CopyEngine on every socket's crossbar (numagpu bench-fabric)
  std::string workload_name = "default";
  std::vector<KernelSpec> kernels;
};

// N sockets on one switch, each through one link with the given spec (the paper's system).
Topology switch_topology(unsigned sockets, const LinkSpec& link);

}  // namespace numagpu
