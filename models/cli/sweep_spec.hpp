// A sweep specification (docs/studies.md): a grid of design points, each a configuration (system file and
// --set overrides) applied to one workload, and the statistics to collect from every point.
//
//   name: figure6
//   study: figure6                   # what `numagpu plot study` and the direction checks do with the results
//   config: ../paper_4socket.yaml    # system of every point (default: the built-in paper system)
//   set:                             # overrides of every point
//     - {key: runtime.cta_schedule, value: contiguous}
//   workloads:
//     - name: reduce
//       file: ../workloads/studies/reduction.yaml
//       set: [...]                   # this workload's overrides, after the sweep's
//       when:                        # this workload's overrides for points with an axis label
//         - {label: dynamic, set: [{key: link.sample_cycles, value: 1000}]}
//   axes:                            # the grid: every combination of one value per axis
//     - name: link
//       values:
//         - {label: static, set: [{key: link.mode, value: static}]}
//         - {label: dynamic, set: [{key: link.mode, value: dynamic}]}
//   grids: [...]                     # further grids (each its own axes): the points are the union
//   stats:
//     - {name: cycles, path: summary.sim_cycles}
//     - {name: link_bytes, path: "system.link_*.to_switch0.bytes", reduce: sum}
//
// The schema is a config::Schema, so a bad spec gets the configuration engine's one-line errors
// (file:line:col: key.path: message). Every point's configuration is resolved while loading, so an override
// that the system rejects is reported at the spec line that wrote it, before anything runs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/config.hpp"

namespace numagpu {

enum class StatReduce { kNone, kSum, kMean, kMin, kMax };

struct SweepStat {
  std::string name;  // column name in the results
  std::string path;  // "run.X", "config.X" or a statistics path; a component may hold * and ? wildcards
  StatReduce reduce = StatReduce::kNone;
};

struct SweepPoint {
  std::size_t index = 0;  // position in the spec's point order (the Slurm array index)
  std::string id;         // "<workload>.<label>.<label>...": the point's directory name
  std::string workload;
  std::string grid;                                         // name of the grid it came from ("" for axes)
  std::vector<std::pair<std::string, std::string>> labels;  // (axis, label), in axis order
  std::string config_file;                                  // absolute; "" = built-in paper system
  std::string workload_file;                                // absolute; "" = built-in default workload
  std::vector<std::string> overrides;                       // "key=value", applied in order
  std::string config_hash;                                  // of the resolved configuration
  std::vector<std::string> input_files;  // the files the point reads (system_config.hpp: input_files)
  std::string inputs_hash;               // "": none; else a hash of their contents (load_sweep_spec)
};

// What each Slurm array task asks for (the spec's `slurm:` section; numagpu sweep --slurm).
struct SlurmSettings {
  std::string partition;         // "" = the cluster's default partition
  std::string account;           // "" = the user's default account
  std::string time = "1:00:00";  // sbatch --time of each point's task
  std::string memory = "2G";     // sbatch --mem of each point's task
};

struct SweepSpec {
  std::string file;  // as given on the command line
  std::string name;
  std::string description;
  std::string study;
  std::vector<std::string> axis_names;  // every axis of every grid, first appearance first
  std::vector<SweepStat> stats;
  std::vector<SweepPoint> points;
  SlurmSettings slurm;

  const SweepPoint* find(const std::string& id) const;
};

// The spec's own schema (docs: `numagpu sweep --reference`).
const config::Schema& sweep_schema();

// A point's identity is its configuration hash and its inputs hash: 16 hex digits, FNV-1a 64 over one line
// "<bytes> <FNV-1a 64 of the bytes>" per input file in input_files order, so that a changed graph, trace or
// kernel list is a different point (it runs again, and --reuse does not take another sweep's result for it).
// An input that is not a regular file is refused at the key that names it.
//
// Loads and validates `file`, expands its points and resolves each point's configuration. `extra_sets`
// ("key=value", from the command line) are applied to every point after the spec's own overrides. Throws
// config::ConfigError with the one-line message.
SweepSpec load_sweep_spec(const std::string& file, const std::vector<std::string>& extra_sets = {});

// The inputs hash of these files now, as load_sweep_spec computes it ("" without files); nullopt when one
// cannot be read. The runner checks it again when a point has run: an input changed meanwhile fails the
// point.
std::optional<std::string> inputs_hash(const std::vector<std::string>& files);

}  // namespace numagpu
