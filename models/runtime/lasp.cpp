#include "runtime/lasp.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "runtime/hcoda.hpp"

namespace numagpu::runtime {
namespace {

bool row_shared(LocalityClass c) {
  return c == LocalityClass::kRowSharedMoveRow || c == LocalityClass::kRowSharedMoveCol;
}
bool moves_down_columns(LocalityClass c) {
  return c == LocalityClass::kRowSharedMoveCol || c == LocalityClass::kColSharedMoveCol;
}

// Equation 1: pages are interleaved round-robin at stride / sockets, in whole pages. A stride (or data row)
// narrower than a page per socket has a granularity of one page: plain page interleaving (the element-level
// split of stride_aware or col_based would put every page on the socket of its first byte's band).
bool narrower_than_pages(std::uint64_t stride_bytes, const KernelShape& kernel) {
  return stride_bytes < kernel.machine.sockets() * kernel.page_bytes;
}

// Row- or column-binding, recursively over the hierarchy when a GPU has several chiplets (§III-D2,
// "Hierarchical-aware Scheduling": a GPU takes a chunk of contiguous rows or columns, its chiplets take
// them round-robin).
CtaScheduleParams binding(bool rows, const Machine& machine) {
  CtaScheduleParams p;
  if (machine.chiplets_per_gpu > 1) {
    p.policy = CtaPolicy::kHierarchical;
    p.hierarchy_unit = rows ? HierarchyUnit::kRows : HierarchyUnit::kCols;
  } else {
    p.policy = rows ? CtaPolicy::kRowBinding : CtaPolicy::kColBinding;
  }
  return p;
}

// The largest of the stated arrays that are allocations (ties: the first stated), or nullptr.
const ArrayAccess* largest(const std::vector<ArrayAccess>& accesses,
                           const std::vector<Allocation>& allocations, const Allocation** allocation) {
  const ArrayAccess* best = nullptr;
  *allocation = nullptr;
  for (const ArrayAccess& a : accesses) {
    const Allocation* it = allocation_based_at(allocations, a.base);
    if (!it) continue;
    if (!best || it->bytes > (*allocation)->bytes) {
      best = &a;
      *allocation = it;
    }
  }
  return best;
}

}  // namespace

const Allocation* allocation_based_at(const std::vector<Allocation>& allocations, std::uint64_t base) {
  const auto it = std::find_if(allocations.begin(), allocations.end(),
                               [&](const Allocation& x) { return x.base == base; });
  return it == allocations.end() ? nullptr : &*it;
}

LocalityClass classify(const IndexTerms& index, bool two_d) {
  if (index.variant == LoopVariant::kUnitM) return LocalityClass::kIntraThread;  // line 1
  // X[Y[tid]], or a loop term of no stride * m form: no row of Table II (rows 1-5 need stride * m).
  if (index.data_dependent || index.variant == LoopVariant::kIrregular) return LocalityClass::kUnclassified;
  // Line 3: the invariant group places every CTA at a datablock of its own (both block ids in 2-D).
  if (index.invariant_bx && (index.invariant_by || !two_d)) return LocalityClass::kNoLocality;
  if (!two_d) return LocalityClass::kUnclassified;
  // Lines 6-15: which CTAs start at the same datablock, then which way they move.
  const bool rows = index.invariant_by && !index.invariant_bx;
  const bool cols = index.invariant_bx && !index.invariant_by;
  if (!rows && !cols) return LocalityClass::kUnclassified;
  if (index.variant == LoopVariant::kMGridDimX)
    return rows ? LocalityClass::kRowSharedMoveCol : LocalityClass::kColSharedMoveCol;
  // Row motion, or none: the CTAs sharing a datablock stay on it (read as row motion of stride 0).
  return rows ? LocalityClass::kRowSharedMoveRow : LocalityClass::kColSharedMoveRow;
}

ArrayDecision decide_array(const ArrayAccess& access, const Allocation& allocation,
                           const KernelShape& kernel) {
  ArrayDecision d;
  d.array = access.array;
  d.locality = classify(access.index, kernel.grid.rows() > 1);
  const std::uint64_t sockets = kernel.machine.sockets();
  switch (d.locality) {
    case LocalityClass::kNoLocality: {
      // Align-aware: the kernel-wide partition with chunks a multiple of MinTBBatch (Equation 2), so no page
      // is split between sockets; stride-aware placement when the CTAs move (Equation 1), else kernel-wide.
      const std::uint32_t min_batch =
          access.datablock_bytes ? min_tb_batch(kernel.page_bytes, access.datablock_bytes) : 1;
      const std::uint64_t chunk = (kernel.grid.ctas() + sockets - 1) / sockets;
      d.schedule.policy = CtaPolicy::kBatch;
      d.schedule.batch = static_cast<std::uint32_t>((chunk + min_batch - 1) / min_batch * min_batch);
      d.stride_bytes = access.index.stride_elements * allocation.element_bytes;
      d.placement = !d.stride_bytes                               ? PlacementPolicy::kKernelWide
                    : narrower_than_pages(d.stride_bytes, kernel) ? PlacementPolicy::kPageInterleave
                                                                  : PlacementPolicy::kStrideAware;
      if (d.placement != PlacementPolicy::kStrideAware) d.stride_bytes = 0;
      break;
    }
    case LocalityClass::kRowSharedMoveRow:
    case LocalityClass::kColSharedMoveRow:
    case LocalityClass::kRowSharedMoveCol:
    case LocalityClass::kColSharedMoveCol:
      // The sharing picks the binding, the motion the placement (Table II rows 2-5); a data structure
      // without a 2-D shape cannot be placed by rows or columns and is partitioned kernel-wide.
      d.schedule = binding(row_shared(d.locality), kernel.machine);
      if (!allocation.shape) {
        d.placement = PlacementPolicy::kKernelWide;
      } else if (!moves_down_columns(d.locality)) {
        d.placement = PlacementPolicy::kRowBased;
      } else {  // column bands of a row, in whole pages (Equation 1 with the row as the stride)
        const bool narrow = narrower_than_pages(allocation.shape->cols * allocation.element_bytes, kernel);
        d.placement = narrow ? PlacementPolicy::kPageInterleave : PlacementPolicy::kColBased;
      }
      break;
    case LocalityClass::kIntraThread:
    case LocalityClass::kUnclassified:
      d.schedule.policy = CtaPolicy::kContiguous;
      d.placement = PlacementPolicy::kKernelWide;
      break;
  }
  // CRB (§III-E): remote-once only where the locality is within threads.
  d.remote_insert = d.locality == LocalityClass::kIntraThread ? RemoteInsert::kOnce : RemoteInsert::kTwice;
  return d;
}

KernelDecision decide_kernel(const std::vector<ArrayAccess>& accesses,
                             const std::vector<Allocation>& allocations, const KernelShape& kernel) {
  KernelDecision k;
  k.schedule.policy = CtaPolicy::kContiguous;
  for (const ArrayAccess& a : accesses) {
    if (const Allocation* it = allocation_based_at(allocations, a.base)) {
      k.arrays.push_back(decide_array(a, *it, kernel));
      k.allocations.push_back(it);
    }
  }
  const Allocation* allocation = nullptr;
  const ArrayAccess* winner = largest(accesses, allocations, &allocation);
  if (!winner) return k;
  const ArrayDecision d = decide_array(*winner, *allocation, kernel);
  k.schedule = d.schedule;
  k.remote_insert = d.remote_insert;
  k.winner = winner->array;
  return k;
}

CtaScheduleParams hcoda_schedule(const std::vector<ArrayAccess>& accesses,
                                 const std::vector<Allocation>& allocations, const KernelShape& kernel) {
  CtaScheduleParams p;
  p.policy = CtaPolicy::kBatch;
  p.batch = 1;
  const Allocation* allocation = nullptr;
  const ArrayAccess* winner = largest(accesses, allocations, &allocation);
  if (winner && winner->datablock_bytes) p.batch = min_tb_batch(kernel.page_bytes, winner->datablock_bytes);
  return p;
}

std::vector<HcodaPlacement> hcoda_placement(const std::vector<ArrayAccess>& accesses,
                                            const std::vector<Allocation>& allocations,
                                            const KernelShape& kernel) {
  std::vector<HcodaPlacement> r;
  for (const ArrayAccess& a : accesses) {
    if (!allocation_based_at(allocations, a.base)) continue;
    HcodaPlacement p;
    p.base = a.base;
    const std::uint64_t page = kernel.page_bytes;
    const std::uint64_t unit =
        a.datablock_bytes ? page / std::gcd(page, a.datablock_bytes) * a.datablock_bytes : page;
    if (unit > page) {
      p.policy = PlacementPolicy::kStrideAware;
      p.stride_bytes = unit * kernel.machine.sockets();
    }
    r.push_back(p);
  }
  return r;
}

const char* name(LocalityClass c) {
  switch (c) {
    case LocalityClass::kNoLocality:
      return "no_locality";
    case LocalityClass::kRowSharedMoveRow:
      return "row_shared_row_motion";
    case LocalityClass::kColSharedMoveRow:
      return "col_shared_row_motion";
    case LocalityClass::kRowSharedMoveCol:
      return "row_shared_col_motion";
    case LocalityClass::kColSharedMoveCol:
      return "col_shared_col_motion";
    case LocalityClass::kIntraThread:
      return "intra_thread";
    case LocalityClass::kUnclassified:
      return "unclassified";
  }
  return "?";
}

const char* name(RemoteInsert r) {
  return r == RemoteInsert::kOnce ? "once" : "twice";
}

}  // namespace numagpu::runtime
