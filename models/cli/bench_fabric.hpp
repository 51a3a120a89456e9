// `numagpu bench-fabric`: copy bandwidth and latency between GPU pairs on the modelled topology, in the
// spirit of the Comm|Scope microbenchmarks. One simulation runs every measurement in turn: for each ordered
// pair and transfer size, a copy engine moves the buffer (unidirectional), then both engines of the pair
// move one each way at once (bidirectional). Links return to their launch state before each measurement.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "cli/run.hpp"
#include "common/time.hpp"

namespace numagpu {

struct BenchFabricOptions {
  RunOptions base;                 // --config, --set, --out, --quiet
  std::string pairs = "all";       // "all" or "SRC-DST,SRC-DST,..."
  unsigned min_log2 = 8;           // smallest transfer: 2^min_log2 bytes
  unsigned max_log2 = 20;          // largest transfer (up to 2^30)
  std::string direction = "both";  // uni | bi | both
  std::string op = "write";        // write: the source pushes into the destination; read: it pulls from it
  unsigned outstanding = 64;
  Cycles startup_cycles = 0;
  bool plot = false;
};

int bench_fabric_command(const BenchFabricOptions& options, std::ostream& out, std::ostream& err);

}  // namespace numagpu
