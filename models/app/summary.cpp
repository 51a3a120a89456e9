#include "app/summary.hpp"

#include <cctype>
#include <cstdio>
#include <ostream>

#include "common/health.hpp"
#include "system/system.hpp"

namespace numagpu {

namespace {

std::uint64_t counter(const stats::Registry& r, const std::string& path) {
  const auto* c = r.find_counter(path);
  return c ? c->value() : 0;
}

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

HitMiss read_hits(const stats::Registry& r, const std::string& cache) {
  HitMiss hm;
  for (const char* cls : {"local_local", "local_remote", "remote_local"}) {
    hm.hits += counter(r, cache + ".read_hits." + cls);
    hm.misses += counter(r, cache + ".read_misses." + cls);
  }
  return hm;
}

}  // namespace

RunFacts collect_facts(System& system, stats::Registry& registry, double wall_seconds) {
  const SystemSpec& spec = system.spec();
  RunFacts f;
  f.sim_cycles = system.finish_cycle() ? system.finish_cycle() : system.drained_cycle();
  f.drained_cycles = system.drained_cycle();
  f.kernels_done = system.dispatcher().kernels_done();
  f.kernels_total = static_cast<std::uint32_t>(spec.kernels.size());
  f.transactions = system.pool().allocated_total();
  f.wall_seconds = wall_seconds;
  f.policy_impl = spec.rtl_policies ? "rtl" : "model";
  f.protocol_phases_checked = system.protocol_phases_checked();
  f.protocol_hops = system.checker_count();
  f.protocol_violations = system.context().health.count(RunHealth::Kind::kProtocol);
  f.audit_errors = system.context().health.count(RunHealth::Kind::kAudit);
  f.watchdog_fired = system.context().health.count(RunHealth::Kind::kWatchdog);

  for (unsigned s = 0; s < spec.sockets; ++s) {
    const std::string sock = "system.socket" + std::to_string(s);
    SocketFacts sf;
    HitMiss l1, l2;
    for (unsigned i = 0; i < spec.sms_per_socket; ++i) {
      const std::string sm = sock + ".sm" + std::to_string(i);
      f.instructions += counter(registry, sm + ".instructions");
      f.loads += counter(registry, sm + ".loads");
      f.stores += counter(registry, sm + ".stores");
      f.atomics += counter(registry, sm + ".atomics");
      registry
          .scalar(sm + ".ipc", "instructions/cycle", "Warp instructions per cycle of this SM over the run")
          .set(f.sim_cycles ? double(counter(registry, sm + ".instructions")) / double(f.sim_cycles) : 0.0);
      const HitMiss h = read_hits(registry, sock + ".l1_" + std::to_string(i));
      l1.hits += h.hits;
      l1.misses += h.misses;
    }
    for (unsigned b = 0; b < spec.l2_banks; ++b) {
      const HitMiss h = read_hits(registry, sock + ".l2_" + std::to_string(b));
      l2.hits += h.hits;
      l2.misses += h.misses;
    }
    sf.l1_read_hit_percent = percent(l1.hits, l1.hits + l1.misses);
    sf.l2_read_hit_percent = percent(l2.hits, l2.hits + l2.misses);
    const std::uint64_t dram_bytes =
        counter(registry, sock + ".dram.read_bytes") + counter(registry, sock + ".dram.write_bytes");
    sf.dram_gbps = gbps(dram_bytes, f.sim_cycles, spec.clock_mhz);
    sf.link_egress_gbps = gbps(system.fabric_bytes_out(s), f.sim_cycles, spec.clock_mhz);
    sf.link_ingress_gbps = gbps(system.fabric_bytes_in(s), f.sim_cycles, spec.clock_mhz);
    sf.remote_requests = counter(registry, sock + ".xbar.requests_to_link");
    f.sockets.push_back(sf);

    const std::string sum = "summary.socket" + std::to_string(s);
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
  registry.scalar("summary.sim_cycles", "cycles", "Cycle at which the last kernel completed")
      .set(double(f.sim_cycles));
  // Placement of each declared allocation: its pages per socket (for first touch: pages touched so far).
  for (const runtime::AllocationReport& r : system.homes().policy().report()) {
    std::string name;
    for (char c : r.name)
      name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    for (std::size_t s = 0; s < r.pages.size(); ++s) {
      registry
          .scalar("placement." + name + ".pages.socket" + std::to_string(s), "pages",
                  "Whole pages of the allocation homed at the socket")
          .set(double(r.pages[s]));
    }
  }
  registry.scalar("summary.ipc", "instructions/cycle", "Warp instructions per cycle, whole system")
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

void print_summary(std::ostream& os, const SystemSpec& spec, const RunFacts& f, const std::string& out_dir,
                   const std::string& power_table) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "numagpu: workload '%s' on %u socket(s) x %u SMs\n",
                spec.workload_name.c_str(), spec.sockets, spec.sms_per_socket);
  os << buf;
  std::snprintf(buf, sizeof buf, "simulated   %llu cycles (%.3f us at %llu MHz), kernels %u/%u, IPC %.2f\n",
                static_cast<unsigned long long>(f.sim_cycles), double(f.sim_cycles) / double(spec.clock_mhz),
                static_cast<unsigned long long>(spec.clock_mhz), f.kernels_done, f.kernels_total,
                f.sim_cycles ? double(f.instructions) / double(f.sim_cycles) : 0.0);
  os << buf;
  std::snprintf(buf, sizeof buf,
                "requests    %llu loads, %llu stores, %llu atomics; %llu transactions in all\n",
                static_cast<unsigned long long>(f.loads), static_cast<unsigned long long>(f.stores),
                static_cast<unsigned long long>(f.atomics), static_cast<unsigned long long>(f.transactions));
  os << buf;
  std::snprintf(buf, sizeof buf, "host        %.2f s wall, %.3f M transactions/s\n", f.wall_seconds,
                f.wall_seconds > 0 ? double(f.transactions) / f.wall_seconds / 1e6 : 0.0);
  os << buf;
  os << "socket  L1 hit%  L2 hit%  DRAM GB/s  link out GB/s  link in GB/s  remote reqs\n";
  for (std::size_t s = 0; s < f.sockets.size(); ++s) {
    const SocketFacts& sf = f.sockets[s];
    std::snprintf(buf, sizeof buf, "%6zu  %7.1f  %7.1f  %9.1f  %13.1f  %12.1f  %11llu\n", s,
                  sf.l1_read_hit_percent, sf.l2_read_hit_percent, sf.dram_gbps, sf.link_egress_gbps,
                  sf.link_ingress_gbps, static_cast<unsigned long long>(sf.remote_requests));
    os << buf;
  }
  if (f.protocol_hops) {
    std::snprintf(buf, sizeof buf, "checks      protocol: %llu violation(s) in %llu phases on %zu hops; ",
                  static_cast<unsigned long long>(f.protocol_violations),
                  static_cast<unsigned long long>(f.protocol_phases_checked), f.protocol_hops);
    os << buf;
  } else {
    os << "checks      protocol: off; ";
  }
  os << "audit: " << (f.audit_errors ? std::to_string(f.audit_errors) + " error(s)" : std::string("ok"))
     << "; watchdog: " << (f.watchdog_fired ? "fired" : "quiet") << "\n";
  os << power_table;
  os << "outputs     " << out_dir << "/stats.json, stats.txt, config.yaml, activity.json, power.json"
     << (f.sockets.size() > 1 ? ", lanes.vcd" : "") << "\n";
}

}  // namespace numagpu
