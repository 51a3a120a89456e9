// SPDX-FileCopyrightText: numagpu authors
//
// A C interface to one Verilated policy block, compiled at run time with the model that numagpu_policy/rtl.py
// Verilates for the parameters a Python testbench asks for (one shared library per parameter set, loaded with
// ctypes). The block's ports come from numagpu_rtl_ports.h, which rtl.py writes next to the model:
//   NUMAGPU_RTL_MODEL       the Verilated class (Vlink_balancer, Vcache_partition_ctrl)
//   NUMAGPU_RTL_INPUTS(X)   X(port) for every input but clk_i and rst_ni, in the order of step()'s array
//   NUMAGPU_RTL_OUTPUTS(X)  X(port) for every output, in the order of outputs()'s array
// The clocking is tb/verilated_dut.hpp's: reset() and step() are one cycle each (inputs applied with clk_i
// low, then the rising edge); a VCD, when open, has cycle n at 10n .. 10n+9 with the rising edge at 10n+5.
#include <cstdint>
#include <fstream>

#include "numagpu_rtl_ports.h"
#include "verilated_dut.hpp"

namespace {

using Dut = numagpu::tb::VerilatedDut<NUMAGPU_RTL_MODEL>;

Dut& dut(void* h) {
  return *static_cast<Dut*>(h);
}

}  // namespace

extern "C" {

void* numagpu_rtl_new() {
  auto* d = new Dut();
  // A failing assertion is reported to Python (numagpu_rtl_got_error) instead of ending the interpreter.
  d->context().fatalOnError(false);
  return d;
}
void numagpu_rtl_free(void* h) {
  delete &dut(h);
}

// One rising edge with rst_ni low and every other input 0.
void numagpu_rtl_reset(void* h) {
  auto& top = dut(h).top();
  top.rst_ni = 0;
#define NUMAGPU_ZERO(port) top.port = 0;
  NUMAGPU_RTL_INPUTS(NUMAGPU_ZERO)
#undef NUMAGPU_ZERO
  dut(h).tick();
}

// One rising edge with rst_ni high and in[i] on the i-th input (truncated to the port's width).
void numagpu_rtl_step(void* h, const std::uint64_t* in) {
  auto& top = dut(h).top();
  top.rst_ni = 1;
  int i = 0;
#define NUMAGPU_DRIVE(port) top.port = static_cast<decltype(top.port + 0)>(in[i++]);
  NUMAGPU_RTL_INPUTS(NUMAGPU_DRIVE)
#undef NUMAGPU_DRIVE
  dut(h).tick();
}

// The registered outputs of the current cycle, in the order of NUMAGPU_RTL_OUTPUTS.
void numagpu_rtl_outputs(void* h, std::uint64_t* out) {
  const auto& top = dut(h).top();
  int i = 0;
#define NUMAGPU_SAMPLE(port) out[i++] = static_cast<std::uint64_t>(top.port);
  NUMAGPU_RTL_OUTPUTS(NUMAGPU_SAMPLE)
#undef NUMAGPU_SAMPLE
}

// Non-zero once an RTL assertion failed (the message went to stderr).
int numagpu_rtl_got_error(void* h) {
  return dut(h).context().gotError() ? 1 : 0;
}

// A VCD of every signal from the current cycle on (0 when the file cannot be written).
int numagpu_rtl_open_vcd(void* h, const char* path) {
  if (!std::ofstream(path)) return 0;
  dut(h).open_vcd(path);
  return 1;
}
void numagpu_rtl_close_vcd(void* h) {
  dut(h).close_vcd();
}

}  // extern "C"
