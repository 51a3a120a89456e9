// The synthesized area of the two policy blocks (scripts/rtl_area.sh writes models/power/rtl_area.json from
// its yosys runs; the build embeds that file), looked up for one block instance's parameters.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace numagpu::power {

// `block` is the RTL module name (link_balancer, cache_partition_ctrl); `params` the instance's RTL
// parameters by RTL name (Lanes, Ways, SampleCycles, ...). Returns
//   {"source", "synthesized_at": {parameter: value}, "matches_instance": bool,
//    "generic_cells", "flip_flops", "cmos_cells", "transistors"}
// from the synthesized point with the instance's swept parameter (Lanes or Ways), or the nearest one;
// matches_instance says whether every parameter given equals the synthesized point's. Throws
// std::invalid_argument for an unknown block.
nlohmann::json policy_block_area(const std::string& block,
                                 const std::map<std::string, std::uint64_t>& params);

// The whole embedded table, as generated.
const nlohmann::json& rtl_area_table();

}  // namespace numagpu::power
