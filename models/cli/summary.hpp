// The figures a person reads after a run, printed as a short table. They are gathered, and recorded in the
// statistics, by the model (system/run_summary.hpp): the program only reports them.
#pragma once

#include <iosfwd>
#include <string>

#include "system/run_summary.hpp"
#include "system/system_spec.hpp"

namespace numagpu {

// `power_table` (power::power_summary()) is printed before the outputs line.
void print_summary(std::ostream& os, const SystemSpec& spec, const RunFacts& facts,
                   const std::string& out_dir, const std::string& power_table = "");

}  // namespace numagpu
