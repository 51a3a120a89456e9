// The `numagpu run` and `numagpu config dump` commands, separate from argument parsing so tests can call
// them.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "system/workload_builder.hpp"

namespace numagpu {

struct BenchReport;

inline constexpr int kExitOk = 0;
inline constexpr int kExitRunFailed = 1;  // the run completed but a check failed (protocol, audit, watchdog)
inline constexpr int kExitBadInput = 2;   // configuration, workload, command line or output directory

struct RunOptions {
  std::optional<std::string> config_file;    // default: the built-in configs/paper_4socket.yaml
  std::optional<std::string> workload_file;  // default: the built-in configs/workloads/default.yaml
  std::vector<std::string> sets;             // key.path=value overrides, applied last
  std::string out_dir = "numagpu-out";
  bool quiet = false;
  bool progress = false;  // draw the progress line (the caller decides: stderr is a terminal)
  bool bench = false;     // report what the run cost the host (bench.json and a table; docs/performance.md)
  // The workload as YAML text, layered where --workload would be (the CUDA runtime's `cuda:` item).
  std::optional<std::string> workload_yaml;
  // The launches of the workload's `cuda:` item (the CUDA runtime, docs/cuda.md); none: such an item is
  // refused at its key.
  CudaProgramSource cuda_program;
  // With `bench`: adds what the caller measured (the CUDA runtime's PTX execution) before the report is
  // written.
  std::function<void(BenchReport&)> bench_extra;
};

// The validated configuration of a run: the built-in default workload, then the system (--config or the
// built-in paper system), then --workload, then the --set overrides. Throws config::ConfigError.
config::Config load_configuration(const RunOptions& options);
bool make_output_dir(const std::string& dir, std::ostream& err);

int run_command(const RunOptions& options, std::ostream& out, std::ostream& err);
int config_dump_command(const RunOptions& options, std::ostream& out, std::ostream& err);
int config_reference_command(std::ostream& out);
// Writes every kernel of the resolved workload as a numagpu .ngt trace into options.out_dir, with a
// workload.yaml that replays them (numagpu run --workload DIR/workload.yaml): identical statistics.
int workload_dump_command(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace numagpu
