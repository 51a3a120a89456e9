#!/usr/bin/env python3
"""Draws `numagpu correlate --power`'s figures: power_correlation.png (simulated against measured average
power per kernel, with the y = x line) and power_breakdown.png (each kernel's simulated power stacked by
component beside its measured total).

Usage: plot_power_correlation.py POWER_CORRELATION.csv POWER_BREAKDOWN.csv OUT_DIR
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def scatter(rows, out):
    fig, ax = plt.subplots(figsize=(5, 5))
    pts = [(float(r["hardware"]), float(r["simulated"]), r["kernel"]) for r in rows]
    if pts:
        hi = max(max(h, s) for h, s, _ in pts) * 1.1
        ax.plot([0, hi], [0, hi], color="grey", linewidth=1, label="y = x")
        ax.scatter([h for h, _, _ in pts], [s for _, s, _ in pts], s=18)
        for h, s, k in pts:
            ax.annotate(k, (h, s), fontsize=6, xytext=(3, 3), textcoords="offset points")
        ax.set_xlim(0, hi)
        ax.set_ylim(0, hi)
        errors = [abs(s - h) / h for h, s, _ in pts]
        ax.set_title("Average power, MAPE %.1f %%" % (100 * sum(errors) / len(errors)), fontsize=10)
    ax.set_xlabel("measured (W)")
    ax.set_ylabel("simulated (W)")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def breakdown(rows, out):
    kinds = [k for k in (rows[0].keys() if rows else []) if k not in ("kernel", "hardware", "simulated")]
    kinds = [k for k in kinds if any(float(r[k]) > 0 for r in rows)]  # components that draw power here
    fig, ax = plt.subplots(figsize=(max(5, 0.9 * len(rows) + 2), 4.5))
    xs = range(len(rows))
    bottom = [0.0] * len(rows)
    for kind in kinds:
        values = [float(r[kind]) for r in rows]
        ax.bar([x - 0.2 for x in xs], values, width=0.4, bottom=bottom, label=kind)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.bar([x + 0.2 for x in xs], [float(r["hardware"]) for r in rows], width=0.4, color="black",
           label="measured")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([r["kernel"] for r in rows], rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("average power (W)")
    ax.set_title("Simulated power by component (left) and measured (right)", fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main():
    if len(sys.argv) != 4:
        print("usage: plot_power_correlation.py POWER_CORRELATION.csv POWER_BREAKDOWN.csv OUT_DIR",
              file=sys.stderr)
        sys.exit(2)
    out_dir = sys.argv[3]
    # Written beside and moved in, so that a failed plot leaves no half-written picture.
    for draw, rows, name in ((scatter, read(sys.argv[1]), "power_correlation.png"),
                             (breakdown, read(sys.argv[2]), "power_breakdown.png")):
        tmp = os.path.join(out_dir, "." + name + ".tmp.png")
        draw(rows, tmp)
        os.replace(tmp, os.path.join(out_dir, name))


if __name__ == "__main__":
    main()
