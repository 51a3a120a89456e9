// Kernel's decoded state, shared by the flattening (flatten.cpp) and the executor (executor.cpp).
#pragma once

#include <array>

#include "ptx/kernel.hpp"

namespace numagpu::ptx {

// What the executor needs beside an instruction: how it is charged, the registers whose ready cycles gate
// it, and where a warp diverging at it reconverges.
// A common compute instruction's whole effect over the active lanes, chosen once when the kernel is decoded
// (fast_compute_of): d and q the destinations (q: setp's second, or null), a, b, c the sources (null past
// nsrc).
using FastCompute = void (*)(std::uint64_t* d, std::uint64_t* q, const std::uint64_t* a,
                             const std::uint64_t* b, const std::uint64_t* c, std::uint32_t active);

struct InstrMeta {
  InstrCost cost;
  FastCompute fast = nullptr;  // null: the executor's general path
  std::uint8_t nreads = 0;
  std::array<std::uint32_t, 7> reads{};
  std::uint32_t reconverge = 0;
};

// The fast path of `in` when it has one (executor.cpp): an instruction with no rounding mode, flush,
// saturation or carry to decide per lane, of the types the compiler uses most. Null otherwise.
FastCompute fast_compute_of(const Instr& in);

struct Kernel::Impl {
  std::shared_ptr<const Module> module;
  std::string name;
  std::vector<ParamInfo> params;
  std::vector<Instr> code;
  std::vector<InstrMeta> meta;
  ControlFlowGraph cfg;
  // Registers 0..vars-1 are each warp's (the program's, then special registers and variable addresses);
  // vars..vars+consts-1 are immediates, read from `constants` (each broadcast to 32 lanes).
  std::uint32_t vars = 0;
  std::vector<std::uint64_t> constants;
  std::vector<std::pair<std::uint32_t, Special>> special_registers;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> variable_registers;  // register, Module::variables
  // The registers a CTA starts at zero (flatten.cpp, registers_to_zero); the others are written before read.
  std::vector<std::uint32_t> zeroed_registers;
  std::uint64_t static_shared = 0, local_bytes = 0, frame_bytes = 0;
  std::uint32_t dynamic_shared_align =
      0;  // nonzero: the kernel uses extern .shared (at static_shared, aligned)
  unsigned registers_per_thread = 0;
};

}  // namespace numagpu::ptx
