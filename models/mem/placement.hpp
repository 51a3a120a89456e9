// Page placement: which socket's DRAM is the home of an address. Foundation scope: round-robin pages and
// round-robin lines; first touch and LADM's policies come with the runtime issue.
#pragma once

#include <cstdint>
#include <string>

namespace numagpu {

class Placement {
 public:
  enum class Policy { kPageInterleave, kLineInterleave };
  Placement(Policy policy, std::uint64_t page_bytes, std::uint64_t line_bytes, std::uint16_t sockets)
      : granule_(policy == Policy::kPageInterleave ? page_bytes : line_bytes), sockets_(sockets) {}

  std::uint16_t home(std::uint64_t address) const {
    return static_cast<std::uint16_t>((address / granule_) % sockets_);
  }
  // The `offset`-th byte of the memory homed at `socket` (inverse of home()): consecutive offsets fill that
  // socket's granules in address order.
  std::uint64_t address_homed_at(std::uint16_t socket, std::uint64_t offset) const {
    return ((offset / granule_) * sockets_ + socket) * granule_ + offset % granule_;
  }
  static Policy parse(const std::string& name) {
    return name == "line_interleave" ? Policy::kLineInterleave : Policy::kPageInterleave;
  }

 private:
  std::uint64_t granule_;
  std::uint16_t sockets_;
};

}  // namespace numagpu
