// A small system for end-to-end tests: built from a SystemSpec directly (no configuration files), so the
// expected numbers below can be derived by hand from a handful of parameters.
#pragma once

#include <memory>
#include <sstream>
#include <string>

#include "common/health.hpp"
#include "system/system.hpp"
#include "system/system_spec.hpp"

namespace numagpu::testing {

inline KernelSpec stream_kernel(const char* name, std::uint32_t ctas, std::uint32_t warps,
                                std::uint32_t accesses) {
  KernelSpec k;
  k.name = name;
  k.pattern = "stream";
  k.ctas = ctas;
  k.warps_per_cta = warps;
  k.accesses_per_warp = accesses;
  k.compute_cycles = 0;
  return k;
}

// The test system's L1: 16 KiB, 4 ways, write-through, 20-cycle hits, 32 requests in process.
inline CacheSpec l1_spec() {
  CacheSpec c;
  c.size_bytes = 16 * 1024;
  c.ways = 4;
  c.hit_latency = 20;
  c.max_in_process = 32;
  return c;
}

// An L2 bank of `bytes`: 16 ways, write-back, atomics performed here, 30-cycle hits, 32 in process.
inline CacheSpec l2_bank_spec(std::uint64_t bytes) {
  CacheSpec c;
  c.size_bytes = bytes;
  c.ways = 16;
  c.hit_latency = 30;
  c.max_in_process = 32;
  c.write_back = true;
  c.caches_atomics = true;
  return c;
}

inline SystemSpec small_spec(unsigned sockets) {
  SystemSpec s;
  s.sockets = sockets;
  s.clock_mhz = 1000;
  s.sms_per_socket = 4;
  s.l2_banks = 4;
  s.facts.line_bytes = 128;
  s.facts.header_bytes = 16;
  s.sm.max_warps = 16;
  s.sm.max_outstanding = 32;
  s.l1 = l1_spec();
  // 64 KiB per socket over 4 banks: 16 KiB per bank (the system picks a bank by the 2 low line bits).
  s.l2 = l2_bank_spec(16 * 1024);
  s.crossbar.latency = 10;
  s.crossbar.port_bytes_per_cycle = 64;
  s.crossbar.queue_depth = 8;
  s.dram.bandwidth_bytes_num = 768;  // 768 B/cycle = 768 GB/s at 1 GHz
  s.dram.bandwidth_den = 1;
  s.dram.channels = 8;
  s.dram.latency = 100;
  s.dram.queue_depth = 16;
  s.link.lanes = 16;
  s.link.lane_rate_num = 8;  // 8 B per lane per cycle
  s.link.latency = 64;       // per traversal: 128 socket to socket
  s.sw.latency = 0;
  s.placement = runtime::PlacementPolicy::kPageInterleave;
  s.page_bytes = 4096;  // 32 lines per page
  s.protocol_checks = true;
  s.watchdog_cycles = 100000;
  return s;
}

// Two sockets of small_spec that deadlock: GPU-side L2 banks of 4 requests in process with the fabric's
// requests sharing the socket's request network, under 64 CTAs of cross-socket streams: the watchdog fires
// (after 20000 cycles without a completion).
inline SystemSpec deadlocking_spec() {
  SystemSpec spec = small_spec(2);
  spec.l2.gpu_side = true;
  spec.l2.max_in_process = 4;
  spec.crossbar.shared_request_network = true;
  spec.watchdog_cycles = 20000;
  spec.kernels = {stream_kernel("cross", 64, 4, 64)};
  return spec;
}

// Runs a system built from `spec` to completion. `ok` is false when the
// protocol checker, the audit or the watchdog reported something; `diagnostics` holds what they printed.
struct CheckedRun {
  std::unique_ptr<System> system;
  std::string diagnostics;
  bool ok = false;
};

inline CheckedRun run_checked(const SystemSpec& spec, stats::Registry& reg) {
  std::ostringstream diag;
  CheckedRun run;
  run.system = std::make_unique<System>("system", spec, reg, diag);
  run.system->run();
  run.diagnostics = diag.str();
  run.ok = run.system->context().health.ok();
  return run;
}

}  // namespace numagpu::testing
