#include "system/workload_builder.hpp"

#include <stdexcept>
#include <utility>

#include "kernels/application.hpp"
#include "kernels/cpp_program.hpp"
#include "system/system_config.hpp"
#include "trace/convert.hpp"
#include "trace/trace.hpp"

namespace numagpu {

namespace {

// The SM's dependent-instruction latencies by class (kernels/simt.hpp), for the C++ kernels' CTAs.
kernels::Latencies latencies_of(const SmSpec& sm) {
  kernels::Latencies latencies{};
  const auto set = [&latencies](unsigned slot, std::uint32_t cycles) {
    latencies[slot] = static_cast<std::uint16_t>(cycles);
  };
  set(static_cast<unsigned>(InstrClass::kFp32), sm.fp32_latency);
  set(static_cast<unsigned>(InstrClass::kFp64), sm.fp64_latency);
  set(static_cast<unsigned>(InstrClass::kInt), sm.int_latency);
  set(static_cast<unsigned>(InstrClass::kSfu), sm.sfu_latency);
  set(static_cast<unsigned>(InstrClass::kTensor), sm.tensor_latency);
  set(static_cast<unsigned>(InstrClass::kShared), sm.shared_latency);
  set(kernels::kDivLatency + 0, sm.int_div_latency);
  set(kernels::kDivLatency + 1, sm.fp32_div_latency);
  set(kernels::kDivLatency + 2, sm.fp64_div_latency);
  set(kernels::kShuffleLatency, sm.shfl_latency);
  set(kernels::kNonblockingLoads, sm.nonblocking_loads ? 1 : 0);
  set(kernels::kSharedPhases, sm.shared_access_phases ? 1 : 0);
  return latencies;
}

CtaFootprint footprint_of(const KernelProgram& p) {
  return {p.warps_per_cta(), p.registers_per_thread(), p.shared_bytes_per_cta()};
}

// A kernel whose CTA would never fit on an SM is refused, named by `what` (SmSpec::misfit says why): the SM
// would otherwise run it in one oversized slot, silently wrong.
void refuse_misfit(const SmSpec& sm, const KernelProgram& p, const std::string& what) {
  const std::string why = sm.misfit(footprint_of(p));
  if (!why.empty()) throw std::invalid_argument(what + ": " + why);
}

// A trace, opened once: its header (the CTA's warps, registers and shared memory) is checked before its
// blocks are read.
std::unique_ptr<KernelProgram> trace_program(const SystemSpec& spec, std::size_t index,
                                             const config::Config* loaded, Workload& w) {
  const std::string& path = spec.kernels[index].trace_path;
  auto reader = trace::open_kernel_trace(path);
  const trace::KernelInfo& info = reader->info();
  const std::string why =
      spec.sm.misfit({info.warps_per_cta(), info.registers_per_thread, info.shared_mem_bytes});
  if (!why.empty()) {
    if (loaded) loaded->fail(trace_key(*loaded, index), path + ": " + why);
    throw trace::TraceError(path + ": " + why);
  }
  return load_trace_program(std::move(reader), path, spec.facts.line_bytes, &w.trace_warnings);
}

// An application: its launches come from its host program as the run goes, each checked as it is handed
// out; a refusal is kept in the bounds' fault for System::run (SystemC would hand it on only as the text of
// a report).
std::function<void(const KernelProgram&)> launch_check(const SystemSpec& spec, const std::string& what,
                                                       const Workload& w) {
  return [sm = spec.sm, what, bounds = w.record_bounds](const KernelProgram& p) {
    try {
      refuse_misfit(sm, p, what + ", kernel '" + p.name() + "'");
    } catch (const std::invalid_argument&) {
      bounds->fault = std::current_exception();
      throw;
    }
  };
}

std::unique_ptr<KernelSequence> application(const SystemSpec& spec, const KernelSpec& k,
                                            const kernels::Latencies& latencies, Workload& w) {
  auto check = launch_check(spec, "application " + k.app, w);
  auto runner = std::make_unique<kernels::ApplicationRunner>(
      k.name, kernels::make_app(k.app, k.args, k.input, k.base_address), spec.facts.line_bytes, check,
      latencies, spec.max_launches);
  runner->bound_by(w.record_bounds);
  return runner;
}

Workload empty_workload(const SystemSpec& spec) {
  Workload w;
  w.record_bounds = std::make_shared<kernels::RecordBounds>();
  w.record_bounds->limit = spec.max_record_bytes;
  return w;
}

}  // namespace

Workload build_workload(const SystemSpec& spec, const config::Config* loaded,
                        const CudaProgramSource& cuda_program) {
  Workload w = empty_workload(spec);
  const kernels::Latencies latencies = latencies_of(spec.sm);
  for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
    const KernelSpec& k = spec.kernels[i];
    if (!k.cuda.empty()) {
      const std::string why = "runs only inside the CUDA program '" + k.cuda +
                              "' (numagpu run --cuda PROG, or PROG with NUMAGPU_CONFIG; docs/cuda.md)";
      if (!cuda_program) {
        if (loaded) loaded->fail("workload.kernels." + std::to_string(i) + ".cuda", why);
        throw std::invalid_argument("kernel '" + k.name + "': " + why);
      }
      w.items.push_back(cuda_program(k, HostLaunchContext{spec.facts.line_bytes, latencies, w.record_bounds,
                                                          launch_check(spec, "CUDA program " + k.cuda, w)}));
      continue;
    }
    if (!k.app.empty()) {
      w.items.push_back(application(spec, k, latencies, w));
      continue;
    }
    std::unique_ptr<KernelProgram> program;
    if (!k.trace_path.empty()) {
      program = trace_program(spec, i, loaded, w);  // checked on its header
    } else {
      if (!k.kernel.empty()) {  // its arrays where the configuration check placed them (base_address)
        auto cpp = std::make_unique<kernels::CppKernelProgram>(
            k.name, kernels::make_kernel(k.kernel, k.args, k.base_address), spec.facts.line_bytes, latencies);
        cpp->bound_by(w.record_bounds);
        program = std::move(cpp);
      } else {
        program = std::make_unique<SyntheticProgram>(k, spec.facts.line_bytes);
      }
      refuse_misfit(spec.sm, *program, "kernel '" + k.name + "'");
    }
    w.items.push_back(std::make_unique<SingleKernel>(std::move(program)));
  }
  return w;
}

kernels::Latencies sm_latencies(const SmSpec& sm) {
  return latencies_of(sm);
}

Workload build_workload(std::vector<std::unique_ptr<KernelProgram>> programs, const SystemSpec& spec) {
  Workload w = empty_workload(spec);
  for (auto& p : programs) {
    if (!p) throw std::invalid_argument("System: a null KernelProgram");
    if (auto* cpp = dynamic_cast<kernels::CppKernelProgram*>(p.get())) cpp->bound_by(w.record_bounds);
    refuse_misfit(spec.sm, *p, "kernel '" + p->name() + "'");
    w.items.push_back(std::make_unique<SingleKernel>(std::move(p)));
  }
  return w;
}

}  // namespace numagpu
