// SPDX-FileCopyrightText: numagpu authors
//
// Cache partition controller: once per sample window, moves at most one way between the local and the
// remote group of a socket's L1s and L2, from the socket's DRAM utilization and its incoming link
// utilization estimated from outgoing read requests. Interface, timing and rules: docs/policies.md;
// reference model: models/policy/partition_controller.hpp.
//
// Every output is a function of flip-flops only (Moore), so an input first shows on the outputs in the next
// cycle.
//
// Reset: rst_ni is synchronous and active low. It is sampled at the rising edge of clk_i like any other
// input (every flip-flop is `always_ff @(posedge clk_i)`, none has an asynchronous term): a rising edge with
// rst_ni low resets, and without a clock edge it has no effect. Only the name follows the lowRISC port
// convention, where rst_ni is usually asynchronous.

`include "numagpu_assert.svh"

// Parameters are `logic [31:0]` (unsigned 32-bit), not `int unsigned`, which Icarus Verilog 11 does not
// read: the RTL keeps to the subset Verilator, yosys and Icarus share (rtl/numagpu_assert.svh, docs/rtl.md).
module cache_partition_ctrl #(
  /// Ways of the socket's caches; at least 2.
  parameter logic [31:0] Ways = 16,
  /// Sample window length in cycles; 1 .. 2^31-1.
  parameter logic [31:0] SampleCycles = 5000,
  /// Saturation fraction, numerator; 1 .. 65535.
  parameter logic [31:0] SatNum = 99,
  /// Saturation fraction, denominator; 1 .. 65535.
  parameter logic [31:0] SatDen = 100,
  /// Bytes of one read response packet on the link (line + header); 1 .. 65535.
  parameter logic [31:0] RespBytes = 144,
  /// Link ingress capacity in bytes per cycle; 1 .. 65535.
  parameter logic [31:0] IngressBytesPerCycle = 64,
  /// Width of read_reqs_i (read requests sent per cycle, 0 .. 2**ReqW-1); 1 .. 16.
  parameter logic [31:0] ReqW = 2,
  /// Derived: DRAM busy cycles that saturate, ceil(SatNum * SampleCycles / SatDen), in 64 bits.
  localparam logic [63:0] DramThrRaw = (64'(SatNum) * 64'(SampleCycles) + 64'(SatDen) - 64'd1) / 64'(SatDen),
  /// Derived: DramThrRaw clamped to SampleCycles + 1 ("never"), which keeps the counter narrow.
  localparam logic [31:0] DramThr =
      32'((DramThrRaw > 64'(SampleCycles)) ? 64'(SampleCycles) + 64'd1 : DramThrRaw),
  /// Derived: read requests that saturate the ingress estimate,
  /// ceil(SatNum * IngressBytesPerCycle * SampleCycles / (RespBytes * SatDen)), in 64 bits.
  localparam logic [63:0] LinkThrRaw =
      (64'(SatNum) * 64'(IngressBytesPerCycle) * 64'(SampleCycles) + 64'(RespBytes) * 64'(SatDen) - 64'd1) /
      (64'(RespBytes) * 64'(SatDen)),
  /// Derived: the most read requests a window can count, SampleCycles * (2**ReqW - 1).
  localparam logic [63:0] ReqMax = 64'(SampleCycles) * ((64'd1 << ReqW) - 64'd1),
  /// Derived: LinkThrRaw clamped to ReqMax + 1 ("never").
  localparam logic [31:0] LinkThr = 32'((LinkThrRaw > ReqMax) ? ReqMax + 64'd1 : LinkThrRaw),
  /// Derived, do not override: width of a way count (0 .. Ways).
  localparam logic [31:0] WayCntW = $clog2(Ways + 1),
  /// Width of the window position counter (0 .. SampleCycles-1); may be widened, not narrowed.
  parameter logic [31:0] WinCntW = (SampleCycles > 1) ? $clog2(SampleCycles) : 1,
  /// Width of the saturating DRAM busy counter (0 .. DramThr); may be widened, not narrowed.
  parameter logic [31:0] DramCntW = $clog2(DramThr + 1),
  /// Width of the saturating read request counter (0 .. LinkThr); may be widened, not narrowed.
  parameter logic [31:0] ReqCntW = $clog2(LinkThr + 1)
) (
  /// Clock (GPU clock).
  input  logic               clk_i,
  /// Synchronous reset, active low: equal split, window restarted.
  input  logic               rst_ni,
  /// Kernel launch strobe: the same effect as reset; the inputs of this cycle are discarded.
  input  logic               kernel_launch_i,
  /// The socket's DRAM was busy this cycle.
  input  logic               dram_busy_i,
  /// Remote read requests the socket sent this cycle.
  input  logic [ReqW-1:0]    read_reqs_i,
  /// Ways remote lines may allocate into.
  output logic [WayCntW-1:0] remote_ways_o,
  /// Ways local lines may allocate into (Ways - remote_ways_o).
  output logic [WayCntW-1:0] local_ways_o,
  /// Per way: 1 = allocates remote lines. The remote ways are the highest remote_ways_o ways.
  output logic [Ways-1:0]    remote_mask_o,
  /// One-cycle pulse in the first cycle after a window's decision.
  output logic               decision_valid_o,
  /// Code of the last decision (docs/policies.md), held until the next one; 0 after reset/launch.
  output logic [2:0]         decision_o
);

  // Parameter checks at elaboration: a counter narrower than its range would wrap silently.
  if (Ways < 2) begin : gen_check_ways
    `NUMAGPU_PARAM_ERROR("cache_partition_ctrl: Ways must be at least 2")
  end
  // The upper limits keep the 64-bit threshold arithmetic above exact (docs/policies.md).
  if (SampleCycles < 1 || SampleCycles >= 2**31 || SatNum < 1 || SatNum >= 2**16 || SatDen < 1 ||
      SatDen >= 2**16 || RespBytes < 1 || RespBytes >= 2**16 || IngressBytesPerCycle < 1 ||
      IngressBytesPerCycle >= 2**16 || ReqW < 1 || ReqW > 16) begin : gen_check_range
    `NUMAGPU_PARAM_ERROR("cache_partition_ctrl: a parameter is out of range")
  end
  if (ReqMax >= 64'h1_0000_0000) begin : gen_check_req_max
    `NUMAGPU_PARAM_ERROR("cache_partition_ctrl: SampleCycles * (2^ReqW - 1) must be below 2^32")
  end
  // The window counters check their own widths (rtl/prim/prim_window_counter.sv).

  // Same values as numagpu::policy::PartitionController::Decision.
  typedef enum logic [2:0] {
    DecNone            = 3'd0,
    DecToRemote        = 3'd1,
    DecToLocal         = 3'd2,
    DecEqualToRemote   = 3'd3,
    DecEqualToLocal    = 3'd4,
    DecBalanced        = 3'd5,
    DecBlockedToRemote = 3'd6,
    DecBlockedToLocal  = 3'd7
  } decision_e;

  localparam logic [WayCntW-1:0] AllWays = WayCntW'(Ways);
  localparam logic [WayCntW-1:0] HalfWays = WayCntW'(Ways / 2);

  logic [WayCntW-1:0]  remote_d, remote_q;
  logic                decision_valid_d, decision_valid_q;
  decision_e           decision_d, decision_q;

  // ---------------------------------------------------------------------------------------------------------
  // Window: its position, and the counts including this cycle, which saturate at their threshold. All three
  // restart at a window end and at a kernel launch.
  // ---------------------------------------------------------------------------------------------------------
  logic win_end;
  logic dram_sat, link_sat;

  prim_window_counter #(.Threshold(SampleCycles), .Wrap(1), .Width(WinCntW)) u_win_cnt (
    .clk_i, .rst_ni, .clr_i(kernel_launch_i), .inc_i(1'b1), .reached_o(win_end)
  );

  // busy * SatDen >= SatNum * SampleCycles  <=>  busy >= DramThr
  prim_window_counter #(.Threshold(DramThr), .Width(DramCntW)) u_dram_cnt (
    .clk_i, .rst_ni, .clr_i(kernel_launch_i || win_end), .inc_i(dram_busy_i), .reached_o(dram_sat)
  );

  // reqs * RespBytes * SatDen >= SatNum * IngressBytesPerCycle * SampleCycles  <=>  reqs >= LinkThr.
  // Outgoing read requests stand for the responses they will bring in, so incoming writes from other
  // sockets cannot make the link look saturated.
  prim_window_counter #(.IncW(ReqW), .Threshold(LinkThr), .Width(ReqCntW)) u_req_cnt (
    .clk_i, .rst_ni, .clr_i(kernel_launch_i || win_end), .inc_i(read_reqs_i), .reached_o(link_sat)
  );

  // ---------------------------------------------------------------------------------------------------------
  // Decision of the window ending in this cycle (used only when win_end).
  // ---------------------------------------------------------------------------------------------------------
  logic [WayCntW-1:0] local_q;
  decision_e          decision;

  assign local_q = AllWays - remote_q;

  always_comb begin
    decision = DecNone;
    if (link_sat && !dram_sat) begin
      // Written as if/else, not ?: on enum values, which Icarus Verilog 11 rejects without a cast.
      if (local_q >= WayCntW'(2)) begin
        decision = DecToRemote;
      end else begin
        decision = DecBlockedToRemote;
      end
    end else if (dram_sat && !link_sat) begin
      if (remote_q >= WayCntW'(2)) begin
        decision = DecToLocal;
      end else begin
        decision = DecBlockedToLocal;
      end
    end else if (link_sat && dram_sat) begin
      // Ways/2 lies in [1, Ways-1], so stepping toward it never meets a floor.
      if (remote_q < HalfWays) begin
        decision = DecEqualToRemote;
      end else if (remote_q > HalfWays) begin
        decision = DecEqualToLocal;
      end else begin
        decision = DecBalanced;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------------------
  // Next state.
  // ---------------------------------------------------------------------------------------------------------
  always_comb begin
    remote_d         = remote_q;
    decision_valid_d = 1'b0;
    decision_d       = decision_q;

    if (kernel_launch_i) begin
      // The caches were just flushed for coherence: start again from the equal split.
      remote_d   = HalfWays;
      decision_d = DecNone;
    end else if (win_end) begin
      decision_valid_d = 1'b1;
      decision_d       = decision;
      if (decision == DecToRemote || decision == DecEqualToRemote) begin
        remote_d = remote_q + WayCntW'(1);
      end else if (decision == DecToLocal || decision == DecEqualToLocal) begin
        remote_d = remote_q - WayCntW'(1);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      remote_q         <= HalfWays;
      decision_valid_q <= 1'b0;
      decision_q       <= DecNone;
    end else begin
      remote_q         <= remote_d;
      decision_valid_q <= decision_valid_d;
      decision_q       <= decision_d;
    end
  end

  // ---------------------------------------------------------------------------------------------------------
  // Outputs. Remote ways are the top ones, ways local_q .. Ways-1, so the mask is a thermometer code.
  // ---------------------------------------------------------------------------------------------------------
  assign remote_ways_o    = remote_q;
  assign local_ways_o     = local_q;
  assign decision_valid_o = decision_valid_q;
  assign decision_o       = decision_q;

  for (genvar w = 0; w < Ways; w++) begin : gen_way
    assign remote_mask_o[w] = (WayCntW'(w) >= local_q);
  end

`ifdef NUMAGPU_ASSERTIONS
  // ---------------------------------------------------------------------------------------------------------
  // Invariants of docs/policies.md, proven for all reachable states by scripts/rtl_formal.sh (yosys
  // sat -tempinduct, FORMAL defined; the script holds rst_ni low in the first step, which is not checked),
  // and checked in every cycle of the Verilated lockstep runs (Verilator --assert +define+NUMAGPU_ASSERTIONS).
  // Not synthesized. Each assertion is named for the invariant it checks (the name is in a failure report).
  // ---------------------------------------------------------------------------------------------------------
  `NUMAGPU_ASSERT_CHECKED(clk_i, rst_ni)
  logic [Ways-1:0] f_local_mask;
  assign f_local_mask = ~remote_mask_o;

  `NUMAGPU_ASSERT_PROCESS(clk_i) begin
    if (f_checked) begin
      // Each group keeps at least one way.
      `NUMAGPU_ASSERT(RemoteFloor_A, remote_ways_o >= WayCntW'(1))
      `NUMAGPU_ASSERT(LocalFloor_A, remote_ways_o <= WayCntW'(Ways - 1))
      `NUMAGPU_ASSERT(WaysSum_A, 32'(remote_ways_o) + 32'(local_ways_o) == Ways)
      // The mask has exactly remote_ways bits set, all above the local ones (a thermometer code).
      `NUMAGPU_ASSERT(MaskCount_A, $countones(remote_mask_o) == 32'(remote_ways_o))
      `NUMAGPU_ASSERT(MaskThermometer_A, (f_local_mask & (f_local_mask + Ways'(1))) == '0)
      if (rst_ni && !kernel_launch_i) begin
        // The split moves by at most one way per cycle, and only at a window end (which the window
        // counter makes once per SampleCycles cycles): at most one way per window.
        `NUMAGPU_ASSERT(RemoteStep_A, 32'(remote_d) <= 32'(remote_q) + 1 && 32'(remote_q) <= 32'(remote_d) + 1)
        `NUMAGPU_ASSERT(RemoteAtWindowEnd_A, remote_d == remote_q || win_end)
      end
    end
  end
`endif

endmodule
