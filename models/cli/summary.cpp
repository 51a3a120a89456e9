#include "cli/summary.hpp"

#include <cstdio>
#include <ostream>

#include "common/cycles.hpp"

namespace numagpu {

void print_summary(std::ostream& os, const SystemSpec& spec, const RunFacts& f, const std::string& out_dir,
                   const std::string& power_table) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "numagpu: workload '%s' on %u socket(s) x %u SMs\n",
                spec.workload_name.c_str(), spec.sockets, spec.sms_per_socket);
  os << buf;
  std::snprintf(buf, sizeof buf, "simulated   %llu cycles (%.3f us at %llu MHz), kernels %u/%u, IPC %.2f\n",
                static_cast<unsigned long long>(f.sim_cycles),
                double(f.sim_cycles) * double(period_ps_of_mhz(spec.clock_mhz)) / 1e6,
                static_cast<unsigned long long>(spec.clock_mhz), f.kernels_done, f.kernels_total,
                f.sim_cycles ? double(f.instructions) / double(f.sim_cycles) : 0.0);
  os << buf;
  for (const AppLaunchFacts& a : f.app_launches) {
    std::snprintf(buf, sizeof buf, "launches    %s: %s x %llu, %llu cycles\n", a.app.c_str(),
                  a.kernel.c_str(), static_cast<unsigned long long>(a.launches),
                  static_cast<unsigned long long>(a.cycles));
    os << buf;
  }
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
