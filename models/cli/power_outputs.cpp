#include "cli/power_outputs.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/embedded_scripts.hpp"
#include "cli/python_script.hpp"
#include "cli/run.hpp"
#include "common/printable.hpp"
#include "power/energy_config.hpp"
#include "power/power_model.hpp"
#include "stats/atomic_write.hpp"
#include "system/activity_recorder.hpp"

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

std::optional<std::string> read_activity_file(const std::string& path, power::Activity& activity) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return path + ": cannot read (" + std::strerror(errno) + ")";
  if (!S_ISREG(st.st_mode)) {
    return path + ": not a regular file (" +
           (S_ISDIR(st.st_mode) ? "a directory" : "a pipe, socket or device") +
           "); give a run's activity.json";
  }
  std::ifstream in(path);
  if (!in) return path + ": cannot read (" + std::strerror(errno) + ")";
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number too large (out_of_range)
    return path + ": not valid JSON (" + printable(e.what()) + ")";
  } catch (const std::bad_alloc&) {
    return path + ": too large to read into memory";
  }
  try {
    activity = power::activity_from_json(doc);
  } catch (const power::ActivityError& e) {
    return path + ": " + e.what();
  } catch (const std::bad_alloc&) {
    return path + ": too large to read into memory";
  } catch (const std::exception& e) {  // a value of the wrong JSON type where the reader does not expect it
    return path + ": not an activity document (" + printable(e.what()) + ")";
  }
  return std::nullopt;
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
  power::Activity activity;
  if (auto error = read_activity_file(o.activity_file, activity)) return bad(*error);
  nlohmann::json power;
  try {
    power = power::power_document(activity, power::energy_table(*cfg), NUMAGPU_VERSION);
  } catch (const std::exception& e) {  // a malformed property (e.g. a policy block's area of the wrong type)
    return bad(o.activity_file + ": " + e.what());
  }
  const std::string path = (fs::path(o.out_dir) / "power.json").string();
  std::error_code ec;
  if (fs::equivalent(path, o.activity_file, ec))
    return bad(path + ": is the --activity file itself; writing power.json there would overwrite it");
  if (!make_output_dir(o.out_dir, err)) return kExitBadInput;
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
  const ScriptResult r = run_python_script(embedded::kPlotPower, {input.string(), output.string()});
  if (r.exit_code != 0) {
    err << "numagpu: error: plot power: " << script_failure(r, "plot_power.py") << "\n";
    return kExitRunFailed;
  }
  err << r.error_text;
  out << "numagpu: wrote " << output.string() << "\n";
  return kExitOk;
}

}  // namespace numagpu
