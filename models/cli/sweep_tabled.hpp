// `numagpu sweep --reuse RESULTS.json`: points taken from an earlier sweep's results table instead of its
// point directories. A study on the application suite runs for tens of CPU-hours; its run outputs (one
// statistics document per point, megabytes each) stay on the machine that ran them, while its results.json
// (the requested statistics of every point, with each point's identity) is small enough to keep in the
// repository. Given such a table, a point whose identity (configuration hash and input files' hash) has an
// `ok` row there, and whose table defines every statistic this sweep asks for with the same path and
// reduction, is finished: it is written as a *tabled point*, OUT/points/<id>/point.json alone, holding those
// statistics. A sweep can so be run in parts on machines that do not share a file system, or resumed on a
// fresh machine from the table of the part before (docs/studies.md: "Run in parts, from a results table" and
// "Running the suite's studies in parts").
//
// A tabled point has no run outputs (stats.json, activity.json, ...): it cannot be a --reuse DIR source, and
// a statistic the table does not hold cannot be read from it (the point then counts as not finished and runs
// again).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/sweep_spec.hpp"

namespace numagpu {

// "none", "sum", "mean", "min" or "max": how a results table names a statistic's reduction.
const char* stat_reduce_name(StatReduce reduce);

// True when `path` names a results table for --reuse (a file ending in .json) rather than a sweep's output
// directory.
bool is_results_table(const std::string& path);

// True when a point record (point.json) is a tabled point's.
bool is_tabled_point(const nlohmann::json& record);

// The table a tabled point was taken from (its `reused_from`), or "a results table" when the record does
// not say.
std::string tabled_source(const nlohmann::json& record);

// The value of every statistic of `wanted` in a tabled point's record, by name; false (and `why` set, if
// given) when the record does not hold one of them with the same path and reduction.
bool tabled_stats(const nlohmann::json& record, const std::vector<SweepStat>& wanted, nlohmann::json* values,
                  std::string* why = nullptr);

// One `ok` row of a results table that can stand for a point: the table's path and the row.
struct TableRow {
  std::string table;
  nlohmann::json row;
};

// The rows each point of `todo` can be taken from (point id -> row): the first table (in the order given)
// with an `ok` row of the point's identity that defines every statistic of `wanted` (a table that does not
// is named on `err` and not used). Throws
// std::runtime_error with one line naming the file when a table cannot be read or is not a sweep's results
// table, and ReuseConflict (cli/sweep_reuse.hpp) when two tables' rows of one identity hold different values
// of a wanted statistic. Writes nothing.
std::map<std::string, TableRow> plan_tabled_points(const std::vector<std::string>& tables,
                                                   const std::vector<const SweepPoint*>& todo,
                                                   const std::vector<SweepStat>& wanted, std::ostream& err);

// Writes every point of `todo` that `plan` names as a tabled point (OUT/points/<id>/point.json: this point's
// identity, `reused_from` the table, the row's wall and CPU seconds, and `tabled_stats` {name: {path,
// reduce, value}}), built in a temporary directory and renamed into place; removes those points from `todo`
// and returns how many were written. A point that cannot be written stays in `todo`, with one line on `err`.
std::size_t write_tabled_points(const std::map<std::string, TableRow>& plan,
                                std::vector<const SweepPoint*>& todo, const std::vector<SweepStat>& wanted,
                                const std::string& out_dir, std::ostream& err);

}  // namespace numagpu
