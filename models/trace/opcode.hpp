// SASS opcode -> OpKind, the one place numagpu decides which instructions reach the memory system.
#pragma once

#include <string_view>

#include "trace/trace.hpp"

namespace numagpu::trace {

// The base of a SASS opcode: the text before the first '.' ("LDG.E.128.SYS" -> "LDG").
constexpr std::string_view opcode_base(std::string_view opcode) {
  const size_t dot = opcode.find('.');
  return dot == std::string_view::npos ? opcode : opcode.substr(0, dot);
}

// Classifies by the base, with Accel-Sim's opcode names (gpu-simulator/ISA_Def, Kepler to Hopper):
//   kLoad    LD LDG LDL LDGSTS     (generic, global and local memory; LDGSTS reads global memory)
//   kStore   ST STG STL
//   kAtomic  ATOM ATOMG RED
//   kBarrier BAR                   (every BAR variant: SYNC, ARV, RED)
//   kExit    EXIT
//   kCompute everything else, including shared (LDS STS LDSM ATOMS), constant (LDC ULDC), texture and
//            surface memory, TMA bulk copies, MEMBAR, DEPBAR and control flow.
OpKind classify_opcode(std::string_view opcode);

}  // namespace numagpu::trace
