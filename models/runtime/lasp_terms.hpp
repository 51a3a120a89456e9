// The index forms kernels state most often for LASP (runtime/lasp.hpp), named after the index they stand
// for, so that a kernel's statement reads like its index expression.
#pragma once

#include "runtime/lasp.hpp"

namespace numagpu::runtime::terms {

// a[tx + bx * blockDim.x]: one element per thread of a 1-D grid, outside any loop (Table II row 1, no
// stride: each CTA its own datablock).
inline constexpr IndexTerms kPerThread{true, false, false, LoopVariant::kNone, 0};
// a[e] with e running from a data-dependent start one element per iteration (a CSR row's edges, walked by
// its thread): intra-thread locality (row 6; Algorithm 1's first test reads the loop-variant group only).
inline constexpr IndexTerms kOwnRun{true, false, true, LoopVariant::kUnitM, 0};
// a[b[...]]: an index read from another array (a neighbour's id), no loop term: unclassified (row 7).
inline constexpr IndexTerms kGathered{false, false, true, LoopVariant::kNone, 0};
// a[ptr[m] + tx + bx * blockDim.x]: each iteration's offset read from a table (JDS's jds_ptr), not stride x
// m: no row of Table II matches (row 7).
inline constexpr IndexTerms kTableStepped{true, false, false, LoopVariant::kIrregular, 0};
// a[0], a[in]: one slot at a constant or a kernel argument (a counter, a flag, a worklist's end): no block
// id and no loop term, so no row of Table II on a 1-D grid (row 7; Algorithm 1's line 3 needs blockIdx.x).
inline constexpr IndexTerms kFixedSlot{false, false, false, LoopVariant::kNone, 0};

}  // namespace numagpu::runtime::terms
