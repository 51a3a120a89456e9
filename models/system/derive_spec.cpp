#include "system/derive_spec.hpp"

#include <algorithm>
#include <cctype>

#include "kernels/application.hpp"
#include "kernels/library.hpp"
#include "system/derived_params.hpp"
#ifdef NUMAGPU_HAVE_RTL_LOOP
#include "rtl_loop/rtl_builds.hpp"
#endif

namespace numagpu {

namespace {

bool power_of_two(std::uint64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

[[noreturn]] void fail(const std::string& key, const std::string& message) {
  throw SpecError(key, message);
}

std::string str(std::uint64_t v) {
  return std::to_string(v);
}

void derive_machine(const SystemParams& p, SystemSpec& s) {
  s.sockets = p.sockets;
  s.clock_mhz = p.clock_mhz;
  for (std::size_t k = 0; k < p.clock_steps.size(); ++k) {
    const ClockStepParams& step = p.clock_steps[k];
    const std::string key = "system.clock_steps." + str(k);
    if (k > 0 && step.cycle <= p.clock_steps[k - 1].cycle)
      fail(key + ".cycle", str(step.cycle) + " is not after the previous step's cycle (" +
                               str(p.clock_steps[k - 1].cycle) + ")");
    s.clock_steps.push_back({step.cycle, step.mhz});
  }
  s.sms_per_socket = p.sms_per_socket;
  s.sm = p.sm;
  if (p.sm.issue_width % p.sm.processing_blocks != 0) {
    fail("sm.processing_blocks", str(p.sm.processing_blocks) + " does not divide sm.issue_width (" +
                                     str(p.sm.issue_width) + "): each block has as many issue slots");
  }
}

// What every component shares: one line size (given at both cache levels, which must agree), the packet
// header, the statistics window.
void derive_facts(const SystemParams& p, SystemSpec& s) {
  const std::uint64_t line = p.l1.line_bytes;
  if (!power_of_two(line)) fail("l1.line_bytes", str(line) + " is not a power of two");
  if (p.l2.line_bytes != line) {
    fail("l2.line_bytes", str(p.l2.line_bytes) + " differs from l1.line_bytes (" + str(line) +
                              "); both levels must use one line size");
  }
  s.facts.line_bytes = static_cast<unsigned>(line);
  for (const auto& [key, sector] :
       {std::pair{"l1.sector_bytes", p.l1.sector_bytes}, std::pair{"l2.sector_bytes", p.l2.sector_bytes}}) {
    if (!power_of_two(sector)) fail(key, str(sector) + " is not a power of two");
    if (sector < line) s.facts.sectored = true;  // a request then carries its sectors (docs/memory-system.md)
  }
  s.facts.header_bytes = p.link.header_bytes;
  s.facts.sample_cycles = p.stats_sample_cycles;
  s.max_windows = p.max_windows;
  if (s.max_windows % 2 != 0) {
    fail("stats.max_windows",
         str(s.max_windows) + " is odd; windows merge in pairs when the limit is reached (0 = no limit)");
  }
}

// Sets x ways x line must make the size, with a power-of-two set count (the index is the line's low bits).
// The size checked is one bank's: the message names the size the user configured and, when the cache is
// banked, how it divides.
void check_sets(const std::string& cache, std::uint64_t configured, std::uint64_t banks, std::uint64_t ways,
                std::uint64_t line) {
  const std::uint64_t size = configured / banks;
  const std::uint64_t way_bytes = ways * line;
  if (size % way_bytes != 0 || !power_of_two(size / way_bytes)) {
    const std::string what = banks == 1 ? str(size) + " is not"
                                        : str(configured) + " over " + str(banks) + " banks is " + str(size) +
                                              " B per bank, which is not";
    fail(cache + ".size_bytes", what + " sets x ways x line_bytes with a power-of-two number of sets (" +
                                    str(ways) + " ways x " + str(line) + " B lines)");
  }
}

CacheSpec cache_spec(const CacheParams& c) {
  CacheSpec spec;
  spec.size_bytes = c.size_bytes;
  spec.ways = c.ways;
  spec.replacement = c.replacement;
  spec.hit_latency = c.hit_latency_cycles;
  spec.max_in_process = c.max_in_process;
  spec.sectors = c.sector_bytes < c.line_bytes ? c.line_bytes / c.sector_bytes : 1;
  return spec;
}

void derive_caches(const SystemParams& p, SystemSpec& s) {
  const std::uint64_t line = s.facts.line_bytes;
  check_sets("l1", p.l1.size_bytes, 1, p.l1.ways, line);
  s.l1 = cache_spec(p.l1);

  s.l2_banks = p.l2.banks;
  if (!power_of_two(s.l2_banks)) fail("l2.banks", str(s.l2_banks) + " is not a power of two");
  if (p.l2.size_bytes % s.l2_banks != 0)
    fail("l2.size_bytes", str(p.l2.size_bytes) + " does not divide into " + str(s.l2_banks) + " banks");
  check_sets("l2", p.l2.size_bytes, s.l2_banks, p.l2.ways, line);
  s.l2 = cache_spec(p.l2);
  s.l2.size_bytes = p.l2.size_bytes / s.l2_banks;  // the spec is a bank's
  s.l2.write_back = p.l2.write_back;
  s.l2.caches_atomics = true;  // atomics are performed at the L2

  // The organization: where remote data may be cached, and how the ways are shared.
  s.l2.gpu_side = p.l2.organization != L2Organization::kMemside;
  if (p.l2.organization == L2Organization::kStatic) {
    if (s.l2.ways < 2) fail("l2.ways", "the static organization splits the ways in two: it needs at least 2");
    const unsigned remote = p.l2.static_remote_ways ? p.l2.static_remote_ways : s.l2.ways - s.l2.ways / 2;
    if (remote >= s.l2.ways) {
      fail("l2.static_remote_ways", str(remote) + " leaves no way of the " + str(s.l2.ways) +
                                        " (l2.ways) for local data: at most " + str(s.l2.ways - 1));
    }
    s.l2.local_quota = s.l2.ways - remote;
    s.l2.remote_quota = remote;
  }
  s.l2.insert_remote_requests = p.l2.insert_remote_requests;
  s.l2.hashed_sets = p.l2.hashed_sets;
  s.l2_numa_aware = p.l2.organization == L2Organization::kNumaAware;
  if (s.l2_numa_aware && s.l2.ways < 2) fail("l2.ways", "numa_aware needs at least 2 ways (one per class)");
  s.coherence = p.l2.coherence;
  s.partition = p.l2.partition;
}

// Per-kernel shared-memory carveouts of a unified L1 (sm.shared_carveouts): "a,b,c" KiB, ascending, each a
// whole number of the L1's ways (a way of every set is what the driver can give to shared memory here) and
// leaving the L1 at least one way.
void derive_carveouts(const SystemParams& p, SystemSpec& s) {
  const std::string key = "sm.shared_carveouts";
  const std::string& text = p.sm.shared_carveouts;
  s.sm.carveout_bytes.clear();
  if (text.empty()) return;
  const std::uint64_t way_bytes = p.l1.size_bytes / p.l1.ways;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    std::string item = text.substr(at, comma - at);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos)
      fail(key, "'" + text + "' is not a comma-separated list of sizes in KiB (e.g. \"0,8,16,32,64,96\")");
    if (item.size() > 6) {  // also keeps stoull below in range
      fail(key, item + " KiB is more than the unified L1 (l1.size_bytes " + str(p.l1.size_bytes) + " B)");
    }
    const std::uint64_t bytes = std::stoull(item) * 1024;
    if (!s.sm.carveout_bytes.empty() && bytes <= s.sm.carveout_bytes.back())
      fail(key, "'" + text + "': the carveouts must be in ascending order, each once");
    if (bytes % way_bytes != 0) {
      fail(key, item + " KiB is not a whole number of L1 ways (l1.size_bytes / l1.ways = " + str(way_bytes) +
                    " B): the carveout takes ways from the unified L1");
    }
    if (bytes >= p.l1.size_bytes) {
      fail(key, item + " KiB leaves the L1 no way (l1.size_bytes " + str(p.l1.size_bytes) +
                    " B is the unified L1 and shared memory)");
    }
    s.sm.carveout_bytes.push_back(bytes);
    at = comma + 1;
  }
  if (p.sm.shared_bytes != 0) {
    fail("sm.shared_bytes",
         "set sm.shared_bytes (one carveout for every kernel) or sm.shared_carveouts "
         "(one per kernel), not both");
  }
  if (s.l2_numa_aware && s.partition.l1) {
    fail(key,
         "per-kernel carveouts and an L1 way partition are not modelled together: set "
         "l2.partition_l1: false (the partition then splits the L2 only)");
  }
}

// The bank model (mem/hbm_channel.hpp): its timing in DRAM command-clock cycles, and the address map read
// into bit positions.
void derive_dram_banks(const SystemParams& p, SystemSpec& s) {
  const DramParams& d = p.dram;
  HbmSpec& h = s.dram.hbm;
  if (!power_of_two(d.banks)) fail("dram.banks", str(d.banks) + " is not a power of two");
  if (d.bank_groups > d.banks || d.banks % d.bank_groups)
    fail("dram.bank_groups", str(d.bank_groups) + " does not divide dram.banks (" + str(d.banks) + ")");
  if (d.clock_mhz == 0) fail("dram.clock_mhz", "0: the bank model (dram.banks) needs the DRAM's clock");
  // The channels' peak, channels x burst_bytes per burst_cycles at clock_mhz, is the configured bandwidth
  // (within 1 %): bench-sm and the utilization statistics take dram.bandwidth_gbps as the peak.
  const std::uint64_t mbps = std::uint64_t(d.channels) * d.burst_bytes * d.clock_mhz / d.burst_cycles;
  const std::uint64_t want = d.bandwidth_gbps * 1000;
  if ((mbps > want ? mbps - want : want - mbps) * 100 > want) {
    fail("dram.burst_bytes", str(d.channels) + " channels x " + str(d.burst_bytes) + " B per " +
                                 str(d.burst_cycles) + " cycle(s) at " + str(d.clock_mhz) +
                                 " MHz = " + str(mbps / 1000) + " GB/s, not dram.bandwidth_gbps (" +
                                 str(d.bandwidth_gbps) + ") within 1 %");
  }
  if (d.scheduler_queue * std::uint64_t(d.burst_bytes) < s.facts.line_bytes) {
    fail("dram.scheduler_queue", str(d.scheduler_queue) + " column commands of " + str(d.burst_bytes) +
                                     " B cannot hold one line (" + str(s.facts.line_bytes) + " B)");
  }
  unsigned bit = 0;
  for (auto it = d.address_map.rbegin(); it != d.address_map.rend(); ++it) {
    switch (*it) {
      case '.':
        continue;
      case 'R':
        h.row_bits.push_back(bit);
        break;
      case 'B':
        h.bank_bits.push_back(bit);
        break;
      case 'C':
      case 'S':
        break;
      default:
        fail("dram.address_map", std::string("'") + *it + "' in \"" + d.address_map +
                                     "\": expected R (row), B (bank), C (column), S (byte) or '.'");
    }
    ++bit;
  }
  if ((1ull << h.bank_bits.size()) != d.banks) {
    fail("dram.address_map", "\"" + d.address_map + "\" has " + str(h.bank_bits.size()) +
                                 " bank bits (B); dram.banks (" + str(d.banks) + ") needs " +
                                 str(__builtin_ctz(d.banks)));
  }
  h.map_bits = bit;
  h.banks = d.banks;
  h.bank_groups = d.bank_groups;
  h.clock_mhz = d.clock_mhz;
  h.burst_bytes = d.burst_bytes;
  h.queue_entries = d.scheduler_queue;
  h.t = d.timing;
  h.t.burst = d.burst_cycles;
  if (h.t.rc < h.t.ras)
    fail("dram.timing.rc", str(h.t.rc) + " is below dram.timing.ras (" + str(h.t.ras) + ")");
  if (d.refresh_interval_ns) {
    // In command-clock cycles, rounded up; the whole refresh (precharge and tRFC) ends before the next.
    h.t.refresh_interval = (d.refresh_interval_ns * d.clock_mhz + 999) / 1000;
    h.t.refresh = (d.refresh_ns * d.clock_mhz + 999) / 1000;
    if (h.t.refresh + h.t.rp + h.t.ras >= h.t.refresh_interval) {
      fail("dram.refresh_ns", str(d.refresh_ns) +
                                  " ns with tRAS and tRP (dram.timing) does not end before "
                                  "the next refresh (dram.refresh_interval_ns)");
    }
  }
}

void derive_crossbar_and_dram(const SystemParams& p, SystemSpec& s) {
  s.crossbar = p.crossbar;
  // GB/s -> bytes per cycle as an exact fraction: gbps * 1000 / clock_mhz.
  s.dram.bandwidth_bytes_num = p.dram.bandwidth_gbps * 1000;
  s.dram.bandwidth_den = s.clock_mhz;
  s.dram.channels = p.dram.channels;
  s.dram.latency = (p.dram.latency_ns * s.clock_mhz + 999) / 1000;  // ns -> cycles, rounded up
  s.dram.queue_depth = p.dram.queue_depth;
  if (p.dram.refresh_interval_ns) {
    if (p.dram.refresh_ns == 0 || p.dram.refresh_ns >= p.dram.refresh_interval_ns) {
      fail("dram.refresh_ns", str(p.dram.refresh_ns) + " ns: a refresh takes more than 0 and less than " +
                                  "dram.refresh_interval_ns (" + str(p.dram.refresh_interval_ns) + " ns)");
    }
    s.dram.refresh_interval_ps = p.dram.refresh_interval_ns * 1000;
    s.dram.refresh_ps = p.dram.refresh_ns * 1000;
  }
  if (p.dram.banks) derive_dram_banks(p, s);
  if (p.memory.ipoly_interleave) {
    // One hash for both: a bank's lines then all go to the channel index mod channels.
    if (!power_of_two(s.dram.channels))
      fail("dram.channels",
           str(s.dram.channels) + " is not a power of two (memory.interleave: ipoly needs one)");
    const unsigned partitions = std::max(s.dram.channels, s.l2_banks);
    const unsigned bits = static_cast<unsigned>(__builtin_ctz(partitions));
    if (bits > LineInterleave::kMaxBits) {
      fail("memory.interleave", "ipoly hashes over at most " + str(1u << LineInterleave::kMaxBits) +
                                    " partitions; l2.banks and dram.channels ask for " + str(partitions));
    }
    s.facts.interleave = LineInterleave::ipoly(bits);
  }

  s.dram.inject_drop_response = p.inject_fault == InjectedFault::kDropResponse;
  s.dram.inject_stuck = p.inject_fault == InjectedFault::kStuckDram;
  s.crossbar.shared_request_network = p.inject_fault == InjectedFault::kSharedRequestNetwork;
  s.step_idle_windows = p.step_idle_windows;
}

// A configuration names its policies by the names parse_* accept: the schema lists the same names, so a
// failure here is a disagreement between the two lists, reported at the key all the same.
template <class Parse>
auto parsed(const std::string& key, const std::string& text, Parse parse) {
  try {
    return parse(text);
  } catch (const std::invalid_argument& e) {
    fail(key, e.what());
  }
}

void derive_runtime_and_memory(const SystemParams& p, SystemSpec& s) {
  // lasp: every allocation kernel-wide (LADM's default) until the first kernel that states it places it.
  s.lasp_placement = p.memory.placement == "lasp";
  s.placement = s.lasp_placement
                    ? runtime::PlacementPolicy::kKernelWide
                    : parsed("memory.placement", p.memory.placement, runtime::parse_placement_policy);
  s.migration_cycles = p.memory.migration_cycles;
  s.chiplets_per_gpu = p.runtime.chiplets_per_gpu;
  if (s.sockets % s.chiplets_per_gpu != 0) {
    fail("runtime.chiplets_per_gpu",
         str(s.chiplets_per_gpu) + " does not divide system.sockets (" + str(s.sockets) + ")");
  }
  // lasp and hcoda decide per kernel (runtime/lasp.hpp); a kernel that states nothing gets their default.
  s.kernel_policy = p.runtime.cta_schedule == "lasp"    ? SystemSpec::KernelPolicy::kLasp
                    : p.runtime.cta_schedule == "hcoda" ? SystemSpec::KernelPolicy::kHcoda
                                                        : SystemSpec::KernelPolicy::kFixed;
  s.crb = p.runtime.crb;
  s.cta.policy = s.kernel_policy != SystemSpec::KernelPolicy::kFixed
                     ? runtime::CtaPolicy::kContiguous
                     : parsed("runtime.cta_schedule", p.runtime.cta_schedule, runtime::parse_cta_policy);
  s.cta.batch = p.runtime.batch_ctas;
  s.cta.hierarchy_unit =
      parsed("runtime.hierarchy_unit", p.runtime.hierarchy_unit, runtime::parse_hierarchy_unit);
  s.cta.chiplet_batch = p.runtime.chiplet_batch;
  s.page_bytes = p.memory.page_bytes;
  if (!power_of_two(s.page_bytes)) fail("memory.page_bytes", str(s.page_bytes) + " is not a power of two");
  if (s.page_bytes < s.facts.line_bytes) {
    fail("memory.page_bytes",
         str(s.page_bytes) + " is smaller than a line (" + str(s.facts.line_bytes) + " B)");
  }
  s.launch_cycles = p.runtime.launch_cycles;
  s.kernel_overhead_cycles = p.runtime.kernel_overhead_cycles;
  s.functional_memory = p.memory.functional;
  s.address_bits = p.memory.address_bits;
}

// Plug points: each names a socket or switch that exists, each socket's DRAM is replaced once at most, and
// names are unique (the host looks ports up by them).
void derive_external(const SystemParams& p, SystemSpec& s) {
  const unsigned switches = system_topology(s).switches;
  std::vector<bool> dram_taken(s.sockets, false);
  for (std::size_t i = 0; i < p.external.size(); ++i) {
    const ExternalPortParams& e = p.external[i];
    const std::string k = "external." + str(i);
    ExternalPortSpec x;
    x.key = k;
    switch (e.attach) {
      case ExternalAttach::kDram:
        x.kind = ExternalPortSpec::Kind::kDramTarget;
        break;
      case ExternalAttach::kXbar:
        x.kind = ExternalPortSpec::Kind::kXbarInitiator;
        break;
      case ExternalAttach::kSwitch:
        x.kind = ExternalPortSpec::Kind::kSwitchInitiator;
        break;
    }
    // The key the other attachments read must keep its default (0), so that a `switch:` written on a DRAM or
    // crossbar entry is not silently ignored.
    if (x.kind == ExternalPortSpec::Kind::kSwitchInitiator && e.socket != 0)
      fail(k + ".socket", "has no meaning for attach: switch (it names a switch: use `switch`); remove it");
    if (x.kind != ExternalPortSpec::Kind::kSwitchInitiator && e.switch_index != 0)
      fail(k + ".switch",
           "has no meaning for attach: dram or xbar (they name a socket: use `socket`); remove it");
    if (x.kind == ExternalPortSpec::Kind::kSwitchInitiator) {
      if (e.switch_index >= switches) {
        fail(k + ".switch",
             str(e.switch_index) + " is not a switch of this topology (it has " + str(switches) + ")");
      }
      x.index = e.switch_index;
    } else {
      if (e.socket >= s.sockets)
        fail(k + ".socket", str(e.socket) + " is not a socket (system.sockets is " + str(s.sockets) + ")");
      x.index = e.socket;
    }
    if (x.kind == ExternalPortSpec::Kind::kDramTarget) {
      if (dram_taken[x.index]) fail(k + ".socket", "socket " + str(x.index) + "'s DRAM is already replaced");
      dram_taken[x.index] = true;
    }
    x.name = e.name;
    if (x.name.empty()) {
      x.name = x.kind == ExternalPortSpec::Kind::kDramTarget ? "socket" + str(x.index) + "_dram"
               : x.kind == ExternalPortSpec::Kind::kXbarInitiator
                   ? "socket" + str(x.index) + "_host" + str(i)
                   : "switch" + str(x.index) + "_host" + str(i);
    }
    for (char c : x.name) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
        fail(k + ".name", "'" + x.name + "' is not a name of letters, digits and underscores");
    }
    for (const ExternalPortSpec& other : s.external) {
      if (other.name == x.name) fail(k + ".name", "'" + x.name + "' names another external port too");
    }
    s.external.push_back(x);
  }
}

