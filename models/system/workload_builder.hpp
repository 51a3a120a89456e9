// The workload a System runs, built before it from the configuration's kernels (or from a host program's
// own KernelPrograms): each item's program, every CTA checked against the SM (SmSpec::misfit), each trace
// opened once. The System only runs what it is handed.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "kernels/simt.hpp"
#include "system/system_spec.hpp"
#include "workload/program.hpp"

namespace numagpu {

struct Workload {
  std::vector<std::unique_ptr<KernelSequence>> items;  // in the order they run
  // What every library kernel's and application's CTA recordings answer to: checks.max_record_bytes here,
  // the System's stop_requested once it takes the workload.
  std::shared_ptr<kernels::RecordBounds> record_bounds;
  std::vector<std::string> trace_warnings;  // what the trace readers ignored or doubted (to show the user)
};

// What a host program's launches are run with: the line size and dependent latencies their CTAs record with,
// the bounds the recordings answer to, and the check every launch's program passes before it is handed out
// (it throws std::invalid_argument for a CTA that would never fit on an SM, also kept in the bounds' fault).
struct HostLaunchContext {
  unsigned line_bytes = 128;
  kernels::Latencies latencies{};
  std::shared_ptr<kernels::RecordBounds> bounds;
  std::function<void(const KernelProgram&)> check;
};
// Where a `cuda:` item's launches come from: the CUDA runtime hands in a sequence of its own (docs/cuda.md).
using CudaProgramSource =
    std::function<std::unique_ptr<KernelSequence>(const KernelSpec&, const HostLaunchContext&)>;

// The programs of `spec.kernels`: a library kernel, a synthetic pattern, a trace (its header checked before
// its blocks are read), or an application (each launch checked as it is handed out). A CTA that would never
// fit on an SM is refused: a trace's at the key that named it when `loaded` is the configuration `spec` was
// read from (config::ConfigError), else as trace::TraceError; any other kernel's as std::invalid_argument
// (the configuration refused those at their keys already). A bad trace throws trace::TraceError, a bad
// application input kernels::KernelError.
// A `cuda:` item takes its sequence from `cuda_program`; without one it is refused at its key (a
// configuration cannot run a CUDA program by itself).
Workload build_workload(const SystemSpec& spec, const config::Config* loaded = nullptr,
                        const CudaProgramSource& cuda_program = {});

// The SM's dependent-instruction latencies by class (kernels/simt.hpp), for the C++ kernels' CTAs.
kernels::Latencies sm_latencies(const SmSpec& sm);

// A host program's own kernels, in order (docs/embedding.md), checked the same way.
Workload build_workload(std::vector<std::unique_ptr<KernelProgram>> programs, const SystemSpec& spec);

}  // namespace numagpu
