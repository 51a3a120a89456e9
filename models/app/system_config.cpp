#include "app/system_config.hpp"

#include <string>

namespace numagpu {

namespace {

using config::Schema;

bool power_of_two(std::int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}
unsigned log2_exact(std::uint64_t v) {
  unsigned n = 0;
  while (v > 1) {
    v >>= 1;
    ++n;
  }
  return n;
}

void add_system(Schema& root) {
  Schema& s = root.section("system", "The machine as a whole");
  s.integer("sockets", "Number of GPU sockets on the switch").range(1, 8).default_value(4);
  s.integer("clock_mhz", "GPU clock; every *_cycles parameter counts cycles of this clock")
      .range(1, 10000)
      .unit("MHz")
      .default_value(1000);
}

void add_sm(Schema& root) {
  Schema& s = root.section("sm", "Streaming multiprocessors");
  s.integer("per_socket", "SMs in each socket").range(1, 256).default_value(64);
  s.integer("max_warps", "Resident warps per SM (CTA slots = max_warps / warps_per_cta)")
      .range(1, 256)
      .default_value(64);
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
  p.choice("placement", {"page_interleave", "line_interleave"},
           "Home socket of an address: round-robin pages, or round-robin lines")
      .default_value("page_interleave");
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
  l.integer("latency_cycles",
            "Socket-to-socket latency through the switch, excluding serialization: half on each of the two links")
      .range(0, 100000)
      .unit("cycles")
      .default_value(128);
  l.integer("header_bytes",
            "Packet header; read requests and write acks are a header, data packets add a line")
      .range(1, 1024)
      .unit("B")
      .default_value(16);
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

void add_run(Schema& root) {
  Schema& r = root.section("runtime", "Kernel launch");
  r.integer("launch_cycles", "Idle cycles between a kernel's end and the next kernel's start")
      .range(0, 100000000)
      .unit("cycles")
      .default_value(0);

  Schema& st = root.section("stats", "Statistics");
  st.integer("sample_cycles", "Window of the per-window time series (utilization); 0 disables them")
      .range(0, 100000000)
      .unit("cycles")
      .default_value(5000);

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
  d.choice("inject_fault", {"none", "drop_response", "stuck_dram"},
           "drop_response: DRAM swallows one response (the audit must catch it); "
           "stuck_dram: DRAM never serves (the watchdog must fire)")
      .default_value("none");
}

void add_workload(Schema& root) {
  Schema& w = root.section("workload", "What to run");
  w.string("name", "Workload name, shown in the summary").default_value("unnamed");
  Schema& k = w.list("kernels", "Kernels, launched one after another").items(1, 4096).element();
  k.string("name", "Kernel name").required();
  k.choice("pattern", {"stream", "random"},
           "stream: warps sweep the footprint together (no reuse within a pass); random: uniform lines")
      .default_value("stream");
  k.integer("ctas", "CTAs in the grid; CTA i runs on socket i mod sockets").range(1, 1 << 24).required();
  k.integer("warps_per_cta", "Warps per CTA").range(1, 64).default_value(4);
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
  add_run(root);
  add_workload(root);
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

}  // namespace

const config::Schema& system_schema() {
  static const Schema schema = build_schema();
  return schema;
}

SystemSpec to_system_spec(const config::Config& cfg) {
  auto u = [&cfg](const std::string& path) { return static_cast<std::uint64_t>(cfg.integer(path)); };
  SystemSpec s;
  s.sockets = static_cast<unsigned>(u("system.sockets"));
  s.clock_mhz = u("system.clock_mhz");
  if (1000000 % s.clock_mhz != 0) {
    cfg.fail("system.clock_mhz",
             std::to_string(s.clock_mhz) + " MHz has no whole-picosecond period (use a divisor of 1000000)");
  }
  s.sms_per_socket = static_cast<unsigned>(u("sm.per_socket"));
  s.sm.max_warps = static_cast<unsigned>(u("sm.max_warps"));
  s.sm.max_outstanding = static_cast<unsigned>(u("sm.max_outstanding"));

  const std::uint64_t line = u("l1.line_bytes");
  if (!power_of_two(std::int64_t(line)))
    cfg.fail("l1.line_bytes", std::to_string(line) + " is not a power of two");
  if (u("l2.line_bytes") != line) {
    cfg.fail("l2.line_bytes", std::to_string(u("l2.line_bytes")) + " differs from l1.line_bytes (" +
                                  std::to_string(line) + "); both levels must use one line size");
  }
  s.sm.line_bytes = static_cast<unsigned>(line);

  checked_sets(cfg, "l1", u("l1.size_bytes"), u("l1.ways"), line);
  s.l1 = CacheSpec{u("l1.size_bytes"),
                   static_cast<unsigned>(line),
                   static_cast<unsigned>(u("l1.ways")),
                   u("l1.hit_latency_cycles"),
                   static_cast<unsigned>(u("l1.max_in_process")),
                   false,
                   false,
                   0};

  s.l2_banks = static_cast<unsigned>(u("l2.banks"));
  if (!power_of_two(s.l2_banks)) cfg.fail("l2.banks", std::to_string(s.l2_banks) + " is not a power of two");
  const std::uint64_t l2_size = u("l2.size_bytes");
  if (l2_size % s.l2_banks != 0) {
    cfg.fail("l2.size_bytes",
             std::to_string(l2_size) + " does not divide into " + std::to_string(s.l2_banks) + " banks");
  }
  checked_sets(cfg, "l2", l2_size / s.l2_banks, u("l2.ways"), line);
  s.l2 = CacheSpec{l2_size / s.l2_banks,
                   static_cast<unsigned>(line),
                   static_cast<unsigned>(u("l2.ways")),
                   u("l2.hit_latency_cycles"),
                   static_cast<unsigned>(u("l2.max_in_process")),
                   cfg.string("l2.write_policy") == "write_back",
                   true,
                   log2_exact(s.l2_banks)};

  s.crossbar.latency = u("crossbar.latency_cycles");
  s.crossbar.port_bytes_per_cycle = static_cast<unsigned>(u("crossbar.port_bytes_per_cycle"));
  s.crossbar.queue_depth = static_cast<unsigned>(u("crossbar.queue_depth"));
  s.crossbar.line_bytes = static_cast<unsigned>(line);

  // GB/s -> bytes per cycle as an exact fraction: gbps * 1000 / clock_mhz.
  s.dram.bandwidth_bytes_num = u("dram.bandwidth_gbps") * 1000;
  s.dram.bandwidth_den = s.clock_mhz;
  s.dram.channels = static_cast<unsigned>(u("dram.channels"));
  s.dram.latency = (u("dram.latency_ns") * s.clock_mhz + 999) / 1000;  // ns -> cycles, rounded up
  s.dram.queue_depth = static_cast<unsigned>(u("dram.queue_depth"));
  s.dram.line_bytes = static_cast<unsigned>(line);
  s.dram.sample_cycles = u("stats.sample_cycles");
  const std::string fault = cfg.string("debug.inject_fault");
  s.dram.inject_drop_response = fault == "drop_response";
  s.dram.inject_stuck = fault == "stuck_dram";

  s.placement = Placement::parse(cfg.string("memory.placement"));
  s.page_bytes = u("memory.page_bytes");
  if (!power_of_two(std::int64_t(s.page_bytes))) {
    cfg.fail("memory.page_bytes", std::to_string(s.page_bytes) + " is not a power of two");
  }
  if (s.page_bytes < line) {
    cfg.fail("memory.page_bytes",
             std::to_string(s.page_bytes) + " is smaller than a line (" + std::to_string(line) + " B)");
  }

  s.link.lanes = static_cast<unsigned>(u("link.lanes"));
  if (s.link.lanes % 2 != 0) {
    cfg.fail("link.lanes",
             std::to_string(s.link.lanes) + " is odd; a link starts symmetric, half its lanes each way");
  }
  s.link.lane_rate_num = u("link.lane_bytes");
  s.link.lane_rate_den = 1;
  s.link.whole_cycles = true;
  if (u("link.latency_cycles") % 2 != 0) {
    cfg.fail("link.latency_cycles", std::to_string(u("link.latency_cycles")) +
                                        " is odd; it is split evenly over the two link traversals of a socket-to-socket trip");
  }
  s.link.latency = u("link.latency_cycles") / 2;
  s.link.header_bytes = static_cast<unsigned>(u("link.header_bytes"));
  s.link.queue_depth = static_cast<unsigned>(u("link.queue_depth"));
  s.link.line_bytes = static_cast<unsigned>(line);
  s.link.sample_cycles = u("stats.sample_cycles");
  s.crossbar.header_bytes = s.link.header_bytes;
  s.sw.latency = u("switch.latency_cycles");
  s.sw.queue_depth = static_cast<unsigned>(u("switch.queue_depth"));

  s.launch_cycles = u("runtime.launch_cycles");
  s.protocol_checks = cfg.boolean("checks.protocol");
  s.watchdog_cycles = u("checks.watchdog_cycles");
  s.max_cycles = u("checks.max_cycles");

  s.workload_name = cfg.string("workload.name");
  const std::size_t n = cfg.list_size("workload.kernels");
  for (std::size_t i = 0; i < n; ++i) {
    const std::string k = "workload.kernels." + std::to_string(i) + ".";
    KernelSpec ks;
    ks.name = cfg.string(k + "name");
    ks.pattern = cfg.string(k + "pattern");
    ks.ctas = static_cast<std::uint32_t>(u(k + "ctas"));
    ks.warps_per_cta = static_cast<std::uint32_t>(u(k + "warps_per_cta"));
    ks.accesses_per_warp = static_cast<std::uint32_t>(u(k + "accesses_per_warp"));
    ks.compute_cycles = static_cast<std::uint32_t>(u(k + "compute_cycles"));
    ks.write_percent = static_cast<std::uint32_t>(u(k + "write_percent"));
    ks.atomic_percent = static_cast<std::uint32_t>(u(k + "atomic_percent"));
    ks.footprint_bytes = u(k + "footprint_bytes");
    ks.base_address = u(k + "base_address");
    ks.seed = u(k + "seed");
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
  return s;
}

}  // namespace numagpu
