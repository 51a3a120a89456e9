// The whole configuration as plain values, section by section, as the user writes it: each key declared once
// beside the field it fills, with its default (the field's initialiser), bounds, unit and documentation
// (config/keys.hpp). The components' sections live beside the components (sm/sm_spec.hpp,
// cache/cache_spec.hpp, fabric/*_spec.hpp, mem/dram_spec.hpp, workload/kernel.hpp); the sections that
// belong to the machine as a whole are here. The system derives what it is built from (SystemSpec) from
// these values (system/derive_spec.hpp). Plain C++: no SystemC, no YAML, no JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cache/cache_spec.hpp"
#include "common/cycles.hpp"
#include "fabric/crossbar_spec.hpp"
#include "fabric/link_spec.hpp"
#include "fabric/topology_params.hpp"
#include "mem/dram_spec.hpp"
#include "sm/sm_spec.hpp"
#include "workload/kernel.hpp"

namespace numagpu {

struct MemoryParams {
  std::string placement = "first_touch";  // runtime::parse_placement_policy names
  Cycles migration_cycles = 0;
  std::uint64_t page_bytes = 4096;
  bool functional = false;
  unsigned address_bits = 48;
  bool ipoly_interleave = false;

  template <class Keys>
  void keys(Keys& k) {
    k.choice("placement", placement,
             {{"page_interleave", "page_interleave"},
              {"line_interleave", "line_interleave"},
              {"first_touch", "first_touch"},
              {"kernel_wide", "kernel_wide"},
              {"stride_aware", "stride_aware"},
              {"row_based", "row_based"},
              {"col_based", "col_based"},
              {"lasp", "lasp"}},
             "Home socket of an address (docs/runtime-policies.md): round-robin pages or lines; the socket "
             "that touches a page first (the paper's locality-optimized baseline); LADM's placements of "
             "each workload allocation; or lasp: each allocation placed by LADM's Table II from the index "
             "terms of the first kernel that states it (kernel_wide until then, and for arrays no kernel "
             "states)");
    k.integer("migration_cycles", migration_cycles,
              "first_touch: the request that touches a page first waits this long (fault and migration)")
        .range(0, 100000000)
        .unit("cycles");
    k.integer("page_bytes", page_bytes, "Page size for page placement (a power of two)")
        .range(128, std::int64_t(1) << 30)
        .unit("B");
    k.boolean("functional", functional,
              "Memory holds data (a sparse store over the address space): host payloads read and write it "
              "through the model's timed path and transport_dbg (docs/tlm-edges.md); false: no data is kept");
    k.integer("address_bits", address_bits,
              "Width of the machine's addresses: a host payload at or beyond 2^bits gets "
              "TLM_ADDRESS_ERROR_RESPONSE (docs/tlm-edges.md)")
        .range(12, 64)
        .unit("bits");
    k.choice(
        "interleave", ipoly_interleave, {{"plain", false}, {"ipoly", true}},
        "How a line picks its L2 bank and DRAM channel (docs/memory-system.md, Interleaving): plain, its "
        "line number mod l2.banks and mod dram.channels; ipoly, the same of its line number's remainder "
        "modulo a primitive polynomial over GF(2) of degree log2 of the larger count (Rau, ISCA 1991; "
        "both counts powers of two), which spreads every power-of-two stride over all banks and channels");
  }
};

// Where a host's component attaches (docs/tlm-edges.md).
enum class ExternalAttach { kDram, kXbar, kSwitch };

// A run-time clock change (system.clock_steps): from cycle `cycle` on, the clock is `mhz`.
struct ClockStepParams {
  Cycles cycle = 0;
  std::uint64_t mhz = 1000;

  template <class Keys>
  void keys(Keys& k) {
    k.integer("cycle", cycle, "The cycle (of the clock before it) from which the clock changes")
        .range(1, std::uint64_t(1) << 50)
        .unit("cycles")
        .required();
    k.integer("mhz", mhz, "The clock from that cycle on").range(1, 10000).unit("MHz").required();
  }
};

// A plug point the host binds: the host's target in place of a socket's DRAM, or the host's initiator at a
// socket's crossbar or a switch port.
struct ExternalPortParams {
  ExternalAttach attach = ExternalAttach::kXbar;
  unsigned socket = 0;
  unsigned switch_index = 0;
  std::string name;

