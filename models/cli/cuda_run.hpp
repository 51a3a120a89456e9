// `numagpu run --cuda PROG [-- ARGS]`: runs a CUDA program built by numagpu-cc (or by nvcc, PTX inside) on
// the configured system. The program runs the simulation itself, through numagpu's CUDA runtime
// (models/cuda/, docs/cuda.md); this command only hands it the run's options through the environment the
// runtime reads (NUMAGPU_CONFIG, NUMAGPU_SET, NUMAGPU_OUT, NUMAGPU_QUIET, NUMAGPU_BENCH) and returns its
// exit status.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "cli/run.hpp"

namespace numagpu {

int cuda_run_command(const RunOptions& options, const std::string& program,
                     const std::vector<std::string>& args, std::ostream& err);

}  // namespace numagpu
