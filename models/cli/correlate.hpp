// numagpu correlate: runs the library kernels of a hardware counter table (the schema of
// shared/data/qv100/hw_perf_train.csv: Nsight Compute metrics of a Quadro GV100, per kernel a mean over its
// launches) and compares, per kernel and counter, the simulated value with the measured one
// (docs/correlation.md).
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/hw_csv.hpp"

namespace numagpu {

struct CorrelateOptions {
  std::string hw_csv;     // counters (--hw); empty: none
  std::string power_csv;  // measured average power (--power); empty: none
  std::string config;     // a system configuration (-c); empty: the built-in system
  unsigned jobs = 1;
  std::string out_dir;
  bool quiet = false;
};

// The library kernel that stands for a row of the GV100 study (its reference input is the kernel's default
// arguments), and how many launches to simulate for a row (the table's script divides the counters summed
// over a kernel's launches by their number, so a row is one launch's mean).
struct StudyKernel {
  std::string library_name;
  std::string args;
  unsigned launches = 1;
};
std::optional<StudyKernel> study_kernel(const std::string& benchmark, const std::string& kernel);

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

// The library kernel that `<app>_k<N>` names: the N-th of the application's kernels that the GV100 study
// measures, in the application's launch order (docs/power.md, "Correlation"); nullopt when unknown.
std::optional<StudyKernel> power_study_kernel(const std::string& row_name);

int correlate_command(const CorrelateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace numagpu
