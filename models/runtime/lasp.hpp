// LASP's decisions (LADM, Khairy et al., §III-C to §III-E) and H-CODA's, the baseline of LADM's headline
// results (§IV-A). Plain C++ decision functions (no SystemC); definitions and worked examples are in
// docs/runtime-policies.md, "LASP and H-CODA".
//
// LADM's compiler pass decomposes the index of every global array access into prime variables (thread and
// block ids, grid and block dimensions, the loop's induction variable m, constants) and splits it into a
// loop-invariant group (terms without m) and a loop-variant group (terms multiplied by m). Algorithm 1 reads
// only which block ids the first group depends on and what the second is; IndexTerms is exactly that. The
// kernels state it per array (models/kernels: Launch::accesses), written from their index expressions, as the
// compiler pass would derive it; classify() is Algorithm 1, decide_array() Table II's row of actions, and
// decide_kernel() the per-kernel choice (the larger data structure wins the scheduler, §III-D2 "Data
// structure Locality Disagreements"; CRB takes the winner's cache policy, §III-E).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/cta_schedule.hpp"
#include "runtime/placement.hpp"

namespace numagpu::runtime {

// What the loop-variant group of an index is (Algorithm 1's tests on it).
enum class LoopVariant {
  kNone,       // no term in m: the access is not in a loop, or not moved by it
  kUnitM,      // exactly m (stride 1 element): each thread walks consecutive elements (ITL)
  kM,          // stride * m, no gridDim.x in the stride: threadblocks move along a row
  kMGridDimX,  // stride * m with gridDim.x in the stride: a whole row is skipped per iteration
  // Terms in m that are no stride * m: an offset read from a table (JDS's ptr[m]) or m divided (m / 2, a
  // copy's cell split by idiv into rows): no row of Table II has that form (row 7, Unclassified).
  kIrregular,
};

// The decomposed index of one array access.
struct IndexTerms {
  bool invariant_bx = false;  // the loop-invariant group has a term in blockIdx.x
  bool invariant_by = false;  // ... in blockIdx.y
  // The invariant group has a data-dependent term (X[Y[tid]]): only an ITL variant can classify it.
  bool data_dependent = false;
  LoopVariant variant = LoopVariant::kNone;
  std::uint64_t stride_elements = 0;  // loopVariant / m, in elements (kM, kMGridDimX), at this launch's sizes
};

// One array as a kernel accesses it (the dominant access of the array in the kernel).
struct ArrayAccess {
  std::string array;       // the array's name in the kernel (reports)
  std::uint64_t base = 0;  // its first byte: the allocation it is (an application's arrays are bound to the
                           // kernel's under other names)
  IndexTerms index;
  // The bytes of the array one CTA touches per iteration (its datablock, §III-B), for Equation 2.
  std::uint64_t datablock_bytes = 0;
};

// Table II's rows: Algorithm 1's classes.
enum class LocalityClass {
  kNoLocality,        // row 1: NL (stride in stride_elements; 0: no loop)
  kRowSharedMoveRow,  // row 2: invariant(by), variant(m): a grid row shares, moves along a data row
  kColSharedMoveRow,  // row 3: invariant(bx), variant(m): a grid column shares, moves along a data row
  kRowSharedMoveCol,  // row 4: invariant(by), variant(m, gDimx): a grid row shares, moves down a data column
  kColSharedMoveCol,  // row 5: invariant(bx), variant(m, gDimx): a grid column shares, moves down a column
  kIntraThread,       // row 6: ITL
  kUnclassified,      // row 7
};

enum class RemoteInsert { kTwice, kOnce };  // RTWICE, RONCE (cache/cache_spec.hpp's l2.remote_insert)

// Algorithm 1. `two_d`: the kernel's grid has more than one row of CTAs (Algorithm 1's "2D Blocks").
LocalityClass classify(const IndexTerms& index, bool two_d);

// Table II's actions for one array.
struct ArrayDecision {
  std::string array;
  LocalityClass locality = LocalityClass::kUnclassified;
  PlacementPolicy placement = PlacementPolicy::kKernelWide;
  std::uint64_t stride_bytes = 0;  // stride_aware: the array's stride
  CtaScheduleParams schedule;      // the scheduler this array asks for
  RemoteInsert remote_insert = RemoteInsert::kTwice;
};

// One kernel launch as LASP sees it.
struct KernelShape {
  Grid grid;
  Machine machine;
  std::uint64_t page_bytes = 4096;
};

// The allocation whose first byte is `base`, or nullptr.
const Allocation* allocation_based_at(const std::vector<Allocation>& allocations, std::uint64_t base);

// Table II for `access` of `allocation` (its shape, if any, decides whether row/column-based placement can
// apply: without one, kernel-wide).
ArrayDecision decide_array(const ArrayAccess& access, const Allocation& allocation,
                           const KernelShape& kernel);

struct KernelDecision {
  std::vector<ArrayDecision> arrays;  // per stated access whose array is an allocation, in the given order
  std::vector<const Allocation*> allocations;         // arrays[i]'s allocation
  CtaScheduleParams schedule;                         // the winner's
  RemoteInsert remote_insert = RemoteInsert::kTwice;  // CRB: the winner's (RONCE only for ITL)
  std::string winner;                                 // the array that chose; "" when none was stated
};

// LASP for one kernel: each array's decision; the scheduler and cache policy of the largest array (ties: the
// first stated). No stated access: kernel-wide (contiguous CTAs), RTWICE — the paper's default policy.
KernelDecision decide_kernel(const std::vector<ArrayAccess>& accesses,
                             const std::vector<Allocation>& allocations, const KernelShape& kernel);

// H-CODA for one kernel: batches of MinTBBatch consecutive CTAs (Equation 2 from the largest stated array's
// datablock: CODA's index analysis of the data one CTA accesses), batch b on socket b mod N in socket order
// (a GPU's chiplets are consecutive, so adjacent batches stay on one GPU before the next), with pages
// interleaved round-robin in the same order (placement page_interleave). No stated access: batches of one
// CTA.
CtaScheduleParams hcoda_schedule(const std::vector<ArrayAccess>& accesses,
                                 const std::vector<Allocation>& allocations, const KernelShape& kernel);

// Configuration and report names.
const char* name(LocalityClass c);
const char* name(RemoteInsert r);

}  // namespace numagpu::runtime
