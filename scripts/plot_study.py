#!/usr/bin/env python3
"""Draws a numagpu sweep's figures from its results.json alone (`numagpu plot study`, scripts/study.sh).

Usage: plot_study.py RESULTS.json OUT_DIR [FIGURE3_RESULTS.json]

The sweep's `study` field picks the figures (configs/experiments/*.yaml). Speedups are cycle ratios
(baseline cycles / point cycles) of the same workload. Means are arithmetic means over workloads (the
paper's "on average") and geometric means. Besides the PNGs, the numbers behind each figure are printed as a
small table, which is what docs/validation.md quotes.

The paper's method (§3.1): its §4-5 means leave out the workloads that reach 99 % of theoretical
performance, the hypothetical 4x larger GPU, with the locality-optimized runtime alone; its final results
include them all. A figure3 study says which workloads these are (its own table, or FIGURE3_RESULTS.json, the
figure3 study of the same suite, for the other studies), and every table then has its means both ways: over
all workloads, and "excl. 99 %" without them.
"""
import json
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def fail(message):
    print(f"plot_study.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    if results.get("format") != "numagpu-sweep-results":
        fail(f"{path}: not a numagpu sweep results.json")
    return results


class Table:
    """The ok points of a sweep, by workload and by the label of one axis."""

    def __init__(self, results, axis):
        self.workloads = []
        self.by = {}
        self.missing = []
        for p in results["points"]:
            if p["workload"] not in self.workloads:
                self.workloads.append(p["workload"])
            if p["status"] != "ok":
                self.missing.append(p["id"])
                continue
            label = p["labels"].get(axis, "")
            self.by[(p["workload"], label)] = p["stats"]

    def stat(self, workload, label, name):
        s = self.by.get((workload, label))
        return None if s is None else s.get(name)

    def speedup(self, workload, label, base):
        a, b = self.stat(workload, base, "cycles"), self.stat(workload, label, "cycles")
        return None if not a or not b else a / b


# §3.1: "we choose to exclude benchmarks that achieve >= 99% of the theoretical performance with software-only
# locality optimizations" (the locality-optimized 4-socket GPU against the 4x larger one, Figure 3).
THEORETICAL_SHARE = 0.99
# The workloads the means leave out (set by main from a figure3 study); None: no figure3 study to say.
AT_THEORETICAL = None


def at_theoretical(results):
    """The workloads of a figure3 study whose locality-optimized 4 sockets reach 99 % of the 4x larger GPU's
    performance: bigger4x cycles / locality cycles >= 0.99 (a workload missing either point is kept)."""
    t = Table(results, "system")
    out = []
    for w in t.workloads:
        loc, big = t.stat(w, "locality", "cycles"), t.stat(w, "bigger4x", "cycles")
        if loc and big and big >= THEORETICAL_SHARE * loc:
            out.append(w)
    return out


def mean_rows(workloads, columns, geo=True):
    """The means rows of a table whose columns hold one value per workload: over every workload, then, when a
    figure3 study named workloads at 99 % of theoretical, without them ("excl. 99 %")."""
    rows = [("mean (arith.)", [means(c)[0] for c in columns])]
    if geo:
        rows.append(("mean (geo.)", [means(c)[1] for c in columns]))
    if AT_THEORETICAL:
        keep = [k for k, w in enumerate(workloads) if w not in AT_THEORETICAL]
        kept = [[c[k] for k in keep] for c in columns]
        rows.append(("mean (arith.), excl. 99 %", [means(c)[0] for c in kept]))
        if geo:
            rows.append(("mean (geo.), excl. 99 %", [means(c)[1] for c in kept]))
    return rows


def means(values):
    v = [x for x in values if x is not None and x > 0]
    if not v:
        return None, None
    return sum(v) / len(v), math.exp(sum(math.log(x) for x in v) / len(v))


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


def print_table(title, columns, rows, digits=2):
    print(f"## {title}")
    print("| workload | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for name, values in rows:
        print(f"| {name} | " + " | ".join(fmt(v, digits) for v in values) + " |")
    print()


def bars(ax, workloads, series, colors=None, bottom_line=1.0):
    """Grouped bars: series is [(label, [value per workload])]."""
    n = len(series)
    width = 0.8 / max(1, n)
    for i, (label, values) in enumerate(series):
        xs = [k + (i - (n - 1) / 2) * width for k in range(len(workloads))]
        ax.bar(xs, [v if v is not None else 0 for v in values], width,
               label=label, color=None if colors is None else colors[i])
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads, rotation=45, ha="right", fontsize=8)
    if bottom_line is not None:
        ax.axhline(bottom_line, color="black", linewidth=0.8)
    ax.grid(axis="y", alpha=0.3)


def with_mean(t, workloads, per_workload_series):
    """Appends an arithmetic-mean column to every series."""
    out = []
    for label, values in per_workload_series:
        out.append((label, values + [means(values)[0]]))
    return workloads + ["mean"], out


def save(fig, out_dir, name):
    path = os.path.join(out_dir, name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"wrote {path}")


def speedup_study(results, out_dir, axis, base, labels, title, ylabel, file_name, colors=None, sort_key=None):
    t = Table(results, axis)
    workloads = list(t.workloads)
    if sort_key:
        workloads.sort(key=lambda w: sort_key(t, w))
    series = [(pretty, [t.speedup(w, lab, base) for w in workloads]) for lab, pretty in labels]
    print_table(f"{title}: speedup over {base}", [p for _, p in labels],
                [(w, [s[1][k] for s in series]) for k, w in enumerate(workloads)] +
                mean_rows(workloads, [s[1] for s in series]))
    names, series_m = with_mean(t, workloads, series)
    fig, ax = plt.subplots(figsize=(min(12, max(7, 0.25 * len(names) * max(1, len(labels)))), 4.5))
    bars(ax, names, series_m, colors)
    ax.set_ylabel(f"{ylabel} (×)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    save(fig, out_dir, file_name)
    return t, workloads


def figure3(results, out_dir):
    t = Table(results, "system")
    workloads = sorted(t.workloads, key=lambda w: (t.speedup(w, "bigger4x", "single") or 0) -
                       (t.speedup(w, "locality", "single") or 0), reverse=True)
    trad = [t.speedup(w, "traditional", "single") for w in workloads]
    loc = [t.speedup(w, "locality", "single") for w in workloads]
    big = [t.speedup(w, "bigger4x", "single") for w in workloads]
    print_table("Figure 3: speedup over 1 socket", ["traditional 4 sockets", "locality-optimized 4 sockets",
                                                      "4x larger GPU"],
                [(w, [trad[k], loc[k], big[k]]) for k, w in enumerate(workloads)] +
                mean_rows(workloads, [trad, loc, big]))
    remote_share_table(t)
    link_bound_time_table(t)
    link_intensity_table(t)
    socket_spread_table(t)
    names = workloads + ["mean"]
    fig, ax = plt.subplots(figsize=(10, 4))
    bars(ax, names, [("traditional (CTA + page interleave)", trad + [means(trad)[0]]),
                     ("locality-optimized (contiguous + first touch)", loc + [means(loc)[0]])],
         ["#4daf4a", "#80b1d3"])
    for k, v in enumerate(big + [means(big)[0]]):
        if v is not None:
            ax.plot([k - 0.4, k + 0.4], [v, v], color="red", linewidth=2,
                    label="4x larger single GPU" if k == 0 else None)
    ax.set_ylabel("speedup over 1 socket (×)")
    ax.set_title("4-socket NUMA GPU vs 1 socket and a 4x larger GPU (sorted by the gap to 4x)", fontsize=10)
    ax.legend(fontsize=8)
    save(fig, out_dir, "figure3.png")


def busiest_direction_mib(t, w, label):
    """MiB on the link direction that carries the most (which sets a link-bound run's time): the largest value
    of link_dir_bytes (one per link direction)."""
    d = t.stat(w, label, "link_dir_bytes")
    return None if not isinstance(d, dict) or not d else max(d.values()) / 2**20


def busiest_dram_share(t, w, label):
    """The share (%) of the DRAM reads on the socket whose DRAM reads most (dram_read_bytes, one per socket)."""
    d = t.stat(w, label, "dram_read_bytes")
    return None if not isinstance(d, dict) or not sum(d.values()) else 100.0 * max(d.values()) / sum(d.values())


def remote_share_table(t):
    """What separates Figure 3's workloads: the share of the SMs' requests that go to another socket's memory,
    and the bytes the links carry. A socket's crossbar counts its own SMs' requests and the requests arriving
    from its links for its memory (xbar_requests), and sends to a link those homed elsewhere
    (xbar_requests_to_link); summed over the sockets, the arriving requests are the ones sent, so the SMs'
    requests are requests - to_link and the remote share is to_link / (requests - to_link). Printed only by a
    study whose spec collects the crossbars' counters (configs/experiments/apps_figure3.yaml)."""
    def share(w, label):
        n, r = t.stat(w, label, "xbar_requests"), t.stat(w, label, "xbar_requests_to_link")
        return None if not n or r is None or n <= r else 100.0 * r / (n - r)

    def mib(w, label):
        b = t.stat(w, label, "link_bytes")
        return None if b is None else b / 2**20

    if not any(share(w, "locality") is not None for w in t.workloads):
        return
    workloads = sorted(t.workloads, key=lambda w: share(w, "locality") or 0)
    print_table("Remote requests and link bytes, 4 sockets (% of the SMs' requests homed on another socket; MiB "
                "over all link directions, a transfer between sockets counted on both of its links, and on the "
                "busiest direction)",
                ["remote % locality-optimized", "remote % traditional", "link MiB locality-optimized",
                 "link MiB traditional", "busiest direction MiB locality-optimized",
                 "busiest direction MiB traditional"],
                [(w, [share(w, "locality"), share(w, "traditional"), mib(w, "locality"), mib(w, "traditional"),
                      busiest_direction_mib(t, w, "locality"), busiest_direction_mib(t, w, "traditional")])
                 for w in workloads])


def link_intensity_table(t):
    """Which workloads scale under the traditional runtime: its link bytes per warp instruction (page
    interleaving sends three lines in four to another socket, so this is how much each instruction leans on the
    links) beside its speedup over one socket. Printed only by a study whose spec collects the SMs' warp
    instructions (warp_instructions: configs/experiments/apps_figure3.yaml)."""
    rows = []
    for w in t.workloads:
        b, n = t.stat(w, "traditional", "link_bytes"), t.stat(w, "traditional", "warp_instructions")
        if b is None or not n:
            continue
        rows.append((w, [b / n, t.speedup(w, "traditional", "single")]))
    if not rows:
        return
    rows.sort(key=lambda r: r[1][0])
    print_table("Link bytes per warp instruction under the traditional runtime, and its speedup over 1 socket",
                ["link bytes per warp instruction traditional", "traditional over 1 socket"], rows)


def socket_spread_table(t):
    """How unevenly a runtime treats the sockets: per socket the SMs' mean load latency (load_latency_sum_sK
    over load_latency_count_sK, K = 0, 1, ...), the slowest and the fastest socket's, and the share of the
    DRAM reads on the socket whose DRAM reads most (dram_read_bytes, one value per socket). First touch can home
    most of the data on one socket; the other sockets then find nearly every line remote, where interleaving
    made three in four remote. Printed only by a study whose spec collects them (apps_figure3)."""
    def latencies(w, label):
        out, k = [], 0
        while t.stat(w, label, f"load_latency_sum_s{k}") is not None:
            n = t.stat(w, label, f"load_latency_count_s{k}")
            if n:
                out.append(t.stat(w, label, f"load_latency_sum_s{k}") / n)
            k += 1
        return out

    rows = []
    for w in t.workloads:
        loc, trad = latencies(w, "locality"), latencies(w, "traditional")
        if len(loc) < 2 or len(trad) < 2:
            continue
        cl, ct = t.stat(w, "locality", "cycles"), t.stat(w, "traditional", "cycles")
        rows.append((w, [None if not ct else cl / ct, max(loc), max(trad), min(loc), min(trad),
                         busiest_dram_share(t, w, "locality"), busiest_dram_share(t, w, "traditional")]))
    if not rows:
        return
    rows.sort(key=lambda r: -(r[1][0] or 0))
    print_table("Per socket, 4 sockets: the SMs' mean load latency (cycles) on the slowest and the fastest socket, "
                "and the busiest DRAM's share of the DRAM reads (%)",
                ["run cycles locality over traditional", "slowest socket's load latency locality-optimized",
                 "slowest socket's load latency traditional", "fastest socket's load latency locality-optimized",
                 "fastest socket's load latency traditional", "busiest DRAM % locality-optimized",
                 "busiest DRAM % traditional"], rows)


def busiest_busy_cycles(series, window):
    """Per window, the busy cycles of the busiest link direction, summed over the run: the time the links need
    when, window by window, the most loaded direction is the bottleneck. series: {direction: {"window_cycles",
    "values": [% busy per window]}}; each is first merged to `window` (a multiple of its own window, as the
    statistics merge a long run's windows: the mean of the merged values). Both runs of a comparison are
    taken at the same window, since a coarser window averages peaks away."""
    merged = []
    for s in series.values():
        k = window // s["window_cycles"]
        v = s["values"]
        merged.append([sum(v[i:i + k]) / len(v[i:i + k]) for i in range(0, len(v), k)])
    n = min(len(v) for v in merged)
    return sum(max(v[i] for v in merged) for i in range(n)) / 100.0 * window


def link_bound_time_table(t):
    """Where a run's time goes when its links bound it: window by window, the busiest link direction's busy
    cycles, summed (busiest_busy_cycles), under each runtime at the coarser of the two runs' windows. The run's
    total bytes on its busiest direction miss traffic that is concentrated in time: a direction busy only in
    some phases, while the others idle. Printed only by a study whose spec collects each direction's
    utilization series (ingress_util and egress_util: configs/experiments/apps_figure3.yaml)."""
    def series(w, label):
        a, b = t.stat(w, label, "ingress_util"), t.stat(w, label, "egress_util")
        return {**a, **b} if isinstance(a, dict) and isinstance(b, dict) and a and b else None

    rows = []
    for w in t.workloads:
        loc, trad = series(w, "locality"), series(w, "traditional")
        if not loc or not trad:
            continue
        window = max(s["window_cycles"] for s in list(loc.values()) + list(trad.values()))
        bl, bt = busiest_busy_cycles(loc, window), busiest_busy_cycles(trad, window)
        cl, ct = t.stat(w, "locality", "cycles"), t.stat(w, "traditional", "cycles")
        rows.append((w, [bl / 1e6, bt / 1e6, None if not bt else bl / bt, None if not ct else cl / ct,
                         None if not cl else 100.0 * bl / cl, None if not ct else 100.0 * bt / ct, window]))
    if not rows:
        return
    rows.sort(key=lambda r: -(r[1][3] or 0))
    print_mixed_table("Link-bound time, 4 sockets: per window, the busiest link direction's busy cycles, summed "
                      "over the run (M cycles; both runs at the coarser of their statistics windows)",
                      ["locality-optimized", "traditional", "locality over traditional",
                       "run cycles, locality over traditional", "% of the run locality-optimized",
                       "% of the run traditional", "window cycles"], rows)


def figure5(results, out_dir):
    ok = [p for p in results["points"] if p["status"] == "ok"]
    if not ok:
        fail("no finished points")
    workloads = list(dict.fromkeys(p["workload"] for p in ok))
    if len(workloads) == 1:
        figure5_panels(ok, out_dir, "figure5.png")
    else:
        # A suite: one figure per workload (its link settings side by side), and a table to compare them.
        for w in workloads:
            figure5_panels([p for p in ok if p["workload"] == w], out_dir, f"figure5_{w}.png")
    print("## Figure 5: cycles")
    for p in ok:
        print(f"- {p['id']}: {p['stats'].get('cycles')} cycles")
    print()
    if len(workloads) > 1:
        t = Table(results, "link")
        rows = []
        for w in t.workloads:
            lanes = (t.stat(w, "dynamic", "lanes") or {}).values()
            most = max([max(v["values"]) for v in lanes if v and v.get("values")] or [None], key=lambda x: x or 0)
            mcycles = [None if not t.stat(w, lab, "cycles") else t.stat(w, lab, "cycles") / 1e6
                       for lab in ("static", "dynamic")]
            rows.append((w, mcycles + [t.speedup(w, "dynamic", "static"), most] +
                         list(busiest_and_opposite(t.stat(w, "static", "util")))))
        sp = [r[1][2] for r in rows]
        print_table("Figure 5 on a suite: dynamic over static links",
                    ["static (M cycles)", "dynamic (M cycles)", "dynamic over static", "most lanes in one direction",
                     "busiest direction % (static)", "its opposite % (static)"],
                    rows + [(name, [None, None, v[0], None, None, None])
                            for name, v in mean_rows([r[0] for r in rows], [sp])])


def busiest_and_opposite(util):
    """What the balancer can use: the mean utilization over the run (%) of the static run's busiest link
    direction, and of the other direction of the same link. Turning lanes gains where the first is high and
    the second low (one-way traffic); where both are high there is no idle lane to turn. Each is the plain mean
    of the direction's per-window utilization; (None, None) without utilization series."""
    def mean(series):
        values = series.get("values") or []
        return sum(v or 0 for v in values) / len(values) if values else None

    means = {k: mean(v) for k, v in (util or {}).items() if isinstance(v, dict)}
    means = {k: v for k, v in means.items() if v is not None}
    if not means:
        return None, None
    busiest = max(means, key=means.get)
    m = re.search(r"link_gpu(\d+)_switch(\d+)\.to_(gpu\d+|switch\d+)\.", busiest)
    if not m:
        return means[busiest], None
    gpu, switch, to = m.groups()
    other = busiest.replace(f".to_{to}.", f".to_switch{switch}." if to.startswith("gpu") else f".to_gpu{gpu}.")
    return means[busiest], means.get(other)


def figure5_panels(ok, out_dir, file_name):
    sockets = sorted({int(m.group(1)) for p in ok for k in (p["stats"].get("util") or {})
                      for m in [re.search(r"link_gpu(\d+)_", k)] if m})
    fig, axes = plt.subplots(len(sockets), len(ok), figsize=(6 * len(ok), 1.9 * len(sockets) + 0.6),
                             sharex="col", squeeze=False)
    for c, p in enumerate(ok):
        util, lanes = p["stats"].get("util") or {}, p["stats"].get("lanes") or {}
        kernels = p["stats"].get("kernel_cycles") or {}
        ends, total = [], 0
        for k in sorted(kernels, key=lambda s: int(re.search(r"kernel(\d+)", s).group(1))):
            total += kernels[k] or 0
            ends.append(total)
        for r, s in enumerate(sockets):
            ax = axes[r][c]
            for direction, name, color, style, lane_style in (
                    ("to_switch0", "egress", "#e41a1c", "-", ":"), (f"to_gpu{s}", "ingress", "#377eb8", "--", "-.")):
                key = f"system.link_gpu{s}_switch0.{direction}.utilization"
                series = util.get(key)
                if not series:
                    continue
                w = series.get("window_cycles", 1)
                xs = [(i + 1) * w for i in range(len(series["values"]))]
                ax.step(xs, [(v or 0) for v in series["values"]], where="post", color=color, linestyle=style,
                        label=f"{name} utilization")  # percent
                lane_series = lanes.get(key.replace(".utilization", ".lanes"))
                if lane_series:
                    ax2 = ax.twinx() if not hasattr(ax, "_lanes_axis") else ax._lanes_axis
                    ax._lanes_axis = ax2
                    lw = lane_series.get("window_cycles", 1)
                    ax2.step([(i + 1) * lw for i in range(len(lane_series["values"]))],
                             lane_series["values"], where="post", color=color, linestyle=lane_style, linewidth=1)
                    ax2.set_ylim(0, 16)
                    ax2.set_ylabel("lanes (thin: egress :, ingress -.)", fontsize=7)
            if len(ends) <= 60:  # kernel boundaries, unless they would blacken the plot
                for e in ends[:-1]:
                    ax.axvline(e, color="black", linestyle=":", linewidth=0.7)
            ax.set_ylim(0, 105)
            ax.set_ylabel(f"GPU{s} link utilization (%)", fontsize=8)
            if r == 0:
                ax.set_title(f"{p['id']} ({p['stats'].get('cycles')} cycles)", fontsize=9)
                ax.legend(fontsize=7, loc="upper right")
        axes[-1][c].set_xlabel("simulated cycle (cycles)")
    save(fig, out_dir, file_name)


def figure6(results, out_dir):
    t = Table(results, "link")
    labels = [lab for lab in ["s1k_w100", "s5k_w100", "s10k_w100", "s50k_w100", "s5k_w10", "s5k_w500", "double"]
              if any((w, lab) in t.by for w in t.workloads)]
    pretty = {"double": "doubled bandwidth"}
    for lab in labels:
        m = re.match(r"s(\d+)k_w(\d+)", lab)
        if m:
            pretty[lab] = f"dynamic, SampleTime {m.group(1)}K, SwitchTime {m.group(2)}"
    speedup_study(results, out_dir, "link", "static", [(lab, pretty[lab]) for lab in labels],
                  "Dynamic link lanes vs static (and doubled bandwidth)", "speedup over static links",
                  "figure6.png",
                  ["#c7e9c0", "#41ab5d", "#238b45", "#005a32", "#9ecae1", "#3182bd", "#e41a1c"][-len(labels):]
                  if len(labels) == 7 else None,
                  sort_key=lambda t, w: -(t.speedup(w, "double", "static") or 0))
    dynamic = [lab for lab in labels if lab != "double"]
    if any(t.stat(w, lab, "turnaround_cycles") is not None for w in t.workloads for lab in dynamic):
        turn_cost(t, dynamic, pretty)


def turn_cost(t, dynamic, pretty):
    """What turning lanes costs: the lane-cycles a dynamic run loses to turns (each turned lane's quiesce and
    SwitchTime, the links' turnaround_cycles summed) as a share of all its lane-cycles, run cycles x lanes per
    link x links. The paper's case against a short SampleTime is this cost: "bandwidth is lost due to the
    overhead of turning the link"."""
    def lost(w, lab):
        c, lanes, series = (t.stat(w, lab, k) for k in ("cycles", "link_lanes", "egress_lanes"))
        lost_cycles = t.stat(w, lab, "turnaround_cycles")
        if lost_cycles is None or not c or not lanes or not series:
            return None
        return 100.0 * lost_cycles / (c * lanes * len(series))

    ws = t.workloads
    print_table("Turning lanes: lane-cycles lost to turns (quiesce + SwitchTime), % of all lane-cycles",
                [pretty[lab] for lab in dynamic], [(w, [lost(w, lab) for lab in dynamic]) for w in ws], digits=3)
    print_mixed_table("Lanes turned (summed over the links)", [pretty[lab] for lab in dynamic],
                      [(w, [None if t.stat(w, lab, "turnarounds") is None else int(t.stat(w, lab, "turnarounds"))
                            for lab in dynamic]) for w in ws])


def caches(results, out_dir):
    speedup_study(results, out_dir, "l2", "memside",
                  [("static", "static 50-50 partition"), ("shared", "GPU-side shared"),
                   ("numa_aware", "NUMA-aware")],
                  "L2 organizations vs memory-side L2", "speedup over memory-side L2", "caches.png",
                  ["#bdbdbd", "#737373", "#252525"])
    t = Table(results, "l2")
    ws = t.workloads
    ideal = [t.speedup(w, "numa_aware_ideal", "numa_aware") for w in ws]
    wb = [t.speedup(w, "numa_aware", "numa_aware_wt") for w in ws]
    over_static = [t.speedup(w, "numa_aware", "static") for w in ws]
    print_table("NUMA-aware L2: ideal coherence and write-back, speedups",
                ["ideal coherence over SW invalidation", "write-back over write-through",
                 "NUMA-aware over static"],
                [(w, [ideal[k], wb[k], over_static[k]]) for k, w in enumerate(ws)] +
                mean_rows(ws, [ideal, wb, over_static]))
    names, series = with_mean(t, ws, [("ideal coherence over software invalidation", ideal),
                                      ("write-back over write-through L2", wb)])
    fig, ax = plt.subplots(figsize=(8, 4))
    bars(ax, names, series, ["#fdae6b", "#756bb1"])
    ax.set_ylabel("speedup (×)")
    ax.set_title("NUMA-aware L2: coherence cost and write policy", fontsize=10)
    ax.legend(fontsize=8)
    save(fig, out_dir, "caches_coherence_write.png")


def combined(results, out_dir):
    # Points carry two axes (links, l2): rebuild one label from both.
    for p in results["points"]:
        p["labels"]["combo"] = p["labels"].get("links", "") + "+" + p["labels"].get("l2", "")
    speedup_study(results, out_dir, "combo", "static+memside",
                  [("dynamic+memside", "link balancing only"), ("static+numa_aware", "NUMA-aware caches only"),
                   ("dynamic+numa_aware", "both")],
                  "Link balancing and NUMA-aware caches, alone and together", "speedup over the baseline",
                  "combined.png", ["#41ab5d", "#737373", "#08306b"])
    # Section 6, "Power Implications": 10 pJ per bit moved from one socket to another through links and
    # switch. A transfer crosses two links (socket to switch, switch to socket) and link_bytes counts it on
    # both, so the socket-to-socket bytes are half of it; power = energy / simulated time.
    t = Table(results, "combo")

    def watts(w, label):
        b, c, mhz = (t.stat(w, label, k) for k in ("link_bytes", "cycles", "clock_mhz"))
        if b is None or not c or not mhz:
            return None
        return (b / 2) * 8 * 10e-12 / (c / (mhz * 1e6))

    combos = [("static+memside", "baseline"), ("dynamic+memside", "links"), ("static+numa_aware", "caches"),
              ("dynamic+numa_aware", "both")]
    power = [[watts(w, lab) for lab, _ in combos] for w in t.workloads]
    geo = [means([row[i] for row in power])[1] for i in range(len(combos))]
    rows = list(zip(t.workloads, power)) + [("mean (geo.)", geo)]
    if AT_THEORETICAL:
        kept = [row for w, row in zip(t.workloads, power) if w not in AT_THEORETICAL]
        rows.append(("mean (geo.), excl. 99 %", [means([row[i] for row in kept])[1] for i in range(len(combos))]))
    print_table("Communication power at 10 pJ/bit (W)", [p for _, p in combos], rows)
    # Optional third L2 value (apps_combined): NUMA-aware caches with the L1s left unpartitioned.
    if any(p["labels"].get("l2") == "numa_aware_l1_open" for p in results["points"]):
        cols = [("static+numa_aware", "static+memside"), ("static+numa_aware_l1_open", "static+memside"),
                ("static+numa_aware_l1_open", "static+numa_aware"), ("dynamic+numa_aware_l1_open", "static+memside")]
        speedups = [[t.speedup(w, a, b) for a, b in cols] for w in t.workloads]
        print_table("NUMA-aware caches with and without the L1 split: speedup",
                    ["caches over baseline", "caches, L1 open, over baseline", "L1 open over L1 split",
                     "both, L1 open, over baseline"],
                    list(zip(t.workloads, speedups)) +
                    mean_rows(t.workloads, [[r[i] for r in speedups] for i in range(len(cols))]))


def scaling(results, out_dir):
    t = Table(results, "system")
    ws = t.workloads
    numa = {n: [t.speedup(w, f"sockets{n}", "sockets1") for w in ws] for n in (2, 4, 8)}
    single = {n: [t.speedup(w, f"single{n}x", "sockets1") for w in ws] for n in (2, 4, 8)}
    eff = {n: [None if a is None or b is None else a / b for a, b in zip(numa[n], single[n])] for n in (2, 4, 8)}
    cols = ["2 sockets", "4 sockets", "8 sockets", "single 2x", "single 4x", "single 8x", "eff. 2", "eff. 4",
            "eff. 8"]
    rows = [(w, [numa[2][k], numa[4][k], numa[8][k], single[2][k], single[4][k], single[8][k], eff[2][k],
                 eff[4][k], eff[8][k]]) for k, w in enumerate(ws)]
    allv = [numa[2], numa[4], numa[8], single[2], single[4], single[8], eff[2], eff[4], eff[8]]
    rows += mean_rows(ws, allv)
    print_table("Scaling: speedup over 1 socket; efficiency = NUMA speedup / single-GPU speedup", cols, rows)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
    names = ws + ["mean"]
    bars(a1, names, [(f"{n} sockets", numa[n] + [means(numa[n])[0]]) for n in (2, 4, 8)],
         ["#9ecae1", "#4292c6", "#08519c"])
    for n, color in ((2, "#fdae6b"), (4, "#e6550d")):
        for k, v in enumerate(single[n] + [means(single[n])[0]]):
            if v is not None:
                a1.plot([k - 0.4, k + 0.4], [v, v], color=color, linewidth=1.5,
                        label=f"single GPU {n}x" if k == 0 else None)
    a1.set_ylabel("speedup over 1 socket (×)")
    a1.set_title("NUMA-aware GPU, 1-8 sockets, vs scaled single GPU", fontsize=10)
    a1.legend(fontsize=7)
    counts = [1, 2, 4, 8]
    mean_numa = [1.0] + [means(numa[n])[0] for n in (2, 4, 8)]
    mean_single = [1.0] + [means(single[n])[0] for n in (2, 4, 8)]
    a2.plot(counts, mean_numa, "o-", label="NUMA GPU (mean)")
    a2.plot([c for c, v in zip(counts, mean_single) if v], [v for v in mean_single if v], "s--",
            label="single GPU scaled (mean)")
    a2.plot(counts, counts, color="grey", linewidth=0.8, linestyle=":", label="linear")
    a2.plot([2, 4, 8], [1.5, 2.3, 3.2], "x", color="red", label="paper (NUMA GPU)")
    a2.set_xlabel("sockets / scale factor")
    a2.set_ylabel("mean speedup (×)")
    a2.set_xticks(counts)
    a2.grid(alpha=0.3)
    a2.legend(fontsize=7)
    save(fig, out_dir, "scaling.png")


def ladm(results, out_dir):
    # The policies a sweep ran, in this order: the baselines (Batch+FT; H-CODA, the LADM paper's), then the
    # LADM variants (hand-assigned classes in ladm.yaml; Algorithm 1 per kernel in apps_ladm.yaml).
    known = [("batch_ft", "Batch+FT"), ("h_coda", "H-CODA"), ("kernel_wide", "kernel-wide partitioning"),
             ("ladm_twice", "LADM, remote insert twice"), ("ladm_once", "LADM, remote insert once"),
             ("lasp_twice", "LASP + RTWICE"), ("lasp_once", "LASP + RONCE"), ("ladm", "LADM (LASP + CRB)")]
    ran = {p["labels"].get("policy", "") for p in results["points"]}
    present = [(lab, pretty) for lab, pretty in known if lab in ran]
    baselines = [(lab, pretty) for lab, pretty in present if lab in ("batch_ft", "h_coda")]
    labels = [(lab, pretty) for lab, pretty in present if lab not in ("batch_ft", "h_coda")]
    colors = ["#bdbdbd", "#6baed6", "#08519c", "#31a354"][:len(labels)]
    t, ws = None, []
    for base, pretty in baselines:
        file_name = "ladm.png" if base == "batch_ft" else f"ladm_vs_{base}.png"
        t, ws = speedup_study(results, out_dir, "policy", base, labels, f"LADM on 4x4 chiplets vs {pretty}",
                              f"speedup over {pretty}", file_name, colors)
    if t is None:
        return
    policies = baselines + labels
    mib = lambda v: None if v is None else v / 2**20  # noqa: E731
    inter = [(pretty, [mib(t.stat(w, lab, "inter_gpu_bytes")) for w in ws]) for lab, pretty in policies]
    every = [(pretty, [mib(t.stat(w, lab, "link_bytes")) for w in ws]) for lab, pretty in policies]
    print_table("LADM: inter-GPU MiB (the links to the switch)", [p for p, _ in policies],
                [(w, [s[1][k] for s in inter]) for k, w in enumerate(ws)] +
                [("total", [sum(v or 0 for v in s[1]) for s in inter])])
    print_table("LADM: MiB on every link (intra-GPU ring and switch)", [p for p, _ in policies],
                [(w, [s[1][k] for s in every]) for k, w in enumerate(ws)])
    fig, ax = plt.subplots(figsize=(9, 4))
    bars(ax, ws, inter, ["#fdae6b", "#fd8d3c", "#bdbdbd", "#6baed6", "#08519c", "#31a354"][:len(inter)],
         bottom_line=None)
    ax.set_ylabel("inter-GPU traffic (MiB)")
    ax.set_title("Inter-GPU traffic: bytes over the links to the switch", fontsize=10)
    ax.legend(fontsize=8)
    save(fig, out_dir, "ladm_traffic.png")


# The gap experiments of issue 49, point 5 (docs/studies.md, "Gap experiments").

def ratio(a, b):
    return None if not a or not b else a / b


def print_mixed_table(title, columns, rows):
    """print_table with counts (ints) printed whole and everything else as fmt does."""
    print(f"## {title}")
    print("| workload | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for name, values in rows:
        print(f"| {name} | " + " | ".join(f"{v:,}" if isinstance(v, int) else fmt(v) for v in values) + " |")
    print()


def l2_split(results, out_dir):
    """Oracle sweep of the static L2 split: per application, the best static split (remote ways) and its gain
    over the paper's 50-50 split and over the NUMA-aware caches."""
    t = Table(results, "l2")
    labels = {p["labels"].get("l2", "") for p in results["points"]}
    splits = sorted((int(lab[len("static_r"):]), lab) for lab in labels if re.fullmatch(r"static_r\d+", lab))
    if not splits or "static_r8" not in labels:
        fail("l2_split: the sweep needs static_r<N> points, static_r8 (the 50-50 split) among them")
    ws = list(t.workloads)
    cyc = lambda w, lab: t.stat(w, lab, "cycles")  # noqa: E731
    per_split = [(f"{r} remote", [ratio(cyc(w, "static_r8"), cyc(w, lab)) for w in ws]) for r, lab in splits]
    others = [(lab, [ratio(cyc(w, "static_r8"), cyc(w, lab)) for w in ws])
              for lab in ("memside", "shared", "numa_aware", "numa_aware_l1_open") if lab in labels]
    series = per_split + others
    print_table("L2 split: speedup over the 50-50 static split (8 of 16 ways remote)", [n for n, _ in series],
                [(w, [v[k] for _, v in series]) for k, w in enumerate(ws)] +
                [("mean (arith.)", [means(v)[0] for _, v in series]),
                 ("mean (geo.)", [means(v)[1] for _, v in series])])
    # NUMA-aware splits the L1s too; numa_aware_l1_open (when the sweep has it) splits the L2 only, as the
    # static organization does.
    open_l1 = "numa_aware_l1_open" in labels
    rows, oracle, numa, oracle_numa, oracle_open = [], [], [], [], []
    for w in ws:
        done = [(cyc(w, lab), r) for r, lab in splits if cyc(w, lab)]
        if not done:
            continue
        best_cycles, best_r = min(done)  # ties: the fewest remote ways
        o = ratio(cyc(w, "static_r8"), best_cycles)
        n = ratio(cyc(w, "static_r8"), cyc(w, "numa_aware"))
        on = ratio(cyc(w, "numa_aware"), best_cycles)
        oracle.append(o)
        numa.append(n)
        oracle_numa.append(on)
        oracle_open.append(ratio(cyc(w, "numa_aware_l1_open"), best_cycles))
        rows.append((w, [best_r, o, n, on] + ([oracle_open[-1]] if open_l1 else [])))
    geo = [means(v)[1] for _, v in per_split]
    best_single = max(range(len(splits)), key=lambda k: geo[k] or 0)
    print_mixed_table("L2 split: the oracle (each application's best static split) against 50-50 and NUMA-aware",
                ["best split (remote ways)", "oracle over 50-50", "NUMA-aware over 50-50",
                 "oracle over NUMA-aware"] + (["oracle over NUMA-aware, L1s open"] if open_l1 else []),
                rows + [("mean (arith.)", [None, means(oracle)[0], means(numa)[0], means(oracle_numa)[0]] +
                         ([means(oracle_open)[0]] if open_l1 else [])),
                        ("mean (geo.)", [None, means(oracle)[1], means(numa)[1], means(oracle_numa)[1]] +
                         ([means(oracle_open)[1]] if open_l1 else []))])
    print(f"Best single split for every application (geo. mean over 50-50): {splits[best_single][0]} remote ways, "
          f"{fmt(geo[best_single], 3)}x; the paper's NUMA-aware over static: 1.22x.\n")
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 4.5), gridspec_kw={"width_ratios": [1, 1.6]})
    xs = [r for r, _ in splits]
    for w in ws:
        ax.plot(xs, [ratio(cyc(w, "static_r8"), cyc(w, lab)) for _, lab in splits], color="#999999",
                linewidth=0.7)
    ax.plot(xs, [means(v)[0] for _, v in per_split], color="black", linewidth=2, marker="o", label="mean (arith.)")
    ax.axhline(1.22, color="red", linestyle="--", linewidth=1, label="the paper's NUMA-aware over 50-50")
    ax.set_xlabel("remote ways of 16 (static split)")
    ax.set_ylabel("speedup over the 50-50 split (×)")
    ax.set_title("Every application (grey) and the mean", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    names = [r[0] for r in rows] + ["mean"]
    bars(bx, names, [("oracle static split", oracle + [means(oracle)[0]]),
                     ("NUMA-aware", numa + [means(numa)[0]])], ["#6baed6", "#08519c"])
    bx.axhline(1.22, color="red", linestyle="--", linewidth=1)
    bx.set_ylabel("speedup over the 50-50 split (×)")
    bx.set_title("The best static split per application, and NUMA-aware", fontsize=10)
    bx.legend(fontsize=8)
    save(fig, out_dir, "l2_split.png")


def rank(values):
    order = sorted(range(len(values)), key=lambda k: values[k])
    ranks = [0.0] * len(values)
    k = 0
    while k < len(order):  # ties share their mean rank
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for m in range(k, j + 1):
            ranks[order[m]] = (k + j) / 2
        k = j + 1
    return ranks


def spearman(x, y):
    pairs = [(a, b) for a, b in zip(x, y) if a is not None and b is not None]
    if len(pairs) < 3:
        return None
    rx, ry = rank([a for a, _ in pairs]), rank([b for _, b in pairs])
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx, syy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    return None if not sxx or not syy else sxy / math.sqrt(sxx * syy)


def balancer_triggers(results, out_dir):
    """The balancer's decisions per application (summed over the links) against its gain over static links."""
    t = Table(results, "link")
    dynamic = [lab for lab in dict.fromkeys(p["labels"].get("link", "") for p in results["points"])
               if lab != "static"]
    if "static" not in {p["labels"].get("link", "") for p in results["points"]} or not dynamic:
        fail("balancer_triggers: the sweep needs a static point and a dynamic one per workload")
    dyn = dynamic[0]
    rows = []
    for w in t.workloads:
        st = lambda name: t.stat(w, dyn, name) or 0  # noqa: E731
        windows = st("windows")
        triggers = st("turn_decisions") + st("blocked_decisions")
        both = st("rebalance_decisions") + st("balanced_decisions")
        rows.append((w, [t.speedup(w, dyn, "static"), windows, triggers,
                         None if not windows else 100.0 * triggers / windows, st("turnarounds"),
                         st("blocked_decisions"), both, None if not windows else 100.0 * both / windows,
                         st("busy_decisions")]))
    rows.sort(key=lambda r: -(r[1][0] or 0))
    gains = [r[1][0] for r in rows]
    print_mixed_table(f"Balancer decisions ({dyn}, summed over the 4 links) against its gain over static links",
                ["dynamic over static", "windows", "triggers", "triggers % of windows", "lanes turned",
                 "blocked", "both saturated", "both saturated % of windows", "busy turning"],
                rows + [("mean (arith.)", [means(gains)[0]] + [None] * 8),
                        ("mean (geo.)", [means(gains)[1]] + [None] * 8)])
    rho = spearman([r[1][3] for r in rows], gains)
    quiet = [r[0] for r in rows if (r[1][3] or 0) < 1]
    idle = [r[0] for r in rows if (r[1][3] or 0) >= 1 and (r[1][0] or 0) < 1.02]
    print(f"Spearman rank correlation of triggers per window with the gain: {fmt(rho)}.")
    print_table("Triggers against gain", ["Spearman rank correlation with the gain"],
                [("triggers % of windows", [rho])])
    print(f"Triggers in under 1 % of windows (the balancer has nothing to do): {', '.join(quiet) or 'none'}.")
    print(f"Triggers in 1 % or more, gain under 2 % (turns that do not pay): {', '.join(idle) or 'none'}.\n")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for w, v in rows:
        if v[0] is not None and v[3] is not None:
            ax.scatter(v[3], v[0], color="#08519c")
            ax.annotate(w, (v[3], v[0]), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xlabel("windows with one direction saturated alone (% of link windows)")
    ax.set_ylabel("dynamic over static links (×)")
    ax.set_title(f"Link balancer: triggers against gain ({dyn})", fontsize=10)
    ax.grid(alpha=0.3)
    save(fig, out_dir, "balancer_triggers.png")


def switch_cycles_of(label):
    m = re.fullmatch(r"s\d+k?_w(\d+)(k?)", label)
    return None if not m else int(m.group(1)) * (1000 if m.group(2) else 1)


def switch_time(results, out_dir):
    """Dynamic lanes against static links as the cost of a lane turn grows."""
    t = Table(results, "link")
    labels = sorted({(switch_cycles_of(p["labels"].get("link", "")), p["labels"].get("link", ""))
                     for p in results["points"] if switch_cycles_of(p["labels"].get("link", ""))})
    if not labels:
        fail("switch_time: the sweep needs dynamic points labelled s<SampleTime>_w<SwitchTime>")
    ws = list(t.workloads)
    series = [(f"{w_} cycles", [t.speedup(w, lab, "static") for w in ws]) for w_, lab in labels]
    print_table("SwitchTime: dynamic over static links", [n for n, _ in series],
                [(w, [v[k] for _, v in series]) for k, w in enumerate(ws)] +
                [("mean (arith.)", [means(v)[0] for _, v in series]),
                 ("mean (geo.)", [means(v)[1] for _, v in series])])
    base = next((lab for w_, lab in labels if w_ == 100), None)
    if base:
        rel = [(n, [t.speedup(w, lab, base) for w in ws]) for (w_, lab), (n, _) in zip(labels, series)]
        print_table("SwitchTime: against the paper's 100 cycles (speedup over SwitchTime 100)",
                    [n for n, _ in rel],
                    [("mean (arith.)", [means(v)[0] for _, v in rel]), ("mean (geo.)", [means(v)[1] for _, v in rel]),
                     ("worst application", [min([x for x in v if x is not None] or [None], key=lambda x: x or 0)
                                            for _, v in rel])])
    busy = [(n, [t.stat(w, lab, "busy_decisions") for w in ws]) for (w_, lab), (n, _) in zip(labels, series)]
    turned = [(n, [t.stat(w, lab, "turnarounds") for w in ws]) for (w_, lab), (n, _) in zip(labels, series)]
    print_mixed_table("SwitchTime: lanes turned and windows passed while turning (summed over applications)",
                [n for n, _ in series],
                [("lanes turned", [sum(x for x in v if x) for _, v in turned]),
                 ("windows busy turning", [sum(x for x in v if x) for _, v in busy])])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = [w_ for w_, _ in labels]
    for k, w in enumerate(ws):
        ax.plot(xs, [v[k] for _, v in series], color="#999999", linewidth=0.7)
    ax.plot(xs, [means(v)[0] for _, v in series], color="black", linewidth=2, marker="o", label="mean (arith.)")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axvline(100, color="red", linestyle="--", linewidth=1, label="the paper's 100 cycles")
    ax.set_xscale("log")
    ax.set_xlabel("SwitchTime (cycles per lane turn)")
    ax.set_ylabel("dynamic over static links (×)")
    ax.set_title("Dynamic lanes as a turn gets dearer (SampleTime 5K)", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    save(fig, out_dir, "switch_time.png")


def one_at_a_time(results, axis, known, kind, title):
    """A sweep that changes a design's two halves one at a time: `known` lists the axis's labels, the baseline
    first and the whole design last (both required: fails without them). Returns its Table, workloads, the
    labels it ran and each label's speedup over the baseline (printed under `title`)."""
    base, whole = known[0][0], known[-1][0]
    ran = {p["labels"].get(axis, "") for p in results["points"]}
    if base not in ran or whole not in ran:
        fail(f"{kind}: the sweep needs {base} and {whole} points")
    chosen = [(lab, pretty) for lab, pretty in known if lab in ran]
    t = Table(results, axis)
    ws = list(t.workloads)
    speedups = [(pretty, [t.speedup(w, lab, base) for w in ws]) for lab, pretty in chosen if lab != base]
    print_table(title, [p for p, _ in speedups], [(w, [v[k] for _, v in speedups]) for k, w in enumerate(ws)])
    return t, ws, chosen, speedups


def runtime_split(results, out_dir):
    """The locality-optimized runtime's two halves, the contiguous CTA schedule and first-touch placement,
    applied one at a time (configs/experiments/apps_figure3_split.yaml): each configuration's speedup over the
    traditional runtime (interleaved CTAs, interleaved pages), then where its loads go: the busiest DRAM's
    share of the reads, the SMs' mean load latency, the MiB on the busiest link direction and the busiest
    socket's share of the warp instructions (how evenly the schedule spreads the work)."""
    t, ws, systems, speedups = one_at_a_time(
        results, "system", [("traditional", "traditional"), ("schedule_only", "contiguous schedule only"),
                            ("placement_only", "first touch only"), ("locality", "locality-optimized (both)")],
        "runtime_split", "The locality-optimized runtime's halves one at a time: speedup over traditional")

    def latency(t_, w, lab):
        return ratio(t_.stat(w, lab, "load_latency_sum"), t_.stat(w, lab, "load_latency_count"))

    def busiest_socket_work(t_, w, lab):  # warp_instructions_s0, _s1, ...: the busiest socket's share (%)
        per_socket, k = [], 0
        while t_.stat(w, lab, f"warp_instructions_s{k}") is not None:
            per_socket.append(t_.stat(w, lab, f"warp_instructions_s{k}"))
            k += 1
        return None if not per_socket or not sum(per_socket) else 100.0 * max(per_socket) / sum(per_socket)

    measures = (("busiest DRAM's share of the DRAM reads (%)", busiest_dram_share),
                ("mean load latency (cycles)", latency), ("MiB on the busiest link direction", busiest_direction_mib),
                ("busiest socket's share of the warp instructions (%)", busiest_socket_work))
    for title, measure in measures:
        print_table(f"The locality-optimized runtime's halves one at a time: {title}", [p for _, p in systems],
                    [(w, [measure(t, w, lab) for lab, _ in systems]) for w in ws])
    fig, ax = plt.subplots(figsize=(12, 4))
    bars(ax, ws, speedups, ["#6baed6", "#fd8d3c", "#31a354"][:len(speedups)])
    ax.set_ylabel("speedup over traditional (×)")
    ax.set_title("The locality-optimized runtime's CTA schedule and page placement, one at a time", fontsize=10)
    ax.legend(fontsize=8)
    save(fig, out_dir, "runtime_split.png")


def ladm_schedule(results, out_dir):
    """LADM's CTA schedule and page placement swapped one at a time against H-CODA's: each policy's speedup over
    H-CODA and the measures of where its loads go (the L1 misses the requesting chiplet's own memory serves,
    the mean load latency, the inter-GPU bytes) and, per array, the requests homed at the requesting chiplet."""
    t, ws, policies, speedups = one_at_a_time(
        results, "policy", [("h_coda", "H-CODA"), ("hcoda_schedule", "H-CODA schedule + LASP placement"),
                            ("lasp_schedule", "LASP schedule + page interleave"), ("ladm", "LADM")],
        "ladm_schedule", "LADM's schedule and placement swapped: speedup over H-CODA")

    def local_share(w, lab):
        own, other = t.stat(w, lab, "l1_misses_chiplet"), t.stat(w, lab, "l1_misses_elsewhere")
        return None if own is None or other is None or own + other == 0 else 100.0 * own / (own + other)

    def latency(w, lab):
        return ratio(t.stat(w, lab, "load_latency_sum"), t.stat(w, lab, "load_latency_count"))

    def inter_mib(w, lab):
        v = t.stat(w, lab, "inter_gpu_bytes")
        return None if v is None else v / 2**20

    def busiest_mib(w, lab):
        v = t.stat(w, lab, "busiest_gpu_link_bytes")
        return None if v is None else v / 2**20

    measures = (("L1 read misses served by the requesting chiplet's memory (%)", local_share),
                ("mean load latency (cycles)", latency), ("inter-GPU MiB (the links to the switch)", inter_mib),
                ("MiB on the busiest GPU link to the switch (one direction)", busiest_mib))
    for title, measure in measures:
        print_table(f"LADM's schedule and placement swapped: {title}", [p for _, p in policies],
                    [(w, [measure(w, lab) for lab, _ in policies]) for w in ws])

    # Per array (the `requests` statistic, placement.<array>.requests.local/remote, when the sweep kept it):
    # which of a workload's arrays the schedule and the placement meet on.
    def requests(w, lab):
        v = t.stat(w, lab, "requests")
        return v if isinstance(v, dict) else {}

    def arrays(w):
        names = []
        for lab, _ in policies:
            for key in requests(w, lab):
                if key.startswith("placement.") and key.endswith(".requests.local"):
                    name = key[len("placement."):-len(".requests.local")]
                    if name not in names:
                        names.append(name)
        return names

    def array_share(w, lab, name):
        v = requests(w, lab)
        own, other = v.get(f"placement.{name}.requests.local"), v.get(f"placement.{name}.requests.remote")
        return None if own is None or other is None or own + other == 0 else 100.0 * own / (own + other)

    per_array = [(f"{w}: {name}", [array_share(w, lab, name) for lab, _ in policies])
                 for w in ws for name in arrays(w)]
    if per_array:
        print_table("LADM's schedule and placement swapped: requests homed at the requesting chiplet, per array (%)",
                    [p for _, p in policies], per_array)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4))
    bars(ax, ws, speedups, ["#6baed6", "#fd8d3c", "#31a354"][:len(speedups)])
    ax.set_ylabel("speedup over H-CODA (×)")
    ax.set_title("One of LADM's two halves at a time", fontsize=10)
    ax.legend(fontsize=8)
    shares = [(pretty, [local_share(w, lab) for w in ws]) for lab, pretty in policies]
    bars(bx, ws, shares, ["#bdbdbd", "#6baed6", "#fd8d3c", "#31a354"][:len(policies)], bottom_line=100.0 / 16)
    top = max([v for _, vs in shares for v in vs if v is not None] + [100.0 / 16])
    bx.set_ylim(0, 1.6 * top)  # room above the bars for the legend
    bx.set_ylabel("L1 misses served by the own chiplet (%)")
    bx.set_title("Where the loads go (line: 1 of 16 chiplets)", fontsize=10)
    bx.legend(fontsize=7, ncol=2, loc="upper center")
    save(fig, out_dir, "ladm_schedule.png")


def ladm_crb(results, out_dir):
    """RONCE against RTWICE as the LADM paper's §V-B reads them (Figure 11): per workload, RONCE's speedup, the
    share of the L2s' reads that are REMOTE-LOCAL under RTWICE, each class's hit rate under each insertion, and
    RONCE's DRAM reads and inter-GPU bytes relative to RTWICE's."""
    t = Table(results, "policy")
    ran = {p["labels"].get("policy", "") for p in results["points"]}
    if not {"lasp_twice", "lasp_once"} <= ran:
        fail("ladm_crb: the sweep needs lasp_twice and lasp_once points")
    ws = list(t.workloads)
    classes = ("local_local", "local_remote", "remote_local")

    def reads(w, lab, cls):
        hits, misses = t.stat(w, lab, f"{cls}_hits"), t.stat(w, lab, f"{cls}_misses")
        return None if hits is None or misses is None else (hits, hits + misses)

    def hit_rate(w, lab, cls):
        counts = reads(w, lab, cls)
        return None if counts is None or not counts[1] else 100.0 * counts[0] / counts[1]

    def remote_local_share(w):
        counts = [reads(w, "lasp_twice", c) for c in classes]
        if any(c is None for c in counts) or not sum(c[1] for c in counts):
            return None
        return 100.0 * counts[2][1] / sum(c[1] for c in counts)

    rows = []
    for w in ws:
        rows.append((w, [t.speedup(w, "lasp_once", "lasp_twice"), remote_local_share(w),
                         hit_rate(w, "lasp_twice", "remote_local"), hit_rate(w, "lasp_once", "remote_local"),
                         hit_rate(w, "lasp_twice", "local_remote"), hit_rate(w, "lasp_once", "local_remote"),
                         hit_rate(w, "lasp_twice", "local_local"), hit_rate(w, "lasp_once", "local_local"),
                         ratio(t.stat(w, "lasp_once", "dram_reads"), t.stat(w, "lasp_twice", "dram_reads")),
                         ratio(t.stat(w, "lasp_once", "inter_gpu_bytes"), t.stat(w, "lasp_twice", "inter_gpu_bytes"))]))
    gains = [r[1][0] for r in rows]
    print_table("RONCE against RTWICE: the L2s' reads by the LADM paper's classes",
                ["RONCE over RTWICE", "REMOTE-LOCAL % of L2 reads (RTWICE)", "REMOTE-LOCAL hit % RTWICE",
                 "REMOTE-LOCAL hit % RONCE", "LOCAL-REMOTE hit % RTWICE", "LOCAL-REMOTE hit % RONCE",
                 "LOCAL-LOCAL hit % RTWICE", "LOCAL-LOCAL hit % RONCE", "DRAM reads RONCE / RTWICE",
                 "inter-GPU bytes RONCE / RTWICE"],
                rows + [("mean (arith.)", [means(gains)[0]] + [None] * 9),
                        ("mean (geo.)", [means(gains)[1]] + [None] * 9)])
    fig, ax = plt.subplots(figsize=(9, 4))
    bars(ax, ws, [("REMOTE-LOCAL, RTWICE", [r[1][2] for r in rows]),
                  ("REMOTE-LOCAL, RONCE", [r[1][3] for r in rows]),
                  ("LOCAL-REMOTE, RTWICE", [r[1][4] for r in rows]),
                  ("LOCAL-REMOTE, RONCE", [r[1][5] for r in rows])],
         ["#fdae6b", "#e6550d", "#9ecae1", "#08519c"], bottom_line=None)
    ax.set_ylabel("L2 read hit rate (%)")
    ax.set_ylim(0, 120)  # room above the bars for the legend
    ax.set_title("What RONCE gives up (REMOTE-LOCAL hits) and gains (room for LOCAL-REMOTE lines)", fontsize=10)
    ax.legend(fontsize=7, ncol=2, loc="upper center")
    save(fig, out_dir, "ladm_crb.png")


STUDIES = {"figure3": figure3, "figure5": figure5, "figure6": figure6, "caches": caches, "combined": combined,
           "scaling": scaling, "ladm": ladm, "l2_split": l2_split, "balancer_triggers": balancer_triggers,
           "switch_time": switch_time, "ladm_schedule": ladm_schedule, "runtime_split": runtime_split,
           "ladm_crb": ladm_crb}


def main():
    global AT_THEORETICAL
    if len(sys.argv) not in (3, 4):
        fail("usage: plot_study.py RESULTS.json OUT_DIR [FIGURE3_RESULTS.json]")
    results = load(sys.argv[1])
    study = results.get("study", "")
    if study not in STUDIES:
        fail(f"{sys.argv[1]}: study '{study}' has no figures (known: {', '.join(sorted(STUDIES))})")
    reference = results if study == "figure3" else load(sys.argv[3]) if len(sys.argv) == 4 else None
    if reference is not None and reference.get("study") != "figure3":
        fail(f"{sys.argv[3]}: not a figure3 study (it is '{reference.get('study', '')}'): it cannot say which "
             "workloads reach 99 % of theoretical")
    if reference is not None:
        AT_THEORETICAL = at_theoretical(reference)
    missing = [p["id"] for p in results["points"] if p["status"] != "ok"]
    if missing:
        print(f"plot_study.py: warning: {len(missing)} points not finished, left out: {' '.join(missing[:8])}",
              file=sys.stderr)
    os.makedirs(sys.argv[2], exist_ok=True)
    print(f"# {results.get('sweep')}: {results.get('description', '')}\n")
    if AT_THEORETICAL is not None:
        names = ", ".join(AT_THEORETICAL) if AT_THEORETICAL else "none"
        print(f"At 99 % of theoretical (locality-optimized 4 sockets vs the 4x larger GPU, {reference.get('sweep')}; "
              f"left out of the \"excl. 99 %\" means, as the paper's §4-5): {names}\n")
    STUDIES[study](results, sys.argv[2])


if __name__ == "__main__":
    main()
