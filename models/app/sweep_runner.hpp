// Runs sweep points as child processes of the numagpu binary (`numagpu run`, one SystemC elaboration each),
// at most `jobs` at a time, and moves each point's outputs into place atomically (layout: app/sweep.hpp).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "app/sweep_spec.hpp"

namespace numagpu {

struct RunnerOptions {
  std::string executable;  // the numagpu binary
  std::string out_dir;
  unsigned jobs = 1;
  bool quiet = false;               // no per-point lines
  bool progress = false;            // progress bar on a terminal instead of per-point lines
  std::size_t finished_before = 0;  // points skipped because they were already done (for the display)
  std::size_t total = 0;            // points in the sweep (for the display)
};

struct RunnerSummary {
  std::size_t ok = 0, failed = 0;
};

// The child's command line for one point (exposed for tests and the Slurm script's comments).
std::vector<std::string> point_command(const SweepPoint& point, const std::string& executable,
                                       const std::string& out_dir);

// Runs `points` (none of them finished) and reports each failure on `err` as it happens.
RunnerSummary run_points(const std::vector<const SweepPoint*>& points, const RunnerOptions& options,
                         std::ostream& out, std::ostream& err);

// Removes temp directories of points that a killed sweep left behind (only call when no other sweep can be
// writing into out_dir).
void remove_stale_temps(const std::string& out_dir);

}  // namespace numagpu
