#include "cli/correlate_report.hpp"

#include <cmath>
#include <iomanip>
#include <ostream>

namespace numagpu {

namespace {

std::string failure_text(int status) {
  return status < 0 ? std::string("not run: interrupted") : "exit " + std::to_string(status);
}

}  // namespace

std::string format_number(double v) {
  std::ostringstream s;
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    s << static_cast<long long>(v);
  } else {
    s << std::setprecision(10) << v;
  }
  return s.str();
}

std::string percent_or_dash(double v) {
  return std::isnan(v) ? std::string("-") : format_number(std::round(v * 10) / 10) + " %";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string r = "\"";
  for (char c : s)
    r += c == '"' ? std::string("\"\"") : std::string(1, c);
  return r + "\"";
}

void report_failed_run(const std::string& label, int status, const std::filesystem::path& run_dir,
                       const std::filesystem::path& dir, std::ostream& err,
                       std::vector<std::string>& failed) {
  err << "numagpu: error: correlate: the run of " << label << " failed (" << failure_text(status) << ")"
      << (status < 0 ? "" : "; see " + (dir / run_dir / "out").string()) << "\n";
  failed.push_back(label + " (" + failure_text(status) + ")" +
                   (status < 0 ? "" : ": " + (run_dir / "out").string()));
}

void list_failures(std::ostringstream& md, const std::vector<std::string>& failed) {
  if (failed.empty()) return;
  md << "\n## Failed runs (not compared)\n\n";
  for (const std::string& f : failed)
    md << "- " << f << "\n";
}

}  // namespace numagpu
