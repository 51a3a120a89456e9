// Facts about the machine that several components must agree on. SystemSpec states each of them once and
// hands the same MachineFacts to every component it builds, so that no two components can disagree about
// the line size, the packet header or the statistics window.
#pragma once

#include <cstdint>

#include "common/cycles.hpp"
#include "common/line_interleave.hpp"
#include "common/mem_op.hpp"

namespace numagpu {

struct MachineFacts {
  unsigned line_bytes = 128;    // the cache line: the unit of every request, at every level
  unsigned header_bytes = 16;   // a packet's header on the crossbar ports and the links
  Cycles sample_cycles = 5000;  // window of every utilization time series; 0: none
  // A cache level is sectored (l1/l2.sector_bytes below the line): requests then carry the 32 B sectors they
  // move (NumaAttr::sectors) and wires, DRAM and write-backs move only those. False: every transfer is a
  // line.
  bool sectored = false;
  static constexpr unsigned kSectorBytes = 32;  // the unit of NumaAttr::sectors
  // Which L2 slice and DRAM channel a line goes to (memory.interleave): index(line) mod their counts.
  LineInterleave interleave = LineInterleave();

  // The data a request or response carries: its sectors when sectored, else the line.
  template <class Attr>
  std::uint64_t data_bytes(const Attr& a) const {
    return sectored && a.sectors ? std::uint64_t(__builtin_popcount(a.sectors)) * kSectorBytes : line_bytes;
  }

  // Bytes a request or response occupies on a wire: a header, plus the data (line or sectors) it carries.
  // (A template over the request's attributes, NumaAttr, so that this header needs no SystemC.)
  template <class Attr>
  std::uint64_t request_bytes(const Attr& a) const {
    return a.op == MemOp::kRead ? header_bytes
                                : header_bytes + data_bytes(a);  // writes and atomics carry data
  }
  template <class Attr>
  std::uint64_t response_bytes(const Attr& a) const {
    return a.op == MemOp::kWrite ? header_bytes : header_bytes + data_bytes(a);  // write acks carry none
  }
  // A read response: what the partition controller counts on the ingress lanes.
  std::uint64_t read_response_bytes() const { return std::uint64_t(header_bytes) + line_bytes; }
};

}  // namespace numagpu
