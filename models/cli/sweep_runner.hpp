// Runs sweep points as child processes of the numagpu binary (`numagpu run`, one SystemC elaboration each),
// at most `jobs` at a time, and moves each point's outputs into place atomically (layout: cli/sweep.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cli/sweep_spec.hpp"

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
  int interrupted = 0;  // SIGINT or SIGTERM that stopped the run (0: every point ran to its end)
};

// How long run_points waits for its running points after a SIGINT or SIGTERM (forwarded to them) before it
// kills them with SIGKILL. Below Slurm's default KillWait (30 s), so a cancelled task still records its
// point.
inline constexpr int kStopGraceSeconds = 10;

// What names a point in its point.json: id, workload, grid, labels, overrides, configuration and workload
// files, configuration hash. A run adds its command and host; a point reused from another sweep keeps the
// original run's record and takes this identity.
nlohmann::json point_identity(const SweepPoint& p);

// Where a point is built before it is renamed into place: OUT/points/.tmp.<id>.<host>.<pid> (the name
// clean_stale_temps recognises).
std::string temp_dir(const std::string& out_dir, const std::string& id);

// Replaces `target` (a directory, possibly absent) by `source` with renames only, so that readers see the
// old point, no point, or the new point, never a partial one.
void move_into_place(const std::filesystem::path& source, const std::filesystem::path& target);

// The child's command line for one point (exposed for tests and the Slurm script's comments).
std::vector<std::string> point_command(const SweepPoint& point, const std::string& executable,
                                       const std::string& out_dir);

// Runs `points` (none of them finished) and reports each failure on `err` as it happens. A SIGINT or SIGTERM
// (handled while this runs) starts no new point, is forwarded to the running ones, waits for them for at most
// kStopGraceSeconds (then SIGKILL), records every unfinished point as failed with the reason, and returns
// with `interrupted` set. Each child runs in its own process group, so a Ctrl-C reaches it once, through us.
RunnerSummary run_points(const std::vector<const SweepPoint*>& points, const RunnerOptions& options,
                         std::ostream& out, std::ostream& err);

// Temp directories of points (OUT/points/.tmp.<id>.<host>.<pid>) hold a lock file, OUT/points/.tmp.../.owner,
// locked (flock) by the sweep process and inherited by its `numagpu run` child, so the lock lasts as long as
// either lives, on any node that shares the directory. This removes the leftovers whose owners are gone:
// a temp directory whose lock is free (or, without a lock file, whose owner is a dead process of this host)
// becomes the failure record (OUT/failed/<id>) of its point when `spec` has that point and it is not
// finished, and is removed otherwise. A locked one, or one of another host without a lock file, is left
// alone. Safe to call while other sweeps or Slurm tasks write into out_dir.
void clean_stale_temps(const std::string& out_dir, const SweepSpec& spec);

}  // namespace numagpu
