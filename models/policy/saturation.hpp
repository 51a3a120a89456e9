// The saturation test shared by both policies: "count is at least sat_num/sat_den of capacity", as an exact
// integer comparison (docs/policies.md, "Saturation is an integer comparison"). The RTL evaluates the
// equivalent `count >= ceil(sat_num * capacity / sat_den)`; keeping the product form here makes the C++
// the literal specification and the lockstep tests the proof that the two forms agree.
#pragma once

#include <cstdint>

namespace numagpu::policy {

// 128-bit products: the partition controller's count (requests x response bytes) and capacity (bytes per
// cycle x window) are products themselves and may exceed 64 bits once multiplied by the fraction.
__extension__ using Wide = unsigned __int128;

// Callers keep count and capacity below 2^96, so neither product can wrap.
constexpr bool saturated(Wide count, Wide capacity, std::uint32_t sat_num, std::uint32_t sat_den) {
  return count * sat_den >= capacity * sat_num;
}

}  // namespace numagpu::policy
