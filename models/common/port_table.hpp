// The per-port state of a port group, indexed by port number and grown as ports are first used. Most
// port groups have one or two bindings (an SM's output, an L1's input and output, an L2 bank's two request
// networks, a link's two sides): their states live inside the table itself, next to the rest of the port
// group, and reaching one is an offset, not a load of a pointer from an array elsewhere in memory and then a
// load from the state it points to (two cache misses per hop and side, docs/performance.md). Ports beyond
// those (a crossbar has ~90) are allocated one by one. Every state stays where it is for the table's
// lifetime: references to it survive growth.
//
// Plain C++, no SystemC (tests/unit/model/port_table_test.cpp).
#pragma once

#include <memory>
#include <vector>

namespace numagpu {

template <class State, unsigned kInline = 2>
class PortTable {
 public:
  PortTable() = default;
  PortTable(const PortTable&) = delete;
  PortTable& operator=(const PortTable&) = delete;

  // Ports used so far: one more than the highest port number asked for with grow_to().
  unsigned size() const { return size_; }
  // The state of `port`, which must be below size().
  State& operator[](unsigned port) { return port < kInline ? inline_[port] : *more_[port - kInline]; }
  const State& operator[](unsigned port) const {
    return port < kInline ? inline_[port] : *more_[port - kInline];
  }
  // The state of `port`, the table grown to hold it first if needed.
  State& grow_to(unsigned port) {
    if (port >= size_) grow(port);
    return (*this)[port];
  }

 private:
  void grow(unsigned port) {
    while (more_.size() + kInline <= port)
      more_.push_back(std::make_unique<State>());
    size_ = port + 1;
  }

  unsigned size_ = 0;
  State inline_[kInline];
  std::vector<std::unique_ptr<State>> more_;  // ports kInline and up
};

}  // namespace numagpu
