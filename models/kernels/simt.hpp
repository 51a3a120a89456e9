// Executing a CUDA-style kernel written in C++ for its addresses (docs/kernels.md).
//
// A kernel body runs once per CTA, for all of the CTA's threads at once: a value is a `V<T>`, one T per
// thread, and every operation is applied to the threads that are active. That is how a GPU executes a warp
// (32 threads in lockstep), widened to the CTA, so that __syncthreads() is simply the point in the body where
// it is called: every thread of the CTA has done all that comes before it. What the model needs is recorded
// per warp as it happens: each operation becomes one warp instruction of its class for every warp that has
// at least one active thread, each global load, store or atomic becomes one memory step with the distinct
// lines its active threads touch, each barrier a barrier step.
//
// Divergence follows SIMT with reconvergence at the immediate post-dominator. Control flow that depends on a
// thread's values is written with `if_`, `if_else` and `while_`; these are structured, so the immediate
// post-dominator of a branch is the end of the construct:
//   - `if_else(c, then, else)` runs `then` with the active threads for which c holds, then `else` with the
//     others, then continues with the threads active before: a warp whose threads all agree executes only
//     its path, a warp that diverges executes both, each masked, and reconverges after the construct;
//   - `while_(cond, body)` evaluates cond with the active threads, runs the body with those for which it
//     holds, and repeats until none does; a warp leaves the loop when its last thread does.
// Plain C++ control flow on values that are the same for every thread (kernel arguments, blockIdx, loop
// counters) is ordinary C++ and costs the model nothing; `uniform_loop()` charges its branch instruction.
// Values are computed only where an address or a branch needs them: arrays without data return zeros.
//
// Plain C++, no SystemC: the program adapter (kernels/cpp_program.hpp) hands the recorded steps to the SM.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "workload/program.hpp"

namespace numagpu::kernels {

constexpr unsigned kWarpSize = 32;

// Instruction classes (workload/program.hpp): a kernel charges every class but kMemory (its memory steps) and
// kOther (nothing a kernel executes is unclassified).
using numagpu::InstrClass;

// Dependent-instruction latency by instruction class (InstrClass order): the cycles from an instruction's
// issue until an instruction that reads its result may issue. All 0 (the default): not modelled, a warp
// issues its instructions one a cycle whatever they read. After the classes, the divisions' latencies
// (kDivLatency + 0: an integer division or remainder by a run-time value, + 1: fp32, + 2: fp64): a division's
// result takes the division's latency (0: the class's). A division is one instruction of its class, as a PTX
// div is, and with the dependent latencies also the rest of nvcc's sequence for it
// (charge_fp32_division_sequence, charge_fp64_division_sequence, charge_int_division_sequence).
inline constexpr unsigned kDivLatency = kInstrClasses;
// After the divisions, a warp shuffle's (Cta::shuffle_xor; 0: the int latency).
inline constexpr unsigned kShuffleLatency = kInstrClasses + 3;
// After it, not a latency: 1 when global loads do not block their warp (sm.nonblocking_loads: the register
// scoreboard of Cta::load; with dependent latencies only), 0 when a warp waits at each load.
inline constexpr unsigned kNonblockingLoads = kInstrClasses + 4;
// After it, not a latency either: 1 when a shared access is served in phases of 128 bytes
// (sm.shared_access_phases; Cta::warp_shared_passes), 0 when the whole warp's banks are counted at once.
inline constexpr unsigned kSharedPhases = kInstrClasses + 5;
using Latencies = std::array<std::uint16_t, kInstrClasses + 6>;
// Which latency an instruction's result takes: its class's, or a division's.
inline constexpr unsigned kClassLatency = ~0u;

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t(x) * y * z; }
};

// A global array of the kernel: where it lives in the simulated address space and, when the kernel's
// addresses or branches depend on its values, its contents (else loads read zeros and stores are dropped).
template <class T>
struct Array {
  std::string name;
  std::uint64_t base = 0;
  std::uint64_t count = 0;
  std::vector<T>* data = nullptr;  // owned by the kernel instance; null: addresses only
  std::uint64_t bytes() const { return count * sizeof(T); }
};

class Cta;

// One value per thread of the CTA. Assignment writes only the active threads (a masked move), so a value
// assigned inside a branch keeps the other threads' values, as registers do on a GPU.
template <class T>
class V {
  static_assert(sizeof(T) <= 16, "a thread's value is at most 16 bytes (the CTA's buffers are sized so)");

 public:
  V(Cta& cta, T uniform);
  V(const V& other);
  V(V&& other) noexcept : cta_(other.cta_), n_(other.n_), v_(other.v_), ready_(other.ready_) {
    other.v_ = nullptr;
  }
  ~V();
  // Assignment (from a value or a temporary alike) is masked; no move assignment is declared, so a
  // temporary on the right binds here too.
  V& operator=(const V& other);
  V& operator=(T uniform);

  T& operator[](unsigned thread) { return v_[thread]; }
  const T& operator[](unsigned thread) const { return v_[thread]; }
  Cta& cta() const { return *cta_; }
  unsigned size() const { return n_; }
  // Per warp, the cycle (of the warp's own instruction clock, Cta::issue_one) from which the value may be
  // read: kept only when the CTA models dependent latencies (Cta::dependent()). A value that depends on a
  // global load still in flight (sm.nonblocking_loads) holds kPendingLoad | n instead: the load numbered n
  // of the warp (Cta::load), or a later one; such a value is above every cycle, so the ready cycle of an
  // instruction's operands (their maximum) names the last load it needs.
  std::uint32_t ready(unsigned warp) const { return ready_[warp]; }
  std::uint32_t* ready_data() { return ready_; }

 private:
  template <class U>
  friend class V;
  template <class U>
  friend struct Uninitialized;
  struct NoInit {};
  V(Cta& cta, NoInit);  // the values are written next (results of an operation)

  Cta* cta_;
  unsigned n_;
  T* v_;                  // a buffer of the CTA's (Cta::acquire): operations make many short-lived values
  std::uint32_t* ready_;  // in the same buffer, after the values: one per warp
};

// The mark of a ready cycle that is a global load in flight (V::ready): the load's number in its warp in
// the bits below it.
inline constexpr std::uint32_t kPendingLoad = 0x80000000u;

// A value whose every thread is written by the caller next: skips the fill.
template <class U>
struct Uninitialized {
  static V<U> make(Cta& cta) { return V<U>(cta, typename V<U>::NoInit{}); }
};

// Per-warp record of what one CTA executed.
// A step as recorded: a memory step's lines are kept in the warp's `lines`, from `first_line` on, so a
// recorded step takes 16 bytes instead of a Step's 530 (a resident CTA holds thousands of steps).
// A compute step has no lines: its `first_line` and `line_count` index its instructions' class runs instead,
// kept in the same `lines` array (run_word), so that classes cost one word per run of one class and no
// allocation of their own.
struct PackedStep {
  Step::Kind kind = Step::Kind::kCompute;
  // A memory or barrier step: its instruction's active threads (a compute step keeps them in its runs).
  std::uint8_t lanes = 0;
  std::uint16_t line_count = 0;
  std::uint32_t cycles = 0;
  // A compute step: its instructions. A load: its flags, kLoadGoesPast when the warp goes past it
  // (Step::scoreboarded) and kLoadTexture for a texture fetch (Step::texture). A wait step: the load it waits
  // through (Step::wait_through).
  std::uint32_t instructions = 0;
  std::uint32_t first_line = 0;
};
static_assert(sizeof(PackedStep) == 16, "a recorded step stays 16 bytes: lanes fits in kind's padding");
// A recorded load's flags (PackedStep::instructions).
inline constexpr std::uint32_t kLoadGoesPast = 1, kLoadTexture = 2;

