// The SM's parameters: the `sm` section of the configuration, declared here once with their defaults (the
// initialisers) and documentation (config/keys.hpp explains keys()). Plain C++, no SystemC.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace numagpu {

// What a kernel's CTA asks of an SM, for occupancy (0: not stated, no limit from it).
struct CtaFootprint {
  std::uint32_t warps = 1;
  std::uint32_t registers_per_thread = 0;
  std::uint64_t shared_bytes = 0;
};

// Which ready warp a processing block's scheduler issues (sm.scheduler).
enum class WarpScheduler : std::uint8_t {
  kGto,  // greedy-then-oldest: the warp that issued last while it is ready, else the oldest ready one
  kLrr,  // loose round-robin: the first ready warp after the one that issued last, by warp number
  // greedy-then-round-robin (the paper's Table 1): the warp that issued last while it is ready, else the
  // first ready warp after it, by warp number
  kGtrr,
};

// The defaults are the paper's SM (Milic et al., MICRO-50, Table 1 and §3.2: a GPU that "approximates the
// latest NVIDIA Pascal architecture"), from NVIDIA's Tesla P100 whitepaper (GP100): two processing blocks per
// SM, each with one warp scheduler, two dispatch units and 32 of the SM's 64 FP32 cores; Table 1's
// greedy-then-round-robin scheduler. Issue width 2: one warp instruction per block a cycle (why:
// configs/paper_4socket.yaml, docs/kernels.md "Timing").
struct SmSpec {
  unsigned max_warps = 64;
  unsigned issue_width = 2;  // warp instructions issued per cycle, from different warps
  // Processing blocks (sub-cores): each has issue_width / processing_blocks issue slots and its share of the
  // lanes; warp slot w is bound to block w mod processing_blocks (sm/issue_pipes.hpp). 1: SM-wide issue.
  unsigned processing_blocks = 2;
  WarpScheduler scheduler = WarpScheduler::kGtrr;
  unsigned max_outstanding = 128;  // memory requests in flight (MSHR-like limit)
  // A per-warp register scoreboard for global loads (docs/kernels.md, Timing): a warp goes past a load and
  // waits only where an instruction reads the loaded value. C++ library kernels with dependent latencies
  // (the kernels state their dependences); false: a warp waits at each load for its data.
  bool nonblocking_loads = false;
  unsigned max_ctas = 0;           // resident CTAs; 0: only max_warps limits them
  std::uint32_t registers = 0;     // 32-bit registers per SM; 0: no register limit
  std::uint64_t shared_bytes = 0;  // shared memory per SM (the carveout); 0: no shared-memory limit
  // The carveouts the driver may choose from per kernel (a unified L1 and shared memory), in KiB, as written
  // in the configuration ("0,8,16,32,64,96"); parsed into `carveout_bytes` (ascending) when the
  // configuration is checked. Empty: the one carveout `shared_bytes` for every kernel.
  std::string shared_carveouts;
  std::vector<std::uint64_t> carveout_bytes;
  // Execution pipes (sm/issue_pipes.hpp): lanes per SM of each instruction class; 0: no limit but issue.
  // The default FP32 pipe is GP100's 64 cores (32 a block: one warp instruction a block a cycle).
  std::uint32_t fp32_lanes = 64, fp64_lanes = 0, int_lanes = 0, sfu_lanes = 0, tensor_lanes = 0,
                shared_lanes = 0;
  // The share of the shared-memory banks' peak (shared_lanes words a clock) that bank passes sustain
  // (sm/issue_pipes.hpp): each holds the shared pipe 1 / fraction of a pass's time; a shuffle's pass, which
  // reads no bank, does not. 1: the peak.
  double shared_bandwidth_fraction = 1.0;
  // A shared access is served in phases of 128 bytes (kernels/simt.hpp, Cta::warp_shared_passes): LDS.64 by
  // half-warps, LDS.128 by quarter-warps, bank conflicts counted within a phase, and a load whose lanes
  // pair up on addresses (a broadcast among them) packs two lanes' data a phase. false: the whole warp's
  // banks at once, a broadcast one pass whatever its width. C++ library kernels and PTX programs.
  bool shared_access_phases = false;
  // Distinct addresses the SM's constant cache serves a cycle (sm/issue_pipes.hpp); 0: no limit.
  unsigned constant_cache_ports = 0;
  // Cycles beyond its issue slot that a processing block's register file takes to read the sources of an
  // instruction whose three register sources lie in one bank (Step::register_bank_conflicts; sm/
  // issue_pipes.hpp); 0: not modelled.
  unsigned register_bank_conflict_cycles = 0;
  // Dependent-instruction latencies (kernels/simt.hpp, Cta::issue): cycles from an instruction's issue until
  // one that reads its result may issue; 0: not modelled for that class.
  std::uint32_t fp32_latency = 0, fp64_latency = 0, int_latency = 0, sfu_latency = 0, tensor_latency = 0,
                shared_latency = 0;
  // A division's (kernels/simt.hpp, kDivLatency): its result takes these cycles; 0: the class's latency.
  // fp64 and integer divisions are one instruction; an fp32 one also issues the rest of its sequence.
  std::uint32_t int_div_latency = 0, fp32_div_latency = 0, fp64_div_latency = 0;
  // A warp shuffle's (kernels/simt.hpp, Cta::shuffle_xor): its result takes these cycles; 0: sm.int_latency.
  std::uint32_t shfl_latency = 0;
  // The texture pipeline (Step::texture): cycles a texture fetch's requests spend in the SM's texture units
  // (coordinates to addresses, the TEX stages before the tag stage) before they reach the unified L1 /
  // texture cache, beyond what a global load's take; added to its hit and to its miss alike. 0: a texture
  // fetch is a global load.
  std::uint32_t texture_latency = 0;

