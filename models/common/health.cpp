#include "common/health.hpp"

#include <iostream>

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

void RunHealth::report(Kind kind, std::string message) {
  const std::size_t k = index(kind);
  ++counts_[k];
  if (messages_[k].size() >= kKeptMessages) return;
  if (echo_) std::cerr << "numagpu: " << to_string(kind) << " error: " << message << "\n";
  messages_[k].push_back(std::move(message));
}

}  // namespace numagpu
