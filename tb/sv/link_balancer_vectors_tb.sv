// SPDX-FileCopyrightText: numagpu authors
//
// Replays a vector file written by rtl_vectors (tb/vectors/rtl_vectors.cpp: the lockstep stimulus with the
// C++ reference's outputs) on rtl/link_balancer.sv and compares every output in every cycle, as the
// lockstep tests (Verilator --cc) do, but in plain SystemVerilog with no DPI: it runs on Icarus Verilog 11
// (`iverilog -g2012`) and on Verilator 5.006 (`--binary --timing`). The parameters are this module's and
// must equal the file's line 2 (checked).
//
// Plusargs: +vectors=FILE (required); +waves=FILE writes a VCD of every signal (Verilator needs --trace),
// from cycle +waves_from=N on (default 0); under Verilator, +coverage=FILE writes the coverage counters
// (--coverage), including the functional cover points of link_balancer_cover.sv. +inputs_only drives the
// inputs without comparing the outputs, so that the RTL's own assertions (NUMAGPU_ASSERTIONS) are what stops a
// broken design (tests/rtl/icarus_vectors_test.sh's assertion self-test).
// Exit: $finish after the last vector (status 0); $fatal on a mismatch, a bad file or a parameter mismatch.

module link_balancer_vectors_tb #(
  parameter logic [31:0] Lanes = 16,
  parameter logic [31:0] SampleCycles = 5000,
  parameter logic [31:0] SwitchCycles = 100,
  parameter logic [31:0] SatNum = 99,
  parameter logic [31:0] SatDen = 100
);
  localparam logic [31:0] LaneCntW = $clog2(Lanes + 1);

  logic                clk = 1'b0;
  logic                rst_ni, kernel_launch, busy_a, busy_b, drained;
  logic [LaneCntW-1:0] lanes_a, lanes_b;
  logic [Lanes-1:0]    lane_dir, lane_quiesce, lane_switch;
  logic                decision_valid;
  logic [3:0]          decision;

  link_balancer #(
    .Lanes(Lanes), .SampleCycles(SampleCycles), .SwitchCycles(SwitchCycles), .SatNum(SatNum), .SatDen(SatDen)
  ) u_dut (
    .clk_i(clk), .rst_ni(rst_ni), .kernel_launch_i(kernel_launch), .busy_a_i(busy_a), .busy_b_i(busy_b),
    .drained_i(drained), .lanes_a_o(lanes_a), .lanes_b_o(lanes_b), .lane_dir_o(lane_dir),
    .lane_quiesce_o(lane_quiesce), .lane_switch_o(lane_switch), .decision_valid_o(decision_valid),
    .decision_o(decision)
  );

`ifdef VERILATOR
  link_balancer_cover #(.Lanes(Lanes)) u_cover (
    .clk_i(clk), .rst_ni(rst_ni), .kernel_launch_i(kernel_launch), .drained_i(drained), .lanes_a_o(lanes_a),
    .lanes_b_o(lanes_b), .lane_quiesce_o(lane_quiesce), .lane_switch_o(lane_switch),
    .decision_valid_o(decision_valid), .decision_o(decision)
  );
`endif

  // Cycle n spans [10n, 10n+10): inputs change and outputs are compared at 10n, the rising edge is at 10n+5.
  always #5 clk = ~clk;

  // One output compared: the name, and both values, on a mismatch.
  task automatic check(input integer cycle, input string name, input logic [63:0] rtl, input logic [63:0] ref_value);
    if (compare && rtl !== ref_value) begin
      $fatal(1, "vector mismatch at cycle %0d: %s rtl=%0h ref=%0h", cycle, name, rtl, ref_value);
    end
  endtask

  integer      fd, got, cycle, waves_from;
  logic        at_end, compare;
  string       path, waves, coverage_file;
  logic [63:0] v_rst_ni, v_launch, v_busy_a, v_busy_b, v_drained;
  logic [63:0] e_lanes_a, e_lanes_b, e_dir, e_quiesce, e_switch, e_valid, e_decision;
  logic [31:0] f_lanes, f_sample, f_switch, f_num, f_den;
  reg [8*512-1:0] header;

`ifdef VERILATOR
  import "DPI-C" function void numagpu_coverage_write(input string file);
  final begin
    if (coverage_file != "") numagpu_coverage_write(coverage_file);
  end
`endif

  initial begin
    if (!$value$plusargs("vectors=%s", path)) $fatal(1, "link_balancer_vectors_tb: +vectors=FILE is required");
    if (!$value$plusargs("waves=%s", waves)) waves = "";
    if (!$value$plusargs("waves_from=%d", waves_from)) waves_from = 0;
    if (!$value$plusargs("coverage=%s", coverage_file)) coverage_file = "";
    compare = !$test$plusargs("inputs_only");
    fd = $fopen(path, "r");
    if (fd == 0) $fatal(1, "%s: cannot open", path);
    got = $fgets(header, fd);
    got = $fscanf(fd, "%d %d %d %d %d\n", f_lanes, f_sample, f_switch, f_num, f_den);
    if (got != 5) $fatal(1, "%s:2: expected the 5 parameters of link_balancer", path);
    if (f_lanes != Lanes || f_sample != SampleCycles || f_switch != SwitchCycles || f_num != SatNum ||
        f_den != SatDen) begin
      $fatal(1, "%s:2: parameters %0d %0d %0d %0d %0d, but the testbench is built with %0d %0d %0d %0d %0d",
             path, f_lanes, f_sample, f_switch, f_num, f_den, Lanes, SampleCycles, SwitchCycles, SatNum, SatDen);
    end

    // Out of the power-up state: one rising edge with rst_ni low (the vectors start after it).
    {rst_ni, kernel_launch, busy_a, busy_b, drained} = 5'b00000;
    #10;
    cycle = 0;
    // (A flag, not `break`: Icarus Verilog 11 has no break statement.)
    at_end = 1'b0;
    while (!at_end) begin
      got = $fscanf(fd, "%h %h %h %h %h %h %h %h %h %h %h %h\n", v_rst_ni, v_launch, v_busy_a, v_busy_b, v_drained,
                    e_lanes_a, e_lanes_b, e_dir, e_quiesce, e_switch, e_valid, e_decision);
      if (got <= 0) begin
        at_end = 1'b1;
      end else begin
        if (got != 12) $fatal(1, "%s:%0d: expected 12 hex fields", path, cycle + 3);
        if (waves != "" && cycle == waves_from) begin
          $dumpfile(waves);
          $dumpvars(0, link_balancer_vectors_tb);
        end
        check(cycle, "lanes_a_o", 64'(lanes_a), e_lanes_a);
        check(cycle, "lanes_b_o", 64'(lanes_b), e_lanes_b);
        check(cycle, "lane_dir_o", 64'(lane_dir), e_dir);
        check(cycle, "lane_quiesce_o", 64'(lane_quiesce), e_quiesce);
        check(cycle, "lane_switch_o", 64'(lane_switch), e_switch);
        check(cycle, "decision_valid_o", 64'(decision_valid), e_valid);
        check(cycle, "decision_o", 64'(decision), e_decision);
        rst_ni        = v_rst_ni[0];
        kernel_launch = v_launch[0];
        busy_a        = v_busy_a[0];
        busy_b        = v_busy_b[0];
        drained       = v_drained[0];
        #10;
        cycle = cycle + 1;
      end
    end
    $fclose(fd);
    $display("link_balancer_vectors_tb: %0d cycles of %s match", cycle, path);
    $finish;
  end
endmodule
