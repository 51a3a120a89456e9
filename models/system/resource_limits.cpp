#include "system/resource_limits.hpp"

#include <string>

namespace numagpu {

void check_resource_limits(const config::Config& cfg) {
  auto u = [&cfg](const char* path) { return static_cast<std::uint64_t>(cfg.integer(path)); };
  // Every factor is bounded by the schema (sockets <= 64, SMs <= 256, sizes <= 2^34 B, lines >= 32 B), so
  // these products stay below 2^6 * 2^8 * 2^29 = 2^43: no overflow.
  const std::uint64_t sockets = u("system.sockets");
  const std::uint64_t sms = sockets * u("sm.per_socket");
  const std::uint64_t l1_lines = sms * (u("l1.size_bytes") / u("l1.line_bytes"));
  const std::uint64_t l2_lines = sockets * (u("l2.size_bytes") / u("l2.line_bytes"));
  if (l1_lines + l2_lines <= kMaxModelledCacheLines) return;
  const bool l1_dominates = l1_lines >= l2_lines;
  const std::string what =
      l1_dominates
          ? std::to_string(u("l1.size_bytes")) + " B per L1 x " + std::to_string(sms) + " SMs"
          : std::to_string(u("l2.size_bytes")) + " B per L2 x " + std::to_string(sockets) + " sockets";
  cfg.fail(l1_dominates ? "l1.size_bytes" : "l2.size_bytes",
           what + " makes " + std::to_string(l1_lines + l2_lines) +
               " cache lines in all (L1s and L2s); a run models at most " +
               std::to_string(kMaxModelledCacheLines) + " (about 800 MB of host memory for the tags)");
}

}  // namespace numagpu
