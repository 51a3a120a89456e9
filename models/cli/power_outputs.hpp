// The power outputs of a run (activity.json, power.json) and the commands that work on them:
// `numagpu power` (recompute power.json from activity.json with an energy table, without simulating) and
// `numagpu plot power` (draw power.json's time series).
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "power/activity.hpp"

namespace numagpu {

class ActivityRecorder;

// After the run: the recorder's activity, completed with the generator and the configuration (without its
// energy section).
power::Activity finish_activity(ActivityRecorder& recorder, const config::Config& cfg);

// Writes one output file (name, contents); throws std::runtime_error when it cannot.
using WriteOutput = std::function<void(const std::string& name, std::string_view contents)>;

// Writes activity.json and power.json through `write`, power computed with the configuration's energy
// table; returns the power document.
nlohmann::json write_power_outputs(const power::Activity& activity, const config::Config& cfg,
                                   const WriteOutput& write);

// Reads a run's activity.json into `activity`. Returns the one-line error (the file named first) when it
// cannot: only a regular file is read, so a directory or a FIFO (which would block) is refused before it
// is opened, and a file too large for memory is an error, not a crash.
std::optional<std::string> read_activity_file(const std::string& path, power::Activity& activity);

struct PowerOptions {
  std::string activity_file;
  std::optional<std::string> energy_file;  // the `energy:` section; defaults where absent
  std::vector<std::string> sets;           // energy.*=value overrides
  std::string out_dir = "numagpu-power";
  bool quiet = false;
};
int power_command(const PowerOptions& options, std::ostream& out, std::ostream& err);

struct PlotPowerOptions {
  std::string input = "numagpu-out";  // a power.json, or a directory holding one
  std::optional<std::string> output;  // PNG; default power.png beside the input
};
int plot_power_command(const PlotPowerOptions& options, std::ostream& out, std::ostream& err);

}  // namespace numagpu
