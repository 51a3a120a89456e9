// Per-event energies and static powers, as plain values: what turns an activity record into joules.
// Filled from the `energy:` configuration section (power/energy_config.hpp), where the defaults live.
#pragma once

#include <array>

#include <nlohmann/json.hpp>

namespace numagpu::power {

// The instruction classes' key names under energy.sm (`<class>_pj`), in InstrClass order.
inline constexpr const char* kInstrClassNames[] = {"fp32",   "fp64",   "int",    "sfu",  "tensor",
                                                   "branch", "shared", "memory", "other"};

struct EnergyTable {
  struct Cache {
    double read_pj = 0;   // one line read (lookup and data), hit or miss; also a dirty line written back
    double write_pj = 0;  // one write received; also the write half of an atomic performed here
    double fill_pj = 0;   // one line allocated after a miss (or a write-back cache's write allocate)
    double miss_pj = 0;   // one read miss on top of its read: MSHR, request to the next level
    // Sectored caches only: per 32 B sector moved in or out of the data array (sectors read on a hit,
    // written, filled after a miss); the per-line energies above then stand for tags and control.
    double sector_pj = 0;
    double static_w = 0;  // per cache instance (an L1, or one L2 bank)
  };

  // Fabric. Following the paper, link_pj_per_bit is the energy of one bit a GPU sends into the fabric on
  // its way to the next GPU, links and switch combined; switch_pj_per_bit is added per bit a switch sends
  // on (0 by default: the paper's figure includes the switch).
  double link_pj_per_bit = 0;
  double link_turnaround_pj = 0;  // per lane turned around (dynamic links)
  double link_static_w = 0;       // per link
  double switch_pj_per_bit = 0;
  double switch_static_w = 0;      // per switch
  double crossbar_pj_per_bit = 0;  // request and response bits through a socket's crossbar
  double crossbar_static_w = 0;    // per crossbar (one per socket)
  double dram_read_pj_per_bit = 0;
  double dram_write_pj_per_bit = 0;
  double dram_static_w = 0;          // per socket's DRAM (background, refresh)
  double dram_channel_static_w = 0;  // per DRAM channel (its memory controller and PHY)
  Cache l1;
  Cache l2;
  double sm_instruction_pj = 0;  // per warp instruction issued, whatever its class (fetch, decode, registers)
  // On top of sm_instruction_pj, per warp instruction of each class (InstrClass order: fp32, fp64, int, sfu,
  // tensor, branch, shared, memory, other).
  std::array<double, 9> sm_class_pj{};
  double sm_static_w = 0;    // per SM, always
  double sm_resident_w = 0;  // per SM while at least one CTA is resident (an idle SM draws only static_w)
  // Taken off sm_resident_w per thread the SM's average warp instruction lacks of 32 (never below 0).
  double sm_resident_lane_w = 0;
  // When > 0: a resident SM's power, instead of the two above, in a window in which it issued tensor
  // instructions (AccelWattch's tensor mix: a higher static power that does not depend on lanes).
  double sm_resident_tensor_w = 0;
  double board_constant_w = 0;  // per socket (a GPU board): board, fans, the GPU's uncore
  // Per socket: the board's power limit (TDP); 0: none. Not enforced (no power capping is modelled): a
  // socket whose average power exceeds it is flagged in power.json and the run's summary.
  double board_power_limit_w = 0;
  // The two policy blocks, from their synthesized netlists (docs/rtl-area.md).
  double policy_flop_cycle_fj = 0;         // per flip-flop per clock cycle
  double policy_transistor_static_nw = 0;  // leakage per transistor

  nlohmann::json resolved = nlohmann::json::object();  // the `energy` section these values came from
};

}  // namespace numagpu::power
