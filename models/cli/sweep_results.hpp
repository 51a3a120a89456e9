// The results table of a sweep: the requested statistics of every point, from the points' stats.json files,
// as results.json (complete: series stay series) and results.csv (one row per point, one column per value).
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/sweep_spec.hpp"

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

// The outputs numagpu run writes for every configuration: a point directory without any of them, or with
// one of them empty, is not a finished run.
inline constexpr const char* kRunOutputs[] = {"stats.json", "stats.txt", "config.yaml", "activity.json",
                                              "power.json"};

// Why the point directory `dir` does not hold a complete run ("" when it does): point.json unreadable, an
// output of kRunOutputs missing or empty, a file that point.json's "outputs" lists (name: bytes, written
// when the point finished) missing or of another size, or a stats.json that is not a statistics document.
// `stats` (if given) receives the parsed stats.json of a complete run.
std::string incomplete_point(const std::string& dir, nlohmann::json* stats = nullptr);

// True when a point record (point.json) names this point's identity: its configuration hash and the hash of
// its input files (cli/sweep_spec.hpp).
bool same_identity(const nlohmann::json& record, const SweepPoint& point);

// True when OUT/points/<id> holds a complete run (incomplete_point) of exactly this point's identity, or a
// tabled point of it (cli/sweep_tabled.hpp) that holds every statistic of `wanted` (any, when null); a point
// that is not finished runs again (and, under Slurm, is in the next array). `stats` as for incomplete_point
// (a tabled point leaves it unset).
bool point_finished(const std::string& out_dir, const SweepPoint& point, nlohmann::json* stats = nullptr,
                    const std::vector<SweepStat>* wanted = nullptr);

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
