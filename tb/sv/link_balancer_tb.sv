// SPDX-FileCopyrightText: numagpu authors
//
// SystemVerilog testbench of rtl/link_balancer.sv with the C++ reference model as scoreboard, through DPI-C
// (tb/dpi/numagpu_policy_pkg.sv). Constrained-random stimulus in traffic phases of whole windows, with the
// busy cycles of each window placed to hit a planned count exactly (so windows land on the saturation
// threshold and one below it), a drain model for the quiescing lane, kernel launches and resets. Every
// output is compared with the reference in every cycle; the DUT's own invariants run as assertions
// (+define+NUMAGPU_ASSERTIONS --assert), and the testbench adds protocol assertions of its own.
// Runs under Verilator 5.006 `--binary --timing` (Verilator ignores `constraint` blocks in 5.006, so the
// constraints are procedural: $urandom_range and weighted choices).
//
// Plusargs: +cycles=N (default 200000), +seed=S (default 1), +waves=FILE (VCD of every signal from cycle
// +waves_from=N on; needs --trace), +coverage=FILE (Verilator's coverage counters; needs --coverage),
// +ref_fault=N (self-test: the reference alone resets in cycle N, so the scoreboard must report a mismatch
// within one window).
// Exit: $finish with status 0 after the run when every output matched and every decision code was taken;
// $fatal (non-zero) at the first mismatch, failed assertion, or decision code left uncovered.