// A run of `count` consecutive warp instructions of class `cls`, each with `lanes` active threads, within
// a compute step, as a word of WarpRecord::lines: the class in the low byte, the lanes (0-32) in the next
// six bits, the count above them.
inline constexpr unsigned kRunCountShift = 14;
inline std::uint64_t run_word(InstrClass cls, unsigned lanes, std::uint64_t count) {
  return (count << kRunCountShift) | (std::uint64_t(lanes) << 8) | static_cast<std::uint8_t>(cls);
}
inline InstrClass run_class(std::uint64_t word) {
  return static_cast<InstrClass>(word & 0xFF);
}
inline unsigned run_lanes(std::uint64_t word) {
  return static_cast<unsigned>((word >> 8) & 0x3F);
}
inline std::uint64_t run_count(std::uint64_t word) {
  return word >> kRunCountShift;
}
// Passes that are not instructions (Step::shared_replays, Step::constant_passes, Step::fp64_passes,
// Step::shuffle_passes) are runs of codes past the instruction classes, in the same words (run_word with the
// code in place of the class; no lanes); so are the register-bank conflicts (Step::register_bank_conflicts).
inline constexpr std::uint8_t kSharedReplayRun = 0xF0, kConstantPassRun = 0xF1, kFp64PassRun = 0xF2,
                              kRegisterBankConflictRun = 0xF3, kShufflePassRun = 0xF4;
static_assert(kInstrClasses < kSharedReplayRun, "the pass codes lie past every instruction class");

// A warp's recorded steps as reading them needs them: the storage of a WarpRecord's three arrays, without the
// vectors that own it. CppKernelProgram keeps one per resident warp in a flat table
// (kernels/resident_warps.hpp), so that taking a step touches that table and the step, not the CTA's and the
// warp's records on the way: on a large run each of those is a miss in the host's caches, and steps are taken
// hundreds of millions of times.
struct WarpRecordView {
  const PackedStep* steps = nullptr;
  std::size_t step_count = 0;
  const std::uint64_t* lines = nullptr;   // WarpRecord::lines
  const std::uint8_t* sectors = nullptr;  // WarpRecord::sectors
  // Step `index` (< step_count) as the SM takes it.
  void unpack(std::size_t index, Step& out) const;
};

struct WarpRecord {
  std::vector<PackedStep> steps;
  // The memory steps' lines and the compute steps' class runs (run_word), in order.
  std::vector<std::uint64_t> lines;
  std::vector<std::uint8_t> sectors;  // per entry of `lines`, a line's 32 B sectors (Step::sectors); runs: 0
  // Step `index` as the SM takes it.
  void unpack(std::size_t index, Step& out) const { view().unpack(index, out); }
  // Valid while the record is not changed.
  WarpRecordView view() const {
    return WarpRecordView{steps.data(), steps.size(), lines.data(), sectors.data()};
  }
  std::array<std::uint64_t, static_cast<unsigned>(InstrClass::kCount)> instructions{};  // warp instructions
};

// The bytes a warp's record takes in host memory: its steps', lines' and sectors' storage (capacity, not
// size: what the allocator handed out).
std::uint64_t record_bytes(const WarpRecord& r);

// What bounds the recording of CTA bodies, shared by every kernel of a run (a System sets it up from
// checks.max_record_bytes and from its interrupt; plain C++, no SystemC). A CTA's body runs whole before its
// first step is taken, in host time in which no simulated time passes, so the recording looks at these
// itself, every kLookEvery warp instructions or steps it records (Cta::bound_by): at most about 1.2 MB
// (4096 memory steps of 32 lines) and a few milliseconds pass between two looks.
struct RecordBounds {
  // checks.max_record_bytes: the most host memory the records (record_bytes) of the CTAs resident at once,
  // the one being recorded included, may take; 0: no limit.
  std::uint64_t limit = 0;
  // What the records of the resident CTAs take now: CppKernelProgram adds a CTA's when it has been recorded
  // and takes it away when the CTA's last warp has ended.
  std::uint64_t held = 0;
  // True: stop now (the run was interrupted). The recording ends where it is; the CTA keeps what it
  // recorded so far.
  std::function<bool()> stop_requested;
  // The exception a CTA's recording ended with (the limit, an allocation failure), for the System: SystemC
  // hands an exception out of a process on only as the text of a report.
  std::exception_ptr fault;
};
inline constexpr unsigned kLookEvery = 4096;

// A CTA's record passed its bounds' limit (RecordBounds::limit). `program` and `cta` are filled in by the
// program that ran it (CppKernelProgram).
class RecordLimitExceeded : public std::runtime_error {
 public:
  RecordLimitExceeded(std::uint64_t bytes, std::uint64_t held, std::uint64_t limit);
  std::string program;
  std::uint32_t cta = 0;
  std::uint64_t bytes, held, limit;  // the CTA's record, the resident CTAs' (RecordBounds::held), the limit
  // One line: the program, the CTA and the bytes.
  std::string message() const;
  // The CTA and the bytes.
  std::string detail() const;
};
// The recording was stopped on request (RecordBounds::stop_requested); not an error.
struct RecordingStopped {};

// What a CTA's execution reports beside the steps, for tests and the --bench report.
struct CtaCounters {
  std::uint64_t shared_accesses = 0;    // shared-memory warp instructions
  std::uint64_t shared_wavefronts = 0;  // their passes through the banks (>= accesses: conflicts)
};

class Cta {
 public:
  Cta(Dim3 grid, Dim3 block, Dim3 block_idx, unsigned line_bytes, const Latencies& latencies = {});

  // CUDA's built-ins. blockIdx, blockDim and gridDim are uniform; threadIdx is per thread.
  const Dim3 gridDim, blockDim, blockIdx;
  V<std::int64_t> threadIdx_x() { return tid_.x; }
  V<std::int64_t> threadIdx_y() { return tid_.y; }
  V<std::int64_t> threadIdx_z() { return tid_.z; }
  V<std::int64_t> uniform(std::int64_t v) { return V<std::int64_t>(*this, v); }

  unsigned threads() const { return threads_; }
  unsigned warps() const { return (threads_ + kWarpSize - 1) / kWarpSize; }
  bool active(unsigned thread) const { return (mask_[thread / kWarpSize] >> (thread % kWarpSize)) & 1u; }
  bool any_active() const;
  bool warp_active(unsigned w) const { return mask_[w] != 0; }
  unsigned active_lanes(unsigned w) const {
    // A full warp without the popcount (a library call on the build's baseline x86 level).
    return mask_[w] == ~0u ? kWarpSize : static_cast<unsigned>(__builtin_popcount(mask_[w]));
  }

  // Charges `n` warp instructions of `cls` to every warp with an active thread. They read no value the
  // dependency model knows of (independent instructions).
  void charge(InstrClass cls, unsigned n = 1);

