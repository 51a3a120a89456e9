// The `energy:` configuration section (per-event energies and static power of every component, declared by
// EnergyParams::keys() in power/energy_params.hpp) in a schema, and its reading into an EnergyTable. Every
// default and its source is documented in docs/power.md.
#pragma once

#include "config/config.hpp"
#include "power/energy_table.hpp"

namespace numagpu::power {

// Adds the `energy` section to a configuration schema (the system schema calls this).
void add_energy_schema(config::Schema& root);

// A schema holding only the `energy` section: what `numagpu power --energy table.yaml` accepts.
const config::Schema& energy_schema();

// The table of a validated configuration that has the `energy` section (system or energy-only schema).
EnergyTable energy_table(const config::Config& cfg);

}  // namespace numagpu::power
