#include "runtime/cta_schedule.hpp"

#include <limits>
#include <numeric>
#include <stdexcept>

#include "runtime/block_split.hpp"

namespace numagpu::runtime {
namespace {

constexpr std::uint64_t kMaxCtas = std::numeric_limits<CtaId>::max();
constexpr std::uint64_t kMaxSockets = std::numeric_limits<SocketId>::max();

std::string grid_text(const Grid& g) {
  return std::to_string(g.x) + "x" + std::to_string(g.y) + "x" + std::to_string(g.z);
}

void validate(const Grid& grid, const Machine& machine, const CtaScheduleParams& params) {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) {
    throw std::invalid_argument("CTA schedule: grid " + grid_text(grid) +
                                " is empty (x, y and z must be >= 1)");
  }
  if (grid.ctas() > kMaxCtas) {
    throw std::invalid_argument("CTA schedule: grid " + grid_text(grid) + " has " +
                                std::to_string(grid.ctas()) + " CTAs, more than " + std::to_string(kMaxCtas));
  }
  if (machine.gpus == 0) throw std::invalid_argument("CTA schedule: gpus must be >= 1");
  if (machine.chiplets_per_gpu == 0)
    throw std::invalid_argument("CTA schedule: chiplets_per_gpu must be >= 1");
  if (machine.sockets() > kMaxSockets) {
    throw std::invalid_argument("CTA schedule: " + std::to_string(machine.gpus) + " gpus x " +
                                std::to_string(machine.chiplets_per_gpu) +
                                " chiplets = " + std::to_string(machine.sockets()) + " sockets, more than " +
                                std::to_string(kMaxSockets));
  }
  if (params.batch == 0) throw std::invalid_argument("CTA schedule: batch must be >= 1");
  if (params.chiplet_batch == 0) throw std::invalid_argument("CTA schedule: chiplet_batch must be >= 1");
}

}  // namespace

CtaSchedule::CtaSchedule(const Grid& grid, const Machine& machine, const CtaScheduleParams& params)
    : grid_(grid), machine_(machine), params_(params) {
  validate(grid, machine, params);
  hierarchy_unit_ = effective_hierarchy_unit();
  const std::uint64_t n = grid.ctas();
  socket_of_.resize(n);
  per_socket_.resize(machine.sockets());
  // Walking the CTAs in ascending linear id both fills every socket's list in dispatch order and gives the
  // hierarchical policy each CTA's rank within its GPU's block.
  std::vector<std::uint64_t> gpu_rank(machine.gpus, 0);
  for (std::uint64_t cta = 0; cta < n; ++cta) {
    const SocketId s = assign(cta, gpu_rank);
    socket_of_[cta] = s;
    per_socket_[s].push_back(static_cast<CtaId>(cta));
  }
}

SocketId CtaSchedule::assign(std::uint64_t cta, std::vector<std::uint64_t>& gpu_rank) const {
  const std::uint64_t sockets = machine_.sockets();
  switch (params_.policy) {
    case CtaPolicy::kInterleave:
      return static_cast<SocketId>(cta % sockets);
    case CtaPolicy::kContiguous:
      return static_cast<SocketId>(BlockSplit(grid_.ctas(), sockets).part_of(cta));
    case CtaPolicy::kBatch:
      return static_cast<SocketId>((cta / params_.batch) % sockets);
    case CtaPolicy::kRowBinding:
      return static_cast<SocketId>(BlockSplit(grid_.rows(), sockets).part_of(grid_.row_of(cta)));
    case CtaPolicy::kColBinding:
      return static_cast<SocketId>(BlockSplit(grid_.cols(), sockets).part_of(grid_.col_of(cta)));
    case CtaPolicy::kHierarchical:
      return hierarchical(cta, gpu_rank);
  }
  throw std::logic_error("CTA schedule: unknown policy");
}

// A grid with fewer rows (columns) than GPUs has no row (column) structure to bind: LADM's analysis finds
// row/column sharing only in 2-D grids (Algorithm 1) and gives a 1-D kernel the kernel-wide partition, and a
// binding that left GPUs without a row to run cannot be what the runtime means. Such a grid is cut by CTAs.
HierarchyUnit CtaSchedule::effective_hierarchy_unit() const {
  const std::uint64_t gpus = machine_.gpus;
  if (params_.hierarchy_unit == HierarchyUnit::kRows && grid_.rows() < gpus) return HierarchyUnit::kCtas;
  if (params_.hierarchy_unit == HierarchyUnit::kCols && grid_.cols() < gpus) return HierarchyUnit::kCtas;
  return params_.hierarchy_unit;
}

