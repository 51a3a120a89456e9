// SPDX-FileCopyrightText: numagpu authors
//
// SystemVerilog testbench of rtl/cache_partition_ctrl.sv with the C++ reference model as scoreboard, through
// DPI-C (tb/dpi/numagpu_policy_pkg.sv). Constrained-random stimulus in traffic phases of whole windows (idle,
// link only, DRAM only, both, on the thresholds, unconstrained); within a window the DRAM busy cycles and the
// read requests (0 .. 2^ReqW-1 per cycle) add up exactly to the planned counts, so windows land on each
// threshold and one below it. Random kernel launches (some in a window's last cycle) and rare resets. Every
// output is compared with the reference in every cycle; the DUT's invariants run as assertions
// (+define+NUMAGPU_ASSERTIONS --assert), plus protocol assertions of the testbench's own.
// Runs under Verilator 5.006 `--binary --timing` (constraints are procedural: Verilator 5.006 ignores
// `constraint` blocks).
//
// Plusargs: +cycles=N (default 200000), +seed=S (default 1), +waves=FILE (VCD of every signal from cycle
// +waves_from=N on; needs --trace), +coverage=FILE (Verilator's coverage counters; needs --coverage),
// +ref_fault=N (self-test: the reference alone resets in cycle N, so the scoreboard must report a mismatch
// within one window).
// Exit: $finish (status 0) after the run when every output matched and every decision code was taken;
// $fatal (non-zero) at the first mismatch, failed assertion, or decision code left uncovered.

