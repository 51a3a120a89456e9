#!/usr/bin/env python3
"""Plots numagpu bench-fabric results: bandwidth against transfer size per pair (uni and bi), and a
pair-by-pair heat map of unidirectional bandwidth at the largest size. Usage: plot_fabric.py CSV OUTDIR.
Embedded in the numagpu program (numagpu bench-fabric --plot runs it)."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(csv_path, out_dir):
    rows = []
    with open(csv_path) as f:
        lines = [line for line in f if not line.startswith("#")]
    for r in csv.DictReader(lines):
        rows.append({"src": int(r["src"]), "dst": int(r["dst"]), "bytes": int(r["bytes"]),
                     "direction": r["direction"], "gbps": float(r["gbps"])})
    if not rows:
        sys.exit("no measurements in " + csv_path)

    fig, ax = plt.subplots(figsize=(8, 5))
    pairs = sorted({(r["src"], r["dst"]) for r in rows})
    for (s, d) in pairs:
        for direction, style in (("uni", "-"), ("bi", "--")):
            pts = sorted((r["bytes"], r["gbps"]) for r in rows
                         if r["src"] == s and r["dst"] == d and r["direction"] == direction)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker=".",
                        label=f"{s}->{d} {direction}" if len(pairs) <= 6 else None)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("transfer size (bytes)")
    ax.set_ylabel("bandwidth (GB/s)")
    ax.set_title("numagpu bench-fabric")
    ax.grid(True, which="both", alpha=0.3)
    if len(pairs) <= 6:
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "bench_fabric_curves.png"), dpi=120)

    largest = max(r["bytes"] for r in rows)
    gpus = 1 + max(max(r["src"], r["dst"]) for r in rows)
    grid = [[float("nan")] * gpus for _ in range(gpus)]
    for r in rows:
        if r["bytes"] == largest and r["direction"] == "uni":
            grid[r["src"]][r["dst"]] = r["gbps"]
    fig, ax = plt.subplots(figsize=(6, 5))
    im = ax.imshow(grid, cmap="viridis")
    ax.set_xticks(range(gpus))
    ax.set_yticks(range(gpus))
    ax.set_xlabel("destination GPU")
    ax.set_ylabel("source GPU")
    ax.set_title(f"unidirectional GB/s at {largest} B")
    for s in range(gpus):
        for d in range(gpus):
            if grid[s][d] == grid[s][d]:
                ax.text(d, s, f"{grid[s][d]:.1f}", ha="center", va="center", color="w", fontsize=8)
    fig.colorbar(im)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "bench_fabric_heatmap.png"), dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_fabric.py CSV OUTDIR")
    main(sys.argv[1], sys.argv[2])
