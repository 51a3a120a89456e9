#include "cuda/ptx_launch.hpp"

#include <chrono>

namespace numagpu::cuda {

namespace {
kernels::Args no_arguments() {
  return kernels::Args({}, "", 0);
}
kernels::Dim3 dim3_of(const ptx::Dim3& d) {
  return {d.x, d.y, d.z};
}
}  // namespace

PtxLaunch::PtxLaunch(std::shared_ptr<PtxLaunchState> state)
    : Kernel(no_arguments()), state_(std::move(state)) {}

kernels::Launch PtxLaunch::launch() {
  kernels::Launch l;
  l.grid = dim3_of(state_->spec.grid);
  l.block = dim3_of(state_->spec.block);
  l.regs_per_thread = state_->kernel->registers_per_thread();
  l.shared_bytes = state_->kernel->static_shared_bytes() + state_->spec.dynamic_shared_bytes;
  l.body = [state = state_](kernels::Cta& cta) {
    CtaWarpSink sink(cta);
    const auto begin = std::chrono::steady_clock::now();
    try {
      const ptx::CtaCost c =
          state->kernel->execute_cta(state->spec, {cta.blockIdx.x, cta.blockIdx.y, cta.blockIdx.z},
                                     *state->memory, sink, state->variable_addresses);
      state->cost.warp_instructions += c.warp_instructions;
      state->cost.thread_instructions += c.thread_instructions;
    } catch (const ptx::ExecutionError& e) {
      if (!state->failed) {
        state->failed = true;
        state->failure = e.kind;
      }
      state->execute_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      throw;
    }
    state->execute_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  };
  return l;
}

}  // namespace numagpu::cuda
