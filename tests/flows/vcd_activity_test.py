#!/usr/bin/env python3
"""scripts/vcd_activity.py on a hand-written VCD whose counts are derived by hand below: a 2-bit counter
dumped under two names (Verilator names every signal that carries a net; the SAIF must list both), a vector
value written without its leading zero, an input port, a clock of period 10 ps, and a parameter (not a net:
the SAIF must not list it); and a malformed VCD is one line and exit status 2.

Usage: vcd_activity_test.py SOURCE_DIR WORKDIR
"""
import os
import re
import shutil
import subprocess
import sys

src, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
VCD = """$timescale 1ps $end
$scope module blk $end
$var wire 1 ! clk_i $end
$scope module blk $end
$var wire 1 ! clk_i $end
$var wire 2 " cnt_q [1:0] $end
$var wire 2 " cnt_o [1:0] $end
$var wire 1 # in_i $end
$var parameter 32 $ WINDOW [31:0] $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
0!
b0 "
0#
b1010 $
#5
1!
b1 "
#10
0!
1#
#15
1!
b10 "
#20
0!
0#
#25
1!
b11 "
#30
0!
#35
1!
b0 "
"""
# By hand. Rising clock edges at 5, 15, 25, 35: 4 cycles of 10 ps, the window [0, 40).
#   clk_i     0 1 0 1 0 1 0 1 at 0,5,...,35: 7 toggles, high 5+5+5+5 = 20
#   cnt[0]    0 @0, 1 @5, 0 @15, 1 @25, 0 @35: 4 toggles, high (15-5) + (35-25) = 20
#   cnt[1]    0 @0 ("b1" is 01), 1 @15, 1 @25 (b11), 0 @35: 2 toggles, high 35-15 = 20
#   in_i      0 @0, 1 @10, 0 @20: 2 toggles, high 10: activity 2/4 = 0.5 per cycle, duty 10/40 = 0.25
EXPECTED = {"clk_i": (20, 20, 7), r"cnt_q\[0\]": (20, 20, 4), r"cnt_q\[1\]": (20, 20, 2),
            r"cnt_o\[0\]": (20, 20, 4), r"cnt_o\[1\]": (20, 20, 2), "in_i": (30, 10, 2)}
with open(f"{work}/blk.vcd", "w") as f:
    f.write(VCD)
script = f"{src}/scripts/vcd_activity.py"
p = subprocess.run([sys.executable, script, f"{work}/blk.vcd", "--saif", f"{work}/blk.saif", "--sta-tcl",
                    f"{work}/blk.tcl"], capture_output=True, text=True)
failures = []
if p.returncode != 0:
    sys.exit(f"vcd_activity_test: exit {p.returncode}: {p.stderr}")
if "blk, 4 cycles (40 ps), 4 signals (4 distinct bits)" not in p.stdout:
    failures.append(f"summary: {p.stdout!r}")
saif = open(f"{work}/blk.saif").read()
if "(DURATION 40)" not in saif or "(TIMESCALE 1 ps)" not in saif:
    failures.append("SAIF header")
nets = {m.group(1): tuple(int(x) for x in m.groups()[1:])
        for m in re.finditer(r"\((\S+) \(T0 (\d+)\) \(T1 (\d+)\) \(TX 0\) \(TC (\d+)\)", saif)}
if nets != EXPECTED:
    failures.append(f"SAIF nets {nets}, expected {EXPECTED}")
tcl = [l for l in open(f"{work}/blk.tcl") if l.startswith("set_power_activity")]
if tcl != ["set_power_activity -input_ports [get_ports {in_i}] -activity 0.5 -duty 0.25\n"]:
    failures.append(f"Tcl {tcl}")

with open(f"{work}/bad.vcd", "w") as f:
    f.write("$var wire 1 ! x $end\n#0\n1!\n#oops\n")
p = subprocess.run([sys.executable, script, f"{work}/bad.vcd", "--saif", f"{work}/bad.saif"],
                   capture_output=True, text=True)
if p.returncode != 2 or p.stderr.count("\n") != 1 or "bad.vcd" not in p.stderr or os.path.exists(f"{work}/bad.saif"):
    failures.append(f"malformed VCD: exit {p.returncode}, {p.stderr!r}")
if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print("vcd_activity_test: ok")
