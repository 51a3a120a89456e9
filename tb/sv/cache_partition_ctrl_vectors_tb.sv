// SPDX-FileCopyrightText: numagpu authors
//
// Replays a vector file written by rtl_vectors (tb/vectors/rtl_vectors.cpp: the lockstep stimulus with the
// C++ reference's outputs) on rtl/cache_partition_ctrl.sv and compares every output in every cycle, as the
// lockstep tests (Verilator --cc) do, but in plain SystemVerilog with no DPI: it runs on Icarus Verilog 11
// (`iverilog -g2012`) and on Verilator 5.006 (`--binary --timing`). The parameters are this module's and
// must equal the file's line 2 (checked).
//
// Plusargs: +vectors=FILE (required); +waves=FILE writes a VCD of every signal (Verilator needs --trace),
// from cycle +waves_from=N on (default 0); under Verilator, +coverage=FILE writes the coverage counters
// (--coverage), including the functional cover points of cache_partition_ctrl_cover.sv.
// Exit: $finish after the last vector (status 0); $fatal on a mismatch, a bad file or a parameter mismatch.

module cache_partition_ctrl_vectors_tb #(
  parameter logic [31:0] Ways = 16,
  parameter logic [31:0] SampleCycles = 5000,
  parameter logic [31:0] SatNum = 99,
  parameter logic [31:0] SatDen = 100,
  parameter logic [31:0] RespBytes = 144,
  parameter logic [31:0] IngressBytesPerCycle = 64,
  parameter logic [31:0] ReqW = 2
);
  localparam logic [31:0] WayCntW = $clog2(Ways + 1);

  logic               clk = 1'b0;
  logic               rst_ni, kernel_launch, dram_busy;
  logic [ReqW-1:0]    read_reqs;
  logic [WayCntW-1:0] remote_ways, local_ways;
  logic [Ways-1:0]    remote_mask;
  logic               decision_valid;
  logic [2:0]         decision;

  cache_partition_ctrl #(
    .Ways(Ways), .SampleCycles(SampleCycles), .SatNum(SatNum), .SatDen(SatDen), .RespBytes(RespBytes),
    .IngressBytesPerCycle(IngressBytesPerCycle), .ReqW(ReqW)
  ) u_dut (
    .clk_i(clk), .rst_ni(rst_ni), .kernel_launch_i(kernel_launch), .dram_busy_i(dram_busy),
    .read_reqs_i(read_reqs), .remote_ways_o(remote_ways), .local_ways_o(local_ways),
    .remote_mask_o(remote_mask), .decision_valid_o(decision_valid), .decision_o(decision)
  );

`ifdef VERILATOR
  cache_partition_ctrl_cover #(.Ways(Ways)) u_cover (
    .clk_i(clk), .rst_ni(rst_ni), .kernel_launch_i(kernel_launch), .remote_ways_o(remote_ways),
    .decision_valid_o(decision_valid), .decision_o(decision)
  );
`endif

  // Cycle n spans [10n, 10n+10): inputs change and outputs are compared at 10n, the rising edge is at 10n+5.
  always #5 clk = ~clk;

  // One output compared: the name, and both values, on a mismatch.
  task automatic check(input integer cycle, input string name, input logic [63:0] rtl, input logic [63:0] ref_value);
    if (rtl !== ref_value) begin
      $fatal(1, "vector mismatch at cycle %0d: %s rtl=%0h ref=%0h", cycle, name, rtl, ref_value);
    end
  endtask

  integer      fd, got, cycle, waves_from;
  logic        at_end;
  string       path, waves, coverage_file;
  logic [63:0] v_rst_ni, v_launch, v_dram_busy, v_read_reqs;
  logic [63:0] e_remote, e_local, e_mask, e_valid, e_decision;
  logic [31:0] f_ways, f_sample, f_num, f_den, f_resp, f_ingress, f_req_w;
  reg [8*512-1:0] header;

`ifdef VERILATOR
  import "DPI-C" function void numagpu_coverage_write(input string file);
  final begin
    if (coverage_file != "") numagpu_coverage_write(coverage_file);
  end
`endif

  initial begin
    if (!$value$plusargs("vectors=%s", path)) $fatal(1, "cache_partition_ctrl_vectors_tb: +vectors=FILE is required");
    if (!$value$plusargs("waves=%s", waves)) waves = "";
    if (!$value$plusargs("waves_from=%d", waves_from)) waves_from = 0;
    if (!$value$plusargs("coverage=%s", coverage_file)) coverage_file = "";
    fd = $fopen(path, "r");
    if (fd == 0) $fatal(1, "%s: cannot open", path);
    got = $fgets(header, fd);
    got = $fscanf(fd, "%d %d %d %d %d %d %d\n", f_ways, f_sample, f_num, f_den, f_resp, f_ingress, f_req_w);
    if (got != 7) $fatal(1, "%s:2: expected the 7 parameters of cache_partition_ctrl", path);
    if (f_ways != Ways || f_sample != SampleCycles || f_num != SatNum || f_den != SatDen || f_resp != RespBytes ||
        f_ingress != IngressBytesPerCycle || f_req_w != ReqW) begin
      $fatal(1, "%s:2: parameters %0d %0d %0d %0d %0d %0d %0d, but the testbench is built with %0d %0d %0d %0d %0d %0d %0d",
             path, f_ways, f_sample, f_num, f_den, f_resp, f_ingress, f_req_w, Ways, SampleCycles, SatNum, SatDen,
             RespBytes, IngressBytesPerCycle, ReqW);
    end

    // Out of the power-up state: one rising edge with rst_ni low (the vectors start after it).
    rst_ni = 1'b0;
    kernel_launch = 1'b0;
    dram_busy = 1'b0;
    read_reqs = '0;
    #10;
    cycle = 0;
    // (A flag, not `break`: Icarus Verilog 11 has no break statement.)
    at_end = 1'b0;
    while (!at_end) begin
      got = $fscanf(fd, "%h %h %h %h %h %h %h %h %h\n", v_rst_ni, v_launch, v_dram_busy, v_read_reqs, e_remote,
                    e_local, e_mask, e_valid, e_decision);
      if (got <= 0) begin
        at_end = 1'b1;
      end else begin
        if (got != 9) $fatal(1, "%s:%0d: expected 9 hex fields", path, cycle + 3);
        if (waves != "" && cycle == waves_from) begin
          $dumpfile(waves);
          $dumpvars(0, cache_partition_ctrl_vectors_tb);
        end
        check(cycle, "remote_ways_o", 64'(remote_ways), e_remote);
        check(cycle, "local_ways_o", 64'(local_ways), e_local);
        check(cycle, "remote_mask_o", 64'(remote_mask), e_mask);
        check(cycle, "decision_valid_o", 64'(decision_valid), e_valid);
        check(cycle, "decision_o", 64'(decision), e_decision);
        rst_ni        = v_rst_ni[0];
        kernel_launch = v_launch[0];
        dram_busy     = v_dram_busy[0];
        read_reqs     = v_read_reqs[ReqW-1:0];
        #10;
        cycle = cycle + 1;
      end
    end
    $fclose(fd);
    $display("cache_partition_ctrl_vectors_tb: %0d cycles of %s match", cycle, path);
    $finish;
  end
endmodule