module cache_partition_ctrl_tb #(
  parameter logic [31:0] Ways = 5,
  parameter logic [31:0] SampleCycles = 40,
  parameter logic [31:0] SatNum = 3,
  parameter logic [31:0] SatDen = 4,
  parameter logic [31:0] RespBytes = 144,
  parameter logic [31:0] IngressBytesPerCycle = 64,
  parameter logic [31:0] ReqW = 2
);
  import numagpu_policy_pkg::*;
  // Coverage is of the DUT and u_cover, not of the testbench's own code.
  /* verilator coverage_off */

  localparam logic [31:0] WayCntW = $clog2(Ways + 1);
  localparam logic [31:0] MaxReqs = (32'd1 << ReqW) - 32'd1;

  logic               clk = 1'b0;
  logic               rst_ni = 1'b0, kernel_launch = 1'b0, dram_busy = 1'b0;
  logic [ReqW-1:0]    read_reqs = '0;
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

  cache_partition_ctrl_cover #(.Ways(Ways)) u_cover (
    .clk_i(clk), .rst_ni(rst_ni), .kernel_launch_i(kernel_launch), .remote_ways_o(remote_ways),
    .decision_valid_o(decision_valid), .decision_o(decision)
  );

  // Cycle n spans [10n, 10n+10): compare and drive at 10n, rising edge at 10n+5.
  always #5 clk = ~clk;

  // --- Protocol assertions -----------------------------------------------------------------------------------
  logic started = 1'b0;  // after the first reset edge
  always @(posedge clk) if (!rst_ni) started <= 1'b1;
  // The two groups always add up to all ways, and the mask agrees with the count.
  WaysAddUp_A: assert property (@(posedge clk) disable iff (!started) 32'(remote_ways) + 32'(local_ways) == Ways);
  MaskCount_A: assert property (@(posedge clk) disable iff (!started) $countones(remote_mask) == 32'(remote_ways));
  // A decision is a one-cycle pulse (windows are at least 2 cycles long here).
  DecisionPulse_A: assert property (@(posedge clk) disable iff (!started || SampleCycles < 2)
                                    decision_valid |=> !decision_valid);

  // --- Scoreboard --------------------------------------------------------------------------------------------
  chandle          ref_model;
  longint unsigned dut_decisions[8];

  task automatic compare(input longint unsigned cycle);
    pc_outputs_t e;
    numagpu_pc_read(ref_model, e);
    if (32'(remote_ways) != e.remote_ways || 32'(local_ways) != e.local_ways || 64'(remote_mask) != e.remote_mask ||
        decision_valid != e.decision_valid || 8'(decision) != e.decision) begin
      $display("  rtl: remote_ways=%0d local_ways=%0d remote_mask=%0h valid=%0d decision=%0d",
               remote_ways, local_ways, remote_mask, decision_valid, decision);
      $display("  ref: remote_ways=%0d local_ways=%0d remote_mask=%0h valid=%0d decision=%0d",
               e.remote_ways, e.local_ways, e.remote_mask, e.decision_valid, e.decision);
      $fatal(1, "scoreboard mismatch at cycle %0d (outputs above)", cycle);
    end
    if (decision_valid) dut_decisions[decision] += 1;
  endtask

  // --- Constrained-random stimulus ---------------------------------------------------------------------------
  typedef enum int {PhIdle, PhLinkOnly, PhDramOnly, PhBoth, PhBoundary, PhRandom} phase_e;
  phase_e          phase = PhIdle;
  int unsigned     phase_windows = 0;
  int unsigned     dram_target = 0;  // DRAM busy cycles planned for this window
  longint unsigned req_target = 0;   // read requests planned for this window

  function automatic bit chance(int unsigned percent);
    return $urandom_range(99, 0) < percent;
  endfunction

  function automatic longint unsigned urange64(longint unsigned lo, longint unsigned hi);  // inclusive
    return lo >= hi ? lo : lo + 64'($urandom_range(32'(hi - lo), 0));
  endfunction

  function automatic void plan_window();
    longint unsigned dthr, lthr, reqs_max;
    int unsigned x;
    reqs_max = 64'(SampleCycles) * 64'(MaxReqs);
    dthr = numagpu_pc_dram_threshold(ref_model);
    if (dthr > 64'(SampleCycles)) dthr = 64'(SampleCycles);
    lthr = numagpu_pc_link_threshold(ref_model);
    if (lthr > reqs_max) lthr = reqs_max;
    if (phase_windows == 0) begin
      x = $urandom_range(99, 0);
      phase = x < 10 ? PhIdle : x < 30 ? PhLinkOnly : x < 50 ? PhDramOnly : x < 70 ? PhBoth : x < 85 ? PhBoundary
                                                                                                    : PhRandom;
      phase_windows = $urandom_range(3 * Ways + 4, 1);
    end
    phase_windows -= 1;
    case (phase)
      PhIdle: begin
        dram_target = 32'(urange64(0, dthr / 2));
        req_target = urange64(0, lthr / 2);
      end
      PhLinkOnly: begin
        dram_target = 32'(urange64(0, dthr - 1));
        req_target = chance(30) ? reqs_max : urange64(lthr, reqs_max);
      end
      PhDramOnly: begin
        dram_target = chance(30) ? SampleCycles : 32'(urange64(dthr, 64'(SampleCycles)));
        req_target = urange64(0, lthr - 1);
      end
      PhBoth: begin
        dram_target = chance(30) ? SampleCycles : 32'(urange64(dthr, 64'(SampleCycles)));
        req_target = chance(30) ? reqs_max : urange64(lthr, reqs_max);
      end
      PhBoundary: begin  // exactly on each threshold, or one below it
        dram_target = 32'(chance(50) ? dthr : dthr - 1);
        req_target = chance(50) ? lthr : lthr - 1;
      end
      default: begin
        dram_target = $urandom_range(SampleCycles, 0);
        req_target = urange64(0, reqs_max);
      end
    endcase
  endfunction

  // --- The run -----------------------------------------------------------------------------------------------
  longint unsigned ref_fault;  // +ref_fault=N (self-test): the reference alone resets in cycle N
  longint unsigned cycles, cycle, launches, resets, done, need, later, hi, lo;
  int unsigned     seed, waves_from, pos, left;
  string           waves, coverage_file;
  bit              do_reset;

  import "DPI-C" function void numagpu_coverage_write(input string file);
  final begin
    if (coverage_file != "") numagpu_coverage_write(coverage_file);
  end

  initial begin
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 200000;
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("waves=%s", waves)) waves = "";
    if (!$value$plusargs("waves_from=%d", waves_from)) waves_from = 0;
    if (!$value$plusargs("coverage=%s", coverage_file)) coverage_file = "";
    if (!$value$plusargs("ref_fault=%d", ref_fault)) ref_fault = '1;
    void'($urandom(seed));
    ref_model = numagpu_pc_new(Ways, SampleCycles, SatNum, SatDen, RespBytes, IngressBytesPerCycle);
    if (ref_model == null) $fatal(1, "cache_partition_ctrl_tb: %s", numagpu_policy_error());
    launches = 0;
    resets = 0;

    // Out of the power-up state: one rising edge with rst_ni low; the reference starts in the reset state.
    #10;
    for (cycle = 0; cycle < cycles; cycle++) begin
      if (waves != "" && cycle == 64'(waves_from)) begin
        $dumpfile(waves);
        $dumpvars(0, cache_partition_ctrl_tb);
      end
      compare(cycle);

      pos = numagpu_pc_window_cycle(ref_model);
      if (pos == 0) plan_window();
      left = SampleCycles - pos;
      // Selection sampling: busy with probability (still needed) / (cycles left), so the count ends exact.
      dram_busy = numagpu_pc_dram_busy_count(ref_model) < dram_target &&
                  $urandom_range(left - 1, 0) < dram_target - numagpu_pc_dram_busy_count(ref_model);
      // Requests: any amount that still lets the window reach its target exactly.
      done = numagpu_pc_read_req_count(ref_model);
      need = done < req_target ? req_target - done : 0;
      later = 64'(MaxReqs) * (64'(left) - 64'd1);  // the most the later cycles can add
      hi = need < 64'(MaxReqs) ? need : 64'(MaxReqs);
      lo = need > later ? need - later : 0;
      if (lo > hi) lo = hi;
      read_reqs = ReqW'(urange64(lo, hi));
      // Launches about every 40 windows (some in a window's last cycle), resets about every 400 windows.
      kernel_launch = ($urandom_range(40 * SampleCycles - 1, 0) == 0) ||
                      (pos == SampleCycles - 1 && $urandom_range(49, 0) == 0);
      do_reset = $urandom_range(400 * SampleCycles - 1, 0) == 0;
      // After an injected fault, no launch or reset may realign the two sides before the mismatch shows.
      if (cycle >= ref_fault) begin
        kernel_launch = 1'b0;
        do_reset = 1'b0;
      end
      rst_ni = !do_reset;
      if (kernel_launch) launches += 1;
      if (do_reset || cycle == ref_fault) begin
        resets += 64'(do_reset);
        numagpu_pc_reset(ref_model);
      end else begin
        numagpu_pc_step(ref_model, kernel_launch, dram_busy, 32'(read_reqs));
      end
      #10;
    end

    for (int d = 0; d < 8; d++) begin
      if (dut_decisions[d] == 0 || numagpu_pc_coverage(ref_model, d) == 0) begin
        $fatal(1, "cache_partition_ctrl_tb: decision %0d never taken in %0d cycles (seed %0d)", d, cycles, seed);
      end
    end
    $display("cache_partition_ctrl_tb: %0d cycles match the C++ reference (seed %0d, %0d launches, %0d resets)",
             cycles, seed, launches, resets);
    $display("cache_partition_ctrl_tb: decisions none..blocked_to_local: %0d %0d %0d %0d %0d %0d %0d %0d",
             dut_decisions[0], dut_decisions[1], dut_decisions[2], dut_decisions[3], dut_decisions[4],
             dut_decisions[5], dut_decisions[6], dut_decisions[7]);
    numagpu_pc_free(ref_model);
    $finish;
  end
endmodule