  // With sm.nonblocking_loads (and dependent latencies): a global load does not stop its warp; its value
  // is pending (kPendingLoad) until the first instruction or access that reads it, before which the warp's
  // record gets a wait step (Step::Kind::kWait) naming the load. The SM holds the warp there until that
  // load and every one before it have returned.
  bool nonblocking_loads() const { return nonblocking_loads_; }
  // Dependent latencies (docs/kernels.md, "Timing"). Each warp keeps an instruction clock: an instruction
  // issues at the later of the clock and its operands' ready cycles, the clock then moves past it, and its
  // result is ready `latency` cycles after its issue. A compute step lasts the clock's advance over it,
  // stalls included. A step at which the warp waits (a load, an atomic, a barrier) hides what is still in
  // flight.
  bool dependent() const { return dependent_; }
  // The rest of an fp32 division's instruction sequence, after the instruction that stands for its result
  // (operator/ on float): nvcc's IEEE division (div.rn.f32) is, on its fast path, MUFU.RCP, FCHK, five
  // FFMAs (a Newton refinement of the reciprocal and of the quotient; the last is the result) and the
  // branch around the slow path. Charged as 1 sfu, 5 fp32 (FCHK, on the FP32 pipe as [AS]'s Volta opcode
  // map puts it, and 4 FFMAs) and 1 branch instruction, with the dependent latencies only (dependent()):
  // without them (the paper system) a division stays one instruction, so that system's timing is
  // unchanged. The slow path (denormals, overflow) is not taken.
  void charge_fp32_division_sequence();
  // The rest of a 32-bit integer division's sequence by a run-time divisor, after the instruction that
  // stands for its result (idiv, irem): nvcc's div.s32 is IABS of both operands, I2F.RP, MUFU.RCP and
  // F2I.FTZ.U32.TRUNC (an estimate of the divisor's reciprocal), IMAD / IMAD.HI refinements, the two
  // correction steps, the sign and the divide-by-zero guard: 24 instructions in a public cuobjdump listing
  // (docs/kernels.md, "Timing"), 3 sfu (I2F, MUFU, F2I: conversions and MUFU run on the XU) and 20 int
  // besides the result. div.u32 has no IABS and no sign: 18, 3 sfu and 14 int besides the result
  // (`is_signed` false). With the dependent latencies only, as charge_fp32_division_sequence.
  void charge_int_division_sequence(bool is_signed = true);
  // The rest of an fp64 division's sequence, after the instruction that stands for its result (operator/ on
  // double, the last DFMA): nvcc's div.rn.f64 is, on its fast path, MUFU.RCP64H and a move of its low word,
  // a Newton refinement of the reciprocal (3 DFMAs), the quotient (DMUL) and its correction (2 DFMAs, the
  // last the result's), then FFMA and FSETP on the result's high word and the branch around the slow path:
  // 1 sfu, 5 fp64, 1 int, 2 fp32 and 1 branch besides the result, from a public cuobjdump listing of an
  // sm_70 kernel. With the dependent latencies only, as charge_fp32_division_sequence.
  void charge_fp64_division_sequence();
  // __shfl_xor_sync(full mask, x, mask): each active thread gets x of the lane (its lane ^ lane_mask) of its
  // own warp (a lane past the warp's threads gives the thread its own x). One SHFL a warp: an int instruction
  // (its count and energy, as the PTX front end classes shfl) that also takes one pass of the SM's shared
  // pipe (sm.shared_lanes): Nsight Compute's Kernel Profiling Guide has the LSU pipe issue shuffles to the
  // L1TEX unit, as it does shared-memory instructions, so they share its 32 lanes, one warp a clock (the CUDA
  // C Programming Guide's 32 shuffles a clock per SM). Its result takes sm.shfl_latency (kShuffleLatency; 0:
  // the int latency). The pass and the latency with dependent latencies only, as the constant cache's.
  template <class T>
  V<T> shuffle_xor(const V<T>& x, unsigned lane_mask);
  // One more pass of the FP64 pipe for each warp with an active thread, after its last instruction: an F2F
  // conversion's second (Step::fp64_passes).
  void hold_fp64_pipe_once_more();
  // The instruction each active warp issued last reads its three register sources from one register bank
  // (Step::register_bank_conflicts): a kernel that follows its compiled SASS says so where the SASS's
  // register numbers put all three sources of an instruction, none held by the reuse cache, in one bank
  // (Jia et al. 2018: two banks, a register's bank its number mod 2). The SM charges it only with
  // sm.register_bank_conflict_cycles set.
  void sources_in_one_register_bank();
  // One instruction of `cls` for every warp with an active thread, issued once operands_ready(w) (the latest
  // ready cycle of its operands in warp w) has come; each warp's result ready cycle into result[w] (when not
  // null; 0 for inactive warps). Without dependent latencies: charge(cls).
  // `latency`: kClassLatency, or a division's slot (kDivLatency + n) when set.
  template <class F>
  void issue(InstrClass cls, const F& operands_ready, std::uint32_t* result,
             unsigned latency = kClassLatency);
  // Before a memory instruction: each active warp waits until operands_ready(w).
  template <class F>
  void await(const F& operands_ready);

  // Global memory: one memory step per warp with an active thread, with the distinct lines touched.
  // `offset` (elements) is an immediate of the address, no instruction: a compile-time constant added to
  // the address where it is used (LDG/STG [R + imm]), as an unrolled loop's constant offset is.
  template <class T>
  V<T> load(const Array<T>& a, const V<std::int64_t>& index, std::int64_t offset = 0);
  // A texture fetch (tex1Dfetch, tex2D) of element `index`: a load through the texture path (Step::texture:
  // the SM's texture pipeline, sm.texture_latency, then the unified L1 / texture cache as a global load),
  // without the address instruction of load(): the texture unit takes the kernel's coordinates (TEX/TLD: an
  // integer for tex1Dfetch, floats for tex2D), not a 64-bit address.
  template <class T>
  V<T> texture_load(const Array<T>& a, const V<std::int64_t>& index);
  // A filtered texture fetch: one instruction whose texture unit reads several texels a thread, `taps`
  // (elements of `a`; a tex2D with linear filtering reads 4, CUDA C Programming Guide, "Linear
  // Filtering"), the lines of every tap of the warp's active lanes in one request set. Its value is the
  // first tap's: the filter's weights at a texel's centre are 1 for it and 0 for the others.
  template <class T>
  V<T> texture_load_taps(const Array<T>& a, const std::vector<V<std::int64_t>>& taps);
  template <class T>
  void store(const Array<T>& a, const V<std::int64_t>& index, const V<T>& value, std::int64_t offset = 0);
  // With dependent latencies: each active warp forms the address of `a`'s elements `index` now (its one
  // integer instruction, once the index is ready), ahead of the access that uses it, as nvcc hoists an
  // address's IMAD.WIDE above a barrier or other work; the warp does not wait for it here, and the access
  // reuses it (no instruction of its own; as any reuse, it waits for the index only). Without dependent
  // latencies: nothing.
  template <class T>
  void form_address_ahead(const Array<T>& a, const V<std::int64_t>& index) {
    if (!dependent_) return;
    for (unsigned w = 0; w < mask_.size(); ++w)
      if (mask_[w]) form_warp_address(w, a.base, sizeof(T), index);
  }
  template <class T>
  void atomic_add(const Array<T>& a, const V<std::int64_t>& index, const V<T>& value);
  // atomicMin: as atomic_add, each active thread's element becomes the least of it and the thread's value.
  template <class T>
  void atomic_min(const Array<T>& a, const V<std::int64_t>& index, const V<T>& value);

  // A __constant__ memory read: each active thread reads table[index] (T{} past the table's end; an empty
  // table: a constant array without data). One instruction of class kInt, as kernels charged a constant read
  // before, so instruction-class totals do not change; its issue takes one pass per distinct address among
  // the warp's active threads (the constant cache serves one address a pass: a uniform index broadcasts,
  // N distinct ones serialize into N passes), and its result is ready the int latency after its last pass.
  // No constant-cache key of its own: sm.int_latency stands for a constant-cache hit (the data sit in the
  // cache for the kernels that use this; misses to L2 are not modelled), so no unmeasured value enters the
  // configuration. The passes, like the latency, are modelled only with dependent latencies (dependent()):
  // without them (the paper system) the read issues in one cycle, as the charged instruction did, so that
  // system's timing is unchanged.
  // `offset` is an immediate of the read's address (table[index + offset], no instruction), as an unrolled
  // loop's constant index is.
  template <class T>
  V<T> constant_load(const std::vector<T>& table, const V<std::int64_t>& index, std::int64_t offset = 0);

  // Shared memory of `count` elements of T: accesses are shared-memory instructions (never L1/L2), each
  // replayed once per extra pass a bank conflict costs (32 banks of 4 bytes; threads reading the same word
  // share a pass).
  template <class T>
  class Shared {
   public:
    Shared(Cta& cta, std::uint64_t count) : cta_(cta), data_(count) {}
    // `offset` is an immediate of the address (element index + offset, no instruction), as an unrolled
    // loop's constant offset is folded into LDS's address field.
    V<T> load(const V<std::int64_t>& index, std::int64_t offset = 0);
    // One wide load (LDS.64 / LDS.128): each active thread reads the N consecutive elements from index +
    // offset (N * sizeof(T) 8 or 16 bytes, the first element's byte offset in the Shared array a multiple of
    // that; otherwise std::logic_error, as the hardware faults), as nvcc fuses a thread's reads of
    // adjacent, aligned elements. One shared instruction per warp, its passes those of the wide words
    // touched; the N values share its ready cycle.
    template <std::size_t N>
    std::array<V<T>, N> load_wide(const V<std::int64_t>& index, std::int64_t offset = 0);
    void store(const V<std::int64_t>& index, const V<T>& value, std::int64_t offset = 0);
    // Every active thread reads element `index` (the same for all): a broadcast, one pass per warp. The
    // same as load(uniform(index)), without the per-thread work, for tiles read in lockstep.
    T load_uniform(std::uint64_t index);
    // load_uniform as a value: the same broadcast, whose result the dependency model tracks (ready the
    // shared latency after its issue), for a uniform read that feeds a dependent chain.
    // `elements` > 1: one wide broadcast (LDS.64 / LDS.128) of that many consecutive elements from `index`
    // (elements * sizeof(T) 8 or 16 bytes, `index`'s byte offset a multiple of that; otherwise
    // std::logic_error), with that load's passes; the value returned is element `index`'s alone, for the
    // kernels whose arrays carry no data (sgemm: one value for the four, no V per element to make). A kernel
    // that reads the other elements' values uses broadcast_wide.
    V<T> broadcast(std::uint64_t index, unsigned elements = 1);
    // broadcast as one wide load (LDS.64 / LDS.128): every active thread reads the N elements from `index`
    // (N * sizeof(T) 8 or 16 bytes, `index`'s byte offset a multiple of that; otherwise std::logic_error).
    // One shared instruction per warp; the N values share its ready cycle.
    template <std::size_t N>
    std::array<V<T>, N> broadcast_wide(std::uint64_t index);

