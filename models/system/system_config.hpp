// The configuration schema of a numagpu system (every parameter with its default, range, unit and meaning)
// and its translation into a SystemSpec, with the cross-parameter checks a schema alone cannot express.
#pragma once

#include <string>
#include <vector>

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

// The key that named the trace of kernel `kernel` (an index into SystemSpec::kernels): workload.trace_list
// when the kernels were read from a list, else workload.kernels.<kernel>.trace. What a problem only
// opening the trace shows (its CTA too large for an SM, system/workload_builder.hpp) is reported at.
std::string trace_key(const config::Config& cfg, std::size_t kernel);

// A file a run of the configuration reads besides the configuration itself, and the key that names it.
struct InputFile {
  std::string key;   // "workload.kernels.2.input", "workload.trace_list", ...
  std::string path;  // as the run opens it (relative paths resolved against the file that set them)
};

// Every input file of the configuration, in a fixed order: workload.trace_list and each trace it lists, or
// each kernel's trace and input (an application's reference input when it names none). A sweep point's
// identity hashes their contents (cli/sweep_spec.hpp). Throws config::ConfigError like to_system_spec.
std::vector<InputFile> input_files(const config::Config& cfg);

}  // namespace numagpu
