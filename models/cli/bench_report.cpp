#include "cli/bench_report.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <ostream>

namespace numagpu {

nlohmann::json BenchReport::to_json() const {
  return {{"schema", "numagpu-bench"},
          {"version", 1},
          {"startup_seconds", startup_seconds},
          {"simulate_seconds", simulate_seconds},
          {"sim_cycles", sim_cycles},
          {"sm_requests", sm_requests},
          {"transactions", transactions},
          {"deliveries", activity.deliveries},
          {"activations", activity.activations},
          {"quiet_windows_skipped", activity.quiet_windows_skipped},
          {"quiet_cycles_skipped", activity.quiet_cycles_skipped},
          {"kernel_generation_seconds", activity.kernel_generation_seconds},
          {"delta_cycles", delta_cycles},
          {"peak_rss_kib", peak_rss_kib},
          {"sm_requests_per_second", sm_requests_per_second()},
          {"sim_cycles_per_second", sim_cycles_per_second()},
          {"deliveries_per_request", deliveries_per_request()},
          {"activations_per_request", activations_per_request()},
          {"ptx_warp_instructions", ptx_warp_instructions},
          {"ptx_seconds", ptx_seconds},
          {"ptx_warp_instructions_per_second",
           ptx_seconds > 0 ? double(ptx_warp_instructions) / ptx_seconds : 0.0},
          {"host_program_seconds", host_program_seconds}};
}

void BenchReport::print(std::ostream& os) const {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "bench       startup %.3f s, simulate %.3f s, peak RSS %.1f MiB\n"
                "            %.3f M SM requests/s (%llu requests), %.3f M cycles/s (%llu cycles)\n"
                "            %.2f deliveries/request, %.2f activations/request, %.2f delta cycles/request, "
                "%llu quiet policy windows and %llu cycles skipped\n",
                startup_seconds, simulate_seconds, double(peak_rss_kib) / 1024.0,
                sm_requests_per_second() / 1e6, static_cast<unsigned long long>(sm_requests),
                sim_cycles_per_second() / 1e6, static_cast<unsigned long long>(sim_cycles),
                deliveries_per_request(), activations_per_request(), per_request(delta_cycles),
                static_cast<unsigned long long>(activity.quiet_windows_skipped),
                static_cast<unsigned long long>(activity.quiet_cycles_skipped));
  os << buf;
  if (activity.kernel_generation_seconds > 0) {  // C++ kernels ran: their share of the simulation
    std::snprintf(buf, sizeof buf, "            kernel generation %.3f s (%.1f %% of simulate)\n",
                  activity.kernel_generation_seconds,
                  simulate_seconds > 0 ? 100.0 * activity.kernel_generation_seconds / simulate_seconds : 0.0);
    os << buf;
  }
  if (ptx_warp_instructions >
      0) {  // a CUDA program: the PTX executor's speed and share of the simulator's time
    const double simulator = simulate_seconds - host_program_seconds;
    std::snprintf(buf, sizeof buf,
                  "            PTX execution %.3f s (%.1f %% of simulate without the program's own %.3f s), "
                  "%.2f M warp instructions/s (%llu)\n",
                  ptx_seconds, simulator > 0 ? 100.0 * ptx_seconds / simulator : 0.0, host_program_seconds,
                  ptx_seconds > 0 ? double(ptx_warp_instructions) / ptx_seconds / 1e6 : 0.0,
                  static_cast<unsigned long long>(ptx_warp_instructions));
    os << buf;
  }
}

std::uint64_t peak_rss_kib() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss);  // KiB on Linux
}

}  // namespace numagpu
