#!/usr/bin/env python3
"""Plots numagpu bench-sm results: left, each benchmark's model error against its published value (the
10 % band of issue 46's target shaded); right, the pointer chase's load latency over growing footprints
(the cache plateaus). Usage: plot_bench_sm.py CSV OUTDIR. Embedded in the numagpu program (bench-sm runs it)."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402


def number(text):
    return float(text) if text not in ("", None) else None


def main(csv_path, out_dir):
    with open(csv_path) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    compared = [r for r in rows if number(r["error_pct"]) is not None]
    chase = sorted((int(r["benchmark"][len("chase_"):-len("kib")]), number(r["model"]))
                   for r in rows if r["benchmark"].startswith("chase_") and number(r["model"]) is not None)

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, max(4, 0.28 * len(compared) + 1.5)),
                                      gridspec_kw={"width_ratios": [3, 2]})
    groups = sorted({r["group"] for r in compared})
    colours = {g: plt.cm.tab10(i % 10) for i, g in enumerate(groups)}
    names = [r["benchmark"] for r in compared]
    errors = [number(r["error_pct"]) for r in compared]
    left.barh(range(len(compared)), errors, color=[colours[r["group"]] for r in compared])
    left.axvspan(-10, 10, color="0.9", zorder=0)
    left.axvline(0, color="0.3", linewidth=0.8)
    left.set_yticks(range(len(compared)))
    left.set_yticklabels(names, fontsize=7)
    left.invert_yaxis()
    left.set_xlabel("model error against the published value (%)")
    left.set_title("numagpu bench-sm: model vs published (band: +-10 %)")
    if compared:
        left.set_xscale("symlog", linthresh=10)
    if groups:
        left.legend(handles=[Patch(color=colours[g], label=g) for g in groups], fontsize="small", loc="lower right")

    if chase:
        right.plot([c[0] for c in chase], [c[1] for c in chase], marker="o", label="model")
        right.set_xscale("log", base=2)
    # The published load latencies of the levels the plateaus stand for, as dashed lines.
    levels = {"l1_hit_latency": "L1 hit", "l2_hit_latency": "L2 hit", "dram_latency": "DRAM (L2 miss)"}
    marks = [r for r in rows if r["benchmark"] in levels and number(r["published"]) is not None]
    top = max([c[1] for c in chase] + [number(r["published"]) for r in marks] + [1])
    right.set_ylim(0, 1.1 * top)
    for r in marks:
        right.axhline(number(r["published"]), linestyle="--", color="0.5", linewidth=0.8)
        right.annotate(f'{levels[r["benchmark"]]} published {number(r["published"]):g}',
                       (0.02, number(r["published"])), xycoords=("axes fraction", "data"),
                       fontsize="small", va="bottom", color="0.3")
    right.set_xlabel("pointer-chase footprint (KiB), warmed, 128 B stride")
    right.set_ylabel("cycles per load (model)")
    right.set_title("load latency plateaus")
    right.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "bench_sm.png"), dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_bench_sm.py CSV OUTDIR")
    main(sys.argv[1], sys.argv[2])
