// Run health: the one place where the protocol checker, the transaction audit and the watchdog record what
// went wrong in one simulated machine (it lives in the machine's SimContext). A run with any entry here fails
// (non-zero exit), after writing its outputs. Each report (the first kKeptMessages of a kind) also goes to
// SystemC's report handler as a warning of type numagpu/protocol, numagpu/audit or numagpu/watchdog
// (common/report.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace numagpu {

class RunHealth {
 public:
  enum class Kind { kProtocol, kAudit, kWatchdog };
  static constexpr std::size_t kKeptMessages = 20;  // per kind; the count keeps going

  void report(Kind kind, std::string message);
  std::uint64_t count(Kind kind) const { return counts_[index(kind)]; }
  const std::vector<std::string>& messages(Kind kind) const { return messages_[index(kind)]; }
  bool ok() const { return count(Kind::kProtocol) + count(Kind::kAudit) + count(Kind::kWatchdog) == 0; }
  // Echo each report to stderr as it happens (the command-line run does); SystemC's report handler is then
  // told to do nothing with them (report::leave_run_reports_to_the_caller), so they are printed once.
  void set_echo(bool echo);

 private:
  static std::size_t index(Kind kind) { return static_cast<std::size_t>(kind); }

  std::array<std::uint64_t, 3> counts_{};
  std::array<std::vector<std::string>, 3> messages_;
  bool echo_ = false;
};

const char* to_string(RunHealth::Kind kind);

}  // namespace numagpu
