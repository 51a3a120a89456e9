// `numagpu correlate --hw`'s comparison (docs/correlation.md): the counters of the hardware table that
// numagpu computes from a run's statistics, their statistics over the kernels, and the report that sets
// them beside the measured ones.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/correlate.hpp"
#include "cli/correlate_report.hpp"
#include "cli/hw_csv.hpp"
#include "cli/study_kernels.hpp"

namespace numagpu {

// The counters of the hardware table numagpu computes, from a run's stats.json: name -> value. Sector
// counts come from the sectored caches' statistics when the configuration has sectors, else from whole-line
// counts x sectors per line (said in the report); counters the model has no equivalent of are absent.
struct SimulatedCounters {
  std::map<std::string, double> values;
  bool sectored = false;
  double sms = 0;     // the SMs whose statistics were read (Num_Idle_SMs is in these)
  double blocks = 1;  // processing blocks per SM (sm.issue_width): Pipeline_Duty's sub-partitions
};
SimulatedCounters simulated_counters(const std::string& stats_json_path);

// A row of correlate's "where the time goes" table (docs/correlation.md), or "" when either side lacks
// Elapsed_Cycles, Num_Idle_SMs or Pipeline_Duty: per SM sub-partition, the cycles with no warp resident, the
// rest, and the cycles its five pipes were active, hardware / simulated (and their ratio for the pipes).
std::string time_split_row(const HwRow& row, const SimulatedCounters& sim);

// Per SM sub-partition, the cycles with no warp resident on the hardware less those in the model (from
// Elapsed_Cycles and Num_Idle_SMs, as time_split_row), or nothing when either side lacks one.
std::optional<double> idle_gap_cycles(const HwRow& row, const SimulatedCounters& sim);

// Pearson correlation and mean absolute percentage error (in %) of simulated against hardware values.
double pearson(const std::vector<double>& hw, const std::vector<double>& sim);
double mean_abs_percent_error(const std::vector<double>& hw, const std::vector<double>& sim);

// A row of the counter table and the run of the kernel that stands for it.
struct CounterJob {
  const HwRow* row;
  StudyKernel kernel;
  std::filesystem::path run_dir;  // relative to the output directory
};

// Simulated against measured counters, per kernel and counter: writes correlation.csv and correlation.md into
// `stage` (the runs' outputs are in `stage`/RUN_DIR/out; `dir` is where they will be when correlate ends,
// for the messages). `status` is each job's exit status (-1: not run). `no_cuda`: with --cuda, the rows whose
// kernel has no CUDA version (listed, not run).
ReportPart counters_report(const CorrelateOptions& o, const std::vector<CounterJob>& jobs,
                           const std::vector<int>& status, const std::vector<const HwRow*>& unmatched,
                           const std::vector<const HwRow*>& no_cuda, const std::filesystem::path& stage,
                           const std::filesystem::path& dir, std::ostream& err);

}  // namespace numagpu
