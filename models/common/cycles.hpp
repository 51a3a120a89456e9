// The unit of simulated time everywhere outside GpuClock: cycles of the GPU clock. Its own header so that
// parameter headers (the *_spec.hpp files) need no SystemC.
#pragma once

#include <cstdint>

namespace numagpu {

using Cycles = std::uint64_t;

}  // namespace numagpu
