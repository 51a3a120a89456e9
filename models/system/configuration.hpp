// A System's configuration as a host program loads it (docs/embedding.md): the same layers, checks and
// one-line errors as `numagpu run`, from a file, a YAML text, the built-in defaults, or a SystemSpec made in
// code. Plain C++ (no SystemC), like the configuration code it wraps.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "system/system_spec.hpp"

namespace numagpu {

// numagpu's version ("0.1.0"), as `numagpu --version` prints it and stats.json records it.
std::string_view version();

// The layers of a run's configuration, lowest first: the built-in default workload
// (configs/workloads/default.yaml), then the system (a file, a YAML text, or else the built-in paper system
// configs/paper_4socket.yaml), then a workload file; `sets` ("key.path=value", as --set) override last.
struct ConfigLayers {
  std::optional<std::string> system_file;
  std::optional<std::string> system_yaml;  // instead of system_file; named "<yaml>" in error messages
  std::optional<std::string> workload_file;
  std::optional<std::string> workload_yaml;  // after workload_file; named "<workload>" in error messages
  std::vector<std::string> sets;
};

// The validated configuration of those layers. Throws config::ConfigError (what(): one line,
// "file:line:column: key.path: what was expected").
config::Config load_configuration(const ConfigLayers& layers);

// What a System is built from: its SystemSpec and, when it was loaded rather than made in code, the resolved
// configuration that stats.json and stats.txt record. A loaded spec has passed every check of `numagpu run`;
// a spec made in code is taken as it is (tests/integration/small_system.hpp shows one).
class Configuration {
 public:
  explicit Configuration(SystemSpec spec) : spec_(std::move(spec)) {}

  // A system file (relative paths inside it are taken from the file's folder), a YAML text, the built-in
  // defaults (what `numagpu run` with no arguments simulates), or any layers. Each throws
  // config::ConfigError.
  static Configuration from_file(const std::string& path, const std::vector<std::string>& sets = {});
  static Configuration from_yaml(const std::string& yaml, const std::vector<std::string>& sets = {});
  static Configuration builtin(const std::vector<std::string>& sets = {});
  static Configuration load(const ConfigLayers& layers);

  const SystemSpec& spec() const { return spec_; }
  SystemSpec& spec() { return spec_; }  // adjust after loading (the checks are not run again)
  bool loaded() const { return config_.has_value(); }
  // The loaded configuration, whose keys an error can name; null when made in code.
  const config::Config* loaded_config() const { return config_ ? &*config_ : nullptr; }
  // The configuration as run (every key, defaults filled in) and its hash; null and "" when made in code.
  nlohmann::json resolved() const;
  std::string hash() const;
  std::string yaml() const;  // the resolved configuration as YAML; "" when made in code

 private:
  Configuration(config::Config cfg, SystemSpec spec) : config_(std::move(cfg)), spec_(std::move(spec)) {}
  std::optional<config::Config> config_;
  SystemSpec spec_;
};

}  // namespace numagpu
