// H-CODA's page placement (LADM §II-B and §IV-A; its CTA batches are runtime/lasp.hpp's hcoda_schedule).
// Plain C++ (no SystemC); docs/runtime-policies.md, "LASP and H-CODA".
//
// CODA interleaves pages round-robin and runs the CTAs that share a page as one batch on the page's socket.
// When one CTA's datablock spans several pages (8 KiB of doubles per CTA on 4 KiB pages), round-robin pages
// would put each CTA's pages on different sockets: CODA sizes its interleaving to the data one CTA reads (its
// sub-page interleaving is the same idea below a page), so H-CODA here interleaves such an array in units of
// lcm(page, datablock) bytes, unit u on socket u mod N: batch b of hcoda_schedule (MinTBBatch = lcm /
// datablock CTAs, on socket b mod N) then reads exactly unit b. A datablock within a page gives units of one
// page: plain page interleaving.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/lasp.hpp"

namespace numagpu::runtime {

struct HcodaPlacement {
  std::uint64_t base = 0;                                     // the allocation
  PlacementPolicy policy = PlacementPolicy::kPageInterleave;  // or kStrideAware, units of several pages
  std::uint64_t stride_bytes = 0;  // kStrideAware: unit x sockets (Equation 1's form)
};

// H-CODA's placement of each stated array that is an allocation, in the order stated (an array stated
// without a datablock: page interleaving).
std::vector<HcodaPlacement> hcoda_placement(const std::vector<ArrayAccess>& accesses,
                                            const std::vector<Allocation>& allocations,
                                            const KernelShape& kernel);

}  // namespace numagpu::runtime
