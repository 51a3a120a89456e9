// The stats.json document: what every run writes, and a structural validator for consumers and tests.
// Layout and policy are described in docs/stats.md.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace numagpu::stats {

class Registry;

// Bumped on every incompatible change to the document (a field removed, renamed or reshaped, a leaf shape
// changed). Adding a top-level field, a leaf field or a new statistic is compatible and does not bump it.
// Version 2 added the required "complete" field (a run cut short writes false).
inline constexpr int kSchemaVersion = 2;

// Builds
//   {"schema_version": kSchemaVersion,
//    "generator": {"name": "numagpu", "version": version},
//    "config_hash": config_hash,
//    "config": resolved_config,
//    "run": run_info,
//    "complete": complete,
//    "stats": registry.tree(),
//    "descriptions": registry.descriptions()}
// resolved_config and run_info must be JSON objects (null is taken as an empty object); anything else throws
// std::invalid_argument, because the result would not validate. `complete` is false when the statistics
// cover only part of the run (interrupted, stopped at checks.max_cycles, stopped by the watchdog).
nlohmann::json make_document(const Registry& registry, const std::string& version,
                             const nlohmann::json& resolved_config, const std::string& config_hash,
                             const nlohmann::json& run_info, bool complete = true);

// Structural validation of a stats.json document. Returns one human-readable problem per line item, empty
// when the document is valid. Checks:
//  - the document is an object; schema_version is an integer equal to kSchemaVersion (a mismatch is
//    reported alone: the rest of the structure is not interpreted under a schema it was not written for);
//  - generator {name, version} are strings, config_hash is a string, complete is a boolean, config, run,
//    stats and descriptions are objects;
//  - every description has a known "kind" and string "unit" and "desc", and describes at least one statistic;
//  - every leaf in stats has a description for its generic path whose kind matches the leaf's shape
//    (counter: non-negative integer; scalar: number or null; average/histogram/series: the object shapes
//    documented at Registry::tree(), including histogram count == sum(buckets) + overflow and null
//    mean/min/max exactly when there are no samples);
//  - groups in stats are non-empty objects.
// Fields it does not know are ignored, so a newer compatible document still validates.
std::vector<std::string> validate_document(const nlohmann::json& doc);

}  // namespace numagpu::stats
