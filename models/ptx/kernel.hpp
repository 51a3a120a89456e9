// One .entry of a PTX module, ready to run: its calls inlined into one instruction list (each call site its
// own copy of the callee, with its own registers, .local and .param frame), every operand a register of a
// dense per-thread file (immediates, special registers and variable addresses too), its control-flow graph
// with every branch's reconvergence point, and its instruction classes. Decoded once, shared by every CTA
// of every launch; execute_cta runs one CTA (ptx/execute.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ptx/cfg.hpp"
#include "ptx/execute.hpp"
#include "ptx/module.hpp"

namespace numagpu::ptx {

// Generic addresses: the CTA's shared memory and the thread's local memory appear in these windows (what
// cvta.shared / cvta.local give); any other generic address is global.
inline constexpr std::uint64_t kSharedWindow = 0xff00'0000'0000'0000ull;
inline constexpr std::uint64_t kLocalWindow = 0xfe00'0000'0000'0000ull;
inline constexpr std::uint64_t kWindowBytes = 1ull << 32;

// A division's latency slot (WarpSink::compute's `latency`): kernels::kDivLatency + 0 integer, + 1 fp32,
// + 2 fp64 (the same values; ptx/ may not include kernels/).
inline constexpr unsigned kDivisionSlot = kInstrClasses;
inline constexpr unsigned kClassSlot = ~0u;

// How an instruction reaches the sink (docs/cuda.md, "PTX front end").
struct InstrCost {
  enum class Kind : std::uint8_t { kNone, kCompute, kMemory, kBarrier } kind = Kind::kNone;
  InstrClass cls = InstrClass::kInt;
  unsigned latency = kClassSlot;
};
InstrCost cost_of(const Instr& in);

class Kernel {
 public:
  Kernel(std::shared_ptr<const Module> module, const std::string& entry);  // ParseError if absent or refused
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  const std::string& name() const;
  const std::vector<ParamInfo>& params() const;
  unsigned registers_per_thread() const;         // docs/cuda.md, "Registers per thread"
  std::uint64_t static_shared_bytes() const;     // the entry's .shared variables
  std::uint64_t local_bytes_per_thread() const;  // its .local depots (every inlined call's)
  // Runs CTA `block_idx` of `launch` to its end (ExecutionError: the first error, in cuda-memcheck's
  // words). `variable_addresses[i]`: where Module::variables[i] lives in `memory` (entries of .shared
  // variables are ignored; the vector may end after the last variable the kernel uses). Thread-safe: CTAs
  // may run on several host threads at once (each keeps its own scratch registers).
  CtaCost execute_cta(const LaunchSpec& launch, Dim3 block_idx, GlobalMemory& memory, WarpSink& sink,
                      const std::vector<std::uint64_t>& variable_addresses) const;

  // The flattened code and its graph (tests).
  const std::vector<Instr>& code() const;
  const ControlFlowGraph& cfg() const;
  const Module& module() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace numagpu::ptx
