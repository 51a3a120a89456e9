// The power model: energy and average power of every component instance, from what it did (Activity) and
// what each event costs (EnergyTable). power_document() is a pure function of the two: a run computes its
// power.json with it, and `numagpu power` recomputes one from activity.json with any table, identically.
// docs/power.md describes the model and the document.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "power/activity.hpp"
#include "power/energy_table.hpp"

namespace numagpu::power {

// Bumped on every incompatible change to power.json.
inline constexpr int kPowerSchemaVersion = 1;

// Energy of one instance over a span (the run, or one window).
struct InstanceEnergy {
  double dynamic_j = 0;
  double static_j = 0;
  // The paper's communication energy within dynamic_j: per-bit fabric energy (links, switches).
  double communication_j = 0;
  double communication_bits = 0;  // bits GPUs sent into the fabric (links only)
};

// `window` < 0: the whole run, else that window; `seconds` is the span's length; `clock_hz` turns counted
// cycles (an SM's resident cycles) into time.
InstanceEnergy instance_energy(const Instance& instance, long window, double seconds, double clock_hz,
                               const EnergyTable& table);

// The kinds power.json reports, in order: the activity's component kinds, then `board` (each socket's
// constant power, energy.board.constant_w, which no component instance carries).
inline constexpr const char* kPowerKinds[] = {
    "sm", "l1", "l2", "crossbar", "dram", "link", "switch", "link_balancer", "partition_controller", "board"};

// power.json (schema in docs/power.md).
nlohmann::json power_document(const Activity& activity, const EnergyTable& table, const std::string& version);

// The short table printed after a run and by `numagpu power`.
std::string power_summary(const nlohmann::json& power);

}  // namespace numagpu::power
