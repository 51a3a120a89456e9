// From the configuration's parameters (what the user wrote, system/system_params.hpp) to the SystemSpec the
// system is built from: unit conversions at the system's clock, per-bank capacities, way quotas of an L2
// organization, lane doubling, the custom topology, and every rule that relates several keys. Each rule is
// written here once; a broken rule throws SpecError naming the key to blame, which the program turns into
// a one-line error at the file and line that set it. Plain C++, no SystemC.
#pragma once

#include <stdexcept>
#include <string>

#include "system/system_params.hpp"
#include "system/system_spec.hpp"

namespace numagpu {

class SpecError : public std::invalid_argument {
 public:
  SpecError(std::string key, const std::string& message)
      : std::invalid_argument(message), key_(std::move(key)) {}
  // The dotted configuration path to blame ("l2.ways", "workload.kernels.2.grid_x").
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// Throws SpecError. Relative trace paths must already be resolved (they depend on where they were written).
SystemSpec derive_system_spec(const SystemParams& params);

// The link of a custom topology: `count` parallel links of `lanes` lanes at `gbps` per direction at the
// symmetric split, as one LinkSpec (its lanes added up, doubled in double_bandwidth mode).
LinkSpec custom_link_spec(const TopologyLinkParams& link, const LinkSpec& defaults, std::uint64_t clock_mhz,
                          LinkMode mode);

}  // namespace numagpu
