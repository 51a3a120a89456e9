// The home socket of every address, for the model's components: a map over the runtime's placement policy
// (models/runtime/placement.hpp: interleaving, first touch, LADM's kernel-wide, stride-aware, row- and
// column-based). Under first touch a request decides its page's home (decide_for_request, which changes the
// map: only the SMs, which issue requests, hold it mutably); everyone else asks for the home already decided.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/placement.hpp"

namespace numagpu {

class HomeMap {
 public:
  HomeMap(std::uint16_t sockets, const runtime::PlacementParams& params,
          std::vector<runtime::Allocation> allocations = {})
      : impl_(std::make_unique<runtime::Placement>(sockets, params, std::move(allocations))),
        sockets_(sockets),
        params_(params) {}

  // The home of `address` for a request issued by `toucher` (first touch homes an untouched page there), and
  // whether this request was the page's first touch (which costs migration_cycles()).
  runtime::PageTouch decide_for_request(std::uint64_t address, std::uint16_t toucher) {
    return impl_->touch(address, toucher);
  }
  // The home already decided for `address`.
  std::uint16_t decided_home(std::uint64_t address) const {
    // Lines reach a cache only through a request, which decided the page: an undecided page is not asked
    // about in practice, and is answered as socket 0 without deciding it.
    const auto h = impl_->peek(address);
    return h ? *h : 0;
  }
  // The `offset`-th byte of the memory homed at `socket`, for the interleaving policies (bench-fabric).
  bool invertible() const {
    return params_.policy == runtime::PlacementPolicy::kPageInterleave ||
           params_.policy == runtime::PlacementPolicy::kLineInterleave;
  }
  std::uint64_t address_homed_at(std::uint16_t socket, std::uint64_t offset) const {
    const std::uint64_t granule = params_.policy == runtime::PlacementPolicy::kLineInterleave
                                      ? params_.granule_bytes
                                      : params_.page_bytes;
    return ((offset / granule) * sockets_ + socket) * granule + offset % granule;
  }
  const runtime::Placement& policy() const { return *impl_; }
  // LASP's placement of an allocation at its first stating launch (runtime::Placement::place_once).
  bool place_once(std::uint64_t base, runtime::PlacementPolicy policy, std::uint64_t stride_bytes) {
    return impl_->place_once(base, policy, stride_bytes);
  }
  std::uint64_t migration_cycles() const { return params_.migration_cycles; }

 private:
  std::unique_ptr<runtime::Placement> impl_;
  std::uint16_t sockets_;
  runtime::PlacementParams params_;
};

}  // namespace numagpu