   private:
    // The read behind load and load_wide: N consecutive elements a thread, one instruction per warp.
    template <std::size_t N>
    void read(const V<std::int64_t>& index, std::int64_t offset, std::array<V<T>, N>& r);

    Cta& cta_;
    std::vector<T> data_;
  };

  // __syncthreads(): a barrier step for every warp of the CTA.
  void syncthreads();

  // Structured divergence (see the top of this file).
  void if_(const V<bool>& cond, const std::function<void()>& then);
  void if_else(const V<bool>& cond, const std::function<void()>& then,
               const std::function<void()>& otherwise);
  void while_(const std::function<V<bool>()>& cond, const std::function<void()>& body);
  // A loop whose trip count is the same for every thread: charges a branch per iteration.
  void uniform_loop(std::uint64_t trips, const std::function<void(std::uint64_t)>& body);
  // `if (cond) return;` of CUDA: the threads for which cond holds exit and stay inactive to the end.
  void exit_if(const V<bool>& cond);

  // ---- One warp at a time ----------------------------------------------------------------------------
  // For an executor that runs each warp on its own (the PTX front end, through cuda/ptx_launch): the same
  // records as the operations above make, for warp `w` with the active lanes `lanes` (bit i: lane i), issued
  // once `operands_ready` (0 or a ready cycle one of these returned) has come. Each returns, where it has a
  // result, the cycle that result is ready (0 without dependent latencies). These set the warp's mask, so
  // they are not mixed with the whole-CTA operations in one body. One instruction of `cls` (latency:
  // kClassLatency, or a division's slot kDivLatency + n).
  std::uint32_t warp_compute(unsigned w, std::uint32_t lanes, InstrClass cls, std::uint32_t operands_ready,
                             unsigned latency = kClassLatency);
  // Whether this CTA models dependent latencies (warp_compute then returns ready cycles; without them it
  // returns 0 and warp_compute_run may stand for a run of its calls).
  bool models_latencies() const { return dependent_; }
  // `n` consecutive warp_compute calls of one class and lanes with kClassLatency, for a CTA without
  // dependent latencies: the same records, made in one call.
  void warp_compute_run(unsigned w, std::uint32_t lanes, InstrClass cls, unsigned n);
  // One global load, store or atomic: lane_addresses[lane] for each active lane, `bytes` each; a load or
  // atomic waits for everything the warp has in flight, as load() does.
  void warp_global_access(unsigned w, std::uint32_t lanes, Step::Kind kind,
                          const std::uint64_t* lane_addresses, unsigned bytes, std::uint32_t operands_ready);
  // One shared-memory instruction at byte offsets lane_offsets[lane], `bytes` each: one pass per
  // bank-conflict degree, as Shared::load and store.
  std::uint32_t warp_shared_access(unsigned w, std::uint32_t lanes, const std::uint64_t* lane_offsets,
                                   unsigned bytes, std::uint32_t operands_ready);
  // One constant-bank read at lane_addresses[lane]: one pass per distinct address, as constant_load.
  std::uint32_t warp_constant_access(unsigned w, std::uint32_t lanes, const std::uint64_t* lane_addresses,
                                     std::uint32_t operands_ready);
  // The warp reached a CTA barrier (its barrier step), as syncthreads() records for every warp.
  void warp_barrier(unsigned w, std::uint32_t lanes);
  // After a division's result instruction (warp_compute with slot kDivLatency + n): the rest of its sequence,
  // as charge_int/fp32/fp64_division_sequence charge it (with dependent latencies only).
  void warp_division_rest(unsigned w, std::uint32_t lanes, unsigned slot, bool is_signed = true);
  // A conversion between float and double's second pass of the FP64 pipe, as hold_fp64_pipe_once_more().
  void warp_hold_fp64_pipe_once_more(unsigned w, std::uint32_t lanes);

  std::vector<WarpRecord>& records() { return warps_; }
  // The bounds the recording answers to (null: none): every kLookEvery warp instructions or steps recorded,
  // throws RecordingStopped when they ask to stop, or RecordLimitExceeded when the records' bytes pass
  // their limit.
  void bound_by(RecordBounds* bounds) { bounds_ = bounds; }
  // What every warp's record takes (record_bytes).
  std::uint64_t records_bytes() const;
  // Room in every warp's record for `steps` steps and `lines` lines or class runs (a hint; records grow).
  void reserve_records(std::size_t steps, std::size_t lines) {
    for (WarpRecord& r : warps_) {
      r.steps.reserve(steps);
      r.lines.reserve(lines);
      r.sectors.reserve(lines);
    }
  }

  // Buffers of threads() x 16 bytes for values, reused (V's storage).
  void* acquire() {
    if (pool_.free.empty()) return new std::uint64_t[2 * threads_ + (warps() + 1) / 2];
    void* b = pool_.free.back();
    pool_.free.pop_back();
    return b;
  }
  void release(void* b) { pool_.free.push_back(b); }
  Cta(const Cta&) = delete;
  Cta& operator=(const Cta&) = delete;
  const CtaCounters& counters() const { return counters_; }

