#!/usr/bin/env python3
"""The gap experiments' reports (issue 49, point 5; scripts/plot_study.py kinds l2_split, balancer_triggers,
switch_time, ladm_schedule, ladm_crb, runtime_split) on results tables written by hand, so that every number
they print is known: the oracle's best split and its gains, the trigger shares, the SwitchTime ratios, LADM's
halves against H-CODA, RONCE against RTWICE, the locality-optimized runtime's halves.
About 2 s; skipped (exit 77) without python3-matplotlib.

Usage: gap_reports_test.py PLOT_STUDY.py WORKDIR"""
import json
import os
import shutil
import subprocess
import sys


def point(workload, axis, label, **stats):
    return {"id": f"{workload}.{label}", "workload": workload, "status": "ok", "labels": {axis: label},
            "stats": stats}


def table(study, axis, points):
    return {"format": "numagpu-sweep-results", "study": study, "sweep": study, "axes": [axis], "points": points}


def run(script, work, name, results):
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(results, f)
    out = subprocess.run(["/usr/bin/python3", script, path, os.path.join(work, name)], capture_output=True,
                         text=True)
    if out.returncode != 0:
        print(out.stdout, out.stderr)
        sys.exit(1)
    return out.stdout


def refused(script, work, name, results, message):
    """Whether the report refuses `results` with exit 2 and `message` on its error stream."""
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(results, f)
    bad = subprocess.run(["/usr/bin/python3", script, path, work], capture_output=True, text=True)
    return bad.returncode == 2 and message in bad.stderr


