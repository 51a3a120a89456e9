// The in-memory model of a GPU kernel trace, shared by every trace format numagpu reads (Accel-Sim SASS
// traces, numagpu's own .ngt format). Plain C++: the simulator and offline tools use it alike.
//
// A kernel trace is its KernelInfo followed by thread blocks (CTAs); a block holds one instruction list per
// warp. Readers stream: one block is in memory at a time, so traces far larger than RAM can be simulated.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace numagpu::trace {

inline constexpr uint32_t kWarpSize = 32;
// CUDA's own limits; traces beyond them are malformed (and products of larger values would overflow).
inline constexpr uint32_t kMaxThreadsPerCta = 1024;
inline constexpr uint32_t kMaxGridX = 0x7fffffffu;
inline constexpr uint32_t kMaxGridYZ = 65535;

// What a warp instruction does to the memory system. Shared, constant and texture memory never leave the
// SM, so their instructions are kCompute; docs/trace-format.md lists the full opcode mapping.
enum class OpKind : uint8_t { kCompute, kLoad, kStore, kAtomic, kBarrier, kExit };
inline constexpr int kOpKindCount = 6;

const char* to_string(OpKind kind);
constexpr bool is_memory(OpKind kind) {
  return kind == OpKind::kLoad || kind == OpKind::kStore || kind == OpKind::kAtomic;
}

// One dynamic instruction of one warp. Invariants (every reader guarantees them, the .ngt writer checks
// them):
//   memory kinds: addresses.size() == popcount(active_mask), addresses[i] belongs to the i-th active lane
//                 counted from lane 0; access_bytes is the per-thread access size.
//   other kinds:  addresses is empty and access_bytes == 0.
struct WarpInstruction {
  OpKind kind = OpKind::kCompute;
  uint8_t access_bytes = 0;
  // Cycles a kCompute instruction occupies its warp; 1 for every Accel-Sim instruction (the SASS trace has
  // no latency information, the timing model supplies it). Other kinds carry 1 as well.
  uint16_t compute_cycles = 1;
  uint32_t pc = 0;
  uint32_t active_mask = 0;  // bit i set: lane i executes the instruction (after predication)
  std::vector<uint64_t> addresses;

  uint32_t active_threads() const { return static_cast<uint32_t>(__builtin_popcount(active_mask)); }
};

bool operator==(const WarpInstruction& a, const WarpInstruction& b);
inline bool operator!=(const WarpInstruction& a, const WarpInstruction& b) {
  return !(a == b);
}

struct Dim3 {
  uint32_t x = 1;
  uint32_t y = 1;
  uint32_t z = 1;

  uint64_t volume() const { return uint64_t{x} * y * z; }
};

inline bool operator==(const Dim3& a, const Dim3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}
inline bool operator!=(const Dim3& a, const Dim3& b) {
  return !(a == b);
}

struct KernelInfo {
  std::string name;
  uint32_t kernel_id = 0;
  Dim3 grid;
  Dim3 block;
  uint32_t shared_mem_bytes = 0;      // per CTA, static + dynamic
  uint32_t registers_per_thread = 0;  // 0: unknown
  // Bases of the shared and local memory windows the trace's addresses were taken in (0: unknown). Local
  // memory accesses are ordinary global-memory traffic; the window tells where they land.
  uint64_t shared_mem_base = 0;
  uint64_t local_mem_base = 0;

  uint64_t ctas() const { return grid.volume(); }
  uint32_t threads_per_cta() const { return static_cast<uint32_t>(block.volume()); }
  uint32_t warps_per_cta() const { return (threads_per_cta() + kWarpSize - 1) / kWarpSize; }
  // x fastest, then y, then z (CUDA's blockIdx linearization).
  uint64_t linear_cta_id(uint32_t x, uint32_t y, uint32_t z) const {
    return x + uint64_t{grid.x} * (y + uint64_t{grid.y} * z);
  }
};

bool operator==(const KernelInfo& a, const KernelInfo& b);
inline bool operator!=(const KernelInfo& a, const KernelInfo& b) {
  return !(a == b);
}

// Why a grid, a block or a whole launch is impossible (a zero or beyond-CUDA-limit dimension), or nothing.
std::optional<std::string> check_grid_dims(const Dim3& grid);
std::optional<std::string> check_block_dims(const Dim3& block);
std::optional<std::string> check_launch_dims(const KernelInfo& info);

struct ThreadBlock {
  uint64_t cta_id = 0;  // KernelInfo::linear_cta_id(x, y, z)
  uint32_t x = 0;
  uint32_t y = 0;
  uint32_t z = 0;
  // Exactly KernelInfo::warps_per_cta() entries; warp w runs threads [32w, 32w + 32) of the block. A warp
  // the trace does not mention has an empty list.
  std::vector<std::vector<WarpInstruction>> warps;

  uint64_t instruction_count() const;
};

bool operator==(const ThreadBlock& a, const ThreadBlock& b);
inline bool operator!=(const ThreadBlock& a, const ThreadBlock& b) {
  return !(a == b);
}

// Every reader and writer error: one line, "<file>:<line>: <what was expected, what was found>" for text
// formats, "<file>: at byte <n>: ..." for binary ones. Text quoted from the trace may hold anything: control
// bytes and bytes that are not UTF-8 are shown as escapes ("\x1b", common/printable.hpp), so what() is one
// line and safe to print.
class TraceError : public std::runtime_error {
 public:
  explicit TraceError(const std::string& what);
};

// A streaming reader of one kernel's trace.
class KernelTraceReader {
 public:
  virtual ~KernelTraceReader() = default;

  // Complete as soon as the reader is constructed.
  virtual const KernelInfo& info() const = 0;
  // Reads the next thread block into `block`, reusing its storage; returns false at the end of the trace.
  // Throws TraceError on malformed or truncated input; the reader is unusable afterwards.
  virtual bool next_block(ThreadBlock& block) = 0;
  // What the reader accepted but ignored or repaired, for the caller to print ("<file>[:<line>]: ...").
  virtual const std::vector<std::string>& warnings() const = 0;
};

struct TraceCounts {
  uint64_t blocks = 0;
  uint64_t warps = 0;  // warps with at least one instruction
  uint64_t instructions = 0;
  uint64_t by_kind[kOpKindCount] = {};
  uint64_t thread_accesses = 0;  // addresses of all memory instructions

  uint64_t of(OpKind kind) const { return by_kind[static_cast<int>(kind)]; }
  uint64_t memory_instructions() const {
    return of(OpKind::kLoad) + of(OpKind::kStore) + of(OpKind::kAtomic);
  }
  void add(const ThreadBlock& block);
};

bool operator==(const TraceCounts& a, const TraceCounts& b);

// Reads `reader` to its end.
TraceCounts count_trace(KernelTraceReader& reader);

}  // namespace numagpu::trace
