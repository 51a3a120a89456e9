// Bounds on how much a configuration may ask the simulator to build. The schema bounds each parameter on its
// own; these bound their products (SMs x L1 size, sockets x L2 size), so that a typo such as a 1 GiB L1 is
// one clear error line instead of minutes of allocation and an out-of-memory kill.
#pragma once

#include <cstdint>

#include "config/config.hpp"

namespace numagpu {

// Cache lines a run may model, L1s and L2s of every socket together. Each costs about 24 B of host memory
// (tag, state, replacement age), so the limit is ~800 MB of tags; it is 4 GiB of simulated capacity at
// 128 B lines, 80 times the paper's system and 10 times an 8-socket system of 256 SMs with 256 KiB L1s.
inline constexpr std::uint64_t kMaxModelledCacheLines = std::uint64_t(1) << 25;

// Throws config::ConfigError at the parameter that contributes most when a limit is exceeded.
void check_resource_limits(const config::Config& cfg);

}  // namespace numagpu