def row(text, title, name):
    """The cells of row `name` in the table whose heading contains `title`."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("## ") and title in line)
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == name:
            return cells[1:]
    raise AssertionError(f"no row {name} under {title}")


def main():
    script, work = sys.argv[1:3]
    if subprocess.run(["/usr/bin/python3", "-c", "import matplotlib"], capture_output=True).returncode != 0:
        print("skipped: no python3-matplotlib")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failures = []

    def expect(got, want, what):
        if got != want:
            failures.append(f"{what}: {got} != {want}")

    # Oracle split. Application a: 50-50 (r8) takes 1200 cycles, 4 remote ways 1000 (its best: 1.20x), NUMA-aware
    # 1100 (1.09x over 50-50; the oracle 1.10x over it). Application b: best at 12 remote ways, 800 against
    # 1000 (1.25x), NUMA-aware 1000 (1.00x; oracle 1.25x over it). Means of the oracle: (1.2 + 1.25) / 2 =
    # 1.225. With the L1s left open NUMA-aware takes 1050 and 960 cycles: the oracle is 1050/1000 = 1.05x and
    # 960/800 = 1.20x over it. Best single split by geometric mean: r4 gives 1.2 and 1000/1000 = 1.0 ->
    # 1.095; r12 gives 1200/1300 = 0.923 and 1.25 -> 1.074; r8 1.0: so 4 remote ways, 1.095.
    pts = []
    for w, cycles in (("a", {4: 1000, 8: 1200, 12: 1300}), ("b", {4: 1000, 8: 1000, 12: 800})):
        for r, c in cycles.items():
            pts.append(point(w, "l2", f"static_r{r}", cycles=c))
        pts.append(point(w, "l2", "numa_aware", cycles=1100 if w == "a" else 1000))
        pts.append(point(w, "l2", "numa_aware_l1_open", cycles=1050 if w == "a" else 960))
        pts.append(point(w, "l2", "memside", cycles=2000))
    text = run(script, work, "split", table("l2_split", "l2", pts))
    title = "the oracle"
    expect(row(text, title, "a"), ["4", "1.20", "1.09", "1.10", "1.05"], "oracle a")
    expect(row(text, title, "b"), ["12", "1.25", "1.00", "1.25", "1.20"], "oracle b")
    expect(row(text, title, "mean (arith.)")[1], "1.23", "oracle mean")  # 1.225
    expect("Best single split for every application (geo. mean over 50-50): 4 remote ways, 1.095x" in text, True,
           "best single split")
    expect(os.path.isfile(os.path.join(work, "split", "l2_split.png")), True, "l2_split.png")

    # Balancer triggers. Application p gains 1.25x (1000 static, 800 dynamic) with 30 turn and 10 blocked
    # decisions in 200 windows: 40 triggers, 20 %; q gains nothing (500 and 500) with 4 triggers in 400
    # windows (1 %) and 100 both-saturated windows (60 rebalance + 40 balanced, 25 %); r gains 1.10x with
    # 2 triggers in 300 windows (0.67 %, "nothing to do"). Ranks of the trigger shares (r 0.67, q 1, p 20)
    # and of the gains (q 1.0, r 1.1, p 1.25) differ in r and q: Spearman 1 - 6 x 2 / (3 x 8) = 0.5.
    pts = []
    for w, (static, dyn, windows, turn, blocked, reb, bal) in {"p": (1000, 800, 200, 30, 10, 0, 0),
                                                              "q": (500, 500, 400, 4, 0, 60, 40),
                                                              "r": (1100, 1000, 300, 2, 0, 0, 0)}.items():
        pts.append(point(w, "link", "static", cycles=static))
        pts.append(point(w, "link", "s5k_w100", cycles=dyn, windows=windows, turn_decisions=turn,
                         blocked_decisions=blocked, rebalance_decisions=reb, balanced_decisions=bal,
                         busy_decisions=0, turnarounds=turn + reb))
    text = run(script, work, "triggers", table("balancer_triggers", "link", pts))
    title = "Balancer decisions"
    expect(row(text, title, "p")[:5], ["1.25", "200", "40", "20.00", "30"], "triggers p")
    expect(row(text, title, "q")[5:8], ["0", "100", "25.00"], "both saturated q")
    expect("Spearman rank correlation of triggers per window with the gain: 0.50." in text, True, "spearman")
    expect(row(text, "Triggers against gain", "triggers % of windows"), ["0.50"], "spearman, as a table")
    expect("(the balancer has nothing to do): r." in text, True, "nothing to do")
    expect("(turns that do not pay): q." in text, True, "turns that do not pay")

    # SwitchTime: static 1000; SwitchTime 10, 100, 1K, 20K take 800, 800, 900, 1000 cycles: 1.25, 1.25, 1.11,
    # 1.00 over static, and 1.00, 1.00, 0.89, 0.80 of SwitchTime 100's speed.
    pts = [point("x", "link", "static", cycles=1000)]
    for label, c in (("s5k_w10", 800), ("s5k_w100", 800), ("s5k_w1k", 900), ("s5k_w20k", 1000)):
        pts.append(point("x", "link", label, cycles=c, turnarounds=3, busy_decisions=0))
    text = run(script, work, "switch", table("switch_time", "link", pts))
    expect(row(text, "dynamic over static", "x"), ["1.25", "1.25", "1.11", "1.00"], "switch x")
    expect(row(text, "against the paper's 100", "mean (arith.)"), ["1.00", "1.00", "0.89", "0.80"],
           "switch against 100")
    expect("| workload | 10 cycles | 100 cycles | 1000 cycles | 20000 cycles |" in text, True, "switch order")

    # LADM's halves swapped. Workload g: H-CODA 1000 cycles, H-CODA's schedule with LASP's placement 950
    # (1000/950 = 1.05x), LASP's schedule with page interleaving 1100 (0.91x), LADM 1080 (0.93x). Its L1 misses:
    # H-CODA 200 of 1000 at the own chiplet (20 %), LADM 60 of 1000 (6 %); load latency 512000 / 1000 loads =
    # 512 cycles and 606000 / 1000 = 606; inter-GPU 120 and 105 MiB (120 x 2^20 bytes), of which the busiest
    # link carries 40 and 35 MiB.
    mib = 2**20
    pts = [point("g", "policy", "h_coda", cycles=1000, l1_misses_chiplet=200, l1_misses_elsewhere=800,
                 load_latency_sum=512000, load_latency_count=1000, inter_gpu_bytes=120 * mib,
                 busiest_gpu_link_bytes=40 * mib),
           point("g", "policy", "hcoda_schedule", cycles=950, l1_misses_chiplet=210, l1_misses_elsewhere=790,
                 load_latency_sum=500000, load_latency_count=1000, inter_gpu_bytes=120 * mib,
                 busiest_gpu_link_bytes=41 * mib),
           point("g", "policy", "lasp_schedule", cycles=1100, l1_misses_chiplet=61, l1_misses_elsewhere=939,
                 load_latency_sum=609000, load_latency_count=1000, inter_gpu_bytes=105 * mib,
                 busiest_gpu_link_bytes=36 * mib),
           point("g", "policy", "ladm", cycles=1080, l1_misses_chiplet=60, l1_misses_elsewhere=940,
                 load_latency_sum=606000, load_latency_count=1000, inter_gpu_bytes=105 * mib,
                 busiest_gpu_link_bytes=35 * mib)]
    # Per array, where the points keep the requests statistic (H-CODA's and LADM's only here): array A, 90 of
    # 100 requests local under H-CODA (90 %), 1 of 16 under LADM (6.25 %); array B only under LADM, 3 local and
    # 1 remote (75 %). The policies without the statistic show "-".
    pts[0]["stats"]["requests"] = {"placement.A.requests.local": 90, "placement.A.requests.remote": 10}
    pts[3]["stats"]["requests"] = {"placement.A.requests.local": 1, "placement.A.requests.remote": 15,
                                   "placement.B.requests.local": 3, "placement.B.requests.remote": 1}
    text = run(script, work, "halves", table("ladm_schedule", "policy", pts))
    expect(row(text, "per array", "g: A"), ["90.00", "-", "-", "6.25"], "halves per array A")
    expect(row(text, "per array", "g: B"), ["-", "-", "-", "75.00"], "halves per array B")
    expect(row(text, "speedup over H-CODA", "g"), ["1.05", "0.91", "0.93"], "halves speedup")
    expect(row(text, "requesting chiplet", "g"), ["20.00", "21.00", "6.10", "6.00"], "halves local share")
    expect(row(text, "mean load latency", "g"), ["512.00", "500.00", "609.00", "606.00"], "halves latency")
    expect(row(text, "inter-GPU MiB", "g"), ["120.00", "120.00", "105.00", "105.00"], "halves inter-GPU")
    expect(row(text, "busiest GPU link", "g"), ["40.00", "41.00", "36.00", "35.00"], "halves busiest link")
    expect(os.path.isfile(os.path.join(work, "halves", "ladm_schedule.png")), True, "ladm_schedule.png")
    # A sweep without LADM's points has nothing to compare: one line, non-zero.
    expect(refused(script, work, "halves_bad", table("ladm_schedule", "policy", pts[:1]), "needs h_coda and ladm"),
           True, "halves without ladm")

    # RONCE against RTWICE. Workload u: RTWICE 1000 cycles, RONCE 1250 (1000/1250 = 0.80x). Its L2 reads under
    # RTWICE: LOCAL-LOCAL 50 hits of 200, LOCAL-REMOTE 20 of 100, REMOTE-LOCAL 90 of 100, so REMOTE-LOCAL is
    # 100 / 400 = 25 % of the reads, hits 90 %. Under RONCE: LOCAL-LOCAL 52 of 200 (26 %), LOCAL-REMOTE 20 of
    # 100 (20 % under both), REMOTE-LOCAL 30 of 100 (30 %). DRAM reads 400 -> 600 (1.50), inter-GPU bytes
    # 1000 -> 900 (0.90).
    # Workload v: 800 -> 640 cycles (1.25x), REMOTE-LOCAL 10 of 20 -> 5 of 20 (50 % -> 25 %), 20 of the
    # 20 + 40 + 400 = 460 reads (4.35 %), LOCAL-REMOTE 0 -> 10 of 40 (0 -> 25 %), LOCAL-LOCAL 40 -> 80 of 400
    # (10 -> 20 %).
    # Means of 0.80 and 1.25: 1.025 (printed 1.02, as Python rounds the binary 1.02499...), geometric 1.00.
    def crb_point(w, lab, cycles, ll, lr, rl, dram, inter):
        return point(w, "policy", lab, cycles=cycles, local_local_hits=ll[0], local_local_misses=ll[1] - ll[0],
                     local_remote_hits=lr[0], local_remote_misses=lr[1] - lr[0], remote_local_hits=rl[0],
                     remote_local_misses=rl[1] - rl[0], dram_reads=dram, inter_gpu_bytes=inter)
    pts = [crb_point("u", "lasp_twice", 1000, (50, 200), (20, 100), (90, 100), 400, 1000),
           crb_point("u", "lasp_once", 1250, (52, 200), (20, 100), (30, 100), 600, 900),
           crb_point("v", "lasp_twice", 800, (40, 400), (0, 40), (10, 20), 100, 500),
           crb_point("v", "lasp_once", 640, (80, 400), (10, 40), (5, 20), 90, 400)]
    text = run(script, work, "crb", table("ladm_crb", "policy", pts))
    title = "RONCE against RTWICE"
    expect(row(text, title, "u"),
           ["0.80", "25.00", "90.00", "30.00", "20.00", "20.00", "25.00", "26.00", "1.50", "0.90"], "crb u")
    expect(row(text, title, "v")[:8], ["1.25", "4.35", "50.00", "25.00", "0.00", "25.00", "10.00", "20.00"], "crb v")
    expect(row(text, title, "mean (arith.)")[0], "1.02", "crb mean")
    expect(row(text, title, "mean (geo.)")[0], "1.00", "crb geo mean")
    expect(os.path.isfile(os.path.join(work, "crb", "ladm_crb.png")), True, "ladm_crb.png")

    # The locality-optimized runtime's halves one at a time (runtime_split). Workload x: traditional 1000 cycles,
    # schedule only 1000 (1000/1000 = 1.00x), first touch only 1250 (0.80x), both 1250 (0.80x): the placement
    # is the whole loss. Its DRAM reads: interleaved 100 per socket (busiest 100/400 = 25 %), first touch
    # 400/50/25/25 (400/500 = 80 %). Load latency 3000 cycles over 10 loads = 300 (first touch: 5000/10 = 500).
    # Busiest link direction: 2 MiB of {2, 1} MiB. Warp instructions on two sockets: 50/50 (busiest 50 %), x's
    # schedule only 300/100 (300/400 = 75 %). Workload y: 900, 600 (1.50x), 900 (1.00x), 450 (2.00x).
    mib = 2**20

    def split_point(w, lab, cycles, dram, lat_sum, work=(50, 50)):
        return point(w, "system", lab, cycles=cycles, dram_read_bytes={f"s{k}": v for k, v in enumerate(dram)},
                     load_latency_sum=lat_sum, load_latency_count=10, link_dir_bytes={"a": 2 * mib, "b": mib},
                     warp_instructions_s0=work[0], warp_instructions_s1=work[1])
    spread, even = [400, 50, 25, 25], [100] * 4
    pts = [split_point("x", "traditional", 1000, even, 3000), split_point("x", "schedule_only", 1000, even, 3000, (300, 100)),
           split_point("x", "placement_only", 1250, spread, 5000), split_point("x", "locality", 1250, spread, 5000),
           split_point("y", "traditional", 900, even, 3000), split_point("y", "schedule_only", 600, even, 3000),
           split_point("y", "placement_only", 900, spread, 5000), split_point("y", "locality", 450, spread, 5000)]
    text = run(script, work, "split", table("runtime_split", "system", pts))
    title = "halves one at a time: speedup over traditional"
    expect(row(text, title, "x"), ["1.00", "0.80", "0.80"], "split x")
    expect(row(text, title, "y"), ["1.50", "1.00", "2.00"], "split y")
    expect(row(text, "busiest DRAM's share", "x"), ["25.00", "25.00", "80.00", "80.00"], "split dram")
    expect(row(text, "mean load latency", "x"), ["300.00", "300.00", "500.00", "500.00"], "split latency")
    expect(row(text, "busiest link direction", "y")[0], "2.00", "split busiest MiB")
    expect(row(text, "share of the warp instructions", "x")[:2], ["50.00", "75.00"], "split work")
    expect(os.path.isfile(os.path.join(work, "split", "runtime_split.png")), True, "runtime_split.png")
    expect(refused(script, work, "split_bad", table("runtime_split", "system", pts[:3]),
                   "needs traditional and locality"), True, "split without locality")

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