// A link starts symmetric, half its lanes each way: the one check of a lane count, for the paper's links
// and a custom topology's alike.
void check_even_lanes(const std::string& key, unsigned lanes) {
  if (lanes % 2 != 0) fail(key, str(lanes) + " is odd; a link starts symmetric, half its lanes each way");
}

// double_bandwidth is the static link with twice the lanes: the one place lanes are doubled.
unsigned lanes_in_mode(unsigned lanes, LinkMode mode) {
  return mode == LinkMode::kDoubleBandwidth ? lanes * 2 : lanes;
}

// The paper's links (switch topology) and the balancer's settings.
void derive_links(const SystemParams& p, SystemSpec& s) {
  check_even_lanes("link.lanes", p.link.lanes);
  s.link_mode = p.link.mode;
  s.link.lanes = lanes_in_mode(p.link.lanes, s.link_mode);
  s.link.lane_rate_num = p.link.lane_bytes;
  s.link.lane_rate_den = 1;
  if (p.link.latency_cycles % 2 != 0) {
    fail("link.latency_cycles",
         str(p.link.latency_cycles) +
             " is odd; it is split evenly over the two link traversals of a socket-to-socket trip");
  }
  s.link.latency = p.link.latency_cycles / 2;
  s.link.queue_depth = p.link.queue_depth;
  s.balancer = p.link.balancer;
  s.sw.latency = p.sw.latency;
  s.sw.queue_depth = p.sw.queue_depth;
}