  // Register and shared-memory allocation granules (NVIDIA's CUDA Occupancy Calculator, compute capability
  // 7.0: registers are allocated per warp in units of 256, shared memory per CTA in units of 256 bytes).
  static constexpr std::uint32_t kRegisterUnit = 256;
  static constexpr std::uint64_t kSharedUnit = 256;

  // A CTA's shared memory as allocated (rounded up to the granule).
  static std::uint64_t allocated_shared(const CtaFootprint& cta) {
    return (cta.shared_bytes + kSharedUnit - 1) / kSharedUnit * kSharedUnit;
  }
  // A warp's registers as allocated (rounded up to the granule).
  static std::uint64_t allocated_registers_per_warp(const CtaFootprint& cta) {
    return (std::uint64_t(cta.registers_per_thread) * 32 + kRegisterUnit - 1) / kRegisterUnit * kRegisterUnit;
  }
  // CTAs of `cta` an SM holds at once by its warps, CTA and register limits (shared memory aside).
  std::uint32_t slots_before_shared(const CtaFootprint& cta) const {
    const std::uint32_t warps = std::max<std::uint32_t>(1, cta.warps);
    std::uint32_t slots = max_warps / warps;
    if (max_ctas) slots = std::min(slots, max_ctas);
    if (registers && cta.registers_per_thread)
      slots = std::min<std::uint64_t>(slots, registers / (allocated_registers_per_warp(cta) * warps));
    return slots;
  }
  // The shared memory the SM sets aside while a kernel of `cta` runs. One carveout (`carveout_bytes` empty):
  // `shared_bytes`. Per kernel, as the CUDA driver chooses for compute capability 7.x by default (CUDA C
  // Programming Guide, "Shared Memory" of 7.x: it configures the shared memory capacity per kernel so that
  // shared memory does not limit occupancy): the smallest carveout that holds as many CTAs as the largest
  // does (at most what the other limits allow); a kernel without shared memory gets the smallest.
  std::uint64_t carveout_for(const CtaFootprint& cta) const {
    if (carveout_bytes.empty()) return shared_bytes;
    if (!cta.shared_bytes) return carveout_bytes.front();
    const std::uint64_t per_cta = allocated_shared(cta);
    const std::uint64_t most =
        std::min<std::uint64_t>(slots_before_shared(cta), carveout_bytes.back() / per_cta);
    const std::uint64_t wanted = std::max<std::uint64_t>(1, most) * per_cta;
    for (const std::uint64_t c : carveout_bytes) {
      if (c >= wanted) return c;
    }
    return carveout_bytes.back();
  }
  // The most shared memory a kernel can be given.
  std::uint64_t largest_carveout() const {
    return carveout_bytes.empty() ? shared_bytes : carveout_bytes.back();
  }

