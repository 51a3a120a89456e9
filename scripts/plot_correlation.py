#!/usr/bin/env python3
"""Draws `numagpu correlate`'s scatter plots from its correlation.csv: one PNG per counter, simulated against
hardware on log-log axes with the y = x line, as Accel-Sim's correlation figures are drawn.

Usage: plot_correlation.py CORRELATION.csv OUT_DIR
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 3:
        print("usage: plot_correlation.py CORRELATION.csv OUT_DIR", file=sys.stderr)
        sys.exit(2)
    by_counter = {}
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f):
            by_counter.setdefault(row["counter"], []).append(row)
    for counter, rows in by_counter.items():
        pts = [(float(r["hardware"]), float(r["simulated"]), r["kernel"]) for r in rows]
        pts = [(h, s, k) for h, s, k in pts if h > 0 and s > 0]  # log axes: zeros cannot be drawn
        fig, ax = plt.subplots(figsize=(4.5, 4.5))
        if pts:
            lo = min(min(h, s) for h, s, _ in pts) / 2
            hi = max(max(h, s) for h, s, _ in pts) * 2
            ax.plot([lo, hi], [lo, hi], color="grey", linewidth=1, label="y = x")
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=18)
            for h, s, k in pts:
                ax.annotate(k[:18], (h, s), fontsize=6, xytext=(3, 3), textcoords="offset points")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlim(lo, hi)
            ax.set_ylim(lo, hi)
            ax.legend(loc="upper left", fontsize=7)
        ax.set_xlabel(f"hardware {counter}")
        ax.set_ylabel(f"simulated {counter}")
        ax.set_title(counter if pts else f"{counter} (no value above zero to draw)")
        fig.tight_layout()
        fig.savefig(os.path.join(sys.argv[2], f"correlation_{counter}.png"), dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main()