unsigned node_of(const Topology& t, const std::string& key, const std::string& name) {
  const int id = t.node_id(name);
  if (id < 0) {
    fail(key, "unknown node '" + name + "' (nodes: gpu0..gpu" + str(t.gpus - 1) +
                  (t.switches ? ", switch0..switch" + str(t.switches - 1) : std::string()) + ")");
  }
  return unsigned(id);
}

void derive_topology(const SystemParams& p, SystemSpec& s) {
  const TopologyParams& tp = p.topology;
  Topology& t = s.topology;
  t.name = tp.name;
  t.gpus = s.sockets;
  t.tie_break = tp.tie_break;
  if (!tp.custom) {
    if (!tp.links.empty())
      fail("topology.links", "links are listed, but topology.preset is 'switch' (use 'custom')");
    if (s.sockets > 8) {
      fail("system.sockets",
           str(s.sockets) + " sockets on the paper's switch; it has 8 ports (use a custom topology)");
    }
    return;  // System builds the switch topology from `link`
  }
  if (tp.links.empty()) fail("topology.preset", "'custom' needs at least one entry in topology.links");
  t.switches = tp.switches;
  for (std::size_t i = 0; i < tp.links.size(); ++i) {
    const TopologyLinkParams& lp = tp.links[i];
    const std::string k = "topology.links." + str(i) + ".";
    TopologyLink tl;
    tl.a = node_of(t, k + "a", lp.a);
    tl.b = node_of(t, k + "b", lp.b);
    if (tl.a == tl.b) fail(k + "b", "a link cannot connect " + t.node_name(tl.a) + " to itself");
    check_even_lanes(k + "lanes", lp.lanes);
    tl.spec = custom_link_spec(lp, s.link, s.clock_mhz, s.link_mode);
    t.links.push_back(tl);
  }
  for (std::size_t i = 0; i < tp.routes.size(); ++i) {
    const RouteParams& rp = tp.routes[i];
    const std::string k = "topology.routes." + str(i) + ".";
    RouteOverride o{node_of(t, k + "from", rp.from), node_of(t, k + "to", rp.to),
                    node_of(t, k + "via", rp.via)};
    if (o.from >= t.gpus) fail(k + "from", "routes start at a GPU");
    if (o.to >= t.gpus) fail(k + "to", "routes end at a GPU");
    t.overrides.push_back(o);
  }
  try {
    Topology check = t;
    check.compute_routes();
  } catch (const std::invalid_argument& e) {
    fail(tp.routes.empty() ? "topology.links" : "topology.routes", e.what());
  }
}