  // CTAs of `cta` an SM holds at once: the tightest of its warps, CTA, register and shared-memory limits
  // (the latter with the kernel's carveout), at least 1 (a CTA that cannot fit at all is refused when the
  // configuration is checked).
  std::uint32_t cta_slots(const CtaFootprint& cta) const {
    std::uint32_t slots = slots_before_shared(cta);
    const std::uint64_t shared = carveout_for(cta);
    if (shared && cta.shared_bytes) slots = std::min<std::uint64_t>(slots, shared / allocated_shared(cta));
    return std::max<std::uint32_t>(1, slots);
  }
  // True when at least one CTA fits (cta_slots returns 1 regardless). Shared memory is compared as
  // allocated, in its 256 B granules.
  bool fits(const CtaFootprint& cta) const {
    const std::uint32_t warps = std::max<std::uint32_t>(1, cta.warps);
    if (warps > max_warps) return false;
    if (registers && cta.registers_per_thread && allocated_registers_per_warp(cta) * warps > registers)
      return false;
    // A shared_bytes of 0 without carveouts means no limit; a largest carveout of 0 means no shared memory.
    const std::uint64_t shared = largest_carveout();
    const bool limited = shared || !carveout_bytes.empty();
    return !(cta.shared_bytes && limited && allocated_shared(cta) > shared);
  }

  // Why a CTA of `cta` would never fit on an SM, "" when it fits: the one rule and its one-line reason
  // for every check of a kernel's CTA (the configuration's, the workload builder's, an application's
  // launches), each of which names the kernel before it.
  std::string misfit(const CtaFootprint& cta) const {
    if (fits(cta)) return {};
    if (cta.warps > max_warps) {
      return "a CTA of " + std::to_string(cta.warps) + " warps exceeds sm.max_warps (" +
             std::to_string(max_warps) + "): it would never fit on an SM";
    }
    return "a CTA of " + std::to_string(cta.warps) + " warps, " + std::to_string(cta.registers_per_thread) +
           " registers per thread and " + std::to_string(cta.shared_bytes) + " B of shared memory exceeds " +
           "sm.registers (" + std::to_string(registers) + ") or the shared memory an SM can give it (" +
           std::to_string(largest_carveout()) + " B): it would never fit on an SM";
  }

