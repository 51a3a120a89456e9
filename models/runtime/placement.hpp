// Page placement: the home socket of every address of a workload's allocations. Plain C++ decision policies
// (no SystemC); definitions, parameters and worked examples are in docs/runtime-policies.md. The policies
// come from Milic et al., MICRO-50, §3 (line and page interleave, first touch) and LADM (Khairy et al.),
// §III-D1 (kernel-wide, stride-aware, row-based and column-based placement).
//
// The rules every policy shares:
//  - A page has one home (line_interleave is the exception: its pages are homed line by line). The page's
//    *owner* decides it: the lowest-addressed allocation overlapping the page. A page shared by the tail of
//    one allocation and the head of the next is therefore placed by the first one's policy.
//  - LADM's policies first say which socket should hold each *element* of the allocation; a page then goes
//    to the socket of the first of its bytes that lies in the owner (the "first byte" rule). This is how
//    pages straddling a chunk, row or column-band boundary are assigned.
//  - Outside every allocation: the address-based policies (line_interleave, page_interleave, first_touch)
//    apply as they do inside, they need no allocation. LADM's policies are defined relative to an allocation,
//    so a page no allocation overlaps falls back to page interleave under them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/ids.hpp"
#include "runtime/page_homes.hpp"

namespace numagpu::runtime {

enum class PlacementPolicy {
  kLineInterleave,  // granule g (default 128 B line) to socket (address / g) mod N
  kPageInterleave,  // page to socket (address / page) mod N
  kFirstTouch,      // page to the socket of its first access; stays there
  kKernelWide,      // allocation's elements in N balanced contiguous chunks, chunk i on socket i
  kStrideAware,     // each stride window of the allocation in N balanced chunks, chunk i on socket i
  kRowBased,        // data rows in N balanced contiguous blocks of whole rows
  kColBased,        // each data row in N balanced column bands, band i on socket i
};

// The logical shape of an allocation: `depth` planes, each a row-major rows x cols matrix (element (p, r, c)
// at element index (p * rows + r) * cols + c). A 2-D allocation has depth 1.
struct Shape {
  std::uint64_t rows = 0;
  std::uint64_t cols = 0;
  std::uint64_t depth = 1;
};

// One cudaMalloc'd data structure of the workload.
struct Allocation {
  std::string name;                 // unique, non-empty; the key of the report
  std::uint64_t base = 0;           // first byte
  std::uint64_t bytes = 0;          // size, > 0 and a multiple of element_bytes
  std::uint32_t element_bytes = 1;  // size of one element (4 for float, 8 for double)
  std::optional<Shape> shape;       // needed by row_based and col_based; must cover exactly `bytes`
  std::uint64_t stride_bytes = 0;   // stride_aware: bytes a CTA advances per loop iteration (from LADM's
                                    // index analysis: the loop-variant term / m, times element_bytes)
  std::optional<PlacementPolicy> policy;  // this allocation's policy; default: PlacementParams::policy
};

struct PlacementParams {
  PlacementPolicy policy = PlacementPolicy::kPageInterleave;  // for allocations without their own
  std::uint64_t page_bytes = 4096;                            // a power of two
  std::uint64_t granule_bytes = 128;                          // line_interleave granule, a power of two
  // first_touch: what one first touch costs (the page fault and migration). Not charged here: the runtime
  // that models time reads it and charges it whenever touch() reports a first touch. Default 0 models the
  // paper's "optimal" on-demand paging.
  std::uint64_t migration_cycles = 0;
};

// The result of one access.
struct PageTouch {
  SocketId home = 0;
  bool first_touch = false;  // this access homed a first-touch page (charge migration_cycles)
};

// Where one allocation's pages live.
struct AllocationReport {
  std::string name;
  std::uint64_t pages_total = 0;      // pages overlapping the allocation (shared pages count in both)
  std::vector<std::uint64_t> pages;   // per socket: pages homed there as a whole
  std::uint64_t mixed_pages = 0;      // pages whose bytes are homed on several sockets (line_interleave)
  std::uint64_t untouched_pages = 0;  // first_touch pages nobody has accessed yet (not homed)
  std::vector<std::uint64_t> bytes;   // per socket: the allocation's bytes homed there (homed pages only)
  // Requests (touch(), one per line an SM asks for) to the allocation's bytes, homed at the requesting socket
  // and elsewhere: how well the CTA schedule and this placement meet, per array.
  std::uint64_t requests_local = 0;
  std::uint64_t requests_remote = 0;
};

class Placement {
 public:
  // Throws std::invalid_argument for 0 or more than 65535 sockets, a page or granule size that is not a power
  // of two, and any allocation that is empty, unnamed, named twice, overlaps another, wraps the address
  // space, has a size that is not a multiple of its element size or a shape that does not cover it exactly,
  // or lacks what its policy needs (stride_aware: stride_bytes, a positive multiple of element_bytes;
  // row_based and col_based: shape).
  Placement(std::uint32_t sockets, const PlacementParams& params, std::vector<Allocation> allocations = {});

