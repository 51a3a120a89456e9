// What a kernel's warps execute, step by step, for the SM model: synthetic patterns or a replayed trace.
// A memory step names the distinct cache lines its active threads touch (the coalescer's output), so the SM
// issues one line request per entry.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/instr_class.hpp"
#include "runtime/cta_schedule.hpp"
#include "runtime/lasp.hpp"
#include "workload/kernel.hpp"

namespace numagpu {

namespace trace {
class KernelTraceReader;
}

struct Step {
  // kWait: no instruction; the warp goes on once the loads it names have returned (a scoreboarded load's
  // reader, below).
  enum class Kind : std::uint8_t { kCompute, kLoad, kStore, kAtomic, kBarrier, kWait };
  static constexpr unsigned kWarpThreads = 32;
  static constexpr unsigned kMaxLines = 64;  // 32 threads, an access may straddle two lines
  Kind kind = Kind::kCompute;
  std::uint32_t cycles = 1;        // compute: cycles the warp is busy
  std::uint32_t instructions = 1;  // compute: warp instructions the step stands for
  // Compute: those instructions by class (adding up to `instructions`); all 0 when unclassified (kOther).
  std::array<std::uint32_t, kInstrClasses> classes{};
  // Compute: passes through three of the SM's shared structures that are not instructions of their own. A
  // shared-memory access replayed for bank conflicts holds the shared pipe one pass per replay beyond its
  // instruction's (shared_replays); a __constant__ read takes one pass of the SM's constant cache per
  // distinct address its warp reads (constant_passes; sm.constant_cache_ports). A conversion between float
  // and double holds the FP64 pipe two passes, one beyond its instruction's (fp64_passes): the CUDA C
  // Programming Guide gives conversions to and from 64-bit types 16 results a clock per SM on compute
  // capability 7.x, half the 32 of fp64 arithmetic. C++ kernels only.
  std::uint32_t shared_replays = 0;
  std::uint32_t constant_passes = 0;
  std::uint32_t fp64_passes = 0;
  // Compute: the step's instructions whose three register sources lie in one register bank (Jia et al.
  // 2018: a Volta block's register file is two banks; a source the reuse cache holds is not read), which
  // hold their processing block's operand reads sm.register_bank_conflict_cycles more cycles. C++ kernels
  // that state their SASS's conflicts only (Cta::sources_in_one_register_bank).
  std::uint32_t register_bank_conflicts = 0;
  // A warp shuffle takes a pass of the shared pipe that reads no bank (sm.shared_bandwidth_fraction does not
  // slow it): one per shuffle.
  std::uint32_t shuffle_passes = 0;
  // Active threads summed over the step's instructions (a memory or barrier step: its one instruction's),
  // for the energy model's per-lane power; kFullWarps when the source does not say (synthetic patterns,
  // programs that do not count threads): every instruction with all 32 threads.
  static constexpr std::uint32_t kFullWarps = ~std::uint32_t(0);
  std::uint32_t thread_instructions = kFullWarps;
  // A load the warp goes past (sm.nonblocking_loads: a register scoreboard): its value's first reader is
  // preceded by a kWait step. false: the warp waits for the load's lines before its next step (traces,
  // synthetic patterns, PTX programs, which state no dependences). Loads the warp goes past are numbered
  // 1, 2, ... in issue order per warp; a kWait step names in `wait_through` the last one it needs: it goes
  // on once that load and every one before it have returned all their lines.
  bool scoreboarded = false;
  std::uint32_t wait_through = 0;
  // A load: a texture fetch (tex1Dfetch, tex2D; C++ kernels' Cta::texture_load). Its requests pass through
  // the SM's texture pipeline (sm.texture_latency) before they reach the unified L1 / texture cache.
  bool texture = false;
  unsigned line_count = 0;                       // memory: distinct lines, in first-touch order
  std::array<std::uint64_t, kMaxLines> lines{};  // line-aligned addresses
  // Per line, the 32 B sectors the threads' bytes touch (bit i: bytes [32 i, 32 i + 32) of the line); 0: all
  // of them. Only sectored caches look at it (NumaAttr::sectors).
  std::array<std::uint8_t, kMaxLines> sectors{};
};

// Distinct lines touched by `addresses` accessing `bytes` each (an access crossing a line boundary touches
// both lines), appended to `step` in first-touch order, each with the 32 B sectors its accesses touch (a line
// of 32 B or less: 0, the whole line). The SM's coalescer.
void coalesce(const std::vector<std::uint64_t>& addresses, unsigned bytes, unsigned line_bytes, Step& step);

// The memory's bytes as a kernel's data sees them (memory.functional: the System's functional store,
// docs/embedding.md "Functional data"): read at a kernel's launch, written at its end.
class DataStore {
 public:
  virtual ~DataStore() = default;
  virtual void read(std::uint64_t address, void* dst, std::uint64_t bytes) const = 0;
  virtual void write(std::uint64_t address, const void* src, std::uint64_t bytes) = 0;
};

class KernelProgram {
 public:
  virtual ~KernelProgram() = default;
  virtual const std::string& name() const = 0;
  virtual std::uint32_t ctas() const = 0;
  virtual std::uint32_t warps_per_cta() const = 0;
  // The grid's shape (x fastest); ctas() == x * y * z.
  virtual runtime::Grid grid() const { return runtime::Grid{ctas(), 1, 1}; }
  // Step `index` of a warp; false when the warp has no more steps (it exits).
  virtual bool step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, Step& out) const = 0;
  // What a CTA asks of an SM beyond its warps (0: not stated), for occupancy (SmSpec::cta_slots).
  virtual std::uint32_t registers_per_thread() const { return 0; }
  virtual std::uint64_t shared_bytes_per_cta() const { return 0; }
  // Host time spent making steps beyond reading them (C++ kernels run their CTAs' bodies), for --bench.
  virtual double generation_seconds() const { return 0.0; }
  // Each array's index terms as the kernel states them (LASP, runtime/lasp.hpp); empty: not stated.
  virtual const std::vector<runtime::ArrayAccess>& accesses() const {
    static const std::vector<runtime::ArrayAccess> none;
    return none;
  }
  // With memory.functional, the kernel's data: called at its launch, before any CTA runs, to take its
  // inputs from the store, and at its end, every CTA executed, to put its results there. A C++ kernel moves
  // the arrays the host bound to the store (kernels/library.hpp, BoundArray::in_store); by default nothing.
  virtual void load_data(const DataStore&) const {}
  virtual void store_data(DataStore&) const {}
};

