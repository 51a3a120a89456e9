// What a memory request does. Its own header so that plain-C++ code (MachineFacts, parameter headers) can
// name it without the transaction's SystemC/TLM headers.
#pragma once

#include <cstdint>

namespace numagpu {

enum class MemOp : std::uint8_t { kRead, kWrite, kAtomic };
const char* to_string(MemOp op);

}  // namespace numagpu
