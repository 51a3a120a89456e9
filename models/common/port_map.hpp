// Ports numbered by role. A component with several kinds of peers on one side (a crossbar's inputs: SMs, L2
// misses, links) gives each kind, its role, a range of that side's ports: the roles follow one another in
// the order their enum declares them (Role::kCount last), each as long as it has peers, computed once when
// the component is built. The component then routes by role (a range's `first` plus a peer's slot, a
// range's `contains`) rather than by arithmetic on the counts, and each peer binds to its role and slot.
//
// A TLM multi-socket numbers its bindings in the order they are made, so the binding is checked: claim()
// hands out the port of (role, slot) only when it is the next to be bound, and check_complete() names the
// first port nobody claimed. A wrong binding is then one error naming the component, the role and the slot,
// not a request routed to the wrong peer. Plain C++, no SystemC.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace numagpu {

struct PortRange {
  unsigned first = 0;
  unsigned count = 0;
  unsigned end() const { return first + count; }
  bool contains(unsigned port) const { return port - first < count; }  // (unsigned: below first wraps)
  bool operator==(const PortRange& o) const { return first == o.first && count == o.count; }
};

template <class Role>
class PortMap {
 public:
  static constexpr std::size_t kRoles = static_cast<std::size_t>(Role::kCount);
  using Counts = std::array<unsigned, kRoles>;
  using Names = std::array<const char*, kRoles>;

  // `side`: whose ports these are, for errors ("socket0.xbar input"); `names`: each role's, for errors;
  // `counts`: each role's number of ports.
  PortMap(std::string side, const Names& names, const Counts& counts)
      : side_(std::move(side)), names_(names) {
    unsigned next = 0;
    for (std::size_t r = 0; r < kRoles; ++r) {
      ranges_[r] = PortRange{next, counts[r]};
      next += counts[r];
    }
  }

  const PortRange& operator[](Role r) const { return ranges_[static_cast<std::size_t>(r)]; }
  unsigned size() const { return ranges_[kRoles - 1].end(); }
  // The ports of the roles from `from` to `to` (inclusive), which lie together.
  PortRange span(Role from, Role to) const {
    return PortRange{(*this)[from].first, (*this)[to].end() - (*this)[from].first};
  }

  // The port of role r's peer number `slot`, for the binding about to be made (the next port); throws
  // std::logic_error when the role has no such slot or the binding is out of role order.
  unsigned claim(Role r, unsigned slot) {
    const PortRange& range = (*this)[r];
    if (slot >= range.count) {
      throw std::logic_error(side_ + " '" + name(r) + "' " + std::to_string(slot) + ": the role has " +
                             std::to_string(range.count) + " port(s), all bound");
    }
    const unsigned port = range.first + slot;
    if (port < claimed_) throw std::logic_error(side_ + " " + describe(port) + " is bound twice");
    if (port > claimed_) {
      throw std::logic_error(side_ + " " + describe(port) + " bound before " + describe(claimed_) +
                             ": bind in port order (a socket numbers its bindings as they are made)");
    }
    ++claimed_;
    return port;
  }
  // Throws std::logic_error naming the first port not bound.
  void check_complete() const {
    if (claimed_ < size()) throw std::logic_error(side_ + " " + describe(claimed_) + " is not bound");
  }

 private:
  std::string name(Role r) const { return names_[static_cast<std::size_t>(r)]; }
  // "'sm' 3 (port 3)": the role and slot of a port.
  std::string describe(unsigned port) const {
    std::size_t r = 0;
    while (!ranges_[r].contains(port))
      ++r;
    return "'" + name(static_cast<Role>(r)) + "' " + std::to_string(port - ranges_[r].first) + " (port " +
           std::to_string(port) + ")";
  }

  std::string side_;
  Names names_;
  std::array<PortRange, kRoles> ranges_{};
  unsigned claimed_ = 0;  // ports 0..claimed_-1 are bound
};

}  // namespace numagpu
