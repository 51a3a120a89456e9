// Executing one CTA of a PTX kernel: the contract between the PTX front end (this folder: the parser, the
// control-flow graph, the executor) and what runs it (cuda/: the CUDA runtime, and the adapter that hands the
// recorded steps to the SM model). Plain C++, no SystemC.
//
// The executor runs every thread of the CTA functionally (real values, real addresses) one warp at a time,
// with SIMT reconvergence at the immediate post-dominator, and tells a WarpSink what each warp issued: the
// instruction classes, the global accesses at their byte addresses, the shared-memory accesses with their
// offsets (for bank conflicts), the constant reads, the barriers. The sink turns those into the SM's steps
// (kernels::Cta's records), exactly as the C++ kernels' operations do.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/instr_class.hpp"
#include "workload/program.hpp"

namespace numagpu::ptx {

struct Module;    // ptx/module.hpp
struct Function;  // ptx/module.hpp

inline constexpr unsigned kWarpLanes = 32;

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t(x) * y * z; }
};

// What the executor hands the SM model, warp by warp. `lanes` is the warp's active mask (bit i: lane i),
// never 0. `operands_ready` is the latest ready cycle (as returned by earlier calls for the same warp) of the
// registers the instruction reads; 0 when they were ready from the start.
class WarpSink {
 public:
  virtual ~WarpSink() = default;
  // One warp instruction of `cls` issued by warp `w` (never kMemory or kOther): returns the cycle its result
  // is ready (the warp's own instruction clock, 0 when the sink models no dependent latencies). `latency`:
  // kernels::kClassLatency (~0u) for the class's latency, or a division's slot (kernels::kDivLatency + 0
  // integer, + 1 fp32, + 2 fp64).
  virtual std::uint32_t compute(unsigned w, InstrClass cls, std::uint32_t lanes, std::uint32_t operands_ready,
                                unsigned latency = ~0u) = 0;
  // Whether compute() returns ready cycles (dependent latencies modelled). When it does not (it returns 0),
  // the executor reports consecutive compute instructions of a warp, of one class and lanes and with the
  // class's latency, as one compute_run.
  virtual bool models_latencies() const { return true; }
  // `n` consecutive compute(w, cls, lanes, 0) calls (for a sink that models no latencies).
  virtual void compute_run(unsigned w, InstrClass cls, std::uint32_t lanes, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      compute(w, cls, lanes, 0);
  }
  // One global load, store or atomic (kind kLoad, kStore, kAtomic) by warp `w`: lane_addresses[lane] for each
  // active lane, each access `bytes` wide (a vector access: its whole width). The warp waits at it (a memory
  // step): what it loads is ready when the step ends.
  virtual void global_access(unsigned w, Step::Kind kind, std::uint32_t lanes,
                             const std::uint64_t* lane_addresses, unsigned bytes,
                             std::uint32_t operands_ready) = 0;
  // One shared-memory instruction (ld/st/atom on .shared): lane_offsets[lane] are byte offsets in the CTA's
  // shared memory, `bytes` wide each; bank conflicts replay it. Returns its result's ready cycle.
  virtual std::uint32_t shared_access(unsigned w, std::uint32_t lanes, const std::uint64_t* lane_offsets,
                                      unsigned bytes, std::uint32_t operands_ready) = 0;
  // One read of the constant bank (ld.const): one pass per distinct address among the active lanes.
  // Returns its result's ready cycle.
  virtual std::uint32_t constant_access(unsigned w, std::uint32_t lanes, const std::uint64_t* lane_addresses,
                                        std::uint32_t operands_ready) = 0;
  // Warp `w` reached a CTA barrier (bar.sync / barrier.sync 0 with every thread).
  virtual void barrier(unsigned w, std::uint32_t lanes) = 0;
};

// The simulated global memory, functional: where the bytes of a simulated address live on the host.
class GlobalMemory {
 public:
  virtual ~GlobalMemory() = default;
  // The host bytes of [address, address + bytes), which must lie inside one allocation; null when they do
  // not (an out-of-bounds access: the executor reports it).
  virtual std::uint8_t* resolve(std::uint64_t address, std::uint64_t bytes) = 0;
};

// One launch of an entry of a module.
struct LaunchSpec {
  Dim3 grid, block;
  std::uint64_t dynamic_shared_bytes = 0;  // the launch's extern .shared size (<<<g, b, bytes>>>)
  // The kernel's parameters as the entry's .param space holds them (Function's parameter layout: each at its
  // offset, little-endian), as built from cudaLaunchKernel's argument pointers.
  std::vector<std::uint8_t> params;
  // Where the launch's .local memory lives in the simulated address space (for the addresses the SM sees;
  // the values are kept by the executor). 0: no local memory.
  std::uint64_t local_base = 0;
};

// An access or instruction that stops the kernel, in the words of cuda-memcheck: one line naming the kernel,
// the CTA, the thread and the PTX line (file.ptx:line:column), and what went wrong.
class ExecutionError : public std::runtime_error {
 public:
  enum class Kind {
    kOutOfBounds,      // a global, shared, local or constant access outside its memory
    kMisaligned,       // an address not a multiple of its access's size
    kBarrierDiverged,  // a barrier not reached by every non-exited thread of the CTA
    kTrap,             // trap (__trap(), assert)
    kUnsupported,      // an instruction or operand the executor does not run
  };
  ExecutionError(Kind kind, const std::string& line) : std::runtime_error(line), kind(kind) {}
  Kind kind;
};

// PTX text the front end refuses: `file.ptx:line:column: ...` naming what it does not support, never run
// wrong.
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A module-level variable (.global or .const, with its initializer) that the runtime places in the simulated
// memory before the first launch; the kernel reads it at the address given (Kernel::execute_cta's
// `variable_addresses`, in Module::variables' order; .shared variables are the executor's own).
struct VariableInfo {
  std::string name;
  enum class Space { kGlobal, kConst, kShared } space = Space::kGlobal;
  std::uint64_t bytes = 0;
  std::uint32_t align = 1;
  std::vector<std::uint8_t> initial;  // empty: zeros
};

// One .param of an entry: where cudaLaunchKernel's argument i goes in LaunchSpec::params.
struct ParamInfo {
  std::string name;
  std::uint32_t offset = 0, bytes = 0, align = 1;
};

// What one executed CTA did, for the --bench report and tests.
struct CtaCost {
  std::uint64_t warp_instructions = 0;  // PTX instructions executed, counted once per warp
  std::uint64_t thread_instructions = 0;
};

// The API the front end provides (ptx/module.hpp, ptx/kernel.hpp):
//   std::shared_ptr<const Module> parse_module(std::string_view text, const std::string& file);  //
//   ParseError const std::vector<VariableInfo>& module_variables(const Module&); class Kernel {  // one
//   .entry, decoded once, shared by every CTA of every launch
//     Kernel(std::shared_ptr<const Module>, const std::string& entry);  // ParseError if absent or refused
//     const std::string& name() const;
//     const std::vector<ParamInfo>& params() const;
//     unsigned registers_per_thread() const;        // the rule in docs/cuda.md
//     std::uint64_t static_shared_bytes() const;     // the entry's .shared variables
//     std::uint64_t local_bytes_per_thread() const;  // its .local depot
//     CtaCost execute_cta(const LaunchSpec&, Dim3 block_idx, GlobalMemory&, WarpSink&,
//                         const std::vector<std::uint64_t>& variable_addresses) const;  // ExecutionError
//   };

}  // namespace numagpu::ptx
