// Run health: the one place where the protocol checker, the transaction audit and the watchdog record what
// went wrong. A run with any entry here fails (non-zero exit), after writing its outputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace numagpu {

class RunHealth {
 public:
  enum class Kind { kProtocol, kAudit, kWatchdog };
  static constexpr std::size_t kKeptMessages = 20;  // per kind; the count keeps going

  static void report(Kind kind, std::string message);
  static std::uint64_t count(Kind kind);
  static const std::vector<std::string>& messages(Kind kind);
  static bool ok() { return count(Kind::kProtocol) + count(Kind::kAudit) + count(Kind::kWatchdog) == 0; }
  static void reset();
  // Echo each report to stderr as it happens (the default for the command-line run).
  static void set_echo(bool echo);
};

const char* to_string(RunHealth::Kind kind);

}  // namespace numagpu
