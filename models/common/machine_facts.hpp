// Facts about the machine that several components must agree on. SystemSpec states each of them once and
// hands the same MachineFacts to every component it builds, so that no two components can disagree about
// the line size, the packet header or the statistics window.
#pragma once

#include <cstdint>

#include "common/cycles.hpp"
#include "common/mem_op.hpp"

namespace numagpu {

struct MachineFacts {
  unsigned line_bytes = 128;    // the cache line: the unit of every request, at every level
  unsigned header_bytes = 16;   // a packet's header on the crossbar ports and the links
  Cycles sample_cycles = 5000;  // window of every utilization time series; 0: none

  // Bytes a request or response occupies on a wire: a header, plus the line when it carries data.
  // (A template over the request's attributes, NumaAttr, so that this header needs no SystemC.)
  template <class Attr>
  std::uint64_t request_bytes(const Attr& a) const {
    return a.op == MemOp::kRead ? header_bytes : header_bytes + line_bytes;  // writes and atomics carry data
  }
  template <class Attr>
  std::uint64_t response_bytes(const Attr& a) const {
    return a.op == MemOp::kWrite ? header_bytes : header_bytes + line_bytes;  // write acks carry none
  }
  // A read response: what the partition controller counts on the ingress lanes.
  std::uint64_t read_response_bytes() const { return std::uint64_t(header_bytes) + line_bytes; }
};

}  // namespace numagpu
