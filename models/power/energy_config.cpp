#include "power/energy_config.hpp"

#include "config/keys.hpp"

namespace numagpu::power {

namespace {

constexpr const char* kSectionDoc =
    "Per-event energy and static power of every component: power.json (docs/power.md)";

}  // namespace

void add_energy_schema(config::Schema& root) {
  config::SchemaKeys keys(root);
  EnergyParams defaults;
  defaults.keys(keys.section("energy", kSectionDoc));
}

const config::Schema& energy_schema() {
  static const config::Schema schema = [] {
    config::Schema root;
    add_energy_schema(root);
    return root;
  }();
  return schema;
}

EnergyTable energy_table(const config::Config& cfg) {
  EnergyTable t;
  config::ReadKeys keys(cfg, "");
  t.keys(keys.section("energy", kSectionDoc));
  t.resolved = cfg.resolved().at("energy");
  return t;
}

}  // namespace numagpu::power
