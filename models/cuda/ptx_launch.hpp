// One launch of a PTX kernel as the SM model runs it: a kernels::Kernel whose CTA body is the PTX executor
// (ptx/kernel.hpp), recording into the CTA's warp records through a WarpSink over kernels::Cta. From there on
// a PTX kernel is run exactly as a C++ library kernel is (kernels/cpp_program.hpp: CTAs executed lazily, as
// SMs take them, their records dropped once their warps have ended).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/library.hpp"
#include "ptx/execute.hpp"
#include "ptx/kernel.hpp"

namespace numagpu::cuda {

// The SM's side of the executor: each WarpSink call is the Cta's one-warp operation of the same name.
class CtaWarpSink : public ptx::WarpSink {
 public:
  explicit CtaWarpSink(kernels::Cta& cta) : cta_(cta) {}
  std::uint32_t compute(unsigned w, InstrClass cls, std::uint32_t lanes, std::uint32_t operands_ready,
                        unsigned latency) override {
    const std::uint32_t ready = cta_.warp_compute(w, lanes, cls, operands_ready, latency);
    // A PTX div is one instruction; the SASS it becomes is a sequence, charged as the C++ kernels charge it
    // (an integer division as a signed one: the slot does not say, and the two differ by 6 instructions).
    if (latency >= kernels::kDivLatency && latency <= kernels::kDivLatency + 2)
      cta_.warp_division_rest(w, lanes, latency);
    return ready;
  }
  bool models_latencies() const override { return cta_.models_latencies(); }
  void compute_run(unsigned w, InstrClass cls, std::uint32_t lanes, unsigned n) override {
    cta_.warp_compute_run(w, lanes, cls, n);
  }
  void global_access(unsigned w, Step::Kind kind, std::uint32_t lanes, const std::uint64_t* lane_addresses,
                     unsigned bytes, std::uint32_t operands_ready) override {
    cta_.warp_global_access(w, lanes, kind, lane_addresses, bytes, operands_ready);
  }
  std::uint32_t shared_access(unsigned w, std::uint32_t lanes, const std::uint64_t* lane_offsets,
                              unsigned bytes, std::uint32_t operands_ready) override {
    return cta_.warp_shared_access(w, lanes, lane_offsets, bytes, operands_ready);
  }
  std::uint32_t constant_access(unsigned w, std::uint32_t lanes, const std::uint64_t* lane_addresses,
                                std::uint32_t operands_ready) override {
    return cta_.warp_constant_access(w, lanes, lane_addresses, operands_ready);
  }
  void barrier(unsigned w, std::uint32_t lanes) override { cta_.warp_barrier(w, lanes); }

 private:
  kernels::Cta& cta_;
};

// What a launch's CTAs share: the executor's inputs and what they did, for the runtime and --bench.
struct PtxLaunchState {
  std::shared_ptr<const ptx::Kernel> kernel;
  ptx::LaunchSpec spec;
  ptx::GlobalMemory* memory = nullptr;
  std::vector<std::uint64_t> variable_addresses;
  ptx::CtaCost cost;           // summed over the executed CTAs
  double execute_seconds = 0;  // host time in the executor
  // The first error a CTA raised (the kernel stops there): its kind, for the CUDA error the host gets.
  bool failed = false;
  ptx::ExecutionError::Kind failure = ptx::ExecutionError::Kind::kUnsupported;
};

class PtxLaunch : public kernels::Kernel {
 public:
  explicit PtxLaunch(std::shared_ptr<PtxLaunchState> state);
  kernels::Launch launch() override;

 private:
  std::shared_ptr<PtxLaunchState> state_;
};

}  // namespace numagpu::cuda