  // Home of `address` when socket `toucher` accesses it. Homes a first-touch page at the toucher if nobody
  // touched it before, and counts the request for the allocation holding `address` (local or remote; see
  // AllocationReport). Throws std::invalid_argument for toucher >= sockets() (whatever the policy).
  PageTouch touch(std::uint64_t address, SocketId toucher);
  SocketId home(std::uint64_t address, SocketId toucher) { return touch(address, toucher).home; }
  // Home of `address` without accessing it: std::nullopt for a first-touch page nobody has touched yet.
  std::optional<SocketId> peek(std::uint64_t address) const;

  // Pages homed by first touch so far.
  std::uint64_t first_touches() const { return first_touch_.decided(); }
  std::uint64_t migration_cycles() const { return params_.migration_cycles; }

  // Per allocation, in the order given to the constructor: pages per socket (first_touch: pages touched so
  // far; static policies: all pages of the allocation).
  std::vector<AllocationReport> report() const;
  // Throws std::invalid_argument for an unknown name.
  AllocationReport report(const std::string& allocation) const;

  // Places the allocation whose first byte is `base` by `policy` (LASP's placement at a kernel's launch,
  // runtime/lasp.hpp), `stride_bytes` its stride for stride_aware, unless an earlier call placed it: the
  // first kernel that states an array decides (LADM §III-D1). A policy the allocation cannot take (a
  // row/column placement without a shape, stride_aware without a stride) leaves it as it is. False when
  // nothing changed. Only before any of its pages is accessed, or homes already decided would move.
  bool place_once(std::uint64_t base, PlacementPolicy policy, std::uint64_t stride_bytes = 0);

  // The policy `allocation` is placed by.
  PlacementPolicy policy_of(const Allocation& allocation) const;
  // The allocation containing `address`, or nullptr.
  const Allocation* allocation_at(std::uint64_t address) const;

  std::uint32_t sockets() const { return sockets_; }
  const PlacementParams& params() const { return params_; }
  const std::vector<Allocation>& allocations() const { return allocations_; }

 private:
  // How a page is homed, decided by its owner (or its absence).
  struct PageRule {
    PlacementPolicy policy;
    const Allocation* owner;  // nullptr: no allocation overlaps the page
  };

  void validate_allocation(const Allocation& a) const;
  void index_allocations();
  const Allocation* owner_of_page(std::uint64_t page) const;
  PageRule rule_of_page(std::uint64_t page) const;
  SocketId static_home(const PageRule& rule, std::uint64_t page, std::uint64_t address) const;
  SocketId element_home(const Allocation& a, PlacementPolicy policy, std::uint64_t element) const;
  void add_page(const Allocation& a, std::uint64_t page, AllocationReport& out) const;
  void count_request(const PageRule& rule, std::uint64_t address, bool local);
  AllocationReport report_of(const Allocation& a) const;
  std::size_t index_of(const Allocation* a) const {
    return a == nullptr ? PageHomes::kNoOwner : static_cast<std::size_t>(a - allocations_.data());
  }
  PageHomes make_page_homes() const;

  std::uint32_t sockets_;
  PlacementParams params_;
  std::vector<Allocation> allocations_;         // as given
  std::vector<std::size_t> by_base_;            // indices into allocations_, by ascending base (copy-safe)
  PageHomes first_touch_;                       // pages homed by first touch
  std::vector<bool> placed_once_;               // per allocation: place_once() decided it
  std::vector<std::uint64_t> requests_local_;   // per allocation: touch() homed at the toucher
  std::vector<std::uint64_t> requests_remote_;  // per allocation: touch() homed elsewhere
};

// Configuration names: line_interleave, page_interleave, first_touch, kernel_wide, stride_aware, row_based,
// col_based. parse_placement_policy throws std::invalid_argument listing the valid names.
const char* name(PlacementPolicy policy);
PlacementPolicy parse_placement_policy(const std::string& text);

}  // namespace numagpu::runtime
