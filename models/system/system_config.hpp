// The configuration schema of a numagpu system (every parameter with its default, range, unit and meaning)
// and its translation into a SystemSpec, with the cross-parameter checks a schema alone cannot express.
#pragma once

#include "config/config.hpp"
#include "system/system_spec.hpp"

namespace numagpu {

const config::Schema& system_schema();
// Throws config::ConfigError (pointing at the offending value) when parameters are inconsistent.
SystemSpec to_system_spec(const config::Config& cfg);

// The configuration as the run used it, for everything written about the run (config.yaml, stats.json,
// stats.txt, activity.json, `config dump`): a workload.trace_list is replaced by the kernels read from it
// (workload.kernels with `trace:` paths, trace_list empty, workload.name the name the run had), and every
// trace path is absolute, so that the written file reproduces the run from wherever it is loaded. Without
// trace paths it is `cfg` itself (same tree, same hash). Throws config::ConfigError like to_system_spec.
config::Config as_run_configuration(const config::Config& cfg);

}  // namespace numagpu