  template <class Keys>
  void keys(Keys& k) {
    k.integer("max_warps", max_warps, "Resident warps per SM (CTA slots = max_warps / warps_per_cta)")
        .range(1, 256);
    k.integer("issue_width", issue_width,
              "Warp instructions an SM issues per cycle (greedy-then-oldest, different warps)")
        .range(1, 8);
    k.integer("processing_blocks", processing_blocks,
              "Processing blocks (sub-cores) per SM, each with its own warp scheduler, "
              "sm.issue_width / processing_blocks issue slots a cycle and 1 / processing_blocks of every "
              "pipe's lanes (sm.*_lanes; the shared-memory pipe and the constant cache stay SM-wide); warp "
              "slot w is bound to block w mod processing_blocks, so a warp issues only through its block's "
              "slots and pipes (docs/kernels.md, Timing). Must divide sm.issue_width. 1: one block, issue "
              "and pipes SM-wide")
        .range(1, 8);
    k.choice("scheduler", scheduler,
             {{"gto", WarpScheduler::kGto}, {"lrr", WarpScheduler::kLrr}, {"gtrr", WarpScheduler::kGtrr}},
             "Each processing block's choice among its ready warps: gto (greedy-then-oldest: the warp that "
             "issued last while it stays ready, else the oldest), lrr (loose round-robin: the first ready "
             "warp after the one that issued last, by warp slot) or gtrr (greedy-then-round-robin, the "
             "paper's Table 1: the warp that issued last while it stays ready, else the first ready warp "
             "after it, by warp slot)");
    k.integer("max_outstanding", max_outstanding,
              "Memory requests an SM may have in flight before issue stalls")
        .range(1, 4096);
    k.boolean("nonblocking_loads", nonblocking_loads,
              "A warp goes past a global load and waits only where an instruction reads the loaded value "
              "(a register scoreboard; C++ library kernels with dependent latencies, which state their "
              "dependences; atomics, traces and PTX programs still wait at each load); false: a warp waits "
              "at every global load for its data (docs/kernels.md, Timing)");
    k.integer("max_ctas", max_ctas, "Resident CTAs per SM; 0: only max_warps limits them").range(0, 1024);
    k.integer(
         "registers", registers,
         "32-bit registers per SM, shared by the resident CTAs (allocated per warp in units of 256); 0: no "
         "register limit. Limits CTAs of kernels that state their registers (C++ library kernels)")
        .range(0, 1 << 24);
    k.integer("shared_bytes", shared_bytes,
              "Shared memory per SM (the carveout; allocated per CTA in units of 256 B); 0: no limit. Limits "
              "CTAs of kernels that state their shared memory (C++ library kernels)")
        .range(0, std::int64_t(1) << 24)
        .unit("B");
    k.string("shared_carveouts", shared_carveouts,
             "Shared-memory carveouts of a unified L1 and shared memory, in KiB, comma-separated and "
             "ascending (Volta: \"0,8,16,32,64,96\"): each kernel gets the smallest that does not limit its "
             "occupancy, as the CUDA driver chooses, and the L1 (l1.size_bytes is then the unified array) "
             "gives up as many of its ways. Empty: sm.shared_bytes for every kernel. Each must be a whole "
             "number of L1 ways (l1.size_bytes / l1.ways) and leave the L1 at least one way");
    // One text for the six pipes (a literal: the schema keeps the pointer's text).
#define NUMAGPU_LANES_DOC(pipe)                                         \
  "Lanes of the SM's " pipe                                             \
  " pipe: it accepts lanes / 32 warp instructions a cycle (classified " \
  "instructions of C++ library kernels; docs/workloads.md); 0: no limit but sm.issue_width"
    k.integer("fp32_lanes", fp32_lanes, NUMAGPU_LANES_DOC("FP32")).range(0, 4096);
    k.integer("fp64_lanes", fp64_lanes, NUMAGPU_LANES_DOC("FP64")).range(0, 4096);
    k.integer("int_lanes", int_lanes, NUMAGPU_LANES_DOC("INT32")).range(0, 4096);
    k.integer("sfu_lanes", sfu_lanes,
              NUMAGPU_LANES_DOC("special-function and type-conversion (SFU; Volta's XU)"))
        .range(0, 4096);
    k.integer("tensor_lanes", tensor_lanes,
              NUMAGPU_LANES_DOC("tensor (one tensor instruction: an HMMA step of 256 FMAs)"))
        .range(0, 4096);
    k.integer("shared_lanes", shared_lanes,
              NUMAGPU_LANES_DOC("shared-memory (one pass through the banks per warp access)"))
        .range(0, 4096);
#undef NUMAGPU_LANES_DOC
    k.real(
         "shared_bandwidth_fraction", shared_bandwidth_fraction,
         "Share of the shared-memory pipe's peak (sm.shared_lanes x 4 B a clock) that shared-memory "
         "accesses sustain: each pass through the banks (an access and each bank-conflict replay) holds the "
         "pipe 1 / fraction of a clock per 32 lanes; a warp shuffle's pass reads no bank and keeps the peak "
         "(docs/kernels.md, Timing). 1: the peak")
        .range(0.01, 1.0);
    k.boolean("shared_access_phases", shared_access_phases,
              "A shared-memory access is served in phases of 128 bytes, the banks' width a clock: an "
              "access of 8 bytes a lane (LDS.64) by half-warps, of 16 (LDS.128) by quarter-warps, each "
              "phase its own bank passes; a load whose lanes pair up on addresses (lane n with n ^ 1, or "
              "with n ^ 2; a broadcast) returns a pair's data once, so its phases hold twice the lanes (a "
              "broadcast LDS.128: 2 passes; NVIDIA's forum answer for compute capability 7.0-7.5, "
              "docs/kernels.md). C++ library kernels and PTX programs; false: the whole warp's banks at "
              "once, a broadcast 1 pass whatever its width");
    k.integer("constant_cache_ports", constant_cache_ports,
              "Distinct addresses the SM's constant cache serves a cycle, shared by all its warps: a warp's "
              "__constant__ read takes one pass per distinct address it reads (C++ library kernels, with "
              "dependent latencies; docs/kernels.md); 0: no limit but the warp's own passes")
        .range(0, 8);
    k.integer(
         "register_bank_conflict_cycles", register_bank_conflict_cycles,
         "Cycles beyond its issue slot that a processing block's register file takes to read the sources "
         "of an instruction whose three register sources lie in one bank (two banks, a register's bank "
         "its number mod 2; a source the reuse cache holds is not read: Jia et al. 2018), during which "
         "the block issues nothing. C++ library kernels that state their SASS's conflicts "
         "(docs/kernels.md); 0: not modelled")
        .range(0, 8);
#define NUMAGPU_LATENCY_DOC(what)                                                                 \
  "Cycles from the issue of " what                                                                \
  " until an instruction that reads its result may issue (C++ library kernels and applications; " \
  "docs/kernels.md, Timing); 0: not modelled"
    k.integer("fp32_latency", fp32_latency, NUMAGPU_LATENCY_DOC("an FP32 instruction")).range(0, 1000);
    k.integer("fp64_latency", fp64_latency, NUMAGPU_LATENCY_DOC("an FP64 instruction")).range(0, 1000);
    k.integer("int_latency", int_latency,
              NUMAGPU_LATENCY_DOC("an integer instruction (and compares, selects)"))
        .range(0, 1000);
    k.integer("sfu_latency", sfu_latency,
              NUMAGPU_LATENCY_DOC("a special-function (SFU) instruction or a type conversion"))
        .range(0, 1000);
    k.integer("tensor_latency", tensor_latency, NUMAGPU_LATENCY_DOC("a tensor instruction")).range(0, 1000);
    k.integer("shared_latency", shared_latency, NUMAGPU_LATENCY_DOC("a shared-memory load")).range(0, 1000);
    k.integer("int_div_latency", int_div_latency,
              NUMAGPU_LATENCY_DOC("an integer division or remainder by a run-time value (its result's "
                                  "instruction; with dependent latencies the rest of nvcc's sequence issues "
                                  "too; 0: as sm.int_latency)"))
        .range(0, 10000);
    k.integer(
         "fp32_div_latency", fp32_div_latency,
         NUMAGPU_LATENCY_DOC("an FP32 division (its result; with dependent latencies the division also "
                             "issues the rest of nvcc's sequence, 7 instructions; 0: as sm.fp32_latency)"))
        .range(0, 10000);
    k.integer("fp64_div_latency", fp64_div_latency,
              NUMAGPU_LATENCY_DOC("an FP64 division (one instruction of class fp64; 0: as sm.fp64_latency)"))
        .range(0, 10000);
    k.integer("shfl_latency", shfl_latency,
              NUMAGPU_LATENCY_DOC("a warp shuffle (an int instruction that also takes a pass of the shared "
                                  "pipe; 0: as sm.int_latency)"))
        .range(0, 1000);
#undef NUMAGPU_LATENCY_DOC
    k.integer("texture_latency", texture_latency,
              "Cycles a texture fetch (tex1Dfetch, tex2D of C++ library kernels) spends in the SM's texture "
              "pipeline before its requests reach the unified L1 / texture cache, beyond a global load's: "
              "added to its L1 hit and to its miss alike (docs/kernels.md, Timing); 0: a texture fetch is a "
              "global load")
        .range(0, 1000);
  }
};

}  // namespace numagpu
