// SPDX-FileCopyrightText: numagpu authors
//
// The C++ reference models of the policy blocks for SystemVerilog testbenches: the DPI-C imports of
// tb/dpi/numagpu_policy_dpi.h (link the shared library libnumagpu_policy_dpi.so), and per block a struct of
// its outputs with a function that reads them, ready to compare with the DUT's ports in a scoreboard.
// Usage (plain SV and UVM): docs/rtl.md, "DPI-C scoreboard". The package has no classes: Verilator 5.006
// cannot build classes with --coverage, and a UVM scoreboard wraps the handle in its own class anyway.

package numagpu_policy_pkg;
  // Not instrumented by `verilator --coverage`: the scoreboard is not under test.
  /* verilator coverage_off */

  // --- The raw DPI-C functions (one per C function of numagpu_policy_dpi.h) -------------------------------
  import "DPI-C" function string numagpu_policy_error();

  import "DPI-C" function chandle numagpu_lb_new(input int unsigned lanes, input int unsigned sample_cycles,
                                                 input int unsigned switch_cycles, input int unsigned sat_num,
                                                 input int unsigned sat_den);
  import "DPI-C" function void numagpu_lb_free(input chandle lb);
  import "DPI-C" function void numagpu_lb_reset(input chandle lb);
  import "DPI-C" function void numagpu_lb_step(input chandle lb, input bit kernel_launch, input bit busy_a,
                                               input bit busy_b, input bit drained);
  import "DPI-C" function void numagpu_lb_outputs(input chandle lb, output int unsigned lanes_a,
                                                  output int unsigned lanes_b, output longint unsigned lane_dir,
                                                  output longint unsigned lane_quiesce,
                                                  output longint unsigned lane_switch,
                                                  output bit decision_valid, output byte unsigned decision);
  import "DPI-C" function int unsigned numagpu_lb_window_cycle(input chandle lb);
  import "DPI-C" function int unsigned numagpu_lb_busy_a_count(input chandle lb);
  import "DPI-C" function int unsigned numagpu_lb_busy_b_count(input chandle lb);
  import "DPI-C" function longint unsigned numagpu_lb_threshold(input chandle lb);
  import "DPI-C" function longint unsigned numagpu_lb_coverage(input chandle lb, input int unsigned code);

  import "DPI-C" function chandle numagpu_pc_new(input int unsigned ways, input int unsigned sample_cycles,
                                                 input int unsigned sat_num, input int unsigned sat_den,
                                                 input int unsigned resp_bytes,
                                                 input int unsigned ingress_bytes_per_cycle);
  import "DPI-C" function void numagpu_pc_free(input chandle pc);
  import "DPI-C" function void numagpu_pc_reset(input chandle pc);
  import "DPI-C" function void numagpu_pc_step(input chandle pc, input bit kernel_launch, input bit dram_busy,
                                               input int unsigned read_reqs);
  import "DPI-C" function void numagpu_pc_outputs(input chandle pc, output int unsigned remote_ways,
                                                  output int unsigned local_ways,
                                                  output longint unsigned remote_mask,
                                                  output bit decision_valid, output byte unsigned decision);
  import "DPI-C" function int unsigned numagpu_pc_window_cycle(input chandle pc);
  import "DPI-C" function int unsigned numagpu_pc_dram_busy_count(input chandle pc);
  import "DPI-C" function longint unsigned numagpu_pc_read_req_count(input chandle pc);
  import "DPI-C" function longint unsigned numagpu_pc_dram_threshold(input chandle pc);
  import "DPI-C" function longint unsigned numagpu_pc_link_threshold(input chandle pc);
  import "DPI-C" function longint unsigned numagpu_pc_coverage(input chandle pc, input int unsigned code);

  // --- Link balancer -------------------------------------------------------------------------------------
  // The outputs of rtl/link_balancer.sv, zero-extended (masks: bit i is lane i).
  typedef struct packed {
    logic [31:0] lanes_a;
    logic [31:0] lanes_b;
    logic [63:0] lane_dir;
    logic [63:0] lane_quiesce;
    logic [63:0] lane_switch;
    logic        decision_valid;
    logic [7:0]  decision;  // decision_o, zero-extended
  } lb_outputs_t;

  // The registered outputs of the current cycle, as one struct to compare with the DUT's ports. (An output
  // argument, not a return value: Verilator 5.006 returns at most 64 bits from a package function.)
  function automatic void numagpu_lb_read(input chandle lb, output lb_outputs_t o);
    int unsigned a, b;
    longint unsigned dir, q, s;
    bit v;
    byte unsigned d;
    numagpu_lb_outputs(lb, a, b, dir, q, s, v, d);
    o.lanes_a = a;
    o.lanes_b = b;
    o.lane_dir = dir;
    o.lane_quiesce = q;
    o.lane_switch = s;
    o.decision_valid = v;
    o.decision = d;
  endfunction

  // --- Cache partition controller ------------------------------------------------------------------------
  typedef struct packed {
    logic [31:0] remote_ways;
    logic [31:0] local_ways;
    logic [63:0] remote_mask;
    logic        decision_valid;
    logic [7:0]  decision;  // decision_o, zero-extended
  } pc_outputs_t;

  function automatic void numagpu_pc_read(input chandle pc, output pc_outputs_t o);
    int unsigned r, l;
    longint unsigned m;
    bit v;
    byte unsigned d;
    numagpu_pc_outputs(pc, r, l, m, v, d);
    o.remote_ways = r;
    o.local_ways = l;
    o.remote_mask = m;
    o.decision_valid = v;
    o.decision = d;
  endfunction

endpackage
