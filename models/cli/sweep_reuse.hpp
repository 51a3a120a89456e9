// `numagpu sweep --reuse DIR`: points of this sweep whose exact configuration another sweep has already run.
// A run is deterministic (the same configuration gives the same statistics, checked by CI's determinism
// job), so a finished point of another study with the same identity (configuration hash and input files'
// hash, cli/sweep_spec.hpp) is this point's result; it is linked (or copied) into place instead of simulated
// again. A source is taken only when it is complete (sweep_results.hpp: incomplete_point); two complete
// sources of one point whose results differ are refused (docs/studies.md).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/sweep_spec.hpp"

namespace numagpu {

// The identity a point is reused by: "<config hash>" or "<config hash>+<inputs hash>".
std::string reuse_key(const SweepPoint& point);

// Point directories (with a point.json naming a configuration hash) under DIR/points of each directory, by
// reuse key: every one, in the order the directories were given and by name within one. Completeness is
// judged later, for the points that need it. Throws std::runtime_error naming the directory when one is not
// a sweep's output directory (it has no points/ folder).
std::map<std::string, std::vector<std::string>> finished_points_by_hash(const std::vector<std::string>& dirs);

// Two complete sources of one point whose results (stats.json's statistics, power.json) differ; what() is the
// one-line message naming the point and both sources.
class ReuseConflict : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The source each point of `todo` is reused from (point id -> point directory): the first complete candidate
// of the point's key that is not the point's own directory. An incomplete candidate is skipped with one line
// on `err`. Throws ReuseConflict when a complete candidate's results differ from the chosen one's. Writes
// nothing.
std::map<std::string, std::string> plan_reuse(const std::map<std::string, std::vector<std::string>>& found,
                                              const std::vector<const SweepPoint*>& todo,
                                              const std::string& out_dir, std::ostream& err);

// Moves every point of `todo` that `plan` names into OUT/points/<id> (hard links where the file system
// allows, copies otherwise; built in a temporary directory and renamed, so a point is either whole or
// absent), with its point.json naming this point and `reused_from`; removes those points from `todo`.
// Returns how many were reused. A point that cannot be linked or copied stays in `todo` (and is simulated),
// with one line on `err`.
std::size_t reuse_finished_points(const std::map<std::string, std::string>& plan,
                                  std::vector<const SweepPoint*>& todo, const std::string& out_dir,
                                  std::ostream& err);

}  // namespace numagpu
