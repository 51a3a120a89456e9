#include "system/run_summary.hpp"

#include <cctype>

#include "common/health.hpp"
#include "system/system.hpp"

namespace numagpu {

namespace {

double percent(std::uint64_t part, std::uint64_t whole) {
  return whole ? 100.0 * double(part) / double(whole) : 0.0;
}

// Bytes over cycles at the GPU clock, in GB/s (10^9 bytes per second).
double gbps(std::uint64_t bytes, std::uint64_t cycles, std::uint64_t clock_mhz) {
  return cycles ? double(bytes) / double(cycles) * double(clock_mhz) / 1000.0 : 0.0;
}

struct HitMiss {
  std::uint64_t hits = 0, misses = 0;
};

// Read lookups of a cache, all traffic classes.
void add_read_hits(HitMiss& hm, const Cache& cache) {
  const Cache::Counters c = cache.counters();
  for (std::size_t k = 0; k < c.read_hits.size(); ++k) {
    hm.hits += c.read_hits[k]->value();
    hm.misses += c.read_misses[k]->value();
  }
}

}  // namespace

RunFacts collect_facts(System& system, double wall_seconds) {
  const SystemSpec& spec = system.spec();
  stats::Registry& registry = system.stats();
  const std::string prefix = system.summary_prefix();
  RunFacts f;
  f.sim_cycles = system.finish_cycle() ? system.finish_cycle() : system.drained_cycle();
  f.drained_cycles = system.drained_cycle();
  f.kernels_done = system.dispatcher().kernels_done();
  f.kernels_total = system.dispatcher().items_total();  // an application counts once until it has run
  bool apps = false;
  for (const KernelSpec& k : spec.kernels)
    apps = apps || k.host_program();
  if (apps) {  // an application's launches are known once it has run: those launched so far
    f.kernels_total = system.dispatcher().kernels_launched();
    for (const KernelDispatcher::AppLaunches& a : system.dispatcher().app_launches())
      f.app_launches.push_back({a.app, a.kernel, a.launches, a.cycles});
  }
  f.transactions = system.pool().allocated_total();
  f.wall_seconds = wall_seconds;
  f.policy_impl = spec.rtl_policies ? "rtl" : "model";
  f.protocol_phases_checked = system.protocol_phases_checked();
  f.protocol_hops = system.checker_count();
  f.protocol_violations = system.context().health.count(RunHealth::Kind::kProtocol);
  f.audit_errors = system.context().health.count(RunHealth::Kind::kAudit);
  f.watchdog_fired = system.context().health.count(RunHealth::Kind::kWatchdog);

  for (unsigned s = 0; s < spec.sockets; ++s) {
    Socket& socket = system.socket(s);
    SocketFacts sf;
    HitMiss l1, l2;
    for (const auto& sm : socket.sms) {
      const Sm::Counters c = sm->counters();
      f.instructions += c.instructions.value();
      f.loads += c.loads.value();
      f.stores += c.stores.value();
      f.atomics += c.atomics.value();
      // A statistic of the summary's own, registered beside the SM's (its name is the SM's, like theirs).
      registry
          .scalar(std::string(sm->name()) + ".ipc", "instructions/cycle",
                  "Warp instructions per cycle of this SM over the run")
          .set(f.sim_cycles ? double(c.instructions.value()) / double(f.sim_cycles) : 0.0);
    }
    for (const auto& l1_cache : socket.l1s)
      add_read_hits(l1, *l1_cache);
    for (const auto& bank : socket.l2_banks)
      add_read_hits(l2, *bank);
    sf.l1_read_hit_percent = percent(l1.hits, l1.hits + l1.misses);
    sf.l2_read_hit_percent = percent(l2.hits, l2.hits + l2.misses);
    const Dram::Counters dram = socket.dram->counters();
    sf.dram_gbps = gbps(dram.read_bytes.value() + dram.write_bytes.value(), f.sim_cycles, spec.clock_mhz);
    sf.link_egress_gbps = gbps(system.fabric_bytes_out(s), f.sim_cycles, spec.clock_mhz);
    sf.link_ingress_gbps = gbps(system.fabric_bytes_in(s), f.sim_cycles, spec.clock_mhz);
    sf.remote_requests = socket.xbar->counters().requests_to_link.value();
    f.sockets.push_back(sf);

    const std::string sum = prefix + "summary.socket" + std::to_string(s);
    registry.scalar(sum + ".l1_read_hit_percent", "percent", "L1 read hit rate over the run")
        .set(sf.l1_read_hit_percent);
    registry.scalar(sum + ".l2_read_hit_percent", "percent", "L2 read hit rate over the run")
        .set(sf.l2_read_hit_percent);
    registry.scalar(sum + ".dram_gbps", "GB/s", "DRAM bandwidth used (reads + writes) over the run")
        .set(sf.dram_gbps);
    registry.scalar(sum + ".link_egress_gbps", "GB/s", "Fabric bandwidth leaving the socket, all its links")
        .set(sf.link_egress_gbps);
    registry.scalar(sum + ".link_ingress_gbps", "GB/s", "Fabric bandwidth entering the socket, all its links")
        .set(sf.link_ingress_gbps);
  }
  registry.scalar(prefix + "summary.sim_cycles", "cycles", "Cycle at which the last kernel completed")
      .set(double(f.sim_cycles));
  // Only where the clock's period is not exactly 1/f (common/cycles.hpp): the period the run used.
  if (1000000 % spec.clock_mhz != 0)
    registry
        .scalar(prefix + "summary.clock_period_ps", "ps",
                "The clock's period, 1/system.clock_mhz rounded to a whole picosecond (only when it is not "
                "exact)")
        .set(double(period_ps_of_mhz(spec.clock_mhz)));
  // Placement of each declared allocation: its pages per socket (for first touch: pages touched so far).
  for (const runtime::AllocationReport& r : system.homes().policy().report()) {
    std::string name;
    for (char c : r.name)
      name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    for (std::size_t s = 0; s < r.pages.size(); ++s) {
      registry
          .scalar(prefix + "placement." + name + ".pages.socket" + std::to_string(s), "pages",
                  "Whole pages of the allocation homed at the socket")
          .set(double(r.pages[s]));
    }
    registry
        .scalar(prefix + "placement." + name + ".requests.local", "requests",
                "Requests (lines the SMs ask for) to the allocation homed at the requesting socket")
        .set(double(r.requests_local));
    registry
        .scalar(prefix + "placement." + name + ".requests.remote", "requests",
                "Requests (lines the SMs ask for) to the allocation homed at another socket")
        .set(double(r.requests_remote));
  }
  registry.scalar(prefix + "summary.ipc", "instructions/cycle", "Warp instructions per cycle, whole system")
      .set(f.sim_cycles ? double(f.instructions) / double(f.sim_cycles) : 0.0);
  return f;
}

nlohmann::json RunFacts::to_json() const {
  return nlohmann::json{
      {"sim_cycles", sim_cycles},
      {"drained_cycles", drained_cycles},
      {"kernels_done", kernels_done},
      {"kernels_total", kernels_total},
      {"transactions", transactions},
      {"wall_seconds", wall_seconds},
      {"host_requests_per_second", wall_seconds > 0 ? double(transactions) / wall_seconds : 0.0},
      {"policy_impl", policy_impl},
      {"checks",
       {{"protocol_hops", protocol_hops},
        {"protocol_phases_checked", protocol_phases_checked},
        {"protocol_violations", protocol_violations},
        {"audit_errors", audit_errors},
        {"watchdog_fired", watchdog_fired != 0}}}};
}

}  // namespace numagpu