  template <class Keys>
  void keys(Keys& k) {
    k.choice(
         "attach", attach,
         {{"dram", ExternalAttach::kDram},
          {"xbar", ExternalAttach::kXbar},
          {"switch", ExternalAttach::kSwitch}},
         "dram: the host's target replaces the socket's DRAM (the L2 banks' misses and write-backs go to "
         "it); xbar: the host's initiator sends requests into the socket's crossbar, as an SM does; switch: "
         "the host's initiator sends requests into a switch port, routed to each address's home")
        .required();
    k.integer("socket", socket, "dram, xbar: the socket").range(0, 63);
    k.integer("switch", switch_index, "switch: the switch (topology order)").range(0, 63);
    k.string("name", name,
             "The port's name, which the host looks it up by (System::external_initiator / external_target); "
             "empty: socket<N>_dram, socket<N>_host<i> or switch<K>_host<i> (i: the entry's index)");
  }
};

struct RuntimeParams {
  std::string cta_schedule = "contiguous";  // runtime::parse_cta_policy names
  std::uint32_t batch_ctas = 4;
  unsigned chiplets_per_gpu = 1;
  std::string hierarchy_unit = "ctas";  // runtime::parse_hierarchy_unit names
  std::uint32_t chiplet_batch = 1;
  Cycles launch_cycles = 0;
  Cycles kernel_overhead_cycles = 0;
  bool crb = false;

  template <class Keys>
  void keys(Keys& k) {
    k.choice("cta_schedule", cta_schedule,
             {{"interleave", "interleave"},
              {"contiguous", "contiguous"},
              {"batch", "batch"},
              {"row_binding", "row_binding"},
              {"col_binding", "col_binding"},
              {"hierarchical", "hierarchical"},
              {"lasp", "lasp"},
              {"hcoda", "hcoda"}},
             "Which socket runs each CTA (docs/runtime-policies.md): CTA i on socket i mod N; N contiguous "
             "blocks (the paper's locality-optimized baseline); batches round-robin; LADM's row or column "
             "binding; a block per GPU, round-robin over its chiplets; lasp: per kernel, LADM's Algorithm 1 "
             "on the arrays' index terms the kernel states (the largest array's scheduler); hcoda: per "
             "kernel, H-CODA's page-aligned batches (LADM's baseline; pair with page_interleave)");
    k.integer("batch_ctas", batch_ctas, "batch: CTAs per batch").range(1, 1 << 20);
    k.integer("chiplets_per_gpu", chiplets_per_gpu,
              "Sockets that form one GPU (hierarchical scheduling); must divide system.sockets")
        .range(1, 64);
    k.choice("hierarchy_unit", hierarchy_unit, {{"ctas", "ctas"}, {"rows", "rows"}, {"cols", "cols"}},
             "hierarchical: what a GPU's contiguous block is made of (a grid with fewer rows or columns "
             "than GPUs is cut by CTAs)");
    k.integer("chiplet_batch", chiplet_batch, "hierarchical: consecutive CTAs a chiplet takes in its turn")
        .range(1, 1 << 20);
    k.boolean(
        "crb", crb,
        "LADM's compiler-assisted remote request bypassing: per kernel, the L2s insert remote requests "
        "once (RONCE) when the kernel's largest stated array has intra-thread locality, twice otherwise "
        "(RTWICE), in place of l2.remote_insert");
    k.integer("launch_cycles", launch_cycles,
              "Idle cycles between a kernel's end and the next kernel's start")
        .range(0, 100000000)
        .unit("cycles");
    k.integer("kernel_overhead_cycles", kernel_overhead_cycles,
              "Cycles of each kernel, inside its elapsed time, before its first CTA reaches an SM: the GPU's "
              "own start and end of a grid, which a profiler's elapsed cycles include (docs/correlation.md)")
        .range(0, 1000000)
        .unit("cycles");
  }
};

// Fault injection, for testing the checks themselves.
enum class InjectedFault { kNone, kDropResponse, kStuckDram, kSharedRequestNetwork };

// A named data structure of the workload (LADM's placements place each one).
struct AllocationParams {
  std::string name;
  std::uint64_t base_address = 0;
  std::uint64_t bytes = 0;
  std::uint32_t element_bytes = 4;
  std::uint64_t rows = 0, cols = 0, depth = 1;
  std::uint64_t stride_bytes = 0;
  std::string placement;  // empty: memory.placement

