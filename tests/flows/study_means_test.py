#!/usr/bin/env python3
"""The paper's means (issue 49): scripts/plot_study.py gives every study table's means over all workloads and
without those at 99 % of theoretical, which a figure3 study decides (§3.1 of "Beyond the Socket": the
locality-optimized 4-socket GPU reaches 99 % of the 4x larger GPU's performance). Hand-made tables, the
expected numbers derived by hand below.

Usage: study_means_test.py SOURCE_DIR WORKDIR
"""
import contextlib
import io
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tests in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flows_check import Checks, fresh_dir, require, script_module  # noqa: E402

require("matplotlib", "study_means_test", "python3-matplotlib").use("Agg")
src, work = sys.argv[1], fresh_dir(sys.argv[2])
check = Checks("study_means_test")
study = script_module(src, "plot_study")
study.save = lambda fig, out_dir, name: None


def sweep(kind, axis, cycles):
    """A results table: cycles[workload][label]."""
    points = [{"id": f"{w}.{lab}", "workload": w, "labels": {axis: lab}, "status": "ok", "stats": {"cycles": c}}
              for w, by in cycles.items() for lab, c in by.items()]
    return {"format": "numagpu-sweep-results", "study": kind, "sweep": kind, "points": points}


# Figure 3: bigger4x cycles / locality cycles. a: 250 / 500 = 0.5; b: 258 / 260 = 0.992 (>= 0.99, left out);
# c: 296 / 300 = 0.987 (just below, kept); d: 250 / 240 = 1.04 (surpasses the 4x GPU, left out).
figure3 = sweep("figure3", "system", {
    "a": {"single": 1000, "traditional": 2000, "locality": 500, "bigger4x": 250},
    "b": {"single": 1000, "traditional": 2000, "locality": 260, "bigger4x": 258},
    "c": {"single": 1000, "traditional": 2000, "locality": 300, "bigger4x": 296},
    "d": {"single": 1000, "traditional": 2000, "locality": 240, "bigger4x": 250},
})
check(study.at_theoretical(figure3) == ["b", "d"], f"at theoretical: {study.at_theoretical(figure3)}")

# Figure 6, dynamic 5K/100 over static: a 1200/1000 = 1.2, b 1.0, c 1500/1000 = 1.5, d 900/1000 = 0.9.
# All four: (1.2 + 1.0 + 1.5 + 0.9) / 4 = 1.15; geometric (1.2 x 1.5 x 0.9)^(1/4) = 1.62^(1/4) = 1.128.
# Without b and d: (1.2 + 1.5) / 2 = 1.35; geometric sqrt(1.8) = 1.342.
figure6 = sweep("figure6", "link", {
    "a": {"static": 1200, "s5k_w100": 1000}, "b": {"static": 1000, "s5k_w100": 1000},
    "c": {"static": 1500, "s5k_w100": 1000}, "d": {"static": 900, "s5k_w100": 1000},
})


