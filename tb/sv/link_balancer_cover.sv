// SPDX-FileCopyrightText: numagpu authors
//
// Functional cover points of rtl/link_balancer.sv, from its ports: every decision path (each decision code is
// one branch of the decision logic), and the events around a turn that the rules single out. Instantiated
// beside the DUT by the Verilator testbenches (tb/sv/link_balancer_tb.sv, link_balancer_vectors_tb.sv);
// `verilator --coverage` counts each `cover property` as a user point (docs/rtl.md, "Coverage").

module link_balancer_cover #(
  parameter logic [31:0] Lanes = 16,
  localparam logic [31:0] LaneCntW = $clog2(Lanes + 1)
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic                kernel_launch_i,
  input logic                drained_i,
  input logic [LaneCntW-1:0] lanes_a_o,
  input logic [LaneCntW-1:0] lanes_b_o,
  input logic [Lanes-1:0]    lane_quiesce_o,
  input logic [Lanes-1:0]    lane_switch_o,
  input logic                decision_valid_o,
  input logic [3:0]          decision_o
);
  // One point per decision code (written out: Verilator merges the points of a generate loop into one).
  DecNone_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 4'd0);
  DecTurnToA_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 4'd1);
  DecTurnToB_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 4'd2);
  DecRebalToA_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 4'd3);
  DecRebalToB_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 4'd4);
  DecBalanced_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 4'd5);
  DecBlockedToA_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 4'd6);
  DecBlockedToB_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 4'd7);
  DecBusyTurning_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 4'd8);
  DrainedWhileQuiescing_C: cover property (@(posedge clk_i)
                                           rst_ni && !kernel_launch_i && lane_quiesce_o != '0 && drained_i);
  DrainedIgnored_C: cover property (@(posedge clk_i)
                                    rst_ni && !kernel_launch_i && lane_quiesce_o == '0 && drained_i);
  LaunchWhileQuiescing_C: cover property (@(posedge clk_i) rst_ni && kernel_launch_i && lane_quiesce_o != '0);
  LaunchWhileSwitching_C: cover property (@(posedge clk_i) rst_ni && kernel_launch_i && lane_switch_o != '0);
  ResetWhileTurning_C: cover property (@(posedge clk_i) !rst_ni && (lane_quiesce_o | lane_switch_o) != '0);
  AAtFloor_C: cover property (@(posedge clk_i) rst_ni && lanes_a_o == LaneCntW'(1));
  BAtFloor_C: cover property (@(posedge clk_i) rst_ni && lanes_b_o == LaneCntW'(1));
endmodule
