#include "system/configuration.hpp"

#include "system/builtin_configs.hpp"
#include "system/system_config.hpp"

#ifndef NUMAGPU_VERSION
#define NUMAGPU_VERSION "unknown"
#endif

namespace numagpu {

std::string_view version() {
  return NUMAGPU_VERSION;
}

config::Config load_configuration(const ConfigLayers& l) {
  std::vector<config::Layer> layers;
  layers.push_back({"<built-in configs/workloads/default.yaml>", std::string(embedded::kDefaultWorkload)});
  if (l.system_file) {
    layers.push_back({*l.system_file, std::nullopt});
  } else if (l.system_yaml) {
    layers.push_back({"<yaml>", *l.system_yaml});
  } else {
    layers.push_back({"<built-in configs/paper_4socket.yaml>", std::string(embedded::kPaperSystem)});
  }
  if (l.workload_file) layers.push_back({*l.workload_file, std::nullopt});
  if (l.workload_yaml) layers.push_back({"<workload>", *l.workload_yaml});
  return config::load(system_schema(), layers, l.sets);
}

Configuration Configuration::load(const ConfigLayers& layers) {
  const config::Config loaded = load_configuration(layers);
  SystemSpec spec = to_system_spec(loaded);
  // What the outputs describe: trace paths made absolute, a kernel list replaced by its kernels.
  return Configuration(as_run_configuration(loaded), std::move(spec));
}

Configuration Configuration::from_file(const std::string& path, const std::vector<std::string>& sets) {
  ConfigLayers layers;
  layers.system_file = path;
  layers.sets = sets;
  return load(layers);
}

Configuration Configuration::from_yaml(const std::string& yaml, const std::vector<std::string>& sets) {
  ConfigLayers layers;
  layers.system_yaml = yaml;
  layers.sets = sets;
  return load(layers);
}

Configuration Configuration::builtin(const std::vector<std::string>& sets) {
  ConfigLayers layers;
  layers.sets = sets;
  return load(layers);
}

nlohmann::json Configuration::resolved() const {
  return config_ ? config_->resolved() : nlohmann::json();
}

std::string Configuration::hash() const {
  return config_ ? config_->hash() : std::string();
}

std::string Configuration::yaml() const {
  return config_ ? config_->dump_yaml() : std::string();
}

}  // namespace numagpu
