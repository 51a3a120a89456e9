// SPDX-FileCopyrightText: numagpu authors
//
// The assertion preamble both policy blocks share (link_balancer.sv, cache_partition_ctrl.sv): who sees their
// assertions, and from when the assertions apply. Each block includes this file before its module and opens
// its `ifdef NUMAGPU_ASSERTIONS section with `NUMAGPU_ASSERT_CHECKED(clk_i, rst_ni), then asserts under
// `if (f_checked)`. Tools that read a block need this directory on their include path (-I rtl).
//
// - yosys `read_verilog -formal` (FORMAL defined) proves the assertions: scripts/rtl_formal.sh.
// - Verilator with --assert +define+NUMAGPU_ASSERTIONS checks them in every cycle (the lockstep models).
// - Everything else (synthesis, lint at the defaults, the in-loop models) defines neither and sees no
//   assertion logic at all.

`ifndef NUMAGPU_ASSERT_SVH
`define NUMAGPU_ASSERT_SVH

`ifdef FORMAL
`define NUMAGPU_ASSERTIONS
`endif

// Declares f_checked: the state is defined, so the invariants must hold. In the proof that is every step
// the solver checks (scripts/rtl_formal.sh holds rst_ni low in the first step and does not check it). In
// simulation it is after the first reset edge: the registers hold arbitrary initial values before it, and
// rst_ni is synchronous, so only an edge with rst_ni low defines them.
`ifdef FORMAL
`define NUMAGPU_ASSERT_CHECKED(clk, rst_n) \
  logic f_checked; \
  assign f_checked = 1'b1;
`else
`define NUMAGPU_ASSERT_CHECKED(clk, rst_n) \
  logic f_checked; \
  logic f_reset_seen_q; \
  initial f_reset_seen_q = 1'b0; \
  always_ff @(posedge clk) if (!rst_n) f_reset_seen_q <= 1'b1; \
  assign f_checked = f_reset_seen_q;
`endif

`endif  // NUMAGPU_ASSERT_SVH