 private:
  template <class T>
  friend class V;
  struct Tid {
    V<std::int64_t> x, y, z;
  };
  Tid make_tid();
  void memory_step(Step::Kind kind, const std::vector<std::uint64_t>& addresses_by_thread, unsigned bytes);
  // As memory_step, with `per_thread` addresses a thread: thread t's at [t * per_thread, (t + 1) *
  // per_thread).
  void memory_step_multi(Step::Kind kind, const std::vector<std::uint64_t>& addresses, unsigned per_thread,
                         unsigned bytes);
  // Records warp w's memory step of the addresses in warp_addresses_ (coalesced into lines).
  void record_memory_step(unsigned w, Step::Kind kind, unsigned bytes);
  // One warp's memory step: the lines its active lanes' addresses touch (lane_addresses indexed by lane).
  void warp_memory_step(unsigned w, Step::Kind kind, const std::uint64_t* lane_addresses, unsigned bytes);
  // One warp's passes through the banks for a shared access by its active lanes (lane_offsets by lane),
  // `bytes` wide each; `load`: a read (whose paired lanes may share a phase). Without phases
  // (kSharedPhases 0) the whole warp at once: its most distinct words in one bank. With them (Volta's shared
  // pipe moves 128 B a clock): the warp in phases of 128 / bytes lanes (LDS.32 one phase of 32, LDS.64 two
  // half-warps, LDS.128 four quarter-warps), each phase its own bank passes, the phases one after another;
  // a load whose lanes pair up (lane n and n ^ 1, or n and n ^ 2, on one address wherever both are active)
  // returns each pair's data once, so its phases are twice as wide (a broadcast LDS.128: 2 phases).
  unsigned warp_shared_passes(unsigned w, const std::uint64_t* lane_offsets, unsigned bytes, bool load);
  // The bank passes of the lanes of `lanes` (a lane mask): the most distinct words one bank holds.
  static unsigned bank_passes(std::uint32_t lanes, const std::uint64_t* lane_offsets, unsigned bytes);
  // Warp w waits until `at` (a stall in the compute step before its next memory step), as await() does.
  void await_one(unsigned w, std::uint32_t at);
  // A shared-memory access by the active threads: each warp's passes (bank conflicts) into passes_.
  void shared_access(const std::vector<std::uint64_t>& byte_offsets, unsigned bytes, bool load);
  // One shared load of `bytes` a thread by all active threads from one address: one pass per warp (with
  // phases, one per phase its active lanes fill: warp_shared_passes); each warp's result ready cycle into
  // result[w] when not null.
  void shared_broadcast(std::uint32_t* result = nullptr, unsigned bytes = 4);
  // Warp w issues one instruction of `cls` taking `cycles` issue cycles, its operands ready at
  // `operands_ready`; returns its result's ready cycle (0 without dependent latencies).
  std::uint32_t issue_one(unsigned w, InstrClass cls, unsigned cycles, std::uint32_t operands_ready,
                          unsigned latency = kClassLatency);
  // After a step at which the active warps wait (load, atomic): their clocks pass everything in flight,
  // and the loads they went past have returned.
  void wait_settles();
  // The ready cycle `ready` of an operand of warp w's next instruction or access as a cycle: a pending
  // load's mark (kPendingLoad) becomes the end of a wait step for it, recorded now unless the warp waited
  // through that load already. The wait settles what the warp has in flight, as a blocking load does.
  std::uint32_t resolve_pending(unsigned w, std::uint32_t ready) {
    return (ready & kPendingLoad) ? wait_for_load(w, ready & ~kPendingLoad) : ready;
  }
  std::uint32_t wait_for_load(unsigned w, std::uint32_t load);
  // Before a global access with dependent latencies: each active warp forms the access's 64-bit address,
  // base + index x element size (a constant offset is an immediate on top of it), as one integer
  // instruction (sm_70's IMAD.WIDE) issued once the index is ready, and waits for it. Without dependent
  // latencies: nothing.
  template <class T>
  void form_address(const Array<T>& a, const V<std::int64_t>& index) {
    if (dependent_) await([&](unsigned w) { return form_warp_address(w, a.base, sizeof(T), index); });
  }
  // Warp w's address of elements `index` of the array at `base`: the cycle the access may issue at. The
  // compiler keeps an address in a register, so a warp that formed the same one before (the same array,
  // every lane's index equal to the one it had then) for every lane active now reuses it, with no
  // instruction (it still waits for its index, which may be a recomputation in flight). Reuse is by value:
  // an index reloaded or recomputed with the same values reuses the address, which the compiler, knowing
  // only registers, might form again. An address formed under a narrower mask is formed again for the
  // lanes that lack it. An index equal in every lane (a block's element, a kernel argument's) is formed for
  // the whole warp at once: such a loop-invariant, side-effect free product is hoisted out of branches and
  // loops by the compiler.
  std::uint32_t form_warp_address(unsigned w, std::uint64_t base, std::uint64_t element_bytes,
                                  const V<std::int64_t>& index);
  // A global load (an LDG, which forms its address register) or a texture fetch (`texture`: it takes the
  // kernel's coordinates and needs no address instruction).
  template <class T>
  V<T> load_from(const Array<T>& a, const V<std::int64_t>& index, std::int64_t offset, bool texture);
  // The end of a load's record (the memory step just recorded): its texture mark, and the scoreboard or the
  // wait for its value `r`.
  template <class T>
  V<T> finish_load(V<T>& r, bool texture);
  // The branch of a construct on `cond`: one branch instruction per warp with an active thread.
  void branch_on(const V<bool>& cond);
  // Adds `n` instructions of `cls` to warp `w`'s current compute step (and its totals); `cycles` issue
  // cycles.
  void add_instructions(unsigned w, InstrClass cls, unsigned n, unsigned cycles);
  // Adds `n` passes of kind `code` (kSharedReplayRun, kConstantPassRun, kFp64PassRun, kShufflePassRun) to
  // warp `w`'s current
  // compute step:
  // they hold an SM structure, and are neither instructions nor the warp's own cycles (issue_one has those).
  void add_passes(unsigned w, std::uint8_t code, unsigned n);
  // Counts one recorded warp instruction or step; every kLookEvery, looks at the bounds.
  void recorded() {
    if (--until_look_ == 0) look_at_bounds();
  }
  void look_at_bounds();
  // The warp's compute step that instructions and passes go to: its last step, or a new one.
  static PackedStep& open_compute_step(WarpRecord& r);
  // Appends a run word (run_word, or a pass code's) to step `s`, the last of `r`, merged into its last run
  // when both are of one class or code and lanes.
  static void append_run(WarpRecord& r, PackedStep& s, std::uint64_t word);
  // The active threads of `saved` whose cond equals `value` (exited threads never return).
  void narrow(const std::vector<std::uint32_t>& saved, const V<bool>& cond, bool value);
  void restore(const std::vector<std::uint32_t>& saved);

  unsigned threads_;
  unsigned line_bytes_;
  Latencies latency_{};
  bool dependent_ = false;          // any latency non-zero (before tid_: its values ask)
  bool nonblocking_loads_ = false;  // kNonblockingLoads set, with dependent latencies
  bool shared_phases_ = false;      // kSharedPhases set
  // Value buffers not in use. Declared before tid_, so it is destroyed after every V of the CTA has given
  // its buffer back.
  struct BufferPool {
    std::vector<void*> free;
    BufferPool() = default;
    BufferPool(const BufferPool&) = delete;
    BufferPool& operator=(const BufferPool&) = delete;
    ~BufferPool() {
      for (void* b : free)
        delete[] static_cast<std::uint64_t*>(b);
    }
  } pool_;
  std::vector<std::uint32_t> mask_;    // active threads, one word per warp
  std::vector<std::uint32_t> exited_;  // threads that have left the kernel
  std::vector<WarpRecord> warps_;
  CtaCounters counters_;
  Tid tid_;
  std::vector<std::uint64_t> scratch_;         // addresses by thread, reused
  Step scratch_step_;                          // the coalescer's output, reused
  std::vector<std::uint64_t> warp_addresses_;  // one warp's active addresses, reused
  std::vector<unsigned> passes_;               // shared_access's passes per warp
  std::vector<std::uint64_t> replay_word_;     // per warp: its current step's replay word (with phases)
  std::vector<std::uint32_t> clock_;           // per warp: the cycle its next instruction may issue at
  std::vector<std::uint32_t> settled_;         // per warp: every result it issued is ready by then
  std::vector<std::uint32_t> loads_issued_;    // per warp: the loads it went past (nonblocking_loads_)
  std::vector<std::uint32_t> waited_through_;  // per warp: the last of those a wait step covers
  // Addresses formed (form_warp_address), by a hash of the warp, the array's base and element size and
  // its lanes' indices: the lanes that hold each. Per CTA, for its whole body.
  std::unordered_map<std::uint64_t, std::uint32_t> addresses_formed_;
  RecordBounds* bounds_ = nullptr;
  unsigned until_look_ = kLookEvery;
};

// ---- values -----------------------------------------------------------------------------------------

template <class T>
V<T>::V(Cta& cta, T uniform)
    : cta_(&cta),
      n_(cta.threads()),
      v_(static_cast<T*>(cta.acquire())),
      ready_(reinterpret_cast<std::uint32_t*>(reinterpret_cast<std::uint64_t*>(v_) + 2 * n_)) {
  std::fill(v_, v_ + n_, uniform);
  if (cta.dependent()) std::fill(ready_, ready_ + cta.warps(), 0u);
}

template <class T>
V<T>::V(Cta& cta, NoInit)
    : cta_(&cta),
      n_(cta.threads()),
      v_(static_cast<T*>(cta.acquire())),
      ready_(reinterpret_cast<std::uint32_t*>(reinterpret_cast<std::uint64_t*>(v_) + 2 * n_)) {
  // Ready from the start unless the operation that fills the values says otherwise: a kernel that fills a
  // value thread by thread (Uninitialized) cannot leave its warps waiting on stale cycles.
  if (cta.dependent()) std::fill(ready_, ready_ + cta.warps(), 0u);
}

template <class T>
V<T>::V(const V& other)
    : cta_(other.cta_),
      n_(other.n_),
      v_(static_cast<T*>(other.cta_->acquire())),
      ready_(reinterpret_cast<std::uint32_t*>(reinterpret_cast<std::uint64_t*>(v_) + 2 * n_)) {
  std::copy(other.v_, other.v_ + n_, v_);
  if (cta_->dependent()) std::copy(other.ready_, other.ready_ + cta_->warps(), ready_);
}

template <class T>
V<T>::~V() {
  if (v_) cta_->release(v_);
}

template <class T>
V<T>& V<T>::operator=(const V& other) {
  if (this == &other) return *this;
  for (unsigned t = 0; t < n_; ++t)
    if (cta_->active(t)) v_[t] = other.v_[t];
  // A warp that wrote some of its threads reads the register when the later of its two writers is ready.
  if (cta_->dependent()) {
    for (unsigned w = 0; w < cta_->warps(); ++w)
      if (cta_->warp_active(w)) ready_[w] = std::max(ready_[w], other.ready_[w]);
  }
  return *this;
}

