// Bytes a request or response occupies on a wire: a header, plus the line when it carries data.
#pragma once

#include <cstdint>

#include "common/txn.hpp"

namespace numagpu {

inline std::uint64_t request_bytes(const NumaAttr& a, unsigned header, unsigned line) {
  return a.op == MemOp::kRead ? header : header + line;  // writes and atomics carry data
}
inline std::uint64_t response_bytes(const NumaAttr& a, unsigned header, unsigned line) {
  return a.op == MemOp::kWrite ? header : header + line;  // write acks carry none
}

}  // namespace numagpu
