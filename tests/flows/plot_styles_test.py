#!/usr/bin/env python3
"""The sweep and study plots (issue 47): lines that lie on each other stay distinguishable (each its own
marker and line style), and numeric axes carry their unit.

scripts/plot_sweep.py draws three groups with identical values (all three lines on top of each other) from a
made-up results table; scripts/plot_study.py draws Figure 5's panel for one socket whose egress and ingress
utilization are equal.

Usage: plot_styles_test.py SOURCE_DIR WORKDIR
"""
import importlib.util
import os
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tests in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flows_check import Checks, require  # noqa: E402

require("matplotlib", "plot_styles_test", "python3-matplotlib").use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

check = Checks("plot_styles_test")

src, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def load(name):
    spec = importlib.util.spec_from_file_location(name, f"{src}/scripts/{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# plot_sweep: units from the column's name or its statistic's path.
sweep = load("plot_sweep")
results = {"sweep": "s", "stats": [{"name": "energy_j", "path": "power.total.energy_j"},
                                   {"name": "watts", "path": "power.total.power_w"},
                                   {"name": "cycles", "path": "run.sim_cycles"},
                                   {"name": "hits", "path": "stats.l2.hits"}]}
for column, unit in (("energy_j", "J"), ("watts", "W"), ("cycles", "cycles"), ("hits", None), ("dram_mj", "mJ"),
                     ("link_bytes", "bytes"), ("point", None)):
    check(sweep.unit_of(results, column) == unit, f"unit of {column}: {sweep.unit_of(results, column)}")
series = {g: [(x, 2.0 * x) for x in (1, 2, 4)] for g in ("8", "16", "32")}
fig = sweep.draw(plt, results, series, [], True, "cycles", "energy_j", "ways")
ax = fig.axes[0]
lines = [l for l in ax.get_lines() if l.get_label() in series]
check(len(lines) == 3, f"{len(lines)} lines for 3 groups")
styles = {(l.get_marker(), l.get_linestyle()) for l in lines}
check(len(styles) == 3, f"lines on each other share a style: {styles}")
sizes = [l.get_markersize() for l in lines]
check(sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 3, f"marker sizes {sizes}")
check(ax.get_xlabel() == "cycles (cycles)" and ax.get_ylabel() == "energy_j (J)",
      f"axis labels {ax.get_xlabel()!r}, {ax.get_ylabel()!r}")
fig = sweep.draw(plt, results, {"": [(0, 1.0), (1, 2.0)]}, ["a4", "a8"], False, "accesses", "hits", "")
check(fig.axes[0].get_xlabel() == "accesses" and fig.axes[0].get_ylabel() == "hits",
      "a categorical axis or a column without a unit got one")
plt.close("all")

# plot_study, Figure 5: equal egress and ingress utilization are drawn as two different lines.
study = load("plot_study")
drawn = []
study.save = lambda fig, out_dir, name: drawn.append(fig)
util = {"window_cycles": 100, "values": [10, 50, 90, 20]}
lanes = {"window_cycles": 100, "values": [8, 8, 12, 8]}
point = {"id": "p", "stats": {"cycles": 400, "kernel_cycles": {"kernel0": 400},
                              "util": {"system.link_gpu0_switch0.to_switch0.utilization": util,
                                       "system.link_gpu0_switch0.to_gpu0.utilization": util},
                              "lanes": {"system.link_gpu0_switch0.to_switch0.lanes": lanes,
                                        "system.link_gpu0_switch0.to_gpu0.lanes": lanes}}}
study.figure5_panels([point], work, "figure5.png")
ax = drawn[0].axes[0]
util_lines = [l for l in ax.get_lines() if "utilization" in l.get_label()]
check(len(util_lines) == 2 and util_lines[0].get_linestyle() != util_lines[1].get_linestyle(),
      f"egress and ingress: {[(l.get_label(), l.get_linestyle()) for l in util_lines]}")
lane_lines = drawn[0].axes[1].get_lines()
check(len(lane_lines) == 2 and lane_lines[0].get_linestyle() != lane_lines[1].get_linestyle(), "lanes lines")
check(ax.get_ylabel() == "GPU0 link utilization (%)", f"ylabel {ax.get_ylabel()!r}")
check(ax.get_xlabel() == "simulated cycle (cycles)", f"xlabel {ax.get_xlabel()!r}")

check.finish("lines on each other distinguishable, axes with units")