template <class T>
V<T>& V<T>::operator=(T uniform) {
  for (unsigned t = 0; t < n_; ++t)
    if (cta_->active(t)) v_[t] = uniform;
  return *this;
}

// The class an arithmetic operation on T is charged to.
template <class T>
constexpr InstrClass class_of() {
  if constexpr (std::is_same_v<T, float>) return InstrClass::kFp32;
  if constexpr (std::is_same_v<T, double>) return InstrClass::kFp64;
  return InstrClass::kInt;
}

// Element-wise operations: computed for every thread (inactive ones are never read back through a masked
// assignment), charged once per warp with an active thread.
template <class T, class U, class F>
auto zip(const V<T>& a, const V<U>& b, InstrClass cls, F f, unsigned latency = kClassLatency) {
  using R = decltype(f(a[0], b[0]));
  V<R> r = Uninitialized<R>::make(a.cta());
  for (unsigned t = 0; t < a.size(); ++t)
    r[t] = f(a[t], b[t]);
  a.cta().issue(
      cls, [&](unsigned w) { return std::max(a.ready(w), b.ready(w)); }, r.ready_data(), latency);
  return r;
}

template <class T, class F>
auto map(const V<T>& a, InstrClass cls, F f, unsigned latency = kClassLatency) {
  using R = decltype(f(a[0]));
  V<R> r = Uninitialized<R>::make(a.cta());
  for (unsigned t = 0; t < a.size(); ++t)
    r[t] = f(a[t]);
  a.cta().issue(
      cls, [&](unsigned w) { return a.ready(w); }, r.ready_data(), latency);
  return r;
}

#define NUMAGPU_KERNELS_BINARY(OP)                                                             \
  template <class T>                                                                           \
  V<T> operator OP(const V<T>& a, const V<T>& b) {                                             \
    return zip(a, b, class_of<T>(), [](T x, T y) { return static_cast<T>(x OP y); });          \
  }                                                                                            \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic_v<S>>>               \
  V<T> operator OP(const V<T>& a, S s) {                                                       \
    return map(a, class_of<T>(), [s](T x) { return static_cast<T>(x OP static_cast<T>(s)); }); \
  }                                                                                            \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic_v<S>>>               \
  V<T> operator OP(S s, const V<T>& a) {                                                       \
    return map(a, class_of<T>(), [s](T x) { return static_cast<T>(static_cast<T>(s) OP x); }); \
  }
NUMAGPU_KERNELS_BINARY(+)
NUMAGPU_KERNELS_BINARY(-)
NUMAGPU_KERNELS_BINARY(*)
#undef NUMAGPU_KERNELS_BINARY

// Division. A floating-point one is a division on the GPU whatever its divisor (nvcc emits div.rn, a
// reciprocal and its refinement, for any divisor but a power of two, which kernels write as a multiply):
// its result takes the division's latency. An integer one keeps the int latency: a kernel's integer
// divisors are compile-time constants, which nvcc turns into a shift or a multiply; a division by a value
// known only at run time is idiv / irem (below).
template <class T>
constexpr unsigned division_latency() {
  if constexpr (std::is_same_v<T, float>) return kDivLatency + 1;
  if constexpr (std::is_same_v<T, double>) return kDivLatency + 2;
  return kClassLatency;
}
// A floating-point division is also the rest of its instruction sequence (Cta::charge_fp32_division_sequence,
// Cta::charge_fp64_division_sequence).
template <class T>
void charge_division_sequence(Cta& cta) {
  if constexpr (std::is_same_v<T, float>) cta.charge_fp32_division_sequence();
  if constexpr (std::is_same_v<T, double>) cta.charge_fp64_division_sequence();
}
template <class T>
V<T> operator/(const V<T>& a, const V<T>& b) {
  V<T> q = zip(
      a, b, class_of<T>(), [](T x, T y) { return static_cast<T>(x / y); }, division_latency<T>());
  charge_division_sequence<T>(a.cta());
  return q;
}
template <class T, class S, class = std::enable_if_t<std::is_arithmetic_v<S>>>
V<T> operator/(const V<T>& a, S s) {
  V<T> q = map(
      a, class_of<T>(), [s](T x) { return static_cast<T>(x / static_cast<T>(s)); }, division_latency<T>());
  charge_division_sequence<T>(a.cta());
  return q;
}
template <class T, class S, class = std::enable_if_t<std::is_arithmetic_v<S>>>
V<T> operator/(S s, const V<T>& a) {
  V<T> q = map(
      a, class_of<T>(), [s](T x) { return static_cast<T>(static_cast<T>(s) / x); }, division_latency<T>());
  charge_division_sequence<T>(a.cta());
  return q;
}
// Integer division and remainder by `d`, a value the compiler does not know (a kernel argument). The
// division's result takes the integer division's latency; it issues nvcc's sequence
// (Cta::charge_int_division_sequence), and so does a remainder computed alone. A remainder beside the
// division of the same operands is the division's quotient times `d` subtracted from `a`, one IMAD
// (remainder_of_quotient): compilers compute the pair so (LLVM's DivRemPairs, in the NVVM pipeline). `d`
// must not be 0.
inline V<std::int64_t> idiv(const V<std::int64_t>& a, std::int64_t d) {
  V<std::int64_t> q = map(
      a, InstrClass::kInt, [d](std::int64_t x) { return x / d; }, kDivLatency);
  a.cta().charge_int_division_sequence();
  return q;
}
inline V<std::int64_t> irem(const V<std::int64_t>& a, std::int64_t d) {
  V<std::int64_t> r = map(
      a, InstrClass::kInt, [d](std::int64_t x) { return x % d; }, kDivLatency);
  a.cta().charge_int_division_sequence();
  return r;
}
inline V<std::int64_t> remainder_of_quotient(const V<std::int64_t>& a, const V<std::int64_t>& quotient,
                                             std::int64_t d) {
  return zip(a, quotient, InstrClass::kInt, [d](std::int64_t x, std::int64_t q) { return x - q * d; });
}

#define NUMAGPU_KERNELS_COMPARE(OP)                                              \
  template <class T>                                                             \
  V<bool> operator OP(const V<T>& a, const V<T>& b) {                            \
    return zip(a, b, class_of<T>(), [](T x, T y) { return x OP y; });            \
  }                                                                              \
  template <class T, class S, class = std::enable_if_t<std::is_arithmetic_v<S>>> \
  V<bool> operator OP(const V<T>& a, S s) {                                      \
    return map(a, class_of<T>(), [s](T x) { return x OP static_cast<T>(s); });   \
  }
NUMAGPU_KERNELS_COMPARE(<)
NUMAGPU_KERNELS_COMPARE(<=)
NUMAGPU_KERNELS_COMPARE(>)
NUMAGPU_KERNELS_COMPARE(>=)
NUMAGPU_KERNELS_COMPARE(==)
NUMAGPU_KERNELS_COMPARE(!=)
#undef NUMAGPU_KERNELS_COMPARE

inline V<bool> operator&&(const V<bool>& a, const V<bool>& b) {
  return zip(a, b, InstrClass::kInt, [](bool x, bool y) { return x && y; });
}
inline V<bool> operator||(const V<bool>& a, const V<bool>& b) {
  return zip(a, b, InstrClass::kInt, [](bool x, bool y) { return x || y; });
}
inline V<bool> operator!(const V<bool>& a) {
  return map(a, InstrClass::kInt, [](bool x) { return !x; });
}

