// What both of `numagpu correlate`'s reports share (cli/correlate_counters.hpp, cli/correlate_power.hpp):
// how numbers and CSV fields are written, and how a failed run is said and listed.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <sstream>
#include <string>
#include <vector>

namespace numagpu {

// What a report leaves for the command: its text and how many runs failed.
struct ReportPart {
  std::string md;
  int failures = 0;
};

// A number as the reports write it: a whole number without a fraction, else 10 significant digits.
std::string format_number(double v);

// A mean error for the reports: to a tenth of a percent, or "-" when there was nothing to average.
std::string percent_or_dash(double v);

// A field of correlate's CSV outputs, quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s);

// A run that did not succeed (`status`: its exit status, or -1 when the interrupted correlate did not start
// it): said on `err` with where its outputs are (`dir`/`run_dir`/out), and added to `failed` for the report.
void report_failed_run(const std::string& label, int status, const std::filesystem::path& run_dir,
                       const std::filesystem::path& dir, std::ostream& err, std::vector<std::string>& failed);

// The failed runs, listed in a report.
void list_failures(std::ostringstream& md, const std::vector<std::string>& failed);

}  // namespace numagpu
