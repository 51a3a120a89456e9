#!/usr/bin/env python3
"""Plots a numagpu power.json time series: average power per sample window, stacked by component kind, and
per socket with the fabric and the paper's communication power. Usage: plot_power.py POWER_JSON OUT_PNG.
Embedded in the numagpu program (numagpu plot power runs it); docs/power.md describes power.json."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(power_path, out_path):
    with open(power_path) as f:
        doc = json.load(f)
    if doc.get("schema") != "numagpu-power" or doc.get("schema_version") != 1:
        sys.exit(power_path + ": not a numagpu power.json of schema version 1")
    series = doc["series"]
    starts, lengths = series["start_cycle"], series["cycles"]
    if not starts:
        sys.exit(power_path + ": no sample windows (the run had stats.sample_cycles: 0)")
    mhz = doc["clock_mhz"]
    # Each window's average power holds over the window: draw steps from its start to its end.
    edges = [s / mhz for s in starts] + [(starts[-1] + lengths[-1]) / mhz]

    def steps(values):
        return list(values) + [values[-1]]

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 8), sharex=True)
    kinds = list(series["components_w"].keys())
    top.stackplot(edges, *[steps(series["components_w"][k]) for k in kinds], labels=kinds, step="post")
    top.step(edges, steps(series["total_w"]), where="post", color="black", linewidth=1, label="total")
    top.set_ylabel("power (W)")
    top.set_title("numagpu power per %d-cycle window, by component" % series["window_cycles"])
    top.legend(loc="upper right", fontsize="small", ncol=2)
    top.grid(True, alpha=0.3)

    # Sockets often draw the same power: each its own dash pattern and width, so equal lines stay apart.
    for s, values in enumerate(series["sockets_w"]):
        bottom.step(edges, steps(values), where="post", label="socket %d" % s,
                    linestyle=[(0, ()), (0, (5, 2)), (0, (1, 1.5)), (0, (5, 2, 1, 2))][s % 4],
                    linewidth=2.2 - 0.4 * (s % 4))
    if any(v > 0 for v in series["fabric_w"]):
        bottom.step(edges, steps(series["fabric_w"]), where="post", label="fabric", linestyle="--")
    bottom.step(edges, steps(series["communication_w"]), where="post", label="communication (paper)",
                color="black", linestyle=":")
    bottom.set_xlabel("simulated time (µs)")
    bottom.set_ylabel("power (W)")
    bottom.set_title("per socket, and communication as the paper computes it")
    bottom.legend(loc="upper right", fontsize="small", ncol=2)
    bottom.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_power.py POWER_JSON OUT_PNG")
    main(sys.argv[1], sys.argv[2])
