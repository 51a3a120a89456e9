// CTA scheduling: which socket runs each CTA of a kernel, and in which order a socket's SMs take its CTAs.
// Plain C++ decision policies (no SystemC); definitions, parameters and worked examples are in
// docs/runtime-policies.md. The policies come from Milic et al., MICRO-50, §3 (interleave, contiguous) and
// LADM (Khairy et al.), §II-B and §III-D2 (MCM-GPU batches, row/column binding, hierarchical round-robin).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/ids.hpp"

namespace numagpu::runtime {

// A kernel's grid of CTAs. Linear id = x + X * (y + Y * z).
// A grid *row* is the X CTAs sharing (y, z): row index y + Y * z, which is also linear id / X.
// A grid *column* is the Y CTAs sharing (x, z): column index x + X * z.
// Rows and columns never cross z-planes: z usually indexes independent problems (batched GEMM, depth
// slices), so binding CTAs of different planes together would bind unrelated data.
struct Grid {
  std::uint32_t x = 1;
  std::uint32_t y = 1;
  std::uint32_t z = 1;

  std::uint64_t ctas() const { return std::uint64_t{x} * y * z; }
  std::uint64_t rows() const { return std::uint64_t{y} * z; }
  std::uint64_t cols() const { return std::uint64_t{x} * z; }
  std::uint64_t linear(std::uint32_t cx, std::uint32_t cy, std::uint32_t cz) const {
    return cx + std::uint64_t{x} * (cy + std::uint64_t{y} * cz);
  }
  std::uint64_t row_of(std::uint64_t cta) const { return cta / x; }
  std::uint64_t col_of(std::uint64_t cta) const { return cta % x + std::uint64_t{x} * (cta / x / y); }
};

// The machine as the runtime sees it: GPUs of chiplets. Every chiplet is a socket (a NUMA node);
// socket id = gpu * chiplets_per_gpu + chiplet, so the sockets of one GPU are consecutive.
struct Machine {
  std::uint32_t gpus = 1;
  std::uint32_t chiplets_per_gpu = 1;

  std::uint64_t sockets() const { return std::uint64_t{gpus} * chiplets_per_gpu; }
  SocketId socket(std::uint32_t gpu, std::uint32_t chiplet) const {
    return static_cast<SocketId>(gpu * chiplets_per_gpu + chiplet);
  }
  std::uint32_t gpu_of(SocketId s) const { return s / chiplets_per_gpu; }
  std::uint32_t chiplet_of(SocketId s) const { return s % chiplets_per_gpu; }
};

enum class CtaPolicy {
  kInterleave,    // CTA i to socket i mod N (single-GPU style, Milic §3)
  kContiguous,    // N balanced contiguous blocks of linear ids (Milic §3, LADM "kernel-wide")
  kBatch,         // batches of `batch` consecutive CTAs round-robin over sockets (MCM-GPU Batch+FT)
  kRowBinding,    // whole grid rows per socket, contiguous rows (LADM row-binding)
  kColBinding,    // whole grid columns per socket, contiguous columns (LADM column-binding)
  kHierarchical,  // contiguous block per GPU, round-robin over its chiplets (LADM hierarchical)
};

// What the hierarchical policy hands to a GPU as one contiguous block (LADM §III-D2: "a chunk of contiguous
// rows or columns of threadblocks").
enum class HierarchyUnit {
  kCtas,  // linear ids
  kRows,  // whole grid rows
  kCols,  // whole grid columns
};

struct CtaScheduleParams {
  CtaPolicy policy = CtaPolicy::kContiguous;
  // kBatch: CTAs per batch (>= 1). 4 is the low end of the 4-8 LADM §II-B gives for Batch+FT; an
  // alignment-aware value comes from min_tb_batch().
  std::uint32_t batch = 4;
  // kHierarchical: the unit of the per-GPU blocks, and how many consecutive CTAs of a GPU's block one chiplet
  // takes per round-robin turn (>= 1).
  HierarchyUnit hierarchy_unit = HierarchyUnit::kCtas;
  std::uint32_t chiplet_batch = 1;
};

// The static schedule of one kernel. Built once at launch in O(CTAs) time and memory.
class CtaSchedule {
 public:
  // Throws std::invalid_argument for an empty grid, more than 2^32 - 1 CTAs, zero GPUs or chiplets, more than
  // 65535 sockets, or a zero batch / chiplet_batch.
  CtaSchedule(const Grid& grid, const Machine& machine, const CtaScheduleParams& params);

  // The socket running `cta`. Throws std::out_of_range for cta >= ctas().
  SocketId socket_of(std::uint64_t cta) const;
  // The CTAs of `socket` in the order its SMs take them as CTA slots free up: ascending linear id, the order
  // a GPU's own CTA dispatcher walks a sub-kernel. Empty when the socket gets nothing.
  // Throws std::out_of_range for socket >= sockets().
  const std::vector<CtaId>& ctas_of(SocketId socket) const;

  std::uint64_t ctas() const { return socket_of_.size(); }
  std::uint64_t sockets() const { return per_socket_.size(); }
  const Grid& grid() const { return grid_; }
  const Machine& machine() const { return machine_; }
  const CtaScheduleParams& params() const { return params_; }
  // The unit the hierarchical policy cut this grid by: params().hierarchy_unit, except that a grid with fewer
  // rows (columns) than GPUs is cut by CTAs (docs/runtime-policies.md, "hierarchical").
  HierarchyUnit hierarchy_unit() const { return hierarchy_unit_; }

 private:
  SocketId assign(std::uint64_t cta, std::vector<std::uint64_t>& gpu_rank) const;
  SocketId hierarchical(std::uint64_t cta, std::vector<std::uint64_t>& gpu_rank) const;
  HierarchyUnit effective_hierarchy_unit() const;

  Grid grid_;
  Machine machine_;
  CtaScheduleParams params_;
  HierarchyUnit hierarchy_unit_ = HierarchyUnit::kCtas;
  std::vector<SocketId> socket_of_;
  std::vector<std::vector<CtaId>> per_socket_;
};

// LADM Equation 2, generalized: the fewest consecutive CTAs whose datablocks cover a whole number of pages,
// lcm(page_bytes, datablock_bytes) / datablock_bytes. When the datablock divides the page this is
// page_bytes / datablock_bytes, exactly Equation 2; when the page divides the datablock it is 1. A batch
// schedule with a multiple of this never splits a page between sockets. Throws std::invalid_argument for
// zero sizes or a result above 2^32 - 1.
std::uint32_t min_tb_batch(std::uint64_t page_bytes, std::uint64_t datablock_bytes);

// Configuration names: interleave, contiguous, batch, row_binding, col_binding, hierarchical; and ctas, rows,
// cols. parse_* throw std::invalid_argument listing the valid names.
const char* name(CtaPolicy policy);
const char* name(HierarchyUnit unit);
CtaPolicy parse_cta_policy(const std::string& text);
HierarchyUnit parse_hierarchy_unit(const std::string& text);

}  // namespace numagpu::runtime