void derive_checks(const SystemParams& p, SystemSpec& s) {
  s.rtl_policies = p.rtl_policies;
  if (p.rtl_waves && !p.rtl_policies)
    fail("rtl.waves", "the waveforms are the Verilated policy blocks': they need policy.impl: rtl");
  if (p.rtl_waves && s.link_mode != LinkMode::kDynamic && !s.l2_numa_aware)
    fail("rtl.waves",
         "this machine has no policy block to dump (link.mode: dynamic has link balancers, "
         "l2.organization: numa_aware partition controllers)");
  s.rtl_waves = RtlWaveWindow{p.rtl_waves, p.rtl_waves_start, p.rtl_waves_cycles};
  s.protocol_checks = p.protocol_checks;
  s.watchdog_cycles = p.watchdog_cycles;
  s.max_cycles = p.max_cycles;
  s.max_launches = p.max_launches;
  s.max_record_bytes = p.max_record_bytes;
}

// A kernel of the C++ library: its arguments are checked by building it, its grid and block become the
// spec's, and its arrays join the workload's allocations (each kernel's after the previous one's), so that
// every placement policy applies to them.
void derive_library_kernel(const std::string& key, KernelSpec& ks, std::uint64_t& next_base, SystemSpec& s) {
  std::unique_ptr<kernels::Kernel> kernel;
  try {
    kernel = kernels::make_kernel(ks.kernel, ks.args, next_base);
  } catch (const kernels::KernelError& e) {
    fail(key + (kernels::library().count(ks.kernel) ? "args" : "kernel"), e.what());
  }
  const kernels::Launch launch = kernel->launch();
  ks.base_address = next_base;
  ks.ctas = static_cast<std::uint32_t>(launch.grid.count());
  ks.warps_per_cta =
      static_cast<std::uint32_t>((launch.block.count() + kernels::kWarpSize - 1) / kernels::kWarpSize);
  const std::string misfit = s.sm.misfit({ks.warps_per_cta, launch.regs_per_thread, launch.shared_bytes});
  if (!misfit.empty()) fail(key + "kernel", ks.kernel + ": " + misfit);
  for (runtime::Allocation al : kernel->allocations()) {
    al.name = ks.name + "." + al.name;  // unique across kernels
    s.allocations.push_back(al);
  }
  next_base = kernel->end_address();
}

