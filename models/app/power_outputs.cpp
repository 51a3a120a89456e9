#include "app/power_outputs.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/embedded_configs.hpp"
#include "app/run.hpp"
#include "power/activity_recorder.hpp"
#include "power/energy_config.hpp"
#include "power/power_model.hpp"
#include "stats/atomic_write.hpp"

#ifndef NUMAGPU_VERSION
#define NUMAGPU_VERSION "unknown"
#endif

namespace numagpu {

namespace fs = std::filesystem;

power::Activity finish_activity(ActivityRecorder& recorder, const config::Config& cfg) {
  power::Activity activity = recorder.finish();
  activity.generator_version = NUMAGPU_VERSION;
  // Activity does not depend on the energy table: leave it out of the configuration and its hash.
  nlohmann::json machine = cfg.resolved();
  machine.erase("energy");
  activity.machine_hash = power::machine_hash(machine);
  activity.config = std::move(machine);
  return activity;
}

nlohmann::json write_power_outputs(const power::Activity& activity, const config::Config& cfg,
                                   const WriteOutput& write) {
  nlohmann::json power = power::power_document(activity, power::energy_table(cfg), NUMAGPU_VERSION);
  write("activity.json", power::activity_to_json(activity).dump(1) + "\n");
  write("power.json", power.dump(1) + "\n");
  return power;
}

int power_command(const PowerOptions& o, std::ostream& out, std::ostream& err) {
  auto bad = [&err](const std::string& what) {
    err << "numagpu: error: " << what << "\n";
    return kExitBadInput;
  };
  // Everything is read and checked before anything is written.
  std::optional<config::Config> cfg;
  try {
    std::vector<config::Layer> layers;
    if (o.energy_file) layers.push_back({*o.energy_file, std::nullopt});
    cfg.emplace(config::load(power::energy_schema(), layers, o.sets));
  } catch (const config::ConfigError& e) {
    return bad(e.what());
  }
  std::ifstream in(o.activity_file);
  if (!in) return bad(o.activity_file + ": cannot read (" + std::strerror(errno) + ")");
  power::Activity activity;
  try {
    activity = power::activity_from_json(nlohmann::json::parse(in));
  } catch (const nlohmann::json::parse_error& e) {
    return bad(o.activity_file + ": not valid JSON (" + e.what() + ")");
  } catch (const power::ActivityError& e) {
    return bad(o.activity_file + ": " + e.what());
  }
  nlohmann::json power;
  try {
    power = power::power_document(activity, power::energy_table(*cfg), NUMAGPU_VERSION);
  } catch (const std::exception& e) {  // a malformed property (e.g. a policy block's area of the wrong type)
    return bad(o.activity_file + ": " + e.what());
  }
  if (!make_output_dir(o.out_dir, err)) return kExitBadInput;
  const std::string path = (fs::path(o.out_dir) / "power.json").string();
  try {
    write_file_atomically(path, power.dump(1) + "\n");
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  if (!o.quiet) out << power::power_summary(power) << "outputs     " << path << "\n";
  return kExitOk;
}

int plot_power_command(const PlotPowerOptions& o, std::ostream& out, std::ostream& err) {
  fs::path input(o.input);
  std::error_code ec;
  if (fs::is_directory(input, ec)) input /= "power.json";
  if (!fs::is_regular_file(input, ec)) {
    err << "numagpu: error: " << input.string()
        << ": no such file (give a power.json or the directory of a run)\n";
    return kExitBadInput;
  }
  const fs::path output = o.output ? fs::path(*o.output) : input.parent_path() / "power.png";
  // The script goes to a private temporary file (not beside the outputs, which may be read-only).
  const fs::path script =
      fs::temp_directory_path() / (".numagpu_plot_power." + std::to_string(::getpid()) + ".py");
  try {
    write_file_atomically(script.string(), std::string(embedded::kPlotPower));
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  // Debian's interpreter, where python3-matplotlib installs, even when another python3 comes first on PATH.
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  auto quoted = [](const std::string& s) {
    std::string q = "'";
    for (char c : s)
      q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const std::string cmd =
      python + " " + quoted(script.string()) + " " + quoted(input.string()) + " " + quoted(output.string());
  const int status = std::system(cmd.c_str());
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  fs::remove(script, ec);
  if (rc != 0) {
    err << "numagpu: error: plot power: python3 with matplotlib failed (exit " << rc
        << "); install python3-matplotlib (scripts/setup.sh does)\n";
    return kExitRunFailed;
  }
  out << "numagpu: wrote " << output.string() << "\n";
  return kExitOk;
}

}  // namespace numagpu
