#include "app/system_config.hpp"

#include <filesystem>
#include <string>

#include "app/resource_limits.hpp"
#include "power/energy_config.hpp"
#include "runtime/cta_schedule.hpp"
#include "runtime/placement.hpp"
#include "system/derived_params.hpp"
#ifdef NUMAGPU_HAVE_RTL_LOOP
#include "rtl_loop/rtl_builds.hpp"
#endif
#include "trace/accelsim_reader.hpp"

namespace numagpu {

namespace {

using config::Schema;

bool power_of_two(std::int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}
void add_system(Schema& root) {
  Schema& s = root.section("system", "The machine as a whole");
  s.integer("sockets", "GPU sockets (or chiplets): 1-8 on the paper's switch, up to 64 in a custom topology")
      .range(1, 64)
      .default_value(4);
  s.integer("clock_mhz", "GPU clock; every *_cycles parameter counts cycles of this clock")
      .range(1, 10000)
      .unit("MHz")
      .default_value(1000);
}

void add_sm(Schema& root) {
  Schema& s = root.section("sm", "Streaming multiprocessors");
  s.integer("per_socket", "SMs in each socket").range(1, 512).default_value(64);
  s.integer("max_warps", "Resident warps per SM (CTA slots = max_warps / warps_per_cta)")
      .range(1, 256)
      .default_value(64);
  s.integer("issue_width", "Warp instructions an SM issues per cycle (greedy-then-oldest, different warps)")
      .range(1, 8)
      .default_value(1);
  s.integer("max_outstanding", "Memory requests an SM may have in flight before issue stalls")
      .range(1, 4096)
      .default_value(128);
}

void add_cache(Schema& root, const char* key, const char* doc, std::int64_t size, std::int64_t ways,
               std::int64_t latency, std::int64_t in_process) {
  Schema& c = root.section(key, doc);
  c.integer("size_bytes", "Capacity (for the L2: per socket, all banks together)")
      .range(256, std::int64_t(1) << 34)
      .unit("B")
      .default_value(size);
  c.integer("line_bytes", "Line size; must be a power of two and equal at both levels")
      .range(32, 128)
      .unit("B")
      .default_value(128);
  c.integer("ways", "Associativity").range(1, 64).default_value(ways);
  c.choice("replacement", {"lru", "srrip"},
           "Victim in a full set: lru, or srrip (2-bit RRIP, Jaleel et al. ISCA 2010)")
      .default_value("lru");
  c.integer("hit_latency_cycles", "Tag access to data, for hits; misses leave after the same time")
      .range(1, 10000)
      .unit("cycles")
      .default_value(latency);
  c.integer("max_in_process", "Requests accepted and not yet answered, per cache (per bank for the L2)")
      .range(1, 4096)
      .default_value(in_process);
}

void add_memory_system(Schema& root) {
  add_cache(root, "l1", "Private L1 per SM: write-through, no write-allocate", 131072, 4, 28, 128);
  add_cache(root, "l2", "Shared L2 per socket, banked, memory-side (caches only data homed at its socket)",
            4194304, 16, 30, 64);
  Schema& l2 = root.section("l2", "");
  l2.integer("banks", "L2 banks per socket (a power of two; a line's bank is its line number mod banks)")
      .range(1, 256)
      .default_value(16);
  l2.choice("write_policy", {"write_back", "write_through"}, "L2 write policy").default_value("write_back");
  l2.choice("organization", {"memside", "static", "shared", "numa_aware"},
            "memside: caches only data homed at its socket, remote requests are served by the home's L2 (the "
            "baseline); static: GPU-side, half the ways for local data and half for remote data; shared: "
            "GPU-side, local and remote lines compete for all ways; numa_aware: GPU-side, the partition "
            "controller moves the split between local and remote ways")
      .default_value("memside");
  l2.choice(
        "remote_insert", {"twice", "once"},
        "GPU-side L2s: twice: a remote read is cached at the home L2 and at the requester's; once: requests "
        "from other sockets do not allocate in the home L2 (LADM)")
      .default_value("twice");
  l2.integer("partition_sample_cycles", "numa_aware: the partition controller decides once per window")
      .range(1, 100000000)
      .unit("cycles")
      .default_value(5000);
  l2.integer("saturation_percent",
             "numa_aware: DRAM or estimated link ingress busy at least this share of a "
             "window is saturated")
      .range(1, 100)
      .unit("%")
      .default_value(99);
  l2.boolean(
        "ideal_coherence",
        "GPU-side L2s: skip the kernel-boundary write-back and invalidation of remote lines (the paper's "
        "upper bound)")
      .default_value(false);

  Schema& x =
      root.section("crossbar", "Intra-socket crossbar between the SMs' L1s, the L2 banks and the link");
  x.integer("latency_cycles", "Traversal latency, each way").range(0, 10000).unit("cycles").default_value(10);
  x.integer("port_bytes_per_cycle", "Bandwidth of each port, each way")
      .range(1, 4096)
      .unit("B/cycle")
      .default_value(64);
  x.integer("queue_depth", "Requests waiting per output port before inputs are back-pressured")
      .range(1, 4096)
      .default_value(16);

  Schema& d = root.section("dram", "DRAM of each socket");
  d.integer("bandwidth_gbps", "Peak bandwidth of the socket's DRAM")
      .range(1, 100000)
      .unit("GB/s")
      .default_value(768);
  d.integer("latency_ns", "Access latency after the transfer").range(0, 100000).unit("ns").default_value(100);
  d.integer("channels", "Channels; a line's channel is its line number mod channels")
      .range(1, 256)
      .default_value(8);
  d.integer("queue_depth", "Backlog per channel, in line transfers, before inputs are back-pressured")
      .range(1, 4096)
      .default_value(32);

  Schema& p = root.section("memory", "Address space and page placement");
  p.choice(
       "placement",
       {"page_interleave", "line_interleave", "first_touch", "kernel_wide", "stride_aware", "row_based",
        "col_based"},
       "Home socket of an address (docs/runtime-policies.md): round-robin pages or lines; the socket that "
       "touches a page first (the paper's locality-optimized baseline); or LADM's placements of each "
       "workload "
       "allocation")
      .default_value("first_touch");
  p.integer("migration_cycles",
            "first_touch: the request that touches a page first waits this long (fault and migration)")
      .range(0, 100000000)
      .unit("cycles")
      .default_value(0);
  p.integer("page_bytes", "Page size for page placement (a power of two)")
      .range(128, std::int64_t(1) << 30)
      .unit("B")
      .default_value(4096);
}

void add_fabric(Schema& root) {
  Schema& l = root.section("link", "Each socket's link to the switch");
  l.integer("lanes", "Bi-directional lanes; half serve each direction (an even number, at least 2)")
      .range(2, 256)
      .default_value(16);
  l.integer("lane_bytes", "Bytes a lane moves per cycle").range(1, 1024).unit("B/cycle").default_value(8);
  l.integer(
       "latency_cycles",
       "Socket-to-socket latency through the switch, excluding serialization: half on each of the two links")
      .range(0, 100000)
      .unit("cycles")
      .default_value(128);
  l.integer("header_bytes",
            "Packet header; read requests and write acks are a header, data packets add a line")
      .range(1, 1024)
      .unit("B")
      .default_value(16);
  l.choice("mode", {"static", "dynamic", "double_bandwidth"},
           "static: half the lanes each way; dynamic: the link balancer turns lanes toward a saturated "
           "direction; double_bandwidth: static with twice the lanes (the paper's upper bound)")
      .default_value("static");
  l.integer("switch_cycles", "Cycles a drained lane needs to turn around (dynamic mode)")
      .range(1, 1000000)
      .unit("cycles")
      .default_value(100);
  l.integer("sample_cycles", "Link balancer window: it decides once per window (dynamic mode)")
      .range(1, 100000000)
      .unit("cycles")
      .default_value(5000);
  l.integer("saturation_percent", "A direction busy at least this share of a window is saturated")
      .range(1, 100)
      .unit("%")
      .default_value(99);
  l.integer("queue_depth", "Packets waiting per direction before senders are back-pressured")
      .range(1, 4096)
      .default_value(64);

  Schema& s = root.section("switch", "The switch between sockets");
  s.integer("latency_cycles", "Extra latency through the switch")
      .range(0, 100000)
      .unit("cycles")
      .default_value(0);
  s.integer("queue_depth", "Requests waiting per output before links are back-pressured")
      .range(1, 4096)
      .default_value(64);
}

void add_policy(Schema& root) {
  Schema& p = root.section("policy", "The hardware policy blocks (docs/policies.md)");
  p.choice("impl", {"model", "rtl"},
           "model: the C++ reference policies decide; rtl: the Verilated RTL of rtl/ does, cycle by cycle, "
           "with the same inputs (only at the RTL's compiled parameters: 16 lanes, 5000-cycle windows, "
           "100-cycle switch, 99 %)")
      .default_value("model");
}

void add_topology(Schema& root) {
  Schema& t = root.section("topology", "The fabric between sockets (docs/fabric.md)");
  t.choice("preset", {"switch", "custom"},
           "switch: every socket on one switch through a link built from the `link` section (the paper's "
           "system); custom: the nodes and links listed here")
      .default_value("switch");
  t.string("name", "Name shown in reports").default_value("switch");
  t.integer("switches", "custom: switch (or CPU root) nodes, named switch0, switch1, ...")
      .range(0, 64)
      .default_value(0);
  t.choice("tie_break", {"lowest", "highest"},
           "Among equally short routes, leave through the neighbour with the lowest or highest node number "
           "(GPUs are numbered before switches)")
      .default_value("lowest");
  Schema& l = t.list("links", "custom: the links, in order (the order fixes port numbers)").element();
  l.string("a", "One end: gpuN or switchN").required();
  l.string("b", "The other end").required();
  l.integer("count", "Parallel links between a and b; their lanes add up").range(1, 64).default_value(1);
  l.integer("lanes", "Bi-directional lanes per link (half each way at launch)")
      .range(2, 256)
      .default_value(16);
  l.real("gbps",
         "Bandwidth per link and direction at the symmetric split, exact (not rounded to bytes/cycle)")
      .range(0.001, 100000.0)
      .unit("GB/s")
      .required();
  l.integer("latency_cycles", "Latency of one traversal of this link")
      .range(0, 100000)
      .unit("cycles")
      .default_value(64);
  Schema& r = t.list("routes", "custom: route overrides, by destination").element();
  r.string("from", "GPU where the route starts").required();
  r.string("to", "Destination GPU").required();
  r.string("via", "Neighbour of `from` to go through (an intermediate GPU or a switch)").required();
}

void add_run(Schema& root) {
  Schema& r = root.section("runtime", "Kernel launch");
  r.choice("cta_schedule",
           {"interleave", "contiguous", "batch", "row_binding", "col_binding", "hierarchical"},
           "Which socket runs each CTA (docs/runtime-policies.md): CTA i on socket i mod N; N contiguous "
           "blocks (the paper's locality-optimized baseline); batches round-robin; LADM's row or column "
           "binding; a block per GPU, round-robin over its chiplets")
      .default_value("contiguous");
  r.integer("batch_ctas", "batch: CTAs per batch").range(1, 1 << 20).default_value(4);
  r.integer("chiplets_per_gpu",
            "Sockets that form one GPU (hierarchical scheduling); must divide system.sockets")
      .range(1, 64)
      .default_value(1);
  r.choice("hierarchy_unit", {"ctas", "rows", "cols"},
           "hierarchical: what a GPU's contiguous block is made of")
      .default_value("ctas");
  r.integer("chiplet_batch", "hierarchical: consecutive CTAs a chiplet takes in its turn")
      .range(1, 1 << 20)
      .default_value(1);
  r.integer("launch_cycles", "Idle cycles between a kernel's end and the next kernel's start")
      .range(0, 100000000)
      .unit("cycles")
      .default_value(0);

  Schema& st = root.section("stats", "Statistics");
  st.integer("sample_cycles", "Window of the per-window time series (utilization); 0 disables them")
      .range(0, 100000000)
      .unit("cycles")
      .default_value(5000);
  st.integer("max_windows",
             "At most this many windows per time series and activity record: when full, the window doubles "
             "and pairs of windows merge (even; 0 = no limit)")
      .range(0, std::int64_t(1) << 30)
      .default_value(256);

  Schema& c = root.section("checks", "Run-time checking");
  c.boolean("protocol", "Insert a TLM-2.0 base-protocol checker on every binding (slower)")
      .default_value(false);
  c.integer("watchdog_cycles", "Stop with a queue dump when nothing completes for this long; 0 disables")
      .range(0, std::int64_t(1) << 40)
      .unit("cycles")
      .default_value(1000000);
  c.integer("max_cycles", "Stop the simulation at this cycle; 0 runs to completion")
      .range(0, std::int64_t(1) << 50)
      .unit("cycles")
      .default_value(0);

  Schema& d = root.section("debug", "Fault injection, for testing the checks themselves");
  d.choice(
       "inject_fault", {"none", "drop_response", "stuck_dram", "shared_request_network"},
       "drop_response: DRAM swallows one response (the audit must catch it); "
       "stuck_dram: DRAM never serves (the watchdog must fire); shared_request_network: requests from the "
       "fabric share the L2 banks' queues and slots with the socket's own (a GPU-side L2 can deadlock)")
      .default_value("none");
  d.boolean(
       "step_idle_windows",
       "Step the link balancers and partition controllers through every idle cycle instead of skipping "
       "whole quiet windows in closed form (docs/performance.md): the same results, slower; for checking "
       "the skip")
      .default_value(false);
}

void add_workload(Schema& root) {
  Schema& w = root.section("workload", "What to run");
  w.string("name",
           "Workload name, shown in the summary (a trace replay without one is named after its kernel list)")
      .default_value("unnamed");
  w.integer("scale", "Multiplies the CTAs of every synthetic kernel (numagpu run --scale N)")
      .range(1, 1 << 16)
      .default_value(1);
  w.string(
       "trace_list",
       "An Accel-Sim kernelslist.g: when set, its kernels (traces) replace workload.kernels; a relative path "
       "is taken from the file that sets it")
      .default_value("");
  Schema& al = w.list("allocations", "Named data structures (LADM's placements place each one)").element();
  al.string("name", "Allocation name (reports)").required();
  al.integer("base_address", "First byte").range(0, std::int64_t(1) << 48).unit("B").required();
  al.integer("bytes", "Size").range(1, std::int64_t(1) << 40).unit("B").required();
  al.integer("element_bytes", "Element size").range(1, 1 << 16).unit("B").default_value(4);
  al.integer("rows", "2-D/3-D shape: rows (row_based, col_based); 0: none")
      .range(0, std::int64_t(1) << 40)
      .default_value(0);
  al.integer("cols", "2-D/3-D shape: columns").range(0, std::int64_t(1) << 40).default_value(0);
  al.integer("depth", "3-D shape: planes of rows x cols").range(1, std::int64_t(1) << 40).default_value(1);
  al.integer("stride_bytes", "stride_aware: the access stride")
      .range(0, std::int64_t(1) << 40)
      .unit("B")
      .default_value(0);
  al.string("placement", "This allocation's placement policy; empty: memory.placement").default_value("");
  Schema& k = w.list("kernels", "Kernels, launched one after another").items(1, 4096).element();
  k.string("name", "Kernel name").required();
  k.string(
       "trace",
       "Replay this kernel trace (Accel-Sim .traceg, optionally .gz/.xz, or numagpu .ngt) instead of a "
       "pattern; the grid and warps come from the trace. A relative path is taken from the file that sets it")
      .default_value("");
  k.choice("pattern",
           {"stream", "random", "strided", "stream_triad", "reduction_to_one", "histogram", "random_gather",
            "transpose", "stencil2d", "stencil3d", "gemm_tiled", "spmv_csr", "bfs_frontier"},
           "The access pattern of a synthetic kernel (docs/workloads.md lists each with its locality class)")
      .default_value("stream");
  k.integer("width_lines", "transpose, stencil2d/3d: lines per row of the grid")
      .range(1, std::int64_t(1) << 30)
      .default_value(32);
  k.integer("height_lines", "stencil3d: rows per plane").range(1, std::int64_t(1) << 30).default_value(32);
  k.integer("stride_x", "strided: lines between a warp's consecutive accesses")
      .range(0, std::int64_t(1) << 40)
      .default_value(1);
  k.integer("stride_y", "strided: lines between consecutive warps' first accesses; 0: accesses_per_warp")
      .range(0, std::int64_t(1) << 40)
      .default_value(0);
  k.integer("bins_bytes", "histogram: size of the bins")
      .range(128, std::int64_t(1) << 40)
      .unit("B")
      .default_value(4096);
  k.integer("output_bytes", "reduction_to_one: size of the output region")
      .range(128, std::int64_t(1) << 30)
      .unit("B")
      .default_value(4096);
  k.integer("ctas",
            "CTAs in the grid (patterns; required unless `trace` is set); CTA i runs on socket i mod sockets")
      .range(0, 1 << 24)
      .default_value(0);
  k.integer("warps_per_cta", "Warps per CTA").range(1, 64).default_value(4);
  k.integer("grid_x", "CTAs per grid row, for a 2-D grid (row/column binding); 0: one row")
      .range(0, 1 << 24)
      .default_value(0);
  k.integer("accesses_per_warp", "Memory instructions per warp").range(1, 1 << 20).default_value(8);
  k.integer("compute_cycles", "Compute cycles before each memory instruction")
      .range(0, 1 << 20)
      .unit("cycles")
      .default_value(4);
  k.integer("write_percent", "Share of memory instructions that are stores")
      .range(0, 100)
      .unit("%")
      .default_value(0);
  k.integer("atomic_percent", "Share of memory instructions that are atomics")
      .range(0, 100)
      .unit("%")
      .default_value(0);
  k.integer("footprint_bytes", "Bytes the kernel touches; 0: warps x accesses lines (stream's natural size)")
      .range(0, std::int64_t(1) << 40)
      .unit("B")
      .default_value(0);
  k.integer("base_address", "First byte of the kernel's data")
      .range(0, std::int64_t(1) << 48)
      .unit("B")
      .default_value(0);
  k.integer("seed", "Seed of the pattern's pseudo-random choices")
      .range(0, std::int64_t(1) << 62)
      .default_value(1);
}

Schema build_schema() {
  Schema root;
  add_system(root);
  add_sm(root);
  add_memory_system(root);
  add_fabric(root);
  add_topology(root);
  add_policy(root);
  add_run(root);
  add_workload(root);
  power::add_energy_schema(root);
  return root;
}

// Sets x ways x line must make the size, with a power-of-two set count (the index is the line's low bits).
std::uint64_t checked_sets(const config::Config& cfg, const std::string& cache, std::uint64_t size,
                           std::uint64_t ways, std::uint64_t line) {
  const std::uint64_t way_bytes = ways * line;
  if (size % way_bytes != 0 || !power_of_two(std::int64_t(size / way_bytes))) {
    cfg.fail(cache + ".size_bytes",
             std::to_string(size) + " is not sets x ways x line_bytes with a power-of-two " +
                 "number of sets (" + std::to_string(ways) + " ways x " + std::to_string(line) + " B lines)");
  }
  return size / way_bytes;
}

// A path written in a configuration file is relative to that file; one from --set or a built-in layer is
// relative to the working directory.
std::string relative_to_setter(const config::Config& cfg, const std::string& key) {
  const std::string value = cfg.string(key);
  const std::filesystem::path p(value);
  const config::Location where = cfg.location(key);
  if (p.is_absolute() || where.line == 0) return value;
  return (std::filesystem::path(where.file).parent_path() / p).lexically_normal().string();
}

// True when a user's file or --set gave the key, rather than the schema default or a built-in layer.
bool named_by_user(const config::Config& cfg, const std::string& key) {
  const config::Location where = cfg.location(key);
  return where.file != "<default>" && where.file.rfind("<built-in", 0) != 0;
}

// A trace replay is named after what it replays: the kernel list's file and its first kernels, so that a
// summary never shows the built-in workload's name for a run that did not use it.
std::string trace_workload_name(const std::string& list, const std::vector<KernelSpec>& kernels) {
  constexpr std::size_t kShown = 3;
  std::string name = std::filesystem::path(list).filename().string() + ":";
  for (std::size_t i = 0; i < kernels.size() && i < kShown; ++i)
    name += (i ? ", " : " ") + kernels[i].name;
  if (kernels.size() > kShown) name += " +" + std::to_string(kernels.size() - kShown) + " more";
  return name;
}

unsigned node_of(const config::Config& cfg, const Topology& t, const std::string& path) {
  const std::string name = cfg.string(path);
  const int id = t.node_id(name);
  if (id < 0) {
    cfg.fail(path, "unknown node '" + name + "' (nodes: gpu0..gpu" + std::to_string(t.gpus - 1) +
                       (t.switches ? ", switch0..switch" + std::to_string(t.switches - 1) : std::string()) +
                       ")");
  }
  return unsigned(id);
}

void build_topology(const config::Config& cfg, SystemSpec& s) {
  Topology& t = s.topology;
  t.name = cfg.string("topology.name");
  t.gpus = s.sockets;
  t.tie_break = cfg.string("topology.tie_break") == "highest" ? Topology::TieBreak::kHighest
                                                              : Topology::TieBreak::kLowest;
  const std::size_t n = cfg.list_size("topology.links");
  if (cfg.string("topology.preset") == "switch") {
    if (n) cfg.fail("topology.links", "links are listed, but topology.preset is 'switch' (use 'custom')");
    if (s.sockets > 8) {
      cfg.fail("system.sockets",
               std::to_string(s.sockets) +
                   " sockets on the paper's switch; it has 8 ports (use a custom topology)");
    }
    return;  // System builds the switch topology from `link`
  }
  if (n == 0) cfg.fail("topology.preset", "'custom' needs at least one entry in topology.links");
  t.switches = static_cast<unsigned>(cfg.integer("topology.switches"));
  for (std::size_t i = 0; i < n; ++i) {
    const std::string k = "topology.links." + std::to_string(i) + ".";
    TopologyLink tl;
    tl.a = node_of(cfg, t, k + "a");
    tl.b = node_of(cfg, t, k + "b");
    if (tl.a == tl.b) cfg.fail(k + "b", "a link cannot connect " + t.node_name(tl.a) + " to itself");
    const auto lanes = static_cast<unsigned>(cfg.integer(k + "lanes"));
    if (lanes % 2)
      cfg.fail(k + "lanes", std::to_string(lanes) + " is odd; a link starts with half its lanes each way");
    const auto count = static_cast<unsigned>(cfg.integer(k + "count"));
    LinkSpec ls = s.link;
    ls.lanes = lanes * count;
    // gbps per direction over lanes/2 lanes: bytes per cycle per lane = gbps * 1000 / clock_mhz / (lanes /
    // 2), kept as the exact fraction milli_gbps / (clock_mhz * lanes / 2).
    const double gbps = cfg.real(k + "gbps");
    ls.lane_rate_num = static_cast<std::uint64_t>(gbps * 1000.0 + 0.5);
    ls.lane_rate_den = s.clock_mhz * (lanes / 2);
    ls.latency = static_cast<Cycles>(cfg.integer(k + "latency_cycles"));
    if (s.link_mode == SystemSpec::LinkMode::kDoubleBandwidth) ls.lanes *= 2;
    tl.spec = ls;
    t.links.push_back(tl);
  }
  const std::size_t nr = cfg.list_size("topology.routes");
  for (std::size_t i = 0; i < nr; ++i) {
    const std::string k = "topology.routes." + std::to_string(i) + ".";
    RouteOverride o{node_of(cfg, t, k + "from"), node_of(cfg, t, k + "to"), node_of(cfg, t, k + "via")};
    if (o.from >= t.gpus) cfg.fail(k + "from", "routes start at a GPU");
    if (o.to >= t.gpus) cfg.fail(k + "to", "routes end at a GPU");
    t.overrides.push_back(o);
  }
  try {
    Topology check = t;
    check.compute_routes();
  } catch (const std::invalid_argument& e) {
    cfg.fail(nr ? "topology.routes" : "topology.links", e.what());
  }
}

// `policy.impl: rtl` runs the Verilated blocks, built for a list of parameter sets (models/rtl_loop/
// rtl_builds.hpp): every policy instance's derived parameters (system/derived_params.hpp, the ones the C++
// policies are built with) must be one of them. A mismatch names the configuration key behind the first
// parameter no build has, and lists the builds.
#ifdef NUMAGPU_HAVE_RTL_LOOP
// One parameter of a policy instance: the key it comes from, its value, whether some build has that value,
// and (for parameters the key only contributes to) what the key's value led to.
struct RtlField {
  std::string key;
  std::uint64_t value;
  bool built;
  std::string derived = "";
};

void require_rtl_build(const config::Config& cfg, const std::vector<RtlField>& fields, bool matched,
                       const std::string& block, const std::string& builds) {
  if (matched) return;
  const RtlField* blame = &fields.back();
  for (const RtlField& f : fields) {
    if (!f.built) {
      blame = &f;
      break;
    }
  }
  const std::string what = blame->derived.empty()
                               ? std::to_string(blame->value)
                               : "gives " + blame->derived + " " + std::to_string(blame->value) + ", which";
  cfg.fail(blame->key, what + " matches no RTL build of the " + block + " (built: " + builds +
                           "); policy.impl: rtl needs one of them");
}

template <class Params>
bool any_build(const std::vector<Params>& builds, std::uint32_t Params::*field, std::uint64_t value) {
  for (const Params& b : builds) {
    if (b.*field == value) return true;
  }
  return false;
}
#endif

void check_rtl_policies(const config::Config& cfg, const SystemSpec& s) {
  if (!s.rtl_policies) return;
#ifndef NUMAGPU_HAVE_RTL_LOOP
  cfg.fail("policy.impl", "rtl needs the Verilated models, and this numagpu was built without Verilator");
#else
  const Topology topology = system_topology(s);
  const bool custom = !s.topology.links.empty();
  if (s.l2_numa_aware) {
    using PC = policy::PartitionController::Params;
    const std::vector<PC> builds = rtl_partition_ctrl_builds();
    for (unsigned socket = 0; socket < s.sockets; ++socket) {
      if (topology.links_of(socket).empty()) continue;  // a single socket: no partition controller stepped
      const PC p = partition_params(s, topology, socket);
      // The response is header + line; the ingress is lanes / 2 x lane bytes: blame the factor that differs
      // from the paper's (the builds' own).
      const bool line_differs = s.facts.line_bytes != MachineFacts{}.line_bytes;
      const bool lanes_differ = s.link.lanes != policy::LinkBalancer::Params{}.lanes;
      const std::vector<RtlField> fields = {
          {"l2.ways", p.ways, any_build(builds, &PC::ways, p.ways)},
          {"l2.partition_sample_cycles", p.sample_cycles,
           any_build(builds, &PC::sample_cycles, p.sample_cycles)},
          {"l2.saturation_percent", p.sat_num, any_build(builds, &PC::sat_num, p.sat_num)},
          {line_differs ? "l1.line_bytes" : "link.header_bytes", p.resp_bytes,
           any_build(builds, &PC::resp_bytes, p.resp_bytes), "a read response of"},
          {custom         ? "topology.links"
           : lanes_differ ? "link.lanes"
                          : "link.lane_bytes",
           p.ingress_bytes_per_cycle,
           any_build(builds, &PC::ingress_bytes_per_cycle, p.ingress_bytes_per_cycle),
           "an ingress capacity (bytes per cycle) of"}};
      require_rtl_build(cfg, fields, make_rtl_partition_ctrl(p) != nullptr, "partition controller",
                        describe(builds));
    }
  }
  if (s.link_mode != SystemSpec::LinkMode::kDynamic) return;  // no balancer runs: nothing more to check
  using LB = policy::LinkBalancer::Params;
  const std::vector<LB> builds = rtl_balancer_builds();
  for (std::size_t l = 0; l < topology.links.size(); ++l) {
    const LB p = balancer_params(s, topology.links[l].spec);
    const std::vector<RtlField> fields = {
        {"link.sample_cycles", p.sample_cycles, any_build(builds, &LB::sample_cycles, p.sample_cycles)},
        {"link.switch_cycles", p.switch_cycles, any_build(builds, &LB::switch_cycles, p.switch_cycles)},
        {"link.saturation_percent", p.sat_num, any_build(builds, &LB::sat_num, p.sat_num)},
        {custom ? "topology.links." + std::to_string(l) : std::string("link.lanes"), p.lanes,
         any_build(builds, &LB::lanes, p.lanes)}};
    require_rtl_build(cfg, fields, make_rtl_balancer(p) != nullptr, "link balancer", describe(builds));
  }
#endif
}

}  // namespace

const config::Schema& system_schema() {
  static const Schema schema = build_schema();
  return schema;
}

namespace {

std::uint64_t uint_of(const config::Config& cfg, const std::string& path) {
  return static_cast<std::uint64_t>(cfg.integer(path));
}

void read_system(const config::Config& cfg, SystemSpec& s) {
  s.sockets = static_cast<unsigned>(uint_of(cfg, "system.sockets"));
  s.clock_mhz = uint_of(cfg, "system.clock_mhz");
  if (1000000 % s.clock_mhz != 0) {
    cfg.fail("system.clock_mhz",
             std::to_string(s.clock_mhz) + " MHz has no whole-picosecond period (use a divisor of 1000000)");
  }
  s.sms_per_socket = static_cast<unsigned>(uint_of(cfg, "sm.per_socket"));
  s.sm.max_warps = static_cast<unsigned>(uint_of(cfg, "sm.max_warps"));
  s.sm.max_outstanding = static_cast<unsigned>(uint_of(cfg, "sm.max_outstanding"));
  s.sm.issue_width = static_cast<unsigned>(uint_of(cfg, "sm.issue_width"));
}

// What every component shares: one line size (given at both cache levels, which must agree), the packet
// header, the statistics window.
void read_facts(const config::Config& cfg, SystemSpec& s) {
  const std::uint64_t line = uint_of(cfg, "l1.line_bytes");
  if (!power_of_two(std::int64_t(line)))
    cfg.fail("l1.line_bytes", std::to_string(line) + " is not a power of two");
  if (uint_of(cfg, "l2.line_bytes") != line) {
    cfg.fail("l2.line_bytes", std::to_string(uint_of(cfg, "l2.line_bytes")) +
                                  " differs from l1.line_bytes (" + std::to_string(line) +
                                  "); both levels must use one line size");
  }
  s.facts.line_bytes = static_cast<unsigned>(line);
  s.facts.header_bytes = static_cast<unsigned>(uint_of(cfg, "link.header_bytes"));
  s.facts.sample_cycles = uint_of(cfg, "stats.sample_cycles");
  s.max_windows = uint_of(cfg, "stats.max_windows");
  if (s.max_windows % 2 != 0) {
    cfg.fail("stats.max_windows",
             std::to_string(s.max_windows) +
                 " is odd; windows merge in pairs when the limit is reached (0 = no limit)");
  }
}

void read_caches(const config::Config& cfg, SystemSpec& s) {
  auto u = [&cfg](const std::string& path) { return uint_of(cfg, path); };
  const std::uint64_t line = s.facts.line_bytes;
  checked_sets(cfg, "l1", u("l1.size_bytes"), u("l1.ways"), line);
  s.l1.size_bytes = u("l1.size_bytes");
  s.l1.ways = static_cast<unsigned>(u("l1.ways"));
  s.l1.replacement = *replacement_kind(cfg.string("l1.replacement"));
  s.l1.hit_latency = u("l1.hit_latency_cycles");
  s.l1.max_in_process = static_cast<unsigned>(u("l1.max_in_process"));

  s.l2_banks = static_cast<unsigned>(u("l2.banks"));
  if (!power_of_two(s.l2_banks)) cfg.fail("l2.banks", std::to_string(s.l2_banks) + " is not a power of two");
  const std::uint64_t l2_size = u("l2.size_bytes");
  if (l2_size % s.l2_banks != 0) {
    cfg.fail("l2.size_bytes",
             std::to_string(l2_size) + " does not divide into " + std::to_string(s.l2_banks) + " banks");
  }
  checked_sets(cfg, "l2", l2_size / s.l2_banks, u("l2.ways"), line);
  s.l2.size_bytes = l2_size / s.l2_banks;  // per bank
  s.l2.ways = static_cast<unsigned>(u("l2.ways"));
  s.l2.replacement = *replacement_kind(cfg.string("l2.replacement"));
  s.l2.hit_latency = u("l2.hit_latency_cycles");
  s.l2.max_in_process = static_cast<unsigned>(u("l2.max_in_process"));
  s.l2.write_back = cfg.string("l2.write_policy") == "write_back";
  s.l2.caches_atomics = true;

  const std::string org = cfg.string("l2.organization");
  s.l2.gpu_side = org != "memside";
  if (org == "static") {
    s.l2.local_quota = s.l2.ways / 2;
    s.l2.remote_quota = s.l2.ways - s.l2.ways / 2;
    if (s.l2.ways < 2)
      cfg.fail("l2.ways", "the static organization splits the ways in two: it needs at least 2");
  }
  s.l2.insert_remote_requests = cfg.string("l2.remote_insert") == "twice";
  s.l2_numa_aware = org == "numa_aware";
  if (s.l2_numa_aware && s.l2.ways < 2)
    cfg.fail("l2.ways", "numa_aware needs at least 2 ways (one per class)");
  s.ideal_coherence = cfg.boolean("l2.ideal_coherence");
  s.partition.sample_cycles = u("l2.partition_sample_cycles");
  s.partition.saturation_percent = static_cast<unsigned>(u("l2.saturation_percent"));
}

void read_crossbar_and_dram(const config::Config& cfg, SystemSpec& s) {
  auto u = [&cfg](const std::string& path) { return uint_of(cfg, path); };
  s.crossbar.latency = u("crossbar.latency_cycles");
  s.crossbar.port_bytes_per_cycle = static_cast<unsigned>(u("crossbar.port_bytes_per_cycle"));
  s.crossbar.queue_depth = static_cast<unsigned>(u("crossbar.queue_depth"));

  // GB/s -> bytes per cycle as an exact fraction: gbps * 1000 / clock_mhz.
  s.dram.bandwidth_bytes_num = u("dram.bandwidth_gbps") * 1000;
  s.dram.bandwidth_den = s.clock_mhz;
  s.dram.channels = static_cast<unsigned>(u("dram.channels"));
  s.dram.latency = (u("dram.latency_ns") * s.clock_mhz + 999) / 1000;  // ns -> cycles, rounded up
  s.dram.queue_depth = static_cast<unsigned>(u("dram.queue_depth"));

  const std::string fault = cfg.string("debug.inject_fault");
  s.dram.inject_drop_response = fault == "drop_response";
  s.dram.inject_stuck = fault == "stuck_dram";
  s.crossbar.shared_request_network = fault == "shared_request_network";
  s.step_idle_windows = cfg.boolean("debug.step_idle_windows");
}

void read_runtime_and_memory(const config::Config& cfg, SystemSpec& s) {
  auto u = [&cfg](const std::string& path) { return uint_of(cfg, path); };
  s.placement = runtime::parse_placement_policy(cfg.string("memory.placement"));
  s.migration_cycles = u("memory.migration_cycles");
  s.chiplets_per_gpu = static_cast<unsigned>(u("runtime.chiplets_per_gpu"));
  if (s.sockets % s.chiplets_per_gpu != 0) {
    cfg.fail("runtime.chiplets_per_gpu", std::to_string(s.chiplets_per_gpu) +
                                             " does not divide system.sockets (" + std::to_string(s.sockets) +
                                             ")");
  }
  s.cta.policy = runtime::parse_cta_policy(cfg.string("runtime.cta_schedule"));
  s.cta.batch = static_cast<std::uint32_t>(u("runtime.batch_ctas"));
  s.cta.hierarchy_unit = runtime::parse_hierarchy_unit(cfg.string("runtime.hierarchy_unit"));
  s.cta.chiplet_batch = static_cast<std::uint32_t>(u("runtime.chiplet_batch"));
  s.page_bytes = u("memory.page_bytes");
  if (!power_of_two(std::int64_t(s.page_bytes))) {
    cfg.fail("memory.page_bytes", std::to_string(s.page_bytes) + " is not a power of two");
  }
  if (s.page_bytes < s.facts.line_bytes) {
    cfg.fail("memory.page_bytes", std::to_string(s.page_bytes) + " is smaller than a line (" +
                                      std::to_string(s.facts.line_bytes) + " B)");
  }
  s.launch_cycles = u("runtime.launch_cycles");
}

// The paper's links (switch topology) and the balancer's settings; custom topologies take their links'
// rates from build_topology().
void read_links(const config::Config& cfg, SystemSpec& s) {
  auto u = [&cfg](const std::string& path) { return uint_of(cfg, path); };
  s.link.lanes = static_cast<unsigned>(u("link.lanes"));
  if (s.link.lanes % 2 != 0) {
    cfg.fail("link.lanes",
             std::to_string(s.link.lanes) + " is odd; a link starts symmetric, half its lanes each way");
  }
  s.link.lane_rate_num = u("link.lane_bytes");
  s.link.lane_rate_den = 1;
  if (u("link.latency_cycles") % 2 != 0) {
    cfg.fail("link.latency_cycles",
             std::to_string(u("link.latency_cycles")) +
                 " is odd; it is split evenly over the two link traversals of a socket-to-socket trip");
  }
  s.link.latency = u("link.latency_cycles") / 2;
  s.link.queue_depth = static_cast<unsigned>(u("link.queue_depth"));
  const std::string mode = cfg.string("link.mode");
  s.link_mode = mode == "dynamic"            ? SystemSpec::LinkMode::kDynamic
                : mode == "double_bandwidth" ? SystemSpec::LinkMode::kDoubleBandwidth
                                             : SystemSpec::LinkMode::kStatic;
  if (s.link_mode == SystemSpec::LinkMode::kDoubleBandwidth) s.link.lanes *= 2;
  s.balancer.sample_cycles = u("link.sample_cycles");
  s.balancer.switch_cycles = u("link.switch_cycles");
  s.balancer.saturation_percent = static_cast<unsigned>(u("link.saturation_percent"));
  s.sw.latency = u("switch.latency_cycles");
  s.sw.queue_depth = static_cast<unsigned>(u("switch.queue_depth"));
}

void read_checks(const config::Config& cfg, SystemSpec& s) {
  s.rtl_policies = cfg.string("policy.impl") == "rtl";
  s.protocol_checks = cfg.boolean("checks.protocol");
  s.watchdog_cycles = uint_of(cfg, "checks.watchdog_cycles");
  s.max_cycles = uint_of(cfg, "checks.max_cycles");
}

void read_workload(const config::Config& cfg, SystemSpec& s) {
  auto u = [&cfg](const std::string& path) { return uint_of(cfg, path); };
  const std::uint64_t line = s.facts.line_bytes;
  s.workload_name = cfg.string("workload.name");
  const std::size_t na = cfg.list_size("workload.allocations");
  for (std::size_t i = 0; i < na; ++i) {
    const std::string a = "workload.allocations." + std::to_string(i) + ".";
    runtime::Allocation al;
    al.name = cfg.string(a + "name");
    al.base = u(a + "base_address");
    al.bytes = u(a + "bytes");
    al.element_bytes = static_cast<std::uint32_t>(u(a + "element_bytes"));
    if (u(a + "rows") || u(a + "cols"))
      al.shape = runtime::Shape{u(a + "rows"), u(a + "cols"), u(a + "depth")};
    al.stride_bytes = u(a + "stride_bytes");
    if (!cfg.string(a + "placement").empty()) {
      try {
        al.policy = runtime::parse_placement_policy(cfg.string(a + "placement"));
      } catch (const std::invalid_argument& e) {
        cfg.fail(a + "placement", e.what());
      }
    }
    s.allocations.push_back(al);
  }
  try {  // the placement checks allocations against its policy (shapes, strides, overlaps)
    runtime::Placement check(s.sockets, runtime::PlacementParams{s.placement, s.page_bytes, line, 0},
                             s.allocations);
  } catch (const std::invalid_argument& e) {
    cfg.fail(na ? "workload.allocations" : "memory.placement", e.what());
  }
  if (!cfg.string("workload.trace_list").empty()) {
    const std::string list = relative_to_setter(cfg, "workload.trace_list");
    try {
      const trace::KernelList kl = trace::read_kernel_list(list);
      for (const std::string& path : kl.kernel_paths()) {
        KernelSpec ks;
        ks.name = std::filesystem::path(path).filename().string();
        ks.trace_path = path;
        s.kernels.push_back(ks);
      }
    } catch (const trace::TraceError& e) {
      cfg.fail("workload.trace_list", e.what());
    }
    if (s.kernels.empty()) cfg.fail("workload.trace_list", list + " lists no kernel");
    if (!named_by_user(cfg, "workload.name")) s.workload_name = trace_workload_name(list, s.kernels);
    return;
  }
  const std::size_t n = cfg.list_size("workload.kernels");
  for (std::size_t i = 0; i < n; ++i) {
    const std::string k = "workload.kernels." + std::to_string(i) + ".";
    KernelSpec ks;
    ks.name = cfg.string(k + "name");
    ks.pattern = cfg.string(k + "pattern");
    ks.ctas = static_cast<std::uint32_t>(u(k + "ctas"));
    ks.grid_x = static_cast<std::uint32_t>(u(k + "grid_x"));
    if (ks.grid_x && ks.ctas % ks.grid_x != 0) {
      cfg.fail(k + "grid_x",
               std::to_string(ks.grid_x) + " does not divide ctas (" + std::to_string(ks.ctas) + ")");
    }
    ks.warps_per_cta = static_cast<std::uint32_t>(u(k + "warps_per_cta"));
    ks.accesses_per_warp = static_cast<std::uint32_t>(u(k + "accesses_per_warp"));
    ks.compute_cycles = static_cast<std::uint32_t>(u(k + "compute_cycles"));
    ks.write_percent = static_cast<std::uint32_t>(u(k + "write_percent"));
    ks.atomic_percent = static_cast<std::uint32_t>(u(k + "atomic_percent"));
    ks.footprint_bytes = u(k + "footprint_bytes");
    ks.base_address = u(k + "base_address");
    ks.seed = u(k + "seed");
    ks.stride_x = u(k + "stride_x");
    ks.stride_y = u(k + "stride_y");
    ks.bins_bytes = u(k + "bins_bytes");
    ks.output_bytes = u(k + "output_bytes");
    ks.width_lines = u(k + "width_lines");
    ks.height_lines = u(k + "height_lines");
    // workload.scale multiplies every synthetic kernel's grid (and so its footprint).
    ks.ctas = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(std::uint64_t(ks.ctas) * u("workload.scale"), 1u << 24));
    if (!cfg.string(k + "trace").empty()) {
      ks.trace_path = relative_to_setter(cfg, k + "trace");
    } else if (ks.ctas == 0) {
      cfg.fail(k + "ctas", "missing: a kernel without a trace needs its number of CTAs");
    }
    if (ks.warps_per_cta > s.sm.max_warps) {
      cfg.fail(k + "warps_per_cta", std::to_string(ks.warps_per_cta) + " exceeds sm.max_warps (" +
                                        std::to_string(s.sm.max_warps) + "): a CTA would never fit on an SM");
    }
    if (ks.write_percent + ks.atomic_percent > 100) {
      cfg.fail(k + "atomic_percent", "write_percent + atomic_percent is " +
                                         std::to_string(ks.write_percent + ks.atomic_percent) +
                                         ", more than 100");
    }
    s.kernels.push_back(ks);
  }
}

}  // namespace

SystemSpec to_system_spec(const config::Config& cfg) {
  check_resource_limits(cfg);  // before anything is sized from the values
  SystemSpec s;
  read_system(cfg, s);
  read_facts(cfg, s);
  read_caches(cfg, s);
  read_crossbar_and_dram(cfg, s);
  read_runtime_and_memory(cfg, s);
  read_links(cfg, s);
  build_topology(cfg, s);
  read_checks(cfg, s);
  read_workload(cfg, s);
  // Every input is read: now the derived parameters can be checked.
  check_rtl_policies(cfg, s);
  return s;
}

}  // namespace numagpu
