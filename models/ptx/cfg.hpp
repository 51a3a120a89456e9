// The control-flow graph of a flattened instruction list (Kernel's: an entry with its calls inlined) and the
// immediate post-dominator of every block, where a warp that diverged at a branch reconverges (the SIMT
// stack's reconvergence point, as GPGPU-Sim computes it).
#pragma once

#include <cstdint>
#include <vector>

#include "ptx/module.hpp"

namespace numagpu::ptx {

struct ControlFlowGraph {
  struct Block {
    std::uint32_t first = 0, end = 0;       // instructions [first, end)
    std::vector<std::uint32_t> successors;  // block indices; exit_block() for leaving the kernel
  };
  std::vector<Block> blocks;
  std::vector<std::uint32_t> block_of;  // per instruction
  std::vector<std::uint32_t> ipdom;     // per block: its immediate post-dominator (exit_block() if none)
  std::uint32_t exit_block() const { return static_cast<std::uint32_t>(blocks.size()); }
  // Where a warp diverging at instruction `pc` reconverges: the first instruction of the immediate
  // post-dominator of pc's block, or `code size` (the kernel's end: the lanes meet only when they exit).
  std::uint32_t reconvergence_pc(std::uint32_t pc) const;
  std::uint32_t code_size = 0;
};

// kBra (guarded: two successors), kRet (a flattened callee's return: a jump to its target), kExit and kTrap
// end blocks; a guarded kExit also falls through.
ControlFlowGraph build_cfg(const std::vector<Instr>& code);

}  // namespace numagpu::ptx
