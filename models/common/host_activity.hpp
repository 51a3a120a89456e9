// What the host did to simulate (for `numagpu run --bench`, docs/performance.md): how many payloads were
// delivered to a component at their arrival time, and how many times the SystemC kernel ran one of the
// model's processes. Every component with a process of its own reports its counts here; the system adds
// them up by walking its module tree, so no component needs to be registered anywhere.
#pragma once

#include <cstdint>

namespace numagpu {

struct HostActivity {
  std::uint64_t deliveries = 0;   // payloads handed to a component at their arrival time (one per hop)
  std::uint64_t activations = 0;  // process activations (SC_METHOD calls) of the model
  std::uint64_t quiet_windows_skipped = 0;  // policy windows skipped in closed form (idle time for free)
  std::uint64_t quiet_cycles_skipped = 0;   // quiet policy cycles inside a window skipped in closed form
  double kernel_generation_seconds = 0;     // host time spent executing C++ kernels for their steps
};

class HostActivitySource {
 public:
  virtual ~HostActivitySource() = default;
  virtual void add_host_activity(HostActivity& total) const = 0;
};

}  // namespace numagpu
