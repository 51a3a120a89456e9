// SPDX-FileCopyrightText: numagpu authors
//
// Link load balancer: once per sample window, turns one bi-directional lane of an inter-socket link toward a
// saturated direction (quiesce until drained, then switch), or back toward symmetry when both directions are
// saturated. Interface, timing and rules: docs/policies.md; reference model: models/policy/link_balancer.hpp.
//
// Direction A is socket -> switch (egress), B is switch -> socket (ingress). Every output is a function of
// flip-flops only (Moore), so an input first shows on the outputs in the next cycle.
//
// Reset: rst_ni is synchronous and active low. It is sampled at the rising edge of clk_i like any other
// input (every flip-flop is `always_ff @(posedge clk_i)`, none has an asynchronous term): a rising edge with
// rst_ni low resets, and without a clock edge it has no effect. Only the name follows the lowRISC port
// convention, where rst_ni is usually asynchronous.

`include "numagpu_assert.svh"

// Parameters are `logic [31:0]` (unsigned 32-bit), not `int unsigned`, which Icarus Verilog 11 does not
// read: the RTL keeps to the subset Verilator, yosys and Icarus share (rtl/numagpu_assert.svh, docs/rtl.md).
module link_balancer #(
  /// Bi-directional lanes of the link; even, at least 2.
  parameter logic [31:0] Lanes = 16,
  /// Sample window length in cycles; 1 .. 2^31-1.
  parameter logic [31:0] SampleCycles = 5000,
  /// Cycles a drained lane spends switching to its new direction; 1 .. 2^31-1.
  parameter logic [31:0] SwitchCycles = 100,
  /// Saturation fraction, numerator, 1 .. 65535: a direction is saturated when
  /// busy * SatDen >= SatNum * SampleCycles.
  parameter logic [31:0] SatNum = 99,
  /// Saturation fraction, denominator; 1 .. 65535.
  parameter logic [31:0] SatDen = 100,
  /// Derived: busy cycles that saturate a direction, ceil(SatNum * SampleCycles / SatDen), in 64 bits.
  localparam logic [63:0] BusyThrRaw = (64'(SatNum) * 64'(SampleCycles) + 64'(SatDen) - 64'd1) / 64'(SatDen),
  /// Derived: BusyThrRaw clamped to SampleCycles + 1 ("never"), which keeps the busy counters narrow.
  localparam logic [31:0] BusyThr =
      32'((BusyThrRaw > 64'(SampleCycles)) ? 64'(SampleCycles) + 64'd1 : BusyThrRaw),
  /// Derived, do not override: width of a lane count (0 .. Lanes).
  localparam logic [31:0] LaneCntW = $clog2(Lanes + 1),
  /// Width of the window position counter (0 .. SampleCycles-1); may be widened, not narrowed.
  parameter logic [31:0] WinCntW = (SampleCycles > 1) ? $clog2(SampleCycles) : 1,
  /// Width of the saturating busy counters (0 .. BusyThr); may be widened, not narrowed.
  parameter logic [31:0] BusyCntW = (BusyThr > 0) ? $clog2(BusyThr + 1) : 1,
  /// Width of the switch countdown (0 .. SwitchCycles-1); may be widened, not narrowed.
  parameter logic [31:0] SwitchCntW = (SwitchCycles > 1) ? $clog2(SwitchCycles) : 1
) (
  /// Clock (GPU clock).
  input  logic                clk_i,
  /// Synchronous reset, active low: symmetric split, no turn, window restarted.
  input  logic                rst_ni,
  /// Kernel launch strobe: the same effect as reset; the inputs of this cycle are discarded.
  input  logic                kernel_launch_i,
  /// Direction A (egress) carried data on its lanes this cycle.
  input  logic                busy_a_i,
  /// Direction B (ingress) carried data on its lanes this cycle.
  input  logic                busy_b_i,
  /// The quiescing lane carries nothing any more (from the link); ignored unless a lane is quiescing.
  input  logic                drained_i,
  /// Active lanes carrying A.
  output logic [LaneCntW-1:0] lanes_a_o,
  /// Active lanes carrying B.
  output logic [LaneCntW-1:0] lanes_b_o,
  /// Per lane: 0 = A, 1 = B; for the turning lane, the direction it turns to.
  output logic [Lanes-1:0]    lane_dir_o,
  /// Per lane: quiescing (at most one bit set).
  output logic [Lanes-1:0]    lane_quiesce_o,
  /// Per lane: switching (at most one bit set).
  output logic [Lanes-1:0]    lane_switch_o,
  /// One-cycle pulse in the first cycle after a window's decision.
  output logic                decision_valid_o,
  /// Code of the last decision (docs/policies.md), held until the next one; 0 after reset/launch.
  output logic [3:0]          decision_o
);

  // Parameter checks at elaboration: a counter narrower than its range would wrap silently.
  if (Lanes < 2 || Lanes % 2 != 0) begin : gen_check_lanes
    `NUMAGPU_PARAM_ERROR("link_balancer: Lanes must be even and at least 2")
  end
  // The upper limits keep the 64-bit threshold arithmetic above exact (docs/policies.md).
  if (SampleCycles < 1 || SampleCycles >= 2**31 || SwitchCycles < 1 || SwitchCycles >= 2**31 ||
      SatNum < 1 || SatNum >= 2**16 || SatDen < 1 || SatDen >= 2**16) begin : gen_check_range
    `NUMAGPU_PARAM_ERROR("link_balancer: a parameter is out of range")
  end
  // The window counters check their own widths (rtl/prim/prim_window_counter.sv).
  if (SwitchCycles > 1 && SwitchCntW < $clog2(SwitchCycles)) begin : gen_check_widths
    `NUMAGPU_PARAM_ERROR("link_balancer: a counter width parameter is narrower than its range")
  end

  typedef enum logic [1:0] {
    TurnIdle    = 2'd0,
    TurnQuiesce = 2'd1,
    TurnSwitch  = 2'd2
  } turn_e;

  // Same values as numagpu::policy::LinkBalancer::Decision.
  typedef enum logic [3:0] {
    DecNone        = 4'd0,
    DecTurnToA     = 4'd1,
    DecTurnToB     = 4'd2,
    DecRebalToA    = 4'd3,
    DecRebalToB    = 4'd4,
    DecBalanced    = 4'd5,
    DecBlockedToA  = 4'd6,
    DecBlockedToB  = 4'd7,
    DecBusyTurning = 4'd8
  } decision_e;

  localparam logic [LaneCntW-1:0] HalfLanes = LaneCntW'(Lanes / 2);
  localparam logic [SwitchCntW-1:0] SwitchLast = SwitchCntW'(SwitchCycles - 1);

  logic [LaneCntW-1:0]   lanes_a_d, lanes_a_q;
  logic [LaneCntW-1:0]   lanes_b_d, lanes_b_q;
  turn_e                 turn_d, turn_q;
  logic                  turn_to_b_d, turn_to_b_q;
  logic [SwitchCntW-1:0] switch_cnt_d, switch_cnt_q;
  logic                  decision_valid_d, decision_valid_q;
  decision_e             decision_d, decision_q;

  // ---------------------------------------------------------------------------------------------------------
  // Window: its position, and the busy counts including this cycle, which saturate at BusyThr. All three
  // restart at a window end and at a kernel launch.
  // busy * SatDen >= SatNum * SampleCycles  <=>  busy >= ceil(SatNum * SampleCycles / SatDen)
  // ---------------------------------------------------------------------------------------------------------
  logic win_end;
  logic sat_a, sat_b;

  prim_window_counter #(.Threshold(SampleCycles), .Wrap(1), .Width(WinCntW)) u_win_cnt (
    .clk_i, .rst_ni, .clr_i(kernel_launch_i), .inc_i(1'b1), .reached_o(win_end)
  );

  prim_window_counter #(.Threshold(BusyThr), .Width(BusyCntW)) u_busy_a_cnt (
    .clk_i, .rst_ni, .clr_i(kernel_launch_i || win_end), .inc_i(busy_a_i), .reached_o(sat_a)
  );

  prim_window_counter #(.Threshold(BusyThr), .Width(BusyCntW)) u_busy_b_cnt (
    .clk_i, .rst_ni, .clr_i(kernel_launch_i || win_end), .inc_i(busy_b_i), .reached_o(sat_b)
  );

  // ---------------------------------------------------------------------------------------------------------
  // Decision of the window ending in this cycle (used only when win_end), from the state of this cycle.
  // ---------------------------------------------------------------------------------------------------------
  logic      turning;
  decision_e decision;
  logic      start_turn, start_to_b;

  assign turning = (turn_q == TurnQuiesce) || (turn_q == TurnSwitch);

  always_comb begin
    decision = DecNone;
    if (turning) begin
      // One lane turns at a time: a window that ends during a turn passes.
      decision = DecBusyTurning;
    end else if (sat_a && !sat_b) begin
      // Written as if/else, not ?: on enum values, which Icarus Verilog 11 rejects without a cast.
      if (lanes_b_q >= LaneCntW'(2)) begin
        decision = DecTurnToA;
      end else begin
        decision = DecBlockedToA;
      end
    end else if (sat_b && !sat_a) begin
      if (lanes_a_q >= LaneCntW'(2)) begin
        decision = DecTurnToB;
      end else begin
        decision = DecBlockedToB;
      end
    end else if (sat_a && sat_b) begin
      // The larger direction has more than Lanes/2 >= 1 lanes, so rebalancing never meets the floor.
      if (lanes_b_q > lanes_a_q) begin
        decision = DecRebalToA;
      end else if (lanes_a_q > lanes_b_q) begin
        decision = DecRebalToB;
      end else begin
        decision = DecBalanced;
      end
    end
  end

  assign start_turn = (decision == DecTurnToA) || (decision == DecRebalToA) ||
                      (decision == DecTurnToB) || (decision == DecRebalToB);
  assign start_to_b = (decision == DecTurnToB) || (decision == DecRebalToB);

  // ---------------------------------------------------------------------------------------------------------
  // Next state.
  // ---------------------------------------------------------------------------------------------------------
  always_comb begin
    lanes_a_d        = lanes_a_q;
    lanes_b_d        = lanes_b_q;
    turn_d           = turn_q;
    turn_to_b_d      = turn_to_b_q;
    switch_cnt_d     = switch_cnt_q;
    decision_valid_d = 1'b0;
    decision_d       = decision_q;

    if (kernel_launch_i) begin
      // The link is idle at a kernel boundary: back to symmetric, any turn abandoned.
      lanes_a_d    = HalfLanes;
      lanes_b_d    = HalfLanes;
      turn_d       = TurnIdle;
      turn_to_b_d  = 1'b0;
      switch_cnt_d = '0;
      decision_d   = DecNone;
    end else begin
      // Progress of a turn in flight. A lane that stopped quiescing switches for exactly SwitchCycles cycles.
      unique case (turn_q)
        TurnIdle: ;
        TurnQuiesce: begin
          if (drained_i) begin
            turn_d       = TurnSwitch;
            switch_cnt_d = SwitchLast;
          end
        end
        TurnSwitch: begin
          if (switch_cnt_q == '0) begin
            turn_d      = TurnIdle;
            turn_to_b_d = 1'b0;
            if (turn_to_b_q) begin
              lanes_b_d = lanes_b_q + LaneCntW'(1);
            end else begin
              lanes_a_d = lanes_a_q + LaneCntW'(1);
            end
          end else begin
            switch_cnt_d = switch_cnt_q - SwitchCntW'(1);
          end
        end
        default: turn_d = TurnIdle;  // unreachable encoding (proven): recover to idle
      endcase

      if (win_end) begin
        decision_valid_d = 1'b1;
        decision_d       = decision;
        // start_turn implies no turn in flight, so the case above left the turn state alone.
        if (start_turn) begin
          // The lane leaves its old direction at once; it carries nothing new while it quiesces.
          turn_d      = TurnQuiesce;
          turn_to_b_d = start_to_b;
          if (start_to_b) begin
            lanes_a_d = lanes_a_q - LaneCntW'(1);
          end else begin
            lanes_b_d = lanes_b_q - LaneCntW'(1);
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      lanes_a_q        <= HalfLanes;
      lanes_b_q        <= HalfLanes;
      turn_q           <= TurnIdle;
      turn_to_b_q      <= 1'b0;
      switch_cnt_q     <= '0;
      decision_valid_q <= 1'b0;
      decision_q       <= DecNone;
    end else begin
      lanes_a_q        <= lanes_a_d;
      lanes_b_q        <= lanes_b_d;
      turn_q           <= turn_d;
      turn_to_b_q      <= turn_to_b_d;
      switch_cnt_q     <= switch_cnt_d;
      decision_valid_q <= decision_valid_d;
      decision_q       <= decision_d;
    end
  end

  // ---------------------------------------------------------------------------------------------------------
  // Outputs. Lane layout: A lanes at the bottom (0 .. lanes_a-1), B lanes at the top, and during a turn the
  // turning lane between them at index lanes_a. Turning toward B takes the highest A lane and toward A the
  // lowest B lane, so the groups stay contiguous and a lane's direction is one comparison with lanes_a.
  // ---------------------------------------------------------------------------------------------------------
  assign lanes_a_o        = lanes_a_q;
  assign lanes_b_o        = lanes_b_q;
  assign decision_valid_o = decision_valid_q;
  assign decision_o       = decision_q;

  for (genvar i = 0; i < Lanes; i++) begin : gen_lane
    localparam logic [LaneCntW-1:0] Idx = LaneCntW'(i);
    logic is_turning;
    assign is_turning        = turning && (lanes_a_q == Idx);
    assign lane_dir_o[i]     = is_turning ? turn_to_b_q : (Idx >= lanes_a_q);
    assign lane_quiesce_o[i] = is_turning && (turn_q == TurnQuiesce);
    assign lane_switch_o[i]  = is_turning && (turn_q == TurnSwitch);
  end

`ifdef NUMAGPU_ASSERTIONS
  // ---------------------------------------------------------------------------------------------------------
  // Invariants of docs/policies.md, proven for all reachable states by scripts/rtl_formal.sh (yosys
  // sat -tempinduct, FORMAL defined; the script holds rst_ni low in the first step, which is not checked),
  // and checked in every cycle of the Verilated lockstep runs (Verilator --assert +define+NUMAGPU_ASSERTIONS).
  // Not synthesized. Each assertion is named for the invariant it checks (the name is in a failure report).
  // ---------------------------------------------------------------------------------------------------------
  `NUMAGPU_ASSERT_CHECKED(clk_i, rst_ni)
  logic [Lanes-1:0] f_active_a, f_active_b, f_turning;
  assign f_active_a = ~lane_dir_o & ~lane_quiesce_o & ~lane_switch_o;
  assign f_active_b = lane_dir_o & ~lane_quiesce_o & ~lane_switch_o;
  assign f_turning  = lane_quiesce_o | lane_switch_o;

  `NUMAGPU_ASSERT_PROCESS(clk_i) begin
    if (f_checked) begin
      // The turn FSM never holds its unused encoding.
      `NUMAGPU_ASSERT(TurnStateValid_A, turn_q == TurnIdle || turn_q == TurnQuiesce || turn_q == TurnSwitch)
      // At least one active lane per direction.
      `NUMAGPU_ASSERT(LanesAFloor_A, lanes_a_o >= LaneCntW'(1))
      `NUMAGPU_ASSERT(LanesBFloor_A, lanes_b_o >= LaneCntW'(1))
      // Every lane is accounted for: active A + active B + the turning lane.
      `NUMAGPU_ASSERT(LanesSum_A, 32'(lanes_a_o) + 32'(lanes_b_o) + 32'(turning) == Lanes)
      // A turning lane carries nothing: the per-lane view agrees with the counts and excludes it.
      `NUMAGPU_ASSERT(ActiveALanes_A, $countones(f_active_a) == 32'(lanes_a_o))
      `NUMAGPU_ASSERT(ActiveBLanes_A, $countones(f_active_b) == 32'(lanes_b_o))
      `NUMAGPU_ASSERT(TurningLanes_A, $countones(f_turning) == 32'(turning))
      `NUMAGPU_ASSERT(QuiesceXorSwitch_A, (lane_quiesce_o & lane_switch_o) == '0)
      // Decision codes stay within the documented set.
      `NUMAGPU_ASSERT(DecisionCode_A, decision_q <= DecBusyTurning)
      if (rst_ni && !kernel_launch_i) begin
        // Outside reset/launch, a lane count moves by at most one per cycle ...
        `NUMAGPU_ASSERT(LanesAStep_A, 32'(lanes_a_d) <= 32'(lanes_a_q) + 1 && 32'(lanes_a_q) <= 32'(lanes_a_d) + 1)
        `NUMAGPU_ASSERT(LanesBStep_A, 32'(lanes_b_d) <= 32'(lanes_b_q) + 1 && 32'(lanes_b_q) <= 32'(lanes_b_d) + 1)
        // ... a turn starts only at a window end, and a count only drops when one starts.
        `NUMAGPU_ASSERT(TurnStartsAtWindowEnd_A, turn_q != TurnIdle || turn_d == TurnIdle || win_end)
        `NUMAGPU_ASSERT(CountDropsOnTurnStart_A, (lanes_a_d >= lanes_a_q && lanes_b_d >= lanes_b_q) || (win_end && start_turn))
      end
    end
  end
`endif

endmodule
