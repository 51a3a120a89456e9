#!/usr/bin/env python3
"""The in-loop RTL's waveforms and the gate-level power flow (docs/rtl.md, docs/power.md):

1. `policy.impl: rtl` with `rtl.waves: true` writes one rtl_<block>.vcd per Verilated block, covering exactly
   the cycle window, and changes no statistic (the model run's stats.json equals it);
2. a rerun into the same directory without waves leaves no VCD of the earlier run;
3. scripts/vcd_activity.py turns a dump into SAIF and OpenSTA Tcl, with the counts the RTL implies;
4. OpenSTA (Debian's `opensta`) reads the demo library, a yosys netlist of the block mapped to it and the
   Tcl: its leakage is the library's stated per-cell figures summed over the netlist, and the dump's input
   activity changes the dynamic power. Without yosys or sta this step is skipped (and fails under CI=true).

Usage: rtl_power_flow.py NUMAGPU SOURCE_DIR WORKDIR
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

numagpu, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []
START, CYCLES = 1000, 4000  # the dump window


def check(cond, what):
    if not cond:
        failures.append(what)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"rtl_power_flow: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()[:2000]}")
    return p


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
common = ["--set", "link.mode=dynamic", "--set", "l2.organization=numa_aware"]
run([numagpu, "run", "-q", "-o", f"{work}/model", *common])
run([numagpu, "run", "-q", "-o", f"{work}/rtl", *common, "--set", "policy.impl=rtl", "--set", "rtl.waves=true",
     "--set", f"rtl.waves_start={START}", "--set", f"rtl.waves_cycles={CYCLES}"])

# 1. Same statistics; one VCD per block: the paper's 4 sockets, each with one link (balancer) and one
# partition controller.
run([sys.executable, f"{src}/scripts/compare_stats.py", f"{work}/model/stats.json", f"{work}/rtl/stats.json"])
vcds = sorted(f for f in os.listdir(f"{work}/rtl") if f.endswith(".vcd") and f.startswith("rtl_"))
want = sorted([f"rtl_link_gpu{g}_switch0.vcd" for g in range(4)] + [f"rtl_socket{s}_partition.vcd" for s in range(4)])
check(vcds == want, f"VCDs {vcds}, expected {want}")
for v in vcds:
    stamps = [int(l[1:]) for l in open(f"{work}/rtl/{v}") if l.startswith("#")]
    # Two instants per cycle at 1 GHz: clock low at c x 1000 ps, its rising edge 500 ps later.
    check(len(stamps) == 2 * CYCLES and stamps[0] == START * 1000 and stamps[-1] == (START + CYCLES - 1) * 1000 + 500,
          f"{v}: {len(stamps)} instants from {stamps[:1]} to {stamps[-1:]}")

# 2. A rerun without waves removes them.
shutil.copytree(f"{work}/rtl", f"{work}/rerun")
run([numagpu, "run", "-q", "-o", f"{work}/rerun", *common, "--set", "policy.impl=rtl"])
left = [f for f in os.listdir(f"{work}/rerun") if f.endswith(".vcd") and f != "lanes.vcd"]
check(left == [], f"a rerun without rtl.waves left {left}")

# 3. Switching activity from one link balancer's dump.
vcd = f"{work}/rtl/rtl_link_gpu0_switch0.vcd"
p = run([sys.executable, f"{src}/scripts/vcd_activity.py", vcd, "--saif", f"{work}/lb.saif",
         "--sta-tcl", f"{work}/lb_activity.tcl"])
check(f"{CYCLES} cycles ({CYCLES * 1000} ps)" in p.stdout, f"vcd_activity summary: {p.stdout}")
saif = open(f"{work}/lb.saif").read()
check(f"(DURATION {CYCLES * 1000})" in saif, "SAIF duration")


def saif_nets(text):
    return {m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4)))
            for m in re.finditer(r"\((\S+) \(T0 (\d+)\) \(T1 (\d+)\) \(TX 0\) \(TC (\d+)\)", text)}


check(all(t0 + t1 == CYCLES * 1000 for t0, t1, _ in saif_nets(saif).values()),
      "SAIF: T0 + T1 != DURATION for some net")
# Issue 47: no RTL parameter (parameter or localparam of the block or of its primitives) is listed as a net:
# Verilator dumps them as wires unless built with --no-trace-params (models/CMakeLists.txt).
rtl_params = set()
for sv in [f"{src}/rtl/link_balancer.sv"] + [f"{src}/rtl/prim/{f}" for f in os.listdir(f"{src}/rtl/prim")]:
    if sv.endswith(".sv"):
        rtl_params |= set(re.findall(r"\b(?:parameter|localparam)\b[^=;]*?\b([A-Za-z_]\w*)\s*=", open(sv).read()))
listed = {re.sub(r"\\\[\d+\\\]$", "", n) for n in saif_nets(saif)}
check(rtl_params and not (rtl_params & listed), f"SAIF lists RTL parameters as nets: {sorted(rtl_params & listed)}")
# The block's own nets come before its first instance; the window position counter is the instance u_win_cnt
# of rtl/prim/prim_window_counter.sv, its count register cnt_q.
blocks = saif.split("(INSTANCE ")
nets = saif_nets(blocks[1])
win_cnt = next((saif_nets(b) for b in blocks if b.startswith("u_win_cnt")), {})
# The clock toggles twice a cycle (its first value in the window is no toggle): 2 x CYCLES - 1. The window
# position counter's LSB toggles every cycle but those of a kernel launch (it restarts at 0, and toggles only
# if it was 1); kernel_launch_i rises and falls once per launch.
check(nets["clk_i"][2] == 2 * CYCLES - 1, f"clk_i toggles {nets['clk_i'][2]}")
launches = nets["kernel_launch_i"][2] // 2 + nets["kernel_launch_i"][2] % 2
lsb = win_cnt.get(r"cnt_q\[0\]", (0, 0, -1))[2]
check(CYCLES - launches <= lsb <= CYCLES,
      f"u_win_cnt/cnt_q[0] toggles {lsb} in {CYCLES} cycles with {launches} launches")
tcl = open(f"{work}/lb_activity.tcl").read()
check(tcl.count("set_power_activity -input_ports") == 5, "Tcl: not the 5 input ports "
      "(kernel_launch_i, busy_a_i, busy_b_i, drained_i, rst_ni)")

# 4. OpenSTA on the demo library.
yosys, sta = shutil.which("yosys"), shutil.which("sta")
if not yosys or not sta:
    if os.environ.get("CI") == "true":
        failures.append("CI=true and yosys or sta (Debian opensta) is missing")
    else:
        print("rtl_power_flow: yosys or sta missing (scripts/setup.sh installs them): OpenSTA step skipped")
else:
    lib = f"{src}/scripts/liberty/numagpu_demo.lib"
    prims = " ".join(sorted(glob.glob(f"{src}/rtl/prim/*.sv")))
    run([yosys, "-q", "-p", f"read_verilog -sv -I{src}/rtl {prims} {src}/rtl/link_balancer.sv; "
         "synth -flatten -top link_balancer; "
         f"dfflegalize -cell $_DFF_P_ 01; dfflibmap -liberty {lib}; abc -liberty {lib}; opt_clean; "
         f"tee -q -o {work}/cells.json stat -json; write_verilog -noattr {work}/lb_netlist.v"])
    cells = json.load(open(f"{work}/cells.json"))["design"]["num_cells_by_type"]
    # The library's stated leakage (its header): 1 nW per 4 transistors.
    leak_nw = {"INV_X1": 0.5, "BUF_X1": 1.0, "NAND2_X1": 1.0, "NOR2_X1": 1.0, "AND2_X1": 1.5, "OR2_X1": 1.5,
               "XOR2_X1": 2.5, "XNOR2_X1": 2.5, "MUX2_X1": 3.0, "DFF_X1": 6.0}
    expected_leak_w = sum(n * leak_nw[c] for c, n in cells.items()) * 1e-9

    def report(activity_lines):
        script = f"{work}/power_{len(activity_lines)}.tcl"
        with open(script, "w") as f:
            f.write(f"read_liberty {lib}\nread_verilog {work}/lb_netlist.v\nlink_design link_balancer\n"
                    "create_clock -name clk -period 1.0 [get_ports clk_i]\n" + "\n".join(activity_lines) +
                    "\nreport_power -digits 6\n")
        out = run([sta, "-no_splash", "-exit", script]).stdout
        check("Error" not in out, f"sta: {out[:500]}")
        total = re.search(r"^Total\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", out, re.M)
        return out, [float(x) for x in total.groups()]

    out, (internal, switching, leakage, total) = report([f"source {work}/lb_activity.tcl"])
    check("switching activity of 5 input ports set" in out, f"sta: {out[:300]}")
    check(abs(leakage - expected_leak_w) <= 1e-5 * expected_leak_w,  # sta computes in single precision
          f"leakage {leakage} W, the library's figures over the netlist give {expected_leak_w} W")
    _, (_, quiet_switching, _, quiet_total) = report(["set_power_activity -input -activity 0 -duty 0"])
    check(switching > quiet_switching and total > quiet_total,
          f"the dump's activity does not raise the power ({total} W vs {quiet_total} W with quiet inputs)")
    print(f"rtl_power_flow: OpenSTA: {total:.3e} W with the dump's input activity ({quiet_total:.3e} W quiet), "
          f"leakage {leakage:.4e} W = the library's figures")

if failures:
    for f in failures:
        print("FAIL:", f)
    sys.exit(1)
print("rtl_power_flow: ok")
