#include "common/health.hpp"

#include <array>
#include <iostream>

namespace numagpu {

namespace {
struct State {
  std::array<std::uint64_t, 3> counts{};
  std::array<std::vector<std::string>, 3> messages;
  bool echo = false;
};
State& state() {
  static State s;
  return s;
}
}  // namespace

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
  auto& s = state();
  const auto k = static_cast<std::size_t>(kind);
  ++s.counts[k];
  if (s.echo && s.messages[k].size() < kKeptMessages) {
    std::cerr << "numagpu: " << to_string(kind) << " error: " << message << "\n";
  }
  if (s.messages[k].size() < kKeptMessages) s.messages[k].push_back(std::move(message));
}

std::uint64_t RunHealth::count(Kind kind) {
  return state().counts[static_cast<std::size_t>(kind)];
}

const std::vector<std::string>& RunHealth::messages(Kind kind) {
  return state().messages[static_cast<std::size_t>(kind)];
}

void RunHealth::reset() {
  const bool echo = state().echo;
  state() = State();
  state().echo = echo;
}

void RunHealth::set_echo(bool echo) {
  state().echo = echo;
}

}  // namespace numagpu
