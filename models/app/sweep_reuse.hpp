// `numagpu sweep --reuse DIR`: points of this sweep whose exact configuration another sweep has already run.
// A run is deterministic (the same configuration gives the same statistics, checked by CI's determinism
// job), so a finished point of another study with the same configuration hash is this point's result; it is
// linked (or copied) into place instead of simulated again.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "app/sweep_spec.hpp"

namespace numagpu {

// Finished points (point.json naming a configuration hash, and stats.json) found under DIR/points of each
// directory, by hash; the first directory given wins a hash found twice. Throws std::runtime_error naming
// the directory when one is not a sweep's output directory (it has no points/ folder).
std::map<std::string, std::string> finished_points_by_hash(const std::vector<std::string>& dirs);

// Moves every point of `todo` whose hash is in `found` into OUT/points/<id> (hard links where the file
// system allows, copies otherwise; built in a temporary directory and renamed, so a point is either whole or
// absent), with its point.json naming this point and `reused_from`; removes those points from `todo`.
// Returns how many were reused. A point that cannot be linked or copied stays in `todo` (and is simulated),
// with one line on `err`.
std::size_t reuse_finished_points(const std::map<std::string, std::string>& found,
                                  std::vector<const SweepPoint*>& todo, const std::string& out_dir,
                                  std::ostream& err);

}  // namespace numagpu
