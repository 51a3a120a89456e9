// The figures a person reads after a run, gathered once from the components' own counters (their
// counters(), by reference: no statistic is looked up by name) and recorded back into the registry under
// "summary.", "placement." and each SM's ".ipc", so that stats.json holds them too. The program prints them
// (cli/summary.hpp); the statistics are documented in docs/stats.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace numagpu {

class System;

struct SocketFacts {
  double l1_read_hit_percent = 0;
  double l2_read_hit_percent = 0;
  double dram_gbps = 0;          // read + write, over the run
  double link_egress_gbps = 0;   // leaving the socket, over all its links
  double link_ingress_gbps = 0;  // entering the socket
  std::uint64_t remote_requests = 0;
};

// The launches of one kernel of an application (the statistics' runtime.app<N>.<kernel>).
struct AppLaunchFacts {
  std::string app, kernel;
  std::uint64_t launches = 0, cycles = 0;
};

struct RunFacts {
  std::uint64_t sim_cycles = 0;      // last kernel's completion
  std::uint64_t drained_cycles = 0;  // last transaction's end (write-backs drain after the last kernel)
  std::uint32_t kernels_done = 0;
  std::uint32_t kernels_total = 0;
  std::uint64_t instructions = 0;
  std::uint64_t loads = 0, stores = 0, atomics = 0;
  std::uint64_t transactions = 0;  // every transaction created, write-backs included
  double wall_seconds = 0;
  std::uint64_t protocol_phases_checked = 0;
  std::size_t protocol_hops = 0;
  std::uint64_t protocol_violations = 0, audit_errors = 0, watchdog_fired = 0;
  std::vector<SocketFacts> sockets;
  std::vector<AppLaunchFacts> app_launches;  // in the order of first launch
  std::string policy_impl = "model";  // which implementation of the policy blocks decided: model or rtl

  nlohmann::json to_json() const;
};

// Once, after the run: gathers the facts and registers the summary statistics in system.stats() (a second
// call would register them twice, which the registry refuses).
RunFacts collect_facts(System& system, double wall_seconds);

}  // namespace numagpu
