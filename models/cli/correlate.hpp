// numagpu correlate: runs the library kernels of a hardware counter table (the schema of
// shared/data/qv100/hw_perf_train.csv: Nsight Compute metrics of a Quadro GV100, per kernel a mean over its
// launches) and compares, per kernel and counter, the simulated value with the measured one
// (docs/correlation.md).
#pragma once

#include <iosfwd>
#include <string>

namespace numagpu {

struct CorrelateOptions {
  std::string hw_csv;     // counters (--hw); empty: none
  std::string power_csv;  // measured average power (--power); empty: none
  std::string config;     // a system configuration (-c); empty: the built-in system
  unsigned jobs = 1;
  std::string out_dir;
  bool quiet = false;
  // --cuda: the counter rows run the CUDA versions of their kernels (the map's `cuda` entries, built with
  // numagpu-cc) in place of the library kernels; rows without one are listed, not run.
  bool cuda = false;
};

int correlate_command(const CorrelateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace numagpu
