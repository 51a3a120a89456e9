// The published values `numagpu bench-sm` compares the model with: a data file of the Volta measurements
// (configs/published/volta_microbenchmarks.yaml, compiled into the program; --published replaces it), each
// value with its source, table or figure and page. Read with the configuration reader, so a mistake is one
// line, FILE:LINE:COLUMN: key: what was expected.
#pragma once

#include <map>
#include <set>
#include <string>

#include "config/config.hpp"

namespace numagpu {

struct PublishedValue {
  double value = 0;
  std::string unit;
  std::string source;  // the paper or document
  std::string where;   // table, figure or section
  std::string page;
  std::string kind;  // measured, vendor, accelsim_config, derived
  std::string note;
};

// By benchmark id. Throws config::ConfigError, also for a benchmark that is not in `known` or named twice.
std::map<std::string, PublishedValue> load_published(const config::Layer& layer,
                                                     const std::set<std::string>& known);
// The built-in table (configs/published/volta_microbenchmarks.yaml as compiled in).
config::Layer builtin_published_layer();

}  // namespace numagpu
