// SPDX-FileCopyrightText: numagpu authors
//
// The counter both policy blocks count their sample windows with (rtl/link_balancer.sv,
// rtl/cache_partition_ctrl.sv): each cycle it adds inc_i and reports in reached_o whether the count including
// this cycle has reached Threshold. Two kinds of use:
// - the window position (Wrap = 1, inc_i = 1, Threshold = the window length): the count restarts at 0 in the
//   cycle it reaches Threshold, so it holds 0 .. Threshold-1 and reached_o is high in the window's last cycle;
// - an event count in a window (Wrap = 0): the count holds Threshold once reached, because a decision only
//   needs to know whether the threshold was reached and counting further would only cost flip-flops.
// clr_i restarts the count at 0 (kernel launch, window end) and wins over everything; reached_o does not
// depend on it, so a user may clear with its own reached_o.
//
// Reset: rst_ni is synchronous and active low, as in the blocks that use it (docs/rtl.md).

`include "numagpu_assert.svh"

// Parameters are `logic [31:0]`, as in the blocks (Icarus Verilog 11 does not read `int unsigned`).
module prim_window_counter #(
  /// Width of inc_i; 1 .. 16, and 1 with Wrap.
  parameter logic [31:0] IncW = 1,
  /// The count reached_o reports; 1 .. 2^31-1.
  parameter logic [31:0] Threshold = 1,
  /// 1: the count restarts at 0 when it reaches Threshold (a window position); 0: it holds Threshold.
  parameter logic [31:0] Wrap = 0,
  /// Width of the count: at least $clog2(Threshold) with Wrap (it holds 0 .. Threshold-1), else
  /// $clog2(Threshold + 1) (0 .. Threshold); may be wider.
  parameter logic [31:0] Width = (Wrap != 0) ? ((Threshold > 1) ? $clog2(Threshold) : 1) : $clog2(Threshold + 1)
) (
  /// Clock.
  input  logic            clk_i,
  /// Synchronous reset, active low: count 0.
  input  logic            rst_ni,
  /// Restart the count at 0 in the next cycle; this cycle's inc_i is discarded.
  input  logic            clr_i,
  /// Added to the count this cycle.
  input  logic [IncW-1:0] inc_i,
  /// The count including this cycle's inc_i is at least Threshold.
  output logic            reached_o
);

  // Parameter checks at elaboration: a count narrower than its range would wrap silently.
  if (IncW < 1 || IncW > 16 || (Wrap != 0 && IncW != 1) || Threshold < 1 || Threshold >= 2**31)
      begin : gen_check_range
    `NUMAGPU_PARAM_ERROR("prim_window_counter: a parameter is out of range")
  end
  if ((Wrap != 0 && Threshold > 1 && Width < $clog2(Threshold)) ||
      (Wrap == 0 && Width < $clog2(Threshold + 1)) || Width < 1) begin : gen_check_width
    `NUMAGPU_PARAM_ERROR("prim_window_counter: Width is narrower than the count's range")
  end

  // Wide enough for a count plus one cycle's increment. A window position needs no carry: it restarts at 0
  // in the cycle it reaches Threshold <= 2^Width.
  localparam logic [31:0] SumW = (Wrap != 0) ? Width : ((Width > IncW) ? Width : IncW) + 1;
  localparam logic [SumW-1:0] ThresholdSum = SumW'(Threshold);
  // The count after the cycle that reaches Threshold: 0 with Wrap, else Threshold (held).
  localparam logic [Width-1:0] ReachedCnt = (Wrap != 0) ? '0 : Width'(Threshold);

  logic [Width-1:0] cnt_d, cnt_q;
  logic [SumW-1:0]  sum;

  assign sum = SumW'(cnt_q) + SumW'(inc_i);
  if (Wrap != 0) begin : gen_wrap
    // Counting cycles (inc_i is 1), the count including this cycle is Threshold when the count is
    // Threshold-1: an equality, cheaper than the comparison below.
    assign reached_o = (cnt_q == Width'(Threshold - 1));
  end else begin : gen_sat
    assign reached_o = (sum >= ThresholdSum);
  end

  always_comb begin
    cnt_d = reached_o ? ReachedCnt : Width'(sum);
    if (clr_i) begin
      cnt_d = '0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else begin
      cnt_q <= cnt_d;
    end
  end

endmodule