// A type conversion. One between an integer and a floating-point type (I2F, F2I) runs on the XU, the unit
// of the transcendentals and the int-to-float and float-to-int conversions (Nsight Compute's "xu" pipe), at
// the XU's rate: the CUDA C Programming Guide gives type conversions 16 results a clock per SM on compute
// capability 7.x, the rate of MUFU. It is one kSfu instruction. One between float and double (F2F) is not
// in the XU's list: it is an fp64 instruction (the FP64 unit; Accel-Sim's opcode maps put F2F on the DP
// unit) that holds the FP64 pipe for two passes (hold_fp64_pipe_once_more): the Guide gives conversions to
// and from 64-bit types 16 a clock, half a DFMA's 32. A bool side is a
// compare or a select, an integer widening or narrowing an integer instruction: int. A rounding of a float
// to an integral float (FRND) is charged by hand where a kernel rounds.
template <class R, class T>
constexpr InstrClass conversion_class() {
  if constexpr (std::is_same_v<R, T>) return class_of<R>();  // no conversion: a move
  if constexpr (std::is_same_v<R, bool> || std::is_same_v<T, bool>) return InstrClass::kInt;
  if constexpr (std::is_floating_point_v<R> && std::is_floating_point_v<T>) return InstrClass::kFp64;
  if constexpr (std::is_floating_point_v<R> || std::is_floating_point_v<T>) return InstrClass::kSfu;
  return InstrClass::kInt;
}
template <class R, class T>
V<R> convert(const V<T>& a) {
  V<R> r = map(a, conversion_class<R, T>(), [](T x) { return static_cast<R>(x); });
  // F2F at half the FP64 pipe's rate: a second pass of the pipe (Step::fp64_passes).
  if constexpr (!std::is_same_v<R, T> && conversion_class<R, T>() == InstrClass::kFp64)
    a.cta().hold_fp64_pipe_once_more();
  return r;
}
// Special functions run on the SFU.
template <class T>
V<T> sqrt(const V<T>& a) {
  return map(a, InstrClass::kSfu, [](T x) { return static_cast<T>(std::sqrt(x)); });
}
template <class T>
V<T> exp(const V<T>& a) {
  return map(a, InstrClass::kSfu, [](T x) { return static_cast<T>(std::exp(x)); });
}
// A fused multiply-add is one instruction.
template <class T>
V<T> fma(const V<T>& a, const V<T>& b, const V<T>& c) {
  V<T> r = Uninitialized<T>::make(a.cta());
  for (unsigned t = 0; t < a.size(); ++t)
    r[t] = a[t] * b[t] + c[t];
  a.cta().issue(
      class_of<T>(),
      [&](unsigned w) {
        return std::max({a.ready(w), b.ready(w), c.ready(w)});
      },
      r.ready_data());
  return r;
}
template <class T>
V<T> select(const V<bool>& c, const V<T>& a, const V<T>& b) {
  V<T> r = Uninitialized<T>::make(a.cta());
  for (unsigned t = 0; t < a.size(); ++t)
    r[t] = c[t] ? a[t] : b[t];
  a.cta().issue(
      InstrClass::kInt,
      [&](unsigned w) {
        return std::max({c.ready(w), a.ready(w), b.ready(w)});
      },
      r.ready_data());
  return r;
}

// `n` warp instructions of `cls` that each read `inputs` and are independent of each other, as one value of
// R (T{}: no data) ready when the last of them is: an operation on a whole register fragment whose per-lane
// layout the model does not hold (a WMMA fragment's load, store or mma_sync; a scale of its elements).
// Counted as charge(cls, n).
template <class R, class... In>
V<R> fragment_op(Cta& c, InstrClass cls, unsigned n, const In&... inputs) {
  V<R> r(c, R{});
  std::vector<std::uint32_t> one(c.warps(), 0);
  for (unsigned i = 0; i < n; ++i) {
    c.issue(
        cls,
        [&]([[maybe_unused]] unsigned w) {
          return std::max({std::uint32_t(0), inputs.ready(w)...});
        },
        one.data());
    if (c.dependent())
      for (unsigned w = 0; w < c.warps(); ++w)
        r.ready_data()[w] = std::max(r.ready_data()[w], one[w]);
  }
  return r;
}

// ---- dependent latencies ----------------------------------------------------------------------------

template <class F>
void Cta::issue(InstrClass cls, const F& operands_ready, std::uint32_t* result, unsigned latency) {
  if (!dependent_) {
    charge(cls);
    return;
  }
  for (unsigned w = 0; w < mask_.size(); ++w) {
    if (!mask_[w]) {
      if (result) result[w] = 0;
      continue;
    }
    const std::uint32_t ready = issue_one(w, cls, 1, operands_ready(w), latency);
    if (result) result[w] = ready;
  }
}

template <class F>
void Cta::await(const F& operands_ready) {
  if (!dependent_) return;
  for (unsigned w = 0; w < mask_.size(); ++w)
    if (mask_[w]) await_one(w, operands_ready(w));
}

// ---- memory -----------------------------------------------------------------------------------------

template <class T>
V<T> Cta::load(const Array<T>& a, const V<std::int64_t>& index, std::int64_t offset) {
  return load_from(a, index, offset, false);
}

template <class T>
V<T> Cta::texture_load(const Array<T>& a, const V<std::int64_t>& index) {
  return load_from(a, index, 0, true);
}

template <class T>
V<T> Cta::texture_load_taps(const Array<T>& a, const std::vector<V<std::int64_t>>& taps) {
  if (taps.empty()) throw std::invalid_argument("texture_load_taps: a fetch reads at least one texel");
  V<T> r(*this, T{});
  const auto n = static_cast<unsigned>(taps.size());
  scratch_.assign(std::size_t(threads_) * n, 0);
  for (unsigned t = 0; t < threads_; ++t) {
    if (!active(t)) continue;
    for (unsigned k = 0; k < n; ++k)
      scratch_[std::size_t(t) * n + k] = a.base + static_cast<std::uint64_t>(taps[k][t]) * sizeof(T);
    const auto i = static_cast<std::uint64_t>(taps[0][t]);
    if (a.data && i < a.data->size()) r[t] = (*a.data)[i];
  }
  for (const V<std::int64_t>& tap : taps)  // the texture unit takes every tap's coordinates
    await([&](unsigned w) { return tap.ready(w); });
  memory_step_multi(Step::Kind::kLoad, scratch_, n, sizeof(T));
  return finish_load(r, true);
}

template <class T>
V<T> Cta::load_from(const Array<T>& a, const V<std::int64_t>& index, std::int64_t offset, bool texture) {
  V<T> r(*this, T{});
  scratch_.assign(threads_, 0);
  for (unsigned t = 0; t < threads_; ++t) {
    if (!active(t)) continue;
    const auto i = static_cast<std::uint64_t>(index[t] + offset);
    scratch_[t] = a.base + i * sizeof(T);
    if (a.data && i < a.data->size()) r[t] = (*a.data)[i];
  }
  if (!texture) form_address(a, index);
  await([&](unsigned w) { return index.ready(w); });
  memory_step(Step::Kind::kLoad, scratch_, sizeof(T));
  return finish_load(r, texture);
}

template <class T>
V<T> Cta::finish_load(V<T>& r, bool texture) {
  if (texture) {
    for (unsigned w = 0; w < warps(); ++w)
      if (mask_[w]) warps_[w].steps.back().instructions |= kLoadTexture;
  }
  if (nonblocking_loads_) {  // the warp goes on; the value is pending until a reader waits for it
    for (unsigned w = 0; w < warps(); ++w) {
      if (!mask_[w]) continue;
      warps_[w].steps.back().instructions |= kLoadGoesPast;
      r.ready_data()[w] = kPendingLoad | ++loads_issued_[w];
    }
    return r;
  }
  wait_settles();
  if (dependent_) {
    for (unsigned w = 0; w < warps(); ++w)
      if (mask_[w]) r.ready_data()[w] = clock_[w];
  }
  return r;
}

template <class T>
void Cta::store(const Array<T>& a, const V<std::int64_t>& index, const V<T>& value, std::int64_t offset) {
  scratch_.assign(threads_, 0);
  for (unsigned t = 0; t < threads_; ++t) {
    if (!active(t)) continue;
    const auto i = static_cast<std::uint64_t>(index[t] + offset);
    scratch_[t] = a.base + i * sizeof(T);
    if (a.data && i < a.data->size()) (*a.data)[i] = value[t];
  }
  form_address(a, index);
  await([&](unsigned w) { return value.ready(w); });
  memory_step(Step::Kind::kStore, scratch_, sizeof(T));
}

template <class T>
void Cta::atomic_add(const Array<T>& a, const V<std::int64_t>& index, const V<T>& value) {
  scratch_.assign(threads_, 0);
  for (unsigned t = 0; t < threads_; ++t) {  // thread order: a deterministic serialization
    if (!active(t)) continue;
    const auto i = static_cast<std::uint64_t>(index[t]);
    scratch_[t] = a.base + i * sizeof(T);
    if (a.data && i < a.data->size()) (*a.data)[i] += value[t];
  }
  form_address(a, index);
  await([&](unsigned w) { return value.ready(w); });
  memory_step(Step::Kind::kAtomic, scratch_, sizeof(T));
  wait_settles();
}