// An application: its arguments and input are checked by building it (the host program runs only in the
// simulation), and its arrays join the workload's allocations as `<item name>.<array>`.
void derive_app(const std::string& key, KernelSpec& ks, std::uint64_t& next_base, SystemSpec& s) {
  if (!ks.kernel.empty()) fail(key + "app", "an item runs an application or a library kernel, not both");
  if (!ks.trace_path.empty()) fail(key + "app", "an item runs an application or a trace, not both");
  std::unique_ptr<kernels::Application> app;
  try {
    app = kernels::make_app(ks.app, ks.args, ks.input, next_base);
  } catch (const kernels::KernelError& e) {
    const std::string what = e.what();
    const bool input_error = what.rfind("input ", 0) == 0;
    fail(key + (!kernels::apps().count(ks.app) ? "app" : input_error ? "input" : "args"), what);
  }
  ks.base_address = next_base;
  for (runtime::Allocation al : app->allocations()) {
    al.name = ks.name + "." + al.name;
    s.allocations.push_back(al);
  }
  next_base = app->end_address();
}

// A kernel item is one of four kinds (an application, a library kernel, a trace, a synthetic pattern) and
// each kind reads only some of the item's keys: a key the item's kind ignores must keep its default, else
// the user believes it took effect (`ctas` on a library kernel, whose grid comes from its arguments). A
// resolved configuration (config.yaml) writes every key at its default, so comparing with the default, not
// asking whether the key was written, keeps every output reproducible.
void refuse_meaningless_keys(const std::string& key, const KernelSpec& ks) {
  const KernelSpec d;
  const bool cuda = !ks.cuda.empty(), app = !cuda && !ks.app.empty();
  const bool library = !cuda && !app && !ks.kernel.empty();
  const bool trace = !cuda && !app && !library && !ks.trace_path.empty();
  const bool synthetic = !cuda && !app && !library && !trace;
  const char* kind = cuda      ? "a CUDA program item (cuda:)"
                     : app     ? "an application item (app:)"
                     : library ? "a library kernel item (kernel:)"
                     : trace   ? "a trace item (trace:)"
                               : "a synthetic item (pattern:)";
  const char* why = cuda      ? "its launches come from the program"
                    : app     ? "its host program sets its launches from `args` and `input`"
                    : library ? "its grid, block and arrays come from the kernel's `args`"
                    : trace   ? "its grid and instructions come from the trace"
                              : "a pattern has no arguments and reads no file";
  auto refuse_if = [&](bool set, const char* name) {
    if (set) fail(key + name, std::string("has no meaning for ") + kind + ": " + why + "; remove it");
  };
  if (!synthetic) {  // what only a synthetic pattern reads
    refuse_if(ks.pattern != d.pattern, "pattern");
    refuse_if(ks.ctas != d.ctas, "ctas");
    refuse_if(ks.warps_per_cta != d.warps_per_cta, "warps_per_cta");
    refuse_if(ks.grid_x != d.grid_x, "grid_x");
    refuse_if(ks.accesses_per_warp != d.accesses_per_warp, "accesses_per_warp");
    refuse_if(ks.compute_cycles != d.compute_cycles, "compute_cycles");
    refuse_if(ks.write_percent != d.write_percent, "write_percent");
    refuse_if(ks.atomic_percent != d.atomic_percent, "atomic_percent");
    refuse_if(ks.footprint_bytes != d.footprint_bytes, "footprint_bytes");
    refuse_if(ks.base_address != d.base_address, "base_address");
    refuse_if(ks.seed != d.seed, "seed");
  }
  // Within the synthetic kind, a pattern's own parameters mean nothing to the other patterns.
  const std::string& pat = ks.pattern;
  const bool grid = pat == "transpose" || pat == "stencil2d" || pat == "stencil3d";
  refuse_if(ks.width_lines != d.width_lines && !(synthetic && grid), "width_lines");
  refuse_if(ks.height_lines != d.height_lines && !(synthetic && pat == "stencil3d"), "height_lines");
  refuse_if(ks.stride_x != d.stride_x && !(synthetic && pat == "strided"), "stride_x");
  refuse_if(ks.stride_y != d.stride_y && !(synthetic && pat == "strided"), "stride_y");
  refuse_if(ks.bins_bytes != d.bins_bytes && !(synthetic && pat == "histogram"), "bins_bytes");
  refuse_if(ks.output_bytes != d.output_bytes && !(synthetic && pat == "reduction_to_one"), "output_bytes");
  refuse_if(!ks.args.empty() && !app && !library, "args");
  refuse_if(!ks.input.empty() && !app, "input");
  refuse_if(!ks.trace_path.empty() && (library || cuda),
            "trace");  // an application with a trace or a kernel: derive_app
  refuse_if(!ks.kernel.empty() && cuda, "kernel");
  refuse_if(!ks.app.empty() && cuda, "app");
}

