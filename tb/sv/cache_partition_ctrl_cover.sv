// SPDX-FileCopyrightText: numagpu authors
//
// Functional cover points of rtl/cache_partition_ctrl.sv, from its ports: every decision path (each decision
// code is one branch of the decision logic), the split at either floor, and launches/resets away from the
// equal split. Instantiated beside the DUT by the Verilator testbenches; `verilator --coverage` counts each
// `cover property` as a user point (docs/rtl.md, "Coverage").

module cache_partition_ctrl_cover #(
  parameter logic [31:0] Ways = 16,
  localparam logic [31:0] WayCntW = $clog2(Ways + 1)
) (
  input logic               clk_i,
  input logic               rst_ni,
  input logic               kernel_launch_i,
  input logic [WayCntW-1:0] remote_ways_o,
  input logic               decision_valid_o,
  input logic [2:0]         decision_o
);
  // One point per decision code (written out: Verilator merges the points of a generate loop into one).
  DecNone_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 3'd0);
  DecToRemote_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 3'd1);
  DecToLocal_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 3'd2);
  DecEqualToRemote_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 3'd3);
  DecEqualToLocal_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 3'd4);
  DecBalanced_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 3'd5);
  DecBlockedToRemote_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 3'd6);
  DecBlockedToLocal_C: cover property (@(posedge clk_i) rst_ni && decision_valid_o && decision_o == 3'd7);
  RemoteAtFloor_C: cover property (@(posedge clk_i) rst_ni && remote_ways_o == WayCntW'(1));
  LocalAtFloor_C: cover property (@(posedge clk_i) rst_ni && remote_ways_o == WayCntW'(Ways - 1));
  LaunchAwayFromEqual_C: cover property (@(posedge clk_i) rst_ni && kernel_launch_i &&
                                         remote_ways_o != WayCntW'(Ways / 2));
  ResetAwayFromEqual_C: cover property (@(posedge clk_i) !rst_ni && remote_ways_o != WayCntW'(Ways / 2));
endmodule
