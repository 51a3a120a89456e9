#include "trace/trace.hpp"

#include "common/printable.hpp"

namespace numagpu::trace {

TraceError::TraceError(const std::string& what) : std::runtime_error(printable(what)) {}

const char* to_string(OpKind kind) {
  switch (kind) {
    case OpKind::kCompute:
      return "compute";
    case OpKind::kLoad:
      return "load";
    case OpKind::kStore:
      return "store";
    case OpKind::kAtomic:
      return "atomic";
    case OpKind::kBarrier:
      return "barrier";
    case OpKind::kExit:
      return "exit";
  }
  return "invalid";
}

bool operator==(const WarpInstruction& a, const WarpInstruction& b) {
  return a.kind == b.kind && a.access_bytes == b.access_bytes && a.compute_cycles == b.compute_cycles &&
         a.pc == b.pc && a.active_mask == b.active_mask && a.addresses == b.addresses;
}

bool operator==(const KernelInfo& a, const KernelInfo& b) {
  return a.name == b.name && a.kernel_id == b.kernel_id && a.grid == b.grid && a.block == b.block &&
         a.shared_mem_bytes == b.shared_mem_bytes && a.registers_per_thread == b.registers_per_thread &&
         a.shared_mem_base == b.shared_mem_base && a.local_mem_base == b.local_mem_base;
}

namespace {

std::string dims(const Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

}  // namespace

std::optional<std::string> check_grid_dims(const Dim3& g) {
  if (g.x == 0 || g.y == 0 || g.z == 0 || g.x > kMaxGridX || g.y > kMaxGridYZ || g.z > kMaxGridYZ) {
    return "grid dim " + dims(g) + " outside CUDA's limits (1.." + std::to_string(kMaxGridX) + ", 1.." +
           std::to_string(kMaxGridYZ) + ", 1.." + std::to_string(kMaxGridYZ) + ")";
  }
  return std::nullopt;
}

std::optional<std::string> check_block_dims(const Dim3& b) {
  if (b.x == 0 || b.y == 0 || b.z == 0 || b.volume() > kMaxThreadsPerCta) {
    return "block dim " + dims(b) + " outside CUDA's limits (no zero dimension, at most " +
           std::to_string(kMaxThreadsPerCta) + " threads)";
  }
  return std::nullopt;
}

std::optional<std::string> check_launch_dims(const KernelInfo& info) {
  if (auto problem = check_grid_dims(info.grid)) return problem;
  return check_block_dims(info.block);
}

uint64_t ThreadBlock::instruction_count() const {
  uint64_t n = 0;
  for (const auto& warp : warps)
    n += warp.size();
  return n;
}

bool operator==(const ThreadBlock& a, const ThreadBlock& b) {
  return a.cta_id == b.cta_id && a.x == b.x && a.y == b.y && a.z == b.z && a.warps == b.warps;
}

void TraceCounts::add(const ThreadBlock& block) {
  ++blocks;
  for (const auto& warp : block.warps) {
    if (!warp.empty()) ++warps;
    instructions += warp.size();
    for (const WarpInstruction& inst : warp) {
      ++by_kind[static_cast<int>(inst.kind)];
      thread_accesses += inst.addresses.size();
    }
  }
}

bool operator==(const TraceCounts& a, const TraceCounts& b) {
  for (int k = 0; k < kOpKindCount; ++k) {
    if (a.by_kind[k] != b.by_kind[k]) return false;
  }
  return a.blocks == b.blocks && a.warps == b.warps && a.instructions == b.instructions &&
         a.thread_accesses == b.thread_accesses;
}

TraceCounts count_trace(KernelTraceReader& reader) {
  TraceCounts counts;
  ThreadBlock block;
  while (reader.next_block(block))
    counts.add(block);
  return counts;
}

}  // namespace numagpu::trace
