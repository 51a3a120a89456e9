#include "trace/opcode.hpp"

namespace numagpu::trace {

OpKind classify_opcode(std::string_view opcode) {
  const std::string_view base = opcode_base(opcode);
  // Dispatch on the first letter: this runs once per traced instruction, and most opcodes (FMUL, IMAD,
  // ISETP, ...) are rejected by one comparison.
  switch (base.empty() ? '\0' : base[0]) {
    case 'L':
      if (base == "LDG" || base == "LD" || base == "LDL" || base == "LDGSTS") return OpKind::kLoad;
      break;
    case 'S':
      if (base == "STG" || base == "ST" || base == "STL") return OpKind::kStore;
      break;
    case 'A':
      if (base == "ATOMG" || base == "ATOM") return OpKind::kAtomic;
      break;
    case 'R':
      if (base == "RED") return OpKind::kAtomic;
      break;
    case 'B':
      if (base == "BAR") return OpKind::kBarrier;
      break;
    case 'E':
      if (base == "EXIT") return OpKind::kExit;
      break;
    default:
      break;
  }
  return OpKind::kCompute;
}

}  // namespace numagpu::trace