template <class T>
void Cta::atomic_min(const Array<T>& a, const V<std::int64_t>& index, const V<T>& value) {
  scratch_.assign(threads_, 0);
  for (unsigned t = 0; t < threads_; ++t) {  // thread order, as atomic_add
    if (!active(t)) continue;
    const auto i = static_cast<std::uint64_t>(index[t]);
    scratch_[t] = a.base + i * sizeof(T);
    if (a.data && i < a.data->size() && value[t] < (*a.data)[i]) (*a.data)[i] = value[t];
  }
  form_address(a, index);
  await([&](unsigned w) { return value.ready(w); });
  memory_step(Step::Kind::kAtomic, scratch_, sizeof(T));
  wait_settles();
}

namespace detail {
// N values of T{} (V has no default constructor, so an array of them is built from a pack).
template <class T, std::size_t... I>
std::array<V<T>, sizeof...(I)> zero_values(Cta& cta, std::index_sequence<I...>) {
  return {{((void)I, V<T>(cta, T{}))...}};
}
// The N elements of `data` from `first` (T{} past its end), each uniform over the CTA.
template <class T, std::size_t... I>
std::array<V<T>, sizeof...(I)> uniform_values(Cta& cta, const std::vector<T>& data, std::uint64_t first,
                                              std::index_sequence<I...>) {
  return {{V<T>(cta, first + I < data.size() ? data[first + I] : T{})...}};
}
}  // namespace detail

template <class T>
V<T> Cta::Shared<T>::load(const V<std::int64_t>& index, std::int64_t offset) {
  std::array<V<T>, 1> r{V<T>(cta_, T{})};
  read(index, offset, r);
  return std::move(r[0]);
}

template <class T>
template <std::size_t N>
std::array<V<T>, N> Cta::Shared<T>::load_wide(const V<std::int64_t>& index, std::int64_t offset) {
  static_assert(N * sizeof(T) == 8 || N * sizeof(T) == 16, "a wide shared load reads 8 or 16 bytes");
  std::array<V<T>, N> r = detail::zero_values<T>(cta_, std::make_index_sequence<N>{});
  read(index, offset, r);
  return r;
}

template <class T>
template <std::size_t N>
void Cta::Shared<T>::read(const V<std::int64_t>& index, std::int64_t offset, std::array<V<T>, N>& r) {
  constexpr unsigned kBytes = N * sizeof(T);
  std::vector<std::uint64_t>& offsets = cta_.scratch_;
  offsets.assign(cta_.threads(), 0);
  for (unsigned t = 0; t < cta_.threads(); ++t) {
    if (!cta_.active(t)) continue;
    const std::int64_t element = index[t] + offset;
    const auto i = static_cast<std::uint64_t>(element);
    offsets[t] = i * sizeof(T);
    if (N > 1 && offsets[t] % kBytes)
      throw std::logic_error("Shared::load_wide: thread " + std::to_string(t) + " reads element " +
                             std::to_string(element) + ", not " + std::to_string(kBytes) + "-byte aligned");
    for (std::size_t k = 0; k < N; ++k)
      if (i + k < data_.size()) r[k][t] = data_[i + k];
  }
  cta_.shared_access(offsets, kBytes, true);
  for (unsigned w = 0; w < cta_.warps(); ++w) {
    if (cta_.warp_active(w)) {
      const std::uint32_t ready = cta_.issue_one(w, InstrClass::kShared, cta_.passes_[w], index.ready(w));
      for (std::size_t k = 0; k < N; ++k)
        r[k].ready_data()[w] = ready;
      cta_.add_passes(w, kSharedReplayRun, cta_.passes_[w] - 1);
    }
  }
}

template <class T>
void Cta::Shared<T>::store(const V<std::int64_t>& index, const V<T>& value, std::int64_t offset) {
  std::vector<std::uint64_t>& offsets = cta_.scratch_;
  offsets.assign(cta_.threads(), 0);
  for (unsigned t = 0; t < cta_.threads(); ++t) {
    if (!cta_.active(t)) continue;
    const auto i = static_cast<std::uint64_t>(index[t] + offset);
    offsets[t] = i * sizeof(T);
    if (i < data_.size()) data_[i] = value[t];
  }
  cta_.shared_access(offsets, sizeof(T), false);
  for (unsigned w = 0; w < cta_.warps(); ++w) {
    if (cta_.warp_active(w)) {
      cta_.issue_one(w, InstrClass::kShared, cta_.passes_[w], std::max(index.ready(w), value.ready(w)));
      cta_.add_passes(w, kSharedReplayRun, cta_.passes_[w] - 1);
    }
  }
}

template <class T>
T Cta::Shared<T>::load_uniform(std::uint64_t index) {
  cta_.shared_broadcast();
  return index < data_.size() ? data_[index] : T{};
}

template <class T>
V<T> Cta::Shared<T>::broadcast(std::uint64_t index, unsigned elements) {
  const std::uint64_t bytes = std::uint64_t(elements) * sizeof(T);
  if (elements > 1 && ((bytes != 8 && bytes != 16) || index * sizeof(T) % bytes))
    throw std::logic_error("Shared::broadcast: " + std::to_string(elements) + " elements from element " +
                           std::to_string(index) + " are not one aligned 8- or 16-byte load");
  V<T> r(cta_, index < data_.size() ? data_[index] : T{});
  cta_.shared_broadcast(cta_.dependent() ? r.ready_data() : nullptr, static_cast<unsigned>(bytes));
  return r;
}

template <class T>
template <std::size_t N>
std::array<V<T>, N> Cta::Shared<T>::broadcast_wide(std::uint64_t index) {
  static_assert(N * sizeof(T) == 8 || N * sizeof(T) == 16, "a wide shared load reads 8 or 16 bytes");
  if (index * sizeof(T) % (N * sizeof(T)))
    throw std::logic_error("Shared::broadcast_wide: element " + std::to_string(index) + " is not " +
                           std::to_string(N * sizeof(T)) + "-byte aligned");
  std::array<V<T>, N> r = detail::uniform_values<T>(cta_, data_, index, std::make_index_sequence<N>{});
  cta_.shared_broadcast(cta_.dependent() ? r[0].ready_data() : nullptr, N * sizeof(T));
  if (cta_.dependent())
    for (std::size_t k = 1; k < N; ++k)
      std::copy(r[0].ready_data(), r[0].ready_data() + cta_.warps(), r[k].ready_data());
  return r;
}

template <class T>
V<T> Cta::shuffle_xor(const V<T>& x, unsigned lane_mask) {
  V<T> r = Uninitialized<T>::make(*this);
  for (unsigned t = 0; t < threads_; ++t) {
    const unsigned source = (t / kWarpSize) * kWarpSize + ((t % kWarpSize) ^ (lane_mask % kWarpSize));
    r[t] = source < threads_ ? x[source] : x[t];
  }
  for (unsigned w = 0; w < warps(); ++w) {
    if (!mask_[w]) continue;
    const std::uint32_t ready =
        issue_one(w, InstrClass::kInt, 1, dependent_ ? x.ready(w) : 0, kShuffleLatency);
    if (!dependent_) continue;
    r.ready_data()[w] = ready;
    add_passes(w, kShufflePassRun, 1);  // the shared pipe's pass (the LSU to L1TEX), no bank read
  }
  return r;
}

template <class T>
V<T> Cta::constant_load(const std::vector<T>& table, const V<std::int64_t>& index, std::int64_t offset) {
  V<T> r(*this, T{});
  std::array<std::int64_t, kWarpSize> seen;
  for (unsigned w = 0; w < warps(); ++w) {
    if (!mask_[w]) continue;
    unsigned distinct = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      if (!((mask_[w] >> lane) & 1u)) continue;
      const unsigned t = w * kWarpSize + lane;
      const std::int64_t i = index[t] + offset;
      if (i >= 0 && static_cast<std::uint64_t>(i) < table.size()) r[t] = table[static_cast<std::size_t>(i)];
      if (std::find(seen.begin(), seen.begin() + distinct, i) == seen.begin() + distinct)
        seen[distinct++] = i;
    }
    if (!dependent_) {
      issue_one(w, InstrClass::kInt, 1, 0);  // one cycle, as a charged instruction: the paper system's timing
      continue;
    }
    r.ready_data()[w] = issue_one(w, InstrClass::kInt, distinct, index.ready(w));
    add_passes(w, kConstantPassRun, distinct);  // the SM's constant cache, shared by its warps
  }
  return r;
}

}  // namespace numagpu::kernels
