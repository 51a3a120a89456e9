#include "common/health.hpp"

#include <iostream>

#include "common/report.hpp"

namespace numagpu {

const char* to_string(RunHealth::Kind kind) {
  switch (kind) {
    case RunHealth::Kind::kProtocol:
      return "protocol";
    case RunHealth::Kind::kAudit:
      return "audit";
    case RunHealth::Kind::kWatchdog:
      return "watchdog";
  }
  return "?";
}

void RunHealth::set_echo(bool echo) {
  echo_ = echo;
  if (echo) report::leave_run_reports_to_the_caller();
}

void RunHealth::report(Kind kind, std::string message) {
  const std::size_t k = index(kind);
  ++counts_[k];
  if (messages_[k].size() >= kKeptMessages) return;
  if (echo_) std::cerr << "numagpu: " << to_string(kind) << " error: " << message << "\n";
  // The platform's report handler sees the first reports of each kind, as warnings: the run goes on.
  static constexpr const char* kTypes[] = {report::kProtocol, report::kAudit, report::kWatchdog};
  report::warn(kTypes[k], message);
  messages_[k].push_back(std::move(message));
}

}  // namespace numagpu