// One item of the workload as the dispatcher runs it: one kernel (SingleKernel), or an application that
// launches kernels one after another from its host program (kernels/application.hpp).
class KernelSequence {
 public:
  virtual ~KernelSequence() = default;
  // The next kernel to launch, or null when the item has no more. Called when the previous kernel of the
  // workload has ended (every CTA executed, the boundary's coherence actions done); the program returned
  // stays valid until the call after next.
  virtual const KernelProgram* next() = 0;
  virtual double generation_seconds() const = 0;
  virtual bool is_application() const { return false; }
  virtual const std::string& name() const = 0;
  // The name of the kernel last returned by next(), as the statistics show it.
  virtual const std::string& launch_name() const { return name(); }
  // Why next() returned null before the item's end (an application at its launch bound), or "" : the run
  // ends there, without the items after it.
  virtual std::string cut_short() const { return {}; }
};

// A workload item of one kernel.
class SingleKernel : public KernelSequence {
 public:
  explicit SingleKernel(std::unique_ptr<KernelProgram> program) : program_(std::move(program)) {}
  const KernelProgram* next() override {
    if (given_) return nullptr;
    given_ = true;
    return program_.get();
  }
  double generation_seconds() const override { return program_->generation_seconds(); }
  const std::string& name() const override { return program_->name(); }
  const KernelProgram& program() const { return *program_; }

 private:
  std::unique_ptr<KernelProgram> program_;
  bool given_ = false;
};

// The synthetic patterns of KernelSpec (stream, random): compute, then one memory access, repeated.
class SyntheticProgram : public KernelProgram {
 public:
  SyntheticProgram(const KernelSpec& kernel, unsigned line_bytes);
  const std::string& name() const override { return kernel_.name; }
  std::uint32_t ctas() const override { return kernel_.ctas; }
  std::uint32_t warps_per_cta() const override { return kernel_.warps_per_cta; }
  runtime::Grid grid() const override {
    const std::uint32_t x = kernel_.grid_x ? kernel_.grid_x : kernel_.ctas;
    return runtime::Grid{x, kernel_.ctas / x, 1};
  }
  bool step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, Step& out) const override;

 private:
  KernelSpec kernel_;
  WarpProgram program_;
};

// Writes a kernel program as a numagpu .ngt trace that replays identically: every warp's steps, memory steps
// as one 128 B access per line, then EXIT. Throws trace::TraceError (e.g. a step of more than 32 lines).
void dump_program(const KernelProgram& program, std::uint32_t kernel_id, unsigned line_bytes,
                  const std::string& path);

// A kernel trace (Accel-Sim .traceg[.gz|.xz] or numagpu .ngt), held in memory for random access by CTA.
// Throws trace::TraceError (one line, file:line) on a bad trace.
std::unique_ptr<KernelProgram> load_trace_program(const std::string& path, unsigned line_bytes,
                                                  std::vector<std::string>* warnings);
// The same from a trace already opened at `path` (its header read: what the workload builder checks before
// the blocks are loaded), so the file is opened once.
std::unique_ptr<KernelProgram> load_trace_program(std::unique_ptr<trace::KernelTraceReader> reader,
                                                  const std::string& path, unsigned line_bytes,
                                                  std::vector<std::string>* warnings);

}  // namespace numagpu
