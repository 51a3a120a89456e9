// Fast-forward of a Verilated policy block through quiet cycles inside a window (policy/quiet_windows.hpp):
// with quiet inputs, no turn in progress and no decision pulse, a clock edge only advances the window
// position register, cnt_q of the block's u_win_cnt (rtl/prim/prim_window_counter.sv; every other register
// holds: the busy counts add zero, the lanes and the way split change only at a window end or during a
// turn). So k such edges are the same as adding k to that count, written from C++ as a verification
// backdoor would: the RTL (rtl/*.sv) is unchanged and synthesis never sees this.
//
// How: the register is a member of the Verilated root class (`<top>__DOT__u_win_cnt__DOT__cnt_q`; Verilator
// inlines the primitive), a name Verilator derives from the RTL (a renamed register fails to compile here,
// it cannot go wrong silently). Every eval()
// first recomputes the input-side combinational logic from the registers, so the next clock edge sees the
// new value. It is not declared public (public_flat_rw): with Verilator 5.006 public signals register scopes
// whose destruction deadlocks when several models live in one process. tests/unit/model/quiet_skip_test.cpp
// holds the Verilated blocks to stepping, cycle by cycle.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace numagpu::rtl_ports {

// `skippable`: the block's outputs allow it (Block::quiet_cycles_skippable).
template <class Top, class Reg>
void fast_forward_window(Top& top, Reg& win_cnt_q, std::uint64_t cycles, std::uint64_t window, bool skippable,
                         const char* block) {
  if (!skippable || std::uint64_t{win_cnt_q} + cycles >= window) {
    throw std::logic_error(std::string(block) +
                           " (RTL): skip_quiet_cycles during a turn, a decision pulse or a window end");
  }
  win_cnt_q = static_cast<Reg>(win_cnt_q + cycles);
  top.eval();  // settle the logic that reads it (no output does: they are all registered)
}

}  // namespace numagpu::rtl_ports
