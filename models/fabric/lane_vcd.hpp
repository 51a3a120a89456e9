// Lane directions of every link as a VCD file (viewable in GTKWave), built from the links' recorded lane
// changes: per link, active lanes in each direction and whether a lane is quiescing or switching.
#pragma once

#include <string>
#include <vector>

#include "fabric/link.hpp"

namespace numagpu {

struct NamedLink {
  std::string name;          // VCD scope, e.g. link_gpu0_switch0
  std::string dir_names[2];  // e.g. to_switch0, to_gpu0
  const Link* link;
};

// The whole VCD text; times in picoseconds of the GPU clock (cycle x period).
// `comment` goes into the header's $comment (e.g. the configuration hash).
std::string lane_vcd(const std::vector<NamedLink>& links, std::uint64_t period_ps,
                     const std::string& comment = "");

}  // namespace numagpu
