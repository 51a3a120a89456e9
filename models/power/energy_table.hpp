// Per-event energies and static powers as a run used them: what turns an activity record into joules. The
// values are the `energy:` configuration section's (power/energy_params.hpp, where the keys and defaults
// live), read by power/energy_config.hpp.
#pragma once

#include <nlohmann/json.hpp>

#include "power/energy_params.hpp"

namespace numagpu::power {

struct EnergyTable : EnergyParams {
  nlohmann::json resolved = nlohmann::json::object();  // the `energy` section these values came from
};

}  // namespace numagpu::power
