// The GV100 study's kernel map: which library kernel, at which arguments, stands for a row of
// `numagpu correlate`'s hardware tables (docs/correlation.md, docs/power.md). The map is data,
// configs/correlate/gv100_kernels.yaml, compiled into the program and read with the configuration reader, so
// a mistake in it is one line `FILE:LINE:COLUMN: key: what was expected`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace numagpu {

// The library kernel that stands for a row of the study (its reference input is the kernel's default
// arguments, or `args`), and how many launches to simulate for the row (the table's script divides the
// counters summed over a kernel's launches by their number, so a row is one launch's mean).
// The CUDA version of a library kernel (examples/cuda/PROGRAM.cu, `numagpu correlate --cuda`): the program,
// its command line as a template in which `{name}` stands for the library kernel's argument `name` (its value
// in the entry's args, else its default), and the display name of the kernel to simulate (NUMAGPU_SIMULATE:
// the program may launch others, which run for their values only).
struct CudaVersion {
  std::string program;
  std::string args;
  std::string kernel;
};

struct StudyKernel {
  std::string library_name;
  std::string args;
  unsigned launches = 1;
  std::optional<CudaVersion> cuda;  // none: no CUDA version
};

// The CUDA program's arguments for `k` (which has a CUDA version): its template, split at spaces, each
// `{name}` replaced by the library kernel's argument. Throws std::invalid_argument naming an unknown
// `{name}`.
std::vector<std::string> cuda_program_args(const StudyKernel& k);

class StudyKernelMap {
 public:
  // Reads a map (the schema of configs/correlate/gv100_kernels.yaml); throws config::ConfigError, also for a
  // `kernel` that is not in the library.
  static StudyKernelMap load(const config::Layer& layer);
  // configs/correlate/gv100_kernels.yaml as compiled in, read once.
  static const StudyKernelMap& builtin();

  // The kernel that stands for a row of the counter table: its Benchmark (an entry without one matches any)
  // and the function its Kernel column names (hw_csv.hpp: function_name).
  std::optional<StudyKernel> counter_row(const std::string& benchmark, const std::string& kernel) const;
  // The kernel that a measured-power row `<app>_k<N>` names: the N-th of the application's kernels that the
  // study measures, in the application's launch order; nullopt when unknown or not of that form.
  std::optional<StudyKernel> power_row(const std::string& row_name) const;

 private:
  struct CounterEntry {
    std::string benchmark, function;
    StudyKernel kernel;
  };
  struct PowerEntry {
    std::string app;
    unsigned index;
    StudyKernel kernel;
  };
  std::vector<CounterEntry> counters_;
  std::vector<PowerEntry> power_;
};

// The built-in map's counter_row and power_row.
std::optional<StudyKernel> study_kernel(const std::string& benchmark, const std::string& kernel);
std::optional<StudyKernel> power_study_kernel(const std::string& row_name);

}  // namespace numagpu
