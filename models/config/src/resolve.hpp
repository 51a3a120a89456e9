// Validation of a merged YAML tree against the schema, producing the resolved JSON tree.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "config/schema.hpp"
#include "yaml_tree.hpp"

namespace numagpu::config::detail {

struct Resolved {
  nlohmann::json tree;
  std::map<std::string, Location> locations;  // every path of `tree`; "" is the root
};

// Throws ConfigError for the first problem found: unknown keys of a map first (document order),
// then its schema keys in declaration order.
Resolved resolve(const Schema& schema, const RawNode& root);

}  // namespace numagpu::config::detail