  template <class Keys>
  void keys(Keys& k) {
    k.string("name", name, "Allocation name (reports)").required();
    k.integer("base_address", base_address, "First byte")
        .range(0, std::int64_t(1) << 48)
        .unit("B")
        .required();
    k.integer("bytes", bytes, "Size").range(1, std::int64_t(1) << 40).unit("B").required();
    k.integer("element_bytes", element_bytes, "Element size").range(1, 1 << 16).unit("B");
    k.integer("rows", rows, "2-D/3-D shape: rows (row_based, col_based); 0: none")
        .range(0, std::int64_t(1) << 40);
    k.integer("cols", cols, "2-D/3-D shape: columns").range(0, std::int64_t(1) << 40);
    k.integer("depth", depth, "3-D shape: planes of rows x cols").range(1, std::int64_t(1) << 40);
    k.integer("stride_bytes", stride_bytes, "stride_aware: the access stride")
        .range(0, std::int64_t(1) << 40)
        .unit("B");
    k.string("placement", placement, "This allocation's placement policy; empty: memory.placement");
  }
};

struct WorkloadParams {
  std::string name = "unnamed";
  std::uint64_t scale = 1;
  std::string trace_list;
  std::vector<AllocationParams> allocations;
  std::vector<KernelSpec> kernels;

  template <class Keys>
  void keys(Keys& k) {
    k.string(
        "name", name,
        "Workload name, shown in the summary (a trace replay without one is named after its kernel list)");
    k.integer("scale", scale, "Multiplies the CTAs of every synthetic kernel (numagpu run --scale N)")
        .range(1, 1 << 16);
    k.string(
        "trace_list", trace_list,
        "An Accel-Sim kernelslist.g: when set, its kernels (traces) replace workload.kernels; a relative "
        "path is taken from the file that sets it");
    k.list("allocations", allocations, "Named data structures (LADM's placements place each one)");
    k.list("kernels", kernels, "Kernels, launched one after another").items(1, 4096);
  }
};

struct SystemParams {
  // system
  unsigned sockets = 4;
  std::uint64_t clock_mhz = 1000;
  std::vector<ClockStepParams> clock_steps;
  // sm
  unsigned sms_per_socket = 64;
  SmSpec sm;
  // memory system
  CacheParams l1{131072, 4, 28, 128};
  L2Params l2;
  CrossbarSpec crossbar;
  DramParams dram;
  MemoryParams memory;
  // fabric
  LinkParams link;
  SwitchSpec sw;
  TopologyParams topology;
  bool rtl_policies = false;  // policy.impl
  bool rtl_waves = false;     // rtl.waves
  Cycles rtl_waves_start = 0;
  Cycles rtl_waves_cycles = 10000;
  // runtime, statistics, checks
  RuntimeParams runtime;
  Cycles stats_sample_cycles = 5000;
  std::uint64_t max_windows = 256;
  bool protocol_checks = false;
  Cycles watchdog_cycles = 1000000;
  Cycles max_cycles = 0;
  std::uint64_t max_launches = 0;
  std::uint64_t max_record_bytes = std::uint64_t(8) << 30;
  InjectedFault inject_fault = InjectedFault::kNone;
  bool step_idle_windows = false;
  std::vector<ExternalPortParams> external;
  WorkloadParams workload;

