// The readers of `numagpu correlate`'s hardware tables (docs/correlation.md, docs/power.md): the counter
// table (the schema of shared/data/qv100/hw_perf_train.csv) and the measured-power table
// (hw_power_train.csv). Plain C++ with no simulator dependency, so the fuzzers reach them
// (fuzz/hwcsv_fuzzer.cpp).
//
// What is accepted, and the error otherwise (one line `FILE:LINE:COLUMN: COLUMN-NAME: what was expected`,
// COLUMN the 1-based byte where the field starts):
// - a regular file of at most 16 MiB, of comma-separated lines (RFC 4180 quoting within a line; a field that
//   opens a quote must close it and end there); blank lines are skipped, a trailing '\r' dropped;
// - a header line whose column names appear once each; every row with as many fields as the header;
// - names (Benchmark, Kernel, a power row's name) non-empty and without control bytes;
// - counters and watts: non-negative decimal numbers (digits, an optional fraction and exponent; no sign,
//   hexadecimal, inf or nan) of at most 1e18; an empty counter field is "no value". Elapsed_Cycles is at
//   least 1 (a kernel lasts a cycle), Num_Idle_SMs at most 80 (the table's script counts 80 SMs), a power
//   from 0.001 W to 1,000,000 W;
// - each kernel once: a second row of the same Benchmark and Kernel (or power row name) is refused, naming
//   the first one's line. Rows are means over a kernel's launches and carry no launch count, so two rows of
//   one kernel cannot be merged into a correct mean.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace numagpu {

// A malformed hardware table: what() is the one-line message above.
class HwCsvError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One row of the counter table.
struct HwRow {
  std::string benchmark, kernel;
  std::map<std::string, double> counters;  // column name -> value (columns with a value in this row)
};

// Reads the counter table (columns Benchmark, Kernel and counters); throws HwCsvError.
std::vector<HwRow> read_hw_csv(const std::string& path);

// A row of a measured-power table: `<app>_k<N>` and its mean watts.
struct HwPowerRow {
  std::string name;
  double watts = 0;
};
// Reads the measured-power table (first column the row's name, a column `mean HW_power`; the others, such as
// st_dev, are not read); throws HwCsvError.
std::vector<HwPowerRow> read_hw_power_csv(const std::string& path);

// The function's name in a Kernel column: Nsight writes C++ kernels mangled (_Z14calculate_tempiPf...: its
// name, calculate_temp; _ZN...E for a name in namespaces: its last component), C ones plain (findK).
std::string function_name(const std::string& kernel);

// The limits the readers apply (tests and the fuzz harness check against them).
inline constexpr double kHwCounterMax = 1e18;
inline constexpr double kHwIdleSmsMax = 80;
inline constexpr double kHwPowerMinW = 1e-3;
inline constexpr double kHwPowerMaxW = 1e6;
inline constexpr std::size_t kHwCsvMaxBytes = 16u << 20;

}  // namespace numagpu
