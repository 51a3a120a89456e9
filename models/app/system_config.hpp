// The configuration schema of a numagpu system (every parameter with its default, range, unit and meaning)
// and its translation into a SystemSpec, with the cross-parameter checks a schema alone cannot express.
#pragma once

#include "config/config.hpp"
#include "system/system_spec.hpp"

namespace numagpu {

const config::Schema& system_schema();
// Throws config::ConfigError (pointing at the offending value) when parameters are inconsistent.
SystemSpec to_system_spec(const config::Config& cfg);

}  // namespace numagpu