  // The sections in the order of the configuration reference (docs/configuration.md).
  template <class Keys>
  void keys(Keys& k) {
    Keys& sys = k.section("system", "The machine as a whole");
    sys.integer("sockets", sockets,
                "GPU sockets (or chiplets): 1-8 on the paper's switch, up to 64 in a custom topology")
        .range(1, 64);
    sys.integer("clock_mhz", clock_mhz,
                "GPU clock, of period 1/f to the nearest picosecond; *_cycles parameters count its cycles")
        .range(1, 10000)
        .unit("MHz");
    sys.list("clock_steps", clock_steps,
             "Clock changes during the run, in cycle order: power and the policy blocks follow each "
             "(docs/power.md, \"A clock that changes\")")
        .items(0, 4096);

    Keys& s = k.section("sm", "Streaming multiprocessors");
    s.integer("per_socket", sms_per_socket, "SMs in each socket").range(1, 512);
    sm.keys(s);

    l1.keys(k.section("l1", "Private L1 per SM: write-through, no write-allocate"));
    l2.keys(
        k.section("l2", "Shared L2 per socket, banked, memory-side (caches only data homed at its socket)"));
    crossbar.keys(
        k.section("crossbar", "Intra-socket crossbar between the SMs' L1s, the L2 banks and the link"));
    dram.keys(k.section("dram", "DRAM of each socket"));
    memory.keys(k.section("memory", "Address space and page placement"));
    link.keys(k.section("link", "Each socket's link to the switch"));
    sw.keys(k.section("switch", "The switch between sockets"));

    topology.keys(k.section("topology", "The fabric between sockets (docs/fabric.md)"));
    Keys& p = k.section("policy", "The hardware policy blocks (docs/policies.md)");
    p.choice("impl", rtl_policies, {{"model", false}, {"rtl", true}},
             "model: the C++ reference policies decide; rtl: the Verilated RTL of rtl/ does, cycle by cycle, "
             "with the same inputs (only at the RTL's compiled parameters: 16 lanes, 5000-cycle windows, "
             "100-cycle switch, 99 %)");

    Keys& r = k.section("rtl", "Waveforms of the Verilated policy blocks (policy.impl: rtl; docs/power.md)");
    r.boolean("waves", rtl_waves,
              "Dump every signal of each Verilated policy block for the cycle window below into the run's "
              "directory, rtl_<block>.vcd (needs policy.impl: rtl); the switching activity for gate-level "
              "power (docs/power.md)");
    r.integer("waves_start", rtl_waves_start, "First cycle of the waveform window")
        .range(0, std::int64_t(1) << 50)
        .unit("cycles");
    r.integer("waves_cycles", rtl_waves_cycles,
              "Cycles in the waveform window (each block's VCD grows with it: roughly 1-2 MB per 10000 "
              "busy cycles)")
        .range(1, 100000000)
        .unit("cycles");

    runtime.keys(k.section("runtime", "Kernel launch"));

    Keys& st = k.section("stats", "Statistics");
    st.integer("sample_cycles", stats_sample_cycles,
               "Window of the per-window time series (utilization); 0 disables them")
        .range(0, 100000000)
        .unit("cycles");
    st.integer("max_windows", max_windows,
               "At most this many windows per time series and activity record: when full, the window doubles "
               "and pairs of windows merge (even; 0 = no limit)")
        .range(0, std::int64_t(1) << 30);

    Keys& c = k.section("checks", "Run-time checking");
    c.boolean("protocol", protocol_checks,
              "Insert a TLM-2.0 base-protocol checker on every binding (slower)");
    c.integer("watchdog_cycles", watchdog_cycles,
              "Stop with a queue dump when nothing completes for this long; 0 disables")
        .range(0, std::int64_t(1) << 40)
        .unit("cycles");
    c.integer("max_cycles", max_cycles, "Stop the simulation at this cycle; 0 runs to completion")
        .range(0, std::int64_t(1) << 50)
        .unit("cycles");
    c.integer("max_launches", max_launches,
              "Stop an application whose host program asks for more kernel launches than this (a loop that "
              "does not converge): the run ends there, its statistics marked incomplete (stop_reason "
              "max_launches), exit status 1; 0: each application's own bound from its input (bfs and sssp "
              "2 (n + 1) for n vertices, mst from log2 n; the others' launches are fixed by their arguments)")
        .range(0, std::int64_t(1) << 50)
        .unit("launches");
    c.integer("max_record_bytes", max_record_bytes,
              "Host memory the recorded steps of the library kernels' and applications' CTAs resident at "
              "once may take (a CTA's body is recorded whole before its warps run; binomialOptions' GV100 "
              "study input on 80 SMs takes 0.9 GB): a run that needs more stops with one error line at the "
              "kernel's arguments, exit 2, nothing written; 0: no limit")
        .range(0, std::int64_t(1) << 50)
        .unit("B");

    Keys& d = k.section("debug", "Fault injection, for testing the checks themselves");
    d.choice("inject_fault", inject_fault,
             {{"none", InjectedFault::kNone},
              {"drop_response", InjectedFault::kDropResponse},
              {"stuck_dram", InjectedFault::kStuckDram},
              {"shared_request_network", InjectedFault::kSharedRequestNetwork}},
             "drop_response: DRAM swallows one response (the audit must catch it); stuck_dram: DRAM never "
             "serves (the watchdog must fire); shared_request_network: requests from the fabric share the L2 "
             "banks' queues and slots with the socket's own (a GPU-side L2 can deadlock)");
    d.boolean("step_idle_windows", step_idle_windows,
              "Step the link balancers and partition controllers through every idle cycle instead of "
              "skipping whole quiet windows in closed form (docs/performance.md): the same results, slower; "
              "for checking the skip");

    k.list("external", external,
           "Plug points for a host platform's own components (docs/tlm-edges.md): each entry is a port the "
           "host must bind before elaboration ends; the numagpu program binds none, so it refuses them");

    workload.keys(k.section("workload", "What to run"));
  }
};

}  // namespace numagpu