void derive_workload(const SystemParams& p, SystemSpec& s) {
  const WorkloadParams& w = p.workload;
  s.workload_name = w.name;
  for (std::size_t i = 0; i < w.allocations.size(); ++i) {
    const AllocationParams& ap = w.allocations[i];
    runtime::Allocation al;
    al.name = ap.name;
    al.base = ap.base_address;
    al.bytes = ap.bytes;
    al.element_bytes = ap.element_bytes;
    if (ap.rows || ap.cols) al.shape = runtime::Shape{ap.rows, ap.cols, ap.depth};
    al.stride_bytes = ap.stride_bytes;
    if (!ap.placement.empty()) {
      al.policy = parsed("workload.allocations." + str(i) + ".placement", ap.placement,
                         runtime::parse_placement_policy);
    }
    s.allocations.push_back(al);
  }
  std::vector<KernelSpec> kernels = w.kernels;
  if (w.trace_list.empty()) {
    // Library kernels' arrays start above everything else the workload names.
    std::uint64_t next_base = std::uint64_t(1) << 32;
    for (const runtime::Allocation& al : s.allocations)
      next_base = std::max(next_base, (al.base + al.bytes + (std::uint64_t(2) << 20) - 1) >> 21 << 21);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      refuse_meaningless_keys("workload.kernels." + str(i) + ".", kernels[i]);
      if (!kernels[i].app.empty())
        derive_app("workload.kernels." + str(i) + ".", kernels[i], next_base, s);
      else if (!kernels[i].kernel.empty())
        derive_library_kernel("workload.kernels." + str(i) + ".", kernels[i], next_base, s);
    }
  }
  try {  // the placement checks allocations against its policy (shapes, strides, overlaps)
    runtime::Placement check(
        s.sockets, runtime::PlacementParams{s.placement, s.page_bytes, s.facts.line_bytes, 0}, s.allocations);
  } catch (const std::invalid_argument& e) {
    fail(w.allocations.empty() ? "memory.placement" : "workload.allocations", e.what());
  }
  if (!w.trace_list.empty()) {  // the program read the list's kernels (traces) into `kernels`
    if (w.kernels.empty()) fail("workload.trace_list", w.trace_list + " lists no kernel");
    s.kernels = w.kernels;
    return;
  }
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string k = "workload.kernels." + str(i) + ".";
    KernelSpec ks = kernels[i];
    if (ks.grid_x && ks.ctas % ks.grid_x != 0)
      fail(k + "grid_x", str(ks.grid_x) + " does not divide ctas (" + str(ks.ctas) + ")");
    // workload.scale multiplies every synthetic kernel's grid (and so its footprint); a library kernel's grid
    // is its arguments'.
    if (ks.kernel.empty() && !ks.host_program())
      ks.ctas =
          static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t(ks.ctas) * w.scale, 1u << 24));
    if (ks.trace_path.empty() && ks.kernel.empty() && !ks.host_program() && ks.ctas == 0)
      fail(k + "ctas", "missing: a kernel without a trace needs its number of CTAs");
    // A trace's CTA size is in the trace, not in warps_per_cta: the workload builder checks it on its header.
    if (ks.trace_path.empty() && !ks.host_program() && !s.sm.fits({ks.warps_per_cta})) {
      fail(k + "warps_per_cta", str(ks.warps_per_cta) + " exceeds sm.max_warps (" + str(s.sm.max_warps) +
                                    "): a CTA would never fit on an SM");
    }
    if (ks.write_percent + ks.atomic_percent > 100) {
      fail(k + "atomic_percent", "write_percent + atomic_percent is " +
                                     str(ks.write_percent + ks.atomic_percent) + ", more than 100");
    }
    s.kernels.push_back(ks);
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

