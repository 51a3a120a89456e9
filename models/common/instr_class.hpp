// The classes of warp instructions and their names, defined once: the SM counts each class
// (instructions_<class>), the C++ kernels charge them, and the energy table prices them
// (energy.sm.<class>_pj). Plain C++ with no includes of the model, so the power model names the classes from
// here too.
#pragma once

#include <cstdint>

namespace numagpu {

// What a warp instruction does, for the SM's per-class counts and the energy model (docs/power.md): the C++
// kernels charge fp32, fp64, int, sfu, tensor, branch and shared instructions; every global load, store or
// atomic is one kMemory instruction; a barrier is a control instruction (kBranch); compute that no one
// classified (synthetic patterns, replayed traces) is kOther.
enum class InstrClass : std::uint8_t {
  kFp32,
  kFp64,
  kInt,
  kSfu,
  kTensor,
  kBranch,
  kShared,
  kMemory,
  kOther,
  kCount
};
inline constexpr unsigned kInstrClasses = static_cast<unsigned>(InstrClass::kCount);

// Each class's name, in InstrClass order: the statistics' and the energy keys' names.
inline constexpr const char* kInstrClassNames[kInstrClasses] = {
    "fp32", "fp64", "int", "sfu", "tensor", "branch", "shared", "memory", "other"};

inline const char* to_string(InstrClass c) {
  return c < InstrClass::kCount ? kInstrClassNames[static_cast<unsigned>(c)] : "?";
}

}  // namespace numagpu
