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
        reader = csv.DictReader(f)
        return list(reader), reader.fieldnames


def scatter(rows, out, breakdown_rows=()):
    fig, ax = plt.subplots(figsize=(5, 5))
    pts = [(float(r["hardware"]), float(r["simulated"]), r["kernel"]) for r in rows]
    # With correlate --hw as well: the same energy over the hardware's elapsed time (hollow markers).
    timed = [(float(r["hardware"]), float(r["simulated_at_hardware_time"])) for r in breakdown_rows
             if r.get("simulated_at_hardware_time")]
    if pts:
        hi = max([max(h, s) for h, s, _ in pts] + [max(h, s) for h, s in timed]) * 1.1
        ax.plot([0, hi], [0, hi], color="grey", linewidth=1, label="y = x")
        ax.scatter([h for h, _, _ in pts], [s for _, s, _ in pts], s=18, label="simulated")
        if timed:
            ax.scatter([h for h, _ in timed], [s for _, s in timed], s=18, facecolors="none",
                       edgecolors="tab:orange", label="at the hardware's time")
        for h, s, k in pts:
            ax.annotate(k, (h, s), fontsize=6, xytext=(3, 3), textcoords="offset points")
        ax.set_xlim(0, hi)
        ax.set_ylim(0, hi)
        errors = [abs(s - h) / h for h, s, _ in pts]
        title = "Average power, MAPE %.1f %%" % (100 * sum(errors) / len(errors))
        if timed:
            timed_mape = 100 * sum(abs(s - h) / h for h, s in timed) / len(timed)
            title += " (at the hardware's time %.1f %%)" % timed_mape
        ax.set_title(title, fontsize=10)
    ax.set_xlabel("measured (W)")
    ax.set_ylabel("simulated (W)")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def components(fieldnames):
    """The component columns of power_breakdown.csv: those between `simulated` and `simulated_cycles` (the
    columns after them are times and powers priced otherwise, some empty without --hw, never parts of the
    simulated total)."""
    names = list(fieldnames or [])
    if "simulated" not in names or "simulated_cycles" not in names:
        raise ValueError("power_breakdown.csv: expected the columns simulated, then the components, then "
                         "simulated_cycles; got %s" % ",".join(names))
    return names[names.index("simulated") + 1:names.index("simulated_cycles")]


def stacked(rows, fieldnames):
    """The components drawn (those that draw power in some kernel) and each kernel's stacked total."""
    kinds = [k for k in components(fieldnames) if any(float(r[k]) > 0 for r in rows)]
    return kinds, [sum(float(r[k]) for k in kinds) for r in rows]


def breakdown(rows, fieldnames, out):
    kinds, _ = stacked(rows, fieldnames)
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
    correlation, _ = read(sys.argv[1])
    parts, part_names = read(sys.argv[2])
    for draw, name in ((lambda out: scatter(correlation, out, parts), "power_correlation.png"),
                       (lambda out: breakdown(parts, part_names, out), "power_breakdown.png")):
        tmp = os.path.join(out_dir, "." + name + ".tmp.png")
        draw(tmp)
        os.replace(tmp, os.path.join(out_dir, name))


if __name__ == "__main__":
    main()