// The GPU level cuts the grid into `gpus` contiguous blocks of the chosen unit; inside a GPU the block's
// CTAs, in ascending linear id, go round-robin over its chiplets, chiplet_batch at a time. gpu_rank[g] counts
// the CTAs GPU g has received so far, which is the rank of this one because CTAs arrive in ascending order.
SocketId CtaSchedule::hierarchical(std::uint64_t cta, std::vector<std::uint64_t>& gpu_rank) const {
  std::uint64_t unit = cta;
  std::uint64_t units = grid_.ctas();
  if (hierarchy_unit_ == HierarchyUnit::kRows) {
    unit = grid_.row_of(cta);
    units = grid_.rows();
  } else if (hierarchy_unit_ == HierarchyUnit::kCols) {
    unit = grid_.col_of(cta);
    units = grid_.cols();
  }
  const auto gpu = static_cast<std::uint32_t>(BlockSplit(units, machine_.gpus).part_of(unit));
  const std::uint64_t rank = gpu_rank[gpu]++;
  const auto chiplet = static_cast<std::uint32_t>((rank / params_.chiplet_batch) % machine_.chiplets_per_gpu);
  return machine_.socket(gpu, chiplet);
}

SocketId CtaSchedule::socket_of(std::uint64_t cta) const {
  if (cta >= socket_of_.size()) {
    throw std::out_of_range("CTA schedule: CTA " + std::to_string(cta) + " is outside the grid of " +
                            std::to_string(socket_of_.size()) + " CTAs");
  }
  return socket_of_[cta];
}

const std::vector<CtaId>& CtaSchedule::ctas_of(SocketId socket) const {
  if (socket >= per_socket_.size()) {
    throw std::out_of_range("CTA schedule: socket " + std::to_string(socket) + " does not exist (" +
                            std::to_string(per_socket_.size()) + " sockets)");
  }
  return per_socket_[socket];
}

std::uint32_t min_tb_batch(std::uint64_t page_bytes, std::uint64_t datablock_bytes) {
  if (page_bytes == 0) throw std::invalid_argument("min_tb_batch: page_bytes must be >= 1");
  if (datablock_bytes == 0) throw std::invalid_argument("min_tb_batch: datablock_bytes must be >= 1");
  // lcm / datablock = page / gcd: computed this way it cannot overflow.
  const std::uint64_t batch = page_bytes / std::gcd(page_bytes, datablock_bytes);
  if (batch > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("min_tb_batch: " + std::to_string(batch) + " CTAs per batch is too many");
  }
  return static_cast<std::uint32_t>(batch);
}

const char* name(CtaPolicy policy) {
  switch (policy) {
    case CtaPolicy::kInterleave:
      return "interleave";
    case CtaPolicy::kContiguous:
      return "contiguous";
    case CtaPolicy::kBatch:
      return "batch";
    case CtaPolicy::kRowBinding:
      return "row_binding";
    case CtaPolicy::kColBinding:
      return "col_binding";
    case CtaPolicy::kHierarchical:
      return "hierarchical";
  }
  return "?";
}

const char* name(HierarchyUnit unit) {
  switch (unit) {
    case HierarchyUnit::kCtas:
      return "ctas";
    case HierarchyUnit::kRows:
      return "rows";
    case HierarchyUnit::kCols:
      return "cols";
  }
  return "?";
}

CtaPolicy parse_cta_policy(const std::string& text) {
  for (CtaPolicy p : {CtaPolicy::kInterleave, CtaPolicy::kContiguous, CtaPolicy::kBatch,
                      CtaPolicy::kRowBinding, CtaPolicy::kColBinding, CtaPolicy::kHierarchical}) {
    if (text == name(p)) return p;
  }
  throw std::invalid_argument("unknown CTA scheduling policy '" + text +
                              "' (expected interleave, contiguous, batch, row_binding, col_binding or "
                              "hierarchical)");
}

HierarchyUnit parse_hierarchy_unit(const std::string& text) {
  for (HierarchyUnit u : {HierarchyUnit::kCtas, HierarchyUnit::kRows, HierarchyUnit::kCols}) {
    if (text == name(u)) return u;
  }
  throw std::invalid_argument("unknown hierarchy unit '" + text + "' (expected ctas, rows or cols)");
}

}  // namespace numagpu::runtime
