// SPDX-FileCopyrightText: numagpu authors
//
// The assertion preamble both policy blocks share (link_balancer.sv, cache_partition_ctrl.sv): who sees their
// assertions, and from when the assertions apply. Each block includes this file before its module and opens
// its `ifdef NUMAGPU_ASSERTIONS section with `NUMAGPU_ASSERT_CHECKED(clk_i, rst_ni), then asserts under
// `if (f_checked)`. Tools that read a block need this directory on their include path (-I rtl).
//
// - yosys `read_verilog -formal` (FORMAL defined) proves the assertions: scripts/rtl_formal.sh.
// - Verilator with --assert +define+NUMAGPU_ASSERTIONS checks them in every cycle (the lockstep models).
// - Icarus Verilog 11 checks them too (-DNUMAGPU_ASSERTIONS; tests/rtl/icarus_vectors_test.sh and the cocotb
//   benches run with them), at each rising edge of the clock: an event-driven simulator evaluates an
//   always_comb process between the nonblocking updates of one clock edge and would see transient states (at
//   the first reset edge f_checked rises before the other registers leave X: "LanesSum_A violated" at time 5,
//   falsely). NUMAGPU_ASSERT_PROCESS(clk) is therefore `always @(posedge clk)` there: the process runs in the
//   edge's active region, before any nonblocking update, so it sees the settled values of the cycle that the
//   edge ends (SVA's sampling), the same values Verilator's always_comb checks once per cycle.
// - Everything else (synthesis, lint at the defaults, the in-loop models) defines neither and sees no
//   assertion logic at all.
//
// The RTL keeps to the SystemVerilog subset Verilator 5.006, yosys 0.23 and Icarus Verilog 11 all accept;
// the two macros at the end hide the two constructs Icarus lacks (statement labels, elaboration tasks).

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

// The process the assertions are written in: `NUMAGPU_ASSERT_PROCESS(clk_i) begin ... end`. An always_comb
// for Verilator (settled values) and yosys (the proof checks every step); on Icarus a process at the rising
// edge, which reads the cycle's settled values before the edge's nonblocking updates (see the header).
`ifdef __ICARUS__
`define NUMAGPU_ASSERT_PROCESS(clk) always @(posedge clk)
`else
`define NUMAGPU_ASSERT_PROCESS(clk) always_comb
`endif

// A named immediate assertion. Verilator and yosys take the labelled form (the label names the assertion
// in a failure report and in the proof log). Icarus Verilog 11 has no statement labels: there the name goes
// into the message of $fatal, which stops the simulation with a non-zero status.
`ifdef __ICARUS__
`define NUMAGPU_ASSERT(name, expr) assert (expr) else $fatal(1, `"name violated`");
`else
`define NUMAGPU_ASSERT(name, expr) name: assert (expr);
`endif

// A parameter check inside a generate `if`: an elaboration error. Icarus Verilog 11 has no elaboration tasks,
// so there the check stops the simulation at time 0 instead (same message, non-zero status).
`ifdef __ICARUS__
`define NUMAGPU_PARAM_ERROR(msg) initial $fatal(1, msg);
`else
`define NUMAGPU_PARAM_ERROR(msg) $error(msg);
`endif

`endif  // NUMAGPU_ASSERT_SVH
