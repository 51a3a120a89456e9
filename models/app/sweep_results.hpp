// The results table of a sweep: the requested statistics of every point, from the points' stats.json files,
// as results.json (complete: series stay series) and results.csv (one row per point, one column per value).
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/sweep_spec.hpp"

namespace numagpu {

// The value of `stat` in a stats.json document (a `power.` path: in the point's power.json document, `power`,
// null when the point has none): a number, null, a series or other leaf object, or (a path with wildcards
// and no reduction) an object {matched path: value}. A path that matches nothing gives null; `problem` (if
// given) then says why, as it does for a reduction over values that are not numbers.
nlohmann::json extract_stat(const nlohmann::json& document, const SweepStat& stat, std::string* problem,
                            const nlohmann::json* power = nullptr);

// Where a point's outputs live under the sweep's output directory.
std::string point_dir(const std::string& out_dir, const std::string& id);
std::string failed_dir(const std::string& out_dir, const std::string& id);

// True when OUT/points/<id> holds a finished run of exactly this point's configuration.
bool point_finished(const std::string& out_dir, const SweepPoint& point);

struct CollectSummary {
  std::size_t ok = 0, failed = 0, missing = 0;
  std::vector<std::pair<std::string, std::string>> failures;  // (point id, failure), in point order
  std::vector<std::string> missing_ids;                       // in point order
  std::vector<std::size_t> todo_indices;                      // indices of the failed and missing points
};

// Reads every point, writes OUT/results.json and OUT/results.csv atomically. Problems with individual
// statistics are reported once per statistic on `err`; throws std::runtime_error if a file cannot be written.
CollectSummary collect_results(const SweepSpec& spec, const std::string& out_dir, std::ostream& err);

// The CSV text of a results.json document (exposed for tests).
std::string results_csv(const nlohmann::json& results);

}  // namespace numagpu