module link_balancer_tb #(
  parameter logic [31:0] Lanes = 4,
  parameter logic [31:0] SampleCycles = 64,
  parameter logic [31:0] SwitchCycles = 5,
  parameter logic [31:0] SatNum = 99,
  parameter logic [31:0] SatDen = 100
);
  import numagpu_policy_pkg::*;
  // Coverage is of the DUT and u_cover, not of the testbench's own code.
  /* verilator coverage_off */

  localparam logic [31:0] LaneCntW = $clog2(Lanes + 1);

  logic                clk = 1'b0;
  logic                rst_ni = 1'b0, kernel_launch = 1'b0, busy_a = 1'b0, busy_b = 1'b0, drained = 1'b0;
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

  link_balancer_cover #(.Lanes(Lanes)) u_cover (
    .clk_i(clk), .rst_ni(rst_ni), .kernel_launch_i(kernel_launch), .drained_i(drained), .lanes_a_o(lanes_a),
    .lanes_b_o(lanes_b), .lane_quiesce_o(lane_quiesce), .lane_switch_o(lane_switch),
    .decision_valid_o(decision_valid), .decision_o(decision)
  );

  // Cycle n spans [10n, 10n+10): compare and drive at 10n, rising edge at 10n+5.
  always #5 clk = ~clk;

  // --- Protocol assertions (the ports as a consumer sees them) ----------------------------------------------
  logic started = 1'b0;  // after the first reset edge
  always @(posedge clk) if (!rst_ni) started <= 1'b1;
  // At most one lane turns, and a turning lane is either quiescing or switching.
  QuiesceOneHot_A: assert property (@(posedge clk) disable iff (!started) $onehot0(lane_quiesce));
  SwitchOneHot_A: assert property (@(posedge clk) disable iff (!started) $onehot0(lane_switch));
  NotBoth_A: assert property (@(posedge clk) disable iff (!started) !(lane_quiesce != '0 && lane_switch != '0));
  // A decision is a one-cycle pulse (windows are at least 2 cycles long here).
  DecisionPulse_A: assert property (@(posedge clk) disable iff (!started || SampleCycles < 2)
                                    decision_valid |=> !decision_valid);

  // --- Scoreboard --------------------------------------------------------------------------------------------
  chandle           ref_model;
  longint unsigned  dut_decisions[9];

  task automatic compare(input longint unsigned cycle);
    lb_outputs_t e;
    numagpu_lb_read(ref_model, e);
    if (32'(lanes_a) != e.lanes_a || 32'(lanes_b) != e.lanes_b || 64'(lane_dir) != e.lane_dir ||
        64'(lane_quiesce) != e.lane_quiesce || 64'(lane_switch) != e.lane_switch ||
        decision_valid != e.decision_valid || 8'(decision) != e.decision) begin
      $display("  rtl: lanes_a=%0d lanes_b=%0d lane_dir=%0h lane_quiesce=%0h lane_switch=%0h valid=%0d decision=%0d",
               lanes_a, lanes_b, lane_dir, lane_quiesce, lane_switch, decision_valid, decision);
      $display("  ref: lanes_a=%0d lanes_b=%0d lane_dir=%0h lane_quiesce=%0h lane_switch=%0h valid=%0d decision=%0d",
               e.lanes_a, e.lanes_b, e.lane_dir, e.lane_quiesce, e.lane_switch, e.decision_valid, e.decision);
      $fatal(1, "scoreboard mismatch at cycle %0d (outputs above)", cycle);
    end
    if (decision_valid) dut_decisions[decision] += 1;
  endtask

  // --- Constrained-random stimulus ---------------------------------------------------------------------------
  typedef enum int {PhIdle, PhSatA, PhSatB, PhSatBoth, PhBoundary, PhRandom} phase_e;
  phase_e      phase = PhIdle;
  int unsigned phase_windows = 0;
  int unsigned target_a = 0, target_b = 0;  // busy cycles planned for this window, per direction
  int          drain_wait = -1;             // cycles until the quiescing lane drains; -1: none pending

  function automatic bit chance(int unsigned percent);
    return $urandom_range(99, 0) < percent;
  endfunction

  function automatic int unsigned threshold();
    longint unsigned t;
    t = numagpu_lb_threshold(ref_model);
    return (t > 64'(SampleCycles)) ? SampleCycles : 32'(t);
  endfunction

  // The plan of a new window: the phase decides where the two busy counts lie relative to the threshold.
  function automatic void plan_window();
    int unsigned thr, x;
    thr = threshold();
    if (phase_windows == 0) begin
      x = $urandom_range(99, 0);
      phase = x < 10 ? PhIdle : x < 30 ? PhSatA : x < 50 ? PhSatB : x < 70 ? PhSatBoth : x < 85 ? PhBoundary
                                                                                                  : PhRandom;
      // One-sided phases must be able to walk the link down to the one-lane floor and sit there.
      phase_windows = $urandom_range(3 * Lanes + 4, 1);
    end
    phase_windows -= 1;
    case (phase)
      PhIdle: begin
        target_a = $urandom_range(thr / 2, 0);
        target_b = $urandom_range(thr / 2, 0);
      end
      PhSatA: begin
        target_a = chance(50) ? SampleCycles : $urandom_range(SampleCycles, thr);
        target_b = $urandom_range(thr - 1, 0);
      end
      PhSatB: begin
        target_a = $urandom_range(thr - 1, 0);
        target_b = chance(50) ? SampleCycles : $urandom_range(SampleCycles, thr);
      end
      PhSatBoth: begin
        target_a = $urandom_range(SampleCycles, thr);
        target_b = $urandom_range(SampleCycles, thr);
      end
      PhBoundary: begin  // exactly on the threshold, or one below it
        target_a = chance(50) ? thr : thr - 1;
        target_b = chance(50) ? thr : thr - 1;
      end
      default: begin
        target_a = $urandom_range(SampleCycles, 0);
        target_b = $urandom_range(SampleCycles, 0);
      end
    endcase
  endfunction

  // Selection sampling: busy in this cycle with probability (still needed) / (cycles left in the window), so
  // the window ends with exactly the planned count.
  function automatic bit place(int unsigned target, int unsigned so_far, int unsigned pos);
    int unsigned left;
    left = SampleCycles - pos;
    if (so_far >= target) return 1'b0;
    return $urandom_range(left - 1, 0) < target - so_far;
  endfunction

  // --- The run -----------------------------------------------------------------------------------------------
  longint unsigned ref_fault;  // +ref_fault=N (self-test): the reference alone resets in cycle N
  longint unsigned cycles, cycle, launches, resets, drained_at_once;
  int unsigned     seed, waves_from, pos;
  string           waves, coverage_file;
  bit              do_reset;
  lb_outputs_t     now;

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
    ref_model = numagpu_lb_new(Lanes, SampleCycles, SwitchCycles, SatNum, SatDen);
    if (ref_model == null) $fatal(1, "link_balancer_tb: %s", numagpu_policy_error());
    launches = 0;
    resets = 0;
    drained_at_once = 0;

    // Out of the power-up state: one rising edge with rst_ni low; the reference starts in the reset state.
    #10;
    for (cycle = 0; cycle < cycles; cycle++) begin
      if (waves != "" && cycle == 64'(waves_from)) begin
        $dumpfile(waves);
        $dumpvars(0, link_balancer_tb);
      end
      compare(cycle);

      numagpu_lb_read(ref_model, now);
      pos = numagpu_lb_window_cycle(ref_model);
      if (pos == 0) plan_window();
      busy_a = place(target_a, numagpu_lb_busy_a_count(ref_model), pos);
      busy_b = place(target_b, numagpu_lb_busy_b_count(ref_model), pos);
      // Drain model: the quiescing lane drains at once (30 %), after 1-8 cycles (45 %), or after up to two
      // windows (25 %, so that windows end during turns); while nothing quiesces, drained pulses at random
      // and must be ignored.
      if (now.lane_quiesce != 0) begin
        if (drain_wait < 0) begin
          drain_wait = chance(30) ? 0 : chance(64) ? int'($urandom_range(8, 1))
                                                   : int'($urandom_range(2 * SampleCycles, 9));
          if (drain_wait == 0) drained_at_once += 1;
        end
        drained = (drain_wait == 0);
        if (drain_wait > 0) drain_wait -= 1;
      end else begin
        drain_wait = -1;
        drained = chance(5);
      end
      // Launches about every 40 windows (a fortieth of them in a window's last cycle), resets about every
      // 400 windows.
      kernel_launch = ($urandom_range(40 * SampleCycles - 1, 0) == 0) ||
                      (pos == SampleCycles - 1 && $urandom_range(39, 0) == 0);
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
        numagpu_lb_reset(ref_model);
      end else begin
        numagpu_lb_step(ref_model, kernel_launch, busy_a, busy_b, drained);
      end
      #10;
    end

    // Every decision path must have been taken, on the DUT's own outputs and in the reference's counters.
    for (int d = 0; d < 9; d++) begin
      if (dut_decisions[d] == 0 || numagpu_lb_coverage(ref_model, d) == 0) begin
        $fatal(1, "link_balancer_tb: decision %0d never taken in %0d cycles (seed %0d)", d, cycles, seed);
      end
    end
    $display("link_balancer_tb: %0d cycles match the C++ reference (seed %0d, %0d launches, %0d resets, %0d drained at once)",
             cycles, seed, launches, resets, drained_at_once);
    $display("link_balancer_tb: decisions none..busy_turning: %0d %0d %0d %0d %0d %0d %0d %0d %0d", dut_decisions[0],
             dut_decisions[1], dut_decisions[2], dut_decisions[3], dut_decisions[4], dut_decisions[5],
             dut_decisions[6], dut_decisions[7], dut_decisions[8]);
    numagpu_lb_free(ref_model);
    $finish;
  end
endmodule
