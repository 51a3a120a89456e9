// `numagpu run --bench`: what simulating the run cost the host, next to what was simulated. Written to
// bench.json in the output directory and printed as a short table; docs/performance.md explains each figure
// and how the project's speed figures are measured with it.
#pragma once

#include <cstdint>
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "common/host_activity.hpp"

namespace numagpu {

struct BenchReport {
  double startup_seconds = 0;      // reading the configuration and building the system (elaboration)
  double simulate_seconds = 0;     // sc_start until the simulation ended (the audit included)
  std::uint64_t sim_cycles = 0;    // simulated cycles until the last transaction drained
  std::uint64_t sm_requests = 0;   // line requests issued by the SMs (loads, stores, atomics)
  std::uint64_t transactions = 0;  // every transaction created, write-backs and copies included
  HostActivity activity;
  std::uint64_t delta_cycles = 0;  // SystemC delta cycles (sc_delta_count)
  std::uint64_t peak_rss_kib = 0;  // the process's peak resident set (getrusage)
  // A CUDA program's run (docs/cuda.md, "Speed"): the warp instructions the PTX executor ran and the host
  // time it took (part of the kernels' generation), and the time the simulation waited while the program's
  // own host code ran between launches (part of simulate_seconds, not the simulator's cost).
  std::uint64_t ptx_warp_instructions = 0;
  double ptx_seconds = 0;
  double host_program_seconds = 0;

  // Per host-second of simulation (startup excluded; the run's total is startup + simulate).
  double sm_requests_per_second() const { return per_second(sm_requests); }
  double sim_cycles_per_second() const { return per_second(sim_cycles); }
  double deliveries_per_request() const { return per_request(activity.deliveries); }
  double activations_per_request() const { return per_request(activity.activations); }

  nlohmann::json to_json() const;
  void print(std::ostream& os) const;

 private:
  double per_second(std::uint64_t n) const { return simulate_seconds > 0 ? double(n) / simulate_seconds : 0; }
  double per_request(std::uint64_t n) const { return sm_requests ? double(n) / double(sm_requests) : 0; }
};

// The process's peak resident set in KiB (0 where the system cannot tell).
std::uint64_t peak_rss_kib();

}  // namespace numagpu
