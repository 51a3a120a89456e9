// numagpu configuration engine: schema-checked, layered YAML configuration with --set overrides.
//
//   Config cfg = load(schema, {{"configs/base.yaml", std::nullopt}, {"configs/4socket.yaml", std::nullopt}},
//                     {"l2.ways=8", "workload.kernels.0.ctas=64"});
//   int64_t ways = cfg.integer("l2.ways");
//
// Loading:
//  - Layers are deep-merged in order, later wins: maps merge key by key, scalars and lists are
//    replaced whole.
//  - A layer may have a top-level `include:` (a file name or a list of them). Included files are
//    merged first, in order, then the including document on top. Relative names are resolved
//    against the directory of the including file (for an embedded layer: the directory part of
//    its name, i.e. the current directory when the name has none). Include cycles are errors.
//  - Overrides "key.path=value" are applied after all layers, in order. The value is parsed as
//    YAML, so "l2.ways=8", "l2.organization=shared" and "workload.kernels=[{ctas: 8}]" work; list
//    items are addressed by index ("workload.kernels.0.ctas=8") and must already exist.
//  - The merged tree is validated strictly against the schema: unknown keys, wrong types, values
//    out of range, missing required keys, wrong list lengths and duplicate keys are ConfigErrors
//    that point at the offending YAML node (see error.hpp for the format).
//  - YAML semantics are honoured: a quoted "8" is a string, not an integer; only true/false (and
//    their True/TRUE spellings) are booleans; `key:` with no value is null and is rejected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/error.hpp"
#include "config/schema.hpp"

namespace numagpu::config {

// One YAML document: a file on disk (text empty) or embedded text shown under `name` in errors.
struct Layer {
  std::string name;
  std::optional<std::string> text;
};

class Config;
Config load(const Schema& schema, const std::vector<Layer>& layers,
            const std::vector<std::string>& set_overrides);

// A loaded, fully validated configuration. Paths are dotted ("l2.ways"); list items are addressed
// by index ("workload.kernels.2.ctas"). Asking for a path that is not in the configuration, or
// with the accessor of another type, is a programming error and throws std::logic_error.
class Config {
 public:
  Config();  // empty configuration (no keys)

  // Complete tree with every default filled in and only the schema's keys.
  const nlohmann::json& resolved() const { return resolved_; }

  // 16 lowercase hex digits: FNV-1a 64 of resolved().dump(); equal configurations hash equal no
  // matter how they were layered.
  std::string hash() const;

  // The resolved configuration as YAML in declaration order, every leaf followed by a
  // "# doc [unit]" comment. Loading it again yields an identical resolved().
  std::string dump_yaml() const;

  int64_t integer(const std::string& path) const;
  double real(const std::string& path) const;
  bool boolean(const std::string& path) const;
  std::string string(const std::string& path) const;  // string and choice leaves
  std::size_t list_size(const std::string& path) const;

  // Where the effective value of a leaf, section, list or list item was written (after merging
  // and overrides): a file position, {"--set key=value", 0, 0}, or {"<default>", 0, 0}.
  Location location(const std::string& path) const;

  // Reports a semantic problem found by a model ("l2.ways must divide the set count") at the
  // place where the user wrote the value.
  [[noreturn]] void fail(const std::string& path, const std::string& message) const;

 private:
  friend Config load(const Schema& schema, const std::vector<Layer>& layers,
                     const std::vector<std::string>& set_overrides);
  Config(nlohmann::json resolved, std::map<std::string, Location> locations,
         std::shared_ptr<const Schema> schema);

  const nlohmann::json& value_at(const std::string& path, const char* accessor) const;

  nlohmann::json resolved_;
  std::map<std::string, Location> locations_;  // every path of resolved_, "" being the root
  std::shared_ptr<const Schema> schema_;       // own copy: docs and declaration order for dump_yaml()
};

}  // namespace numagpu::config