void require_rtl_build(const std::vector<RtlField>& fields, bool matched, const std::string& block,
                       const std::string& builds) {
  if (matched) return;
  const RtlField* blame = &fields.back();
  for (const RtlField& f : fields) {
    if (!f.built) {
      blame = &f;
      break;
    }
  }
  const std::string what = blame->derived.empty()
                               ? str(blame->value)
                               : "gives " + blame->derived + " " + str(blame->value) + ", which";
  fail(blame->key, what + " matches no RTL build of the " + block + " (built: " + builds +
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

void check_rtl_policies(const SystemSpec& s) {
  if (!s.rtl_policies) return;
#ifndef NUMAGPU_HAVE_RTL_LOOP
  fail("policy.impl", "rtl needs the Verilated models, and this numagpu was built without Verilator");
#else
  const Topology topology = system_topology(s);
  const bool custom = !s.topology.links.empty();
  if (s.l2_numa_aware) {
    using PC = policy::PartitionController::Params;
    const std::vector<PC> builds = rtl_builds<policy::PartitionController>();
    for (unsigned socket = 0; socket < s.sockets; ++socket) {
      if (topology.links_of(socket).empty()) continue;  // a single socket: no partition controller stepped
      const PC pc = partition_params(s, topology, socket);
      // The response is header + line; the ingress is lanes / 2 x lane bytes: blame the factor that differs
      // from the paper's (the builds' own).
      const bool line_differs = s.facts.line_bytes != MachineFacts{}.line_bytes;
      const bool lanes_differ = s.link.lanes != policy::LinkBalancer::Params{}.lanes;
      const std::vector<RtlField> fields = {
          {"l2.ways", pc.ways, any_build(builds, &PC::ways, pc.ways)},
          {"l2.partition_sample_cycles", pc.sample_cycles,
           any_build(builds, &PC::sample_cycles, pc.sample_cycles)},
          {"l2.saturation_percent", pc.sat_num, any_build(builds, &PC::sat_num, pc.sat_num)},
          {line_differs ? "l1.line_bytes" : "link.header_bytes", pc.resp_bytes,
           any_build(builds, &PC::resp_bytes, pc.resp_bytes), "a read response of"},
          {custom         ? "topology.links"
           : lanes_differ ? "link.lanes"
                          : "link.lane_bytes",
           pc.ingress_bytes_per_cycle,
           any_build(builds, &PC::ingress_bytes_per_cycle, pc.ingress_bytes_per_cycle),
           "an ingress capacity (bytes per cycle) of"}};
      require_rtl_build(fields, make_rtl<policy::PartitionController>(pc) != nullptr, "partition controller",
                        describe_rtl_builds<policy::PartitionController>());
    }
  }
  if (s.link_mode != LinkMode::kDynamic) return;  // no balancer runs: nothing more to check
  using LB = policy::LinkBalancer::Params;
  const std::vector<LB> builds = rtl_builds<policy::LinkBalancer>();
  for (std::size_t l = 0; l < topology.links.size(); ++l) {
    const LB lb = balancer_params(s, topology.links[l].spec);
    const std::vector<RtlField> fields = {
        {"link.sample_cycles", lb.sample_cycles, any_build(builds, &LB::sample_cycles, lb.sample_cycles)},
        {"link.switch_cycles", lb.switch_cycles, any_build(builds, &LB::switch_cycles, lb.switch_cycles)},
        {"link.saturation_percent", lb.sat_num, any_build(builds, &LB::sat_num, lb.sat_num)},
        {custom ? "topology.links." + str(l) : std::string("link.lanes"), lb.lanes,
         any_build(builds, &LB::lanes, lb.lanes)}};
    require_rtl_build(fields, make_rtl<policy::LinkBalancer>(lb) != nullptr, "link balancer",
                      describe_rtl_builds<policy::LinkBalancer>());
  }
#endif
}

}  // namespace

LinkSpec custom_link_spec(const TopologyLinkParams& link, const LinkSpec& defaults, std::uint64_t clock_mhz,
                          LinkMode mode) {
  LinkSpec ls = defaults;
  // gbps per direction over lanes/2 lanes: bytes per cycle per lane = gbps * 1000 / clock_mhz / (lanes / 2),
  // kept as the exact fraction milli_gbps / (clock_mhz * lanes / 2).
  ls.lane_rate_num = static_cast<std::uint64_t>(link.gbps * 1000.0 + 0.5);
  ls.lane_rate_den = clock_mhz * (link.lanes / 2);
  ls.latency = link.latency_cycles;
  // `defaults` already carries the mode's doubling of the switch links' lanes; a custom link's own lane
  // count is doubled here, by the same rule.
  ls.lanes = lanes_in_mode(link.lanes * link.count, mode);
  return ls;
}

SystemSpec derive_system_spec(const SystemParams& p) {
  SystemSpec s;
  derive_machine(p, s);
  derive_facts(p, s);
  derive_caches(p, s);
  derive_carveouts(p, s);
  derive_crossbar_and_dram(p, s);
  derive_runtime_and_memory(p, s);
  derive_links(p, s);
  derive_topology(p, s);
  derive_external(p, s);
  derive_checks(p, s);
  derive_workload(p, s);
  // Every value is derived: now the policies' derived parameters can be checked.
  check_rtl_policies(s);
  return s;
}

}  // namespace numagpu