def rows(printed):
    """{row name: [cells]} of the printed Markdown tables."""
    out = {}
    for line in printed.splitlines():
        if line.startswith("| ") and not line.startswith("| workload"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out[cells[0]] = cells[1:]
    return out


def printed_by(function, results):
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        function(results, work)
    return text.getvalue()


study.AT_THEORETICAL = study.at_theoretical(figure3)
r = rows(printed_by(study.figure6, figure6))
for name, expected in (("mean (arith.)", 1.15), ("mean (geo.)", 1.128), ("mean (arith.), excl. 99 %", 1.35),
                       ("mean (geo.), excl. 99 %", 1.342)):
    got = float(r[name][0]) if name in r else None
    check(got is not None and abs(got - expected) < 0.006, f"{name}: {got}, expected {expected:.3f}")

# No figure3 study to say: the means over all workloads only.
study.AT_THEORETICAL = None
r = rows(printed_by(study.figure6, figure6))
check("mean (arith.)" in r and not any("excl." in k for k in r), f"rows without a reference: {list(r)}")

# The whole script: a figure3 study is its own reference (locality-optimized over 1 socket, b and d left out:
# (1000/500 + 1000/300) / 2 = (2 + 3.333) / 2 = 2.67); another study takes it as its third argument, and a
# reference that is not a figure3 study is refused.
for name, table in (("figure3", figure3), ("figure6", figure6)):
    with open(os.path.join(work, f"{name}.json"), "w") as f:
        json.dump(table, f)
script = [sys.executable, f"{src}/scripts/plot_study.py"]
p = subprocess.run(script + [f"{work}/figure3.json", f"{work}/out"], capture_output=True, text=True)
r = rows(p.stdout)
got = r.get("mean (arith.), excl. 99 %", [None, None])[1]
check(p.returncode == 0 and got == "2.67", f"figure3 alone: exit {p.returncode}, excl. mean {got}: {p.stderr}")
check("At 99 % of theoretical" in p.stdout and ": b, d" in p.stdout, "figure3 does not name b and d")
p = subprocess.run(script + [f"{work}/figure6.json", f"{work}/out", f"{work}/figure3.json"], capture_output=True,
                   text=True)
check(p.returncode == 0 and "mean (arith.), excl. 99 %" in p.stdout, f"figure6 with its reference: {p.stderr}")
p = subprocess.run(script + [f"{work}/figure6.json", f"{work}/out", f"{work}/figure6.json"], capture_output=True,
                   text=True)
check(p.returncode == 2 and "not a figure3 study" in p.stderr, f"a figure6 reference: exit {p.returncode}")

# Figure 3's remote share (docs/validation.md, "Figure 3 on the suite"): a socket's crossbar counts its SMs'
# requests and the requests arriving from its links for its memory, and sends to a link those homed elsewhere.
# Workload a, locality-optimized: the SMs send 1,000 requests, 250 homed elsewhere, which arrive at their homes'
# crossbars: xbar_requests = 1,000 + 250 = 1,250, to_link = 250, remote share 250 / (1,250 - 250) = 25.00 %.
# Traditional (pages interleaved over 4 sockets): 3 of 4 lines remote: 1,000 + 750 = 1,750 and 750: 75.00 %
# (not 750 / 1,750 = 42.86 %, the share of the crossbars' requests). Link bytes 3 x 2^20 = 3.00 MiB in all, of
# which the busiest direction carries 2^20 x 1.5 = 1.50 MiB (locality) and 2^20 x 2 = 2.00 MiB (traditional).
# Workload b has no crossbar counters (a spec without them): no numbers, no failure.
with_xbar = json.loads(json.dumps(figure3))
for p in with_xbar["points"]:
    if p["workload"] == "a" and p["labels"]["system"] == "locality":
        p["stats"].update(xbar_requests=1250, xbar_requests_to_link=250, link_bytes=3 * 2**20,
                          link_dir_bytes={"l0.to_gpu0": 3 * 2**19, "l0.to_switch0": 2**20,
                                          "l1.to_gpu1": 2**19})
    if p["workload"] == "a" and p["labels"]["system"] == "traditional":
        p["stats"].update(xbar_requests=1750, xbar_requests_to_link=750, link_bytes=6 * 2**20,
                          link_dir_bytes={"l0.to_gpu0": 2**21, "l1.to_gpu1": 2**21, "l2.to_gpu2": 2**21})
# The link-bound time: per window the busiest direction's busy cycles, summed, both runs at the coarser window.
# Traditional, windows of 1,000,000 cycles: X busy 50 % then 100 %, Y 100 % then 0 %; locality, one window of
# 2,000,000: X 60 %, Y 20 %. At 2,000,000 the traditional's X is (50 + 100) / 2 = 75 %, Y (100 + 0) / 2 = 50 %:
# 0.75 x 2,000,000 = 1.50 M cycles (at its own window it would read 1.0 + 1.0 = 2.00 M). Locality: 0.60 x
# 2,000,000 = 1.20 M; 1.20 / 1.50 = 0.80. Workload b has no series: no row.
for p in with_xbar["points"]:
    if p["workload"] == "a" and p["labels"]["system"] == "traditional":
        p["stats"].update(ingress_util={"X": {"window_cycles": 10**6, "values": [50, 100]}},
                          egress_util={"Y": {"window_cycles": 10**6, "values": [100, 0]}})
    if p["workload"] == "a" and p["labels"]["system"] == "locality":
        p["stats"].update(ingress_util={"X": {"window_cycles": 2 * 10**6, "values": [60]}},
                          egress_util={"Y": {"window_cycles": 2 * 10**6, "values": [20]}})
study.AT_THEORETICAL = None
text = printed_by(study.figure3, with_xbar)
bound = rows(text[text.index("## Link-bound time"):])
check(bound.get("a", [])[:3] == ["1.20", "1.50", "0.80"] and bound.get("a", [])[-1] == "2,000,000" and
      "b" not in bound, f"link-bound time rows: {bound}")
check("## Link-bound time" not in printed_by(study.figure3, figure3), "a link-bound table without the series")
# Link bytes per warp instruction, traditional: a moves 6 x 2^20 = 6,291,456 bytes in 1,048,576 instructions:
# 6.00 B each; its traditional run takes 2,000 cycles against 1,000 on one socket: 0.50. Without the counter
# (b, and the plain figure3 table) no row, no table.
for p in with_xbar["points"]:
    if p["workload"] == "a" and p["labels"]["system"] == "traditional":
        p["stats"].update(warp_instructions=2**20)
text = printed_by(study.figure3, with_xbar)
intensity = rows(text[text.index("## Link bytes per warp instruction"):])
check(intensity == {"a": ["6.00", "0.50"]}, f"link bytes per instruction rows: {intensity}")
check("## Link bytes per warp" not in printed_by(study.figure3, figure3), "an intensity table without the counter")
# Per socket: a's locality-optimized run, two sockets: 100 loads waiting 20,000 cycles in all (200 each) and
# 300 waiting 15,000 (50 each): slowest 200.00, fastest 50.00; DRAM reads 3,000 and 1,000 bytes: the busiest
# holds 3,000 / 4,000 = 75.00 %. Traditional: 100 each at 100 and 120 cycles, 500 and 500 bytes: 120.00,
# 100.00, 50.00 %. Locality over traditional 500 / 2,000 cycles = 0.25. A socket with no loads is skipped.
for p in with_xbar["points"]:
    if p["workload"] == "a" and p["labels"]["system"] == "locality":
        p["stats"].update(load_latency_sum_s0=20000, load_latency_count_s0=100, load_latency_sum_s1=15000,
                          load_latency_count_s1=300, load_latency_sum_s2=0, load_latency_count_s2=0,
                          dram_read_bytes={"s0": 3000, "s1": 1000})
    if p["workload"] == "a" and p["labels"]["system"] == "traditional":
        p["stats"].update(load_latency_sum_s0=10000, load_latency_count_s0=100, load_latency_sum_s1=12000,
                          load_latency_count_s1=100, dram_read_bytes={"s0": 500, "s1": 500})
text = printed_by(study.figure3, with_xbar)
spread = rows(text[text.index("## Per socket"):])
check(spread == {"a": ["0.25", "200.00", "120.00", "50.00", "100.00", "75.00", "50.00"]}, f"per-socket rows: {spread}")
check("## Per socket" not in printed_by(study.figure3, figure3), "a per-socket table without the counters")
r = rows(text[:text.index("## Link-bound time")])  # the remote-share table's rows
check(r.get("a") == ["25.00", "75.00", "3.00", "6.00", "1.50", "2.00"], f"remote share row of a: {r.get('a')}")
check("Remote requests" in text, "no remote-share table with the counters")
check("Remote requests" not in printed_by(study.figure3, figure3), "a remote-share table without the counters")

# Figure 5 on a suite: the static run's busiest link direction and the other direction of the same link, each the
# mean of its per-window utilization. gpu0's ingress: (90 + 70) / 2 = 80 %; its egress (10 + 30) / 2 = 20 %;
# gpu1's directions 50 % and 60 %: the busiest is gpu0's ingress (80), its opposite gpu0's egress (20), not
# gpu1's egress (60, the second busiest). Speedup 1,200 / 1,000 = 1.20; most lanes 12.
util = {"system.link_gpu0_switch0.to_gpu0.utilization": {"values": [90, 70], "window_cycles": 1000},
        "system.link_gpu0_switch0.to_switch0.utilization": {"values": [10, 30], "window_cycles": 1000},
        "system.link_gpu1_switch0.to_gpu1.utilization": {"values": [50, 50], "window_cycles": 1000},
        "system.link_gpu1_switch0.to_switch0.utilization": {"values": [60, 60], "window_cycles": 1000}}
lanes = {"system.link_gpu0_switch0.to_gpu0.lanes": {"values": [8, 12], "window_cycles": 1000}}
figure5 = {"format": "numagpu-sweep-results", "study": "figure5", "sweep": "figure5", "points": [
    {"id": f"{w}.{lab}", "workload": w, "labels": {"link": lab}, "status": "ok",
     "stats": {"cycles": c, "util": util if lab == "static" else {}, "lanes": lanes if lab == "dynamic" else {}}}
    for w in ("a", "b") for lab, c in (("static", 1200), ("dynamic", 1000))]}
study.figure5_panels = lambda ok, out_dir, file_name: None
r = rows(printed_by(study.figure5, figure5))
check(r.get("a") == ["0.00", "0.00", "1.20", "12.00", "80.00", "20.00"], f"figure5 row of a: {r.get('a')}")
check(study.busiest_and_opposite({}) == (None, None), "busiest_and_opposite without series")

# Figure 6's turn cost: the lane-cycles lost to turns over all lane-cycles, run cycles x lanes per link x links.
# Workload a at 5K/100: 4 links (its egress_lanes series name 4) of 16 lanes over 1,000 cycles are 64,000
# lane-cycles; 3 turns of 100 SwitchTime + 60 quiesce lose 480 of them: 480 / 64,000 = 0.750 %. At 1K/100 it
# loses 1,600: 2.500 %. Workload b's 5K point has no turnaround_cycles: no number ("-"), no failure.
four = {f"system.link_gpu{k}_switch0.to_switch0.lanes": {"values": [8], "window_cycles": 1000} for k in range(4)}
turns = json.loads(json.dumps(figure6))
for p in turns["points"]:
    if p["workload"] == "a" and p["labels"]["link"] == "s5k_w100":
        p["stats"].update(turnaround_cycles=480, turnarounds=3, link_lanes=16, egress_lanes=four)
    if p["workload"] == "b" and p["labels"]["link"] == "s5k_w100":
        p["stats"].update(link_lanes=16, egress_lanes=four)
turns["points"].append({"id": "a.s1k_w100", "workload": "a", "labels": {"link": "s1k_w100"}, "status": "ok",
                        "stats": {"cycles": 1000, "turnaround_cycles": 1600, "turnarounds": 10, "link_lanes": 16,
                                  "egress_lanes": four}})
text = printed_by(study.figure6, turns)
cost = text[text.index("## Turning lanes"):text.index("## Lanes turned")]
r, n = rows(cost), rows(text[text.index("## Lanes turned"):])
check(r.get("a") == ["2.500", "0.750"] and r.get("b") == ["-", "-"], f"turn cost rows: {r}")
check(n.get("a") == ["10", "3"], f"lanes turned row of a: {n.get('a')}")
check("## Turning lanes" not in printed_by(study.figure6, figure6), "a turn-cost table without the counters")

check.finish("means with and without the workloads at 99 % of theoretical; Figure 3's remote share and link-bound "
             "time; Figure 5's busiest link direction and its opposite; Figure 6's turn cost")
