// `numagpu correlate --power`'s comparison (docs/power.md, "Correlation with a GV100"): each measured
// kernel's simulated average power beside the measured one, also priced over the hardware's time and idle
// time when the counter table gives them.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/correlate.hpp"
#include "cli/correlate_report.hpp"
#include "cli/hw_csv.hpp"

namespace numagpu {

// A row of the measured-power table and the run of the kernel that stands for it.
struct PowerJob {
  const HwPowerRow* row;
  std::string library_name, args;
  std::filesystem::path run_dir;  // relative to the output directory
};

// Simulated against measured average power, per kernel: writes power_correlation.csv, power_breakdown.csv and
// power_correlation.md into `stage`. `jobs` are the measured-power table's rows that ran (their outputs in
// `stage`/RUN_DIR/out, and in `dir`/RUN_DIR/out when correlate ends, as the messages say; `status` is each
// one's exit status, -1: not run), `hw_rows` the counter table's (empty without --hw).
ReportPart power_report(const CorrelateOptions& o, const std::vector<PowerJob>& jobs,
                        const std::vector<int>& status, const std::vector<const HwPowerRow*>& unmatched,
                        const std::vector<HwRow>& hw_rows, const std::filesystem::path& stage,
                        const std::filesystem::path& dir, std::ostream& err);

}  // namespace numagpu
