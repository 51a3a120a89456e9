// The crossbar's parameters: the `crossbar` section of the configuration, each key declared once beside
// its field with its default and documentation (config/keys.hpp). Plain C++, no SystemC.
#pragma once

#include <cstdint>

#include "common/cycles.hpp"

namespace numagpu {

// A rate of num / den bytes per cycle.
struct ByteRate {
  std::uint64_t num = 64;
  std::uint64_t den = 1;
};

struct CrossbarSpec {
  Cycles latency = 10;
  unsigned port_bytes_per_cycle = 64;  // each SM and L2 bank port, each way
  unsigned queue_depth = 16;           // requests waiting per output port before inputs are back-pressured
  // Test hook (debug.inject_fault: shared_request_network): fabric requests use network 0 too, which can
  // deadlock a GPU-side L2 (what tests/integration/organization_test.cpp shows). Not a key of its own.
  bool shared_request_network = false;

  template <class Keys>
  void keys(Keys& k) {
    k.integer("latency_cycles", latency, "Traversal latency, each way").range(0, 10000).unit("cycles");
    k.integer("port_bytes_per_cycle", port_bytes_per_cycle, "Bandwidth of each port, each way")
        .range(1, 4096)
        .unit("B/cycle");
    k.integer("queue_depth", queue_depth, "Requests waiting per output port before inputs are back-pressured")
        .range(1, 4096);
  }
};

}  // namespace numagpu
