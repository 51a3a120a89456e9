// Both policy blocks and what they read. Paths are relative to $NUMAGPU_RTL: the folder of this file
// (rtl/ in the source tree, <prefix>/share/numagpu/rtl installed). docs/rtl.md, "The installed kit".
+incdir+${NUMAGPU_RTL}
${NUMAGPU_RTL}/prim/prim_window_counter.sv
${NUMAGPU_RTL}/link_balancer.sv
${NUMAGPU_RTL}/cache_partition_ctrl.sv
