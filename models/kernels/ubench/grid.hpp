// What the microbenchmark kernels of models/kernels/ubench/ share: their launch, a grid of `ctas` CTAs of
// `threads` threads declaring 32 registers a thread (64 K registers / 2,048 threads: full occupancy on a
// GV100), and the two arguments that size it.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/library.hpp"

namespace numagpu::kernels::ubench {

// `threads`, checked to be whole warps (the benchmarks count warp instructions).
inline std::int64_t whole_warps(std::int64_t threads) {
  if (threads % kWarpSize)
    throw KernelError("threads must be a multiple of 32, got " + std::to_string(threads));
  return threads;
}

inline Launch grid_launch(std::int64_t ctas, std::int64_t threads) {
  Launch l;
  l.grid = {static_cast<std::uint32_t>(ctas), 1, 1};
  l.block = {static_cast<std::uint32_t>(threads), 1, 1};
  l.regs_per_thread = 32;
  return l;
}

inline ArgSpec threads_arg(std::int64_t default_threads) {
  return {"threads", default_threads, 32, 1024, "threads per CTA (a multiple of 32)"};
}
inline ArgSpec ctas_arg() {
  return {"ctas", 1, 1, 1 << 20, "CTAs"};
}

}  // namespace numagpu::kernels::ubench
