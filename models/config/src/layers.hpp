// Turning layers, includes and --set overrides into one merged YAML tree (before validation).
#pragma once

#include <string>
#include <vector>

#include "config/config.hpp"
#include "yaml_tree.hpp"

namespace numagpu::config::detail {

// Deep merge, `overlay` wins: maps merge key by key, anything else replaces the base node whole.
void merge_into(RawNode& base, RawNode overlay);

// Reads every layer (expanding includes) and merges them in order. The result is always a map.
RawNode load_layers(const std::vector<Layer>& layers);

// Applies one "key.path=value" item to the merged tree.
void apply_override(RawNode& root, const std::string& item);

}  // namespace numagpu::config::detail
