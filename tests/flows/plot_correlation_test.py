#!/usr/bin/env python3
"""scripts/plot_correlation.py (issue 47): no kernel is left out of a log-log correlation plot. A kernel that
is zero on an axis is drawn on that axis with its own marker and counted in the legend; kernel names are
demangled; no two labels overlap, and no label covers a point, the legend or the title.

The table is made up here: twelve kernels with mangled names, six of them bunched within a few percent of
each other (their labels cannot all sit beside their points), three at zero (hardware, simulated, both).

Usage: plot_correlation_test.py SOURCE_DIR WORKDIR
"""
import csv
import importlib.util
import os
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tests in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flows_check import Checks, require  # noqa: E402

Bbox = require("matplotlib.transforms", "plot_correlation_test", "python3-matplotlib").Bbox
check = Checks("plot_correlation_test")

src, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
spec = importlib.util.spec_from_file_location("plot_correlation", f"{src}/scripts/plot_correlation.py")
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)

# (benchmark, mangled kernel, hardware, simulated) and the label expected.
KERNELS = [
    ("kmeans-rodinia", "_Z11kmeansPointPfiiiPiS_S_S0_", 0, 1.7e7, "kmeansPoint"),
    ("dct8x8", "_Z14CUDAkernel1DCTPfiiiy", 3.3e4, 0, "CUDAkernel1DCT"),
    ("dct8x8", "_Z14CUDAkernel2DCTPfS_i", 0, 0, "CUDAkernel2DCT"),
    ("hotspot", "_Z14calculate_tempiPfS_S_iiiiffffff", 7.0e5, 7.1e5, "calculate_temp"),
    ("backprop", "_Z22bpnn_layerforward_CUDAPfS_S_S_ii", 7.1e5, 7.0e5, "bpnn_layerforward_CUDA"),
    ("backprop", "_Z24bpnn_adjust_weights_cudaPfiS_iS_S_", 7.2e5, 7.3e5, "bpnn_adjust_weights_cuda"),
    ("srad", "_Z4sradfiilPiS_S_S_PfS0_S0_S0_fS0_S0_", 6.9e5, 6.8e5, "srad"),
    ("sgemm", "_Z9mysgemmNTPKfiS0_iPfiiff", 7.05e5, 7.15e5, "mysgemmNT"),
    ("b+tree", "_ZN3ops5findKEv", 6.95e5, 7.05e5, "ops::findK"),
    ("b+tree", "findRangeK", 2.0e3, 2.2e3, "findRangeK"),
    ("lud-rodinia", "kernel", 5.0e6, 4.0e6, "lud:kernel"),
    ("nw-rodinia", "kernel", 9.0e3, 1.1e4, "nw:kernel"),
]
rows = [{"benchmark": b, "kernel": k, "counter": "L1_RM", "hardware": str(h), "simulated": str(s)}
        for b, k, h, s, _ in KERNELS]

# Labels: demangled (with c++filt and without), short, the benchmark added where two kernels share a name.
check(pc.labels_for(rows) == [want for *_, want in KERNELS], f"labels {pc.labels_for(rows)}")
check(pc._fallback_demangle("_Z9mysgemmNTPKfiS0_iPfiiff") == "mysgemmNT", "fallback demangling")
check(pc._fallback_demangle("_ZN3ops5findKEv") == "ops::findK", "fallback demangling of a nested name")
check(pc.short_name("void ns::k<float, 4>(float*, int)") == "void ns::k", pc.short_name("void ns::k<float, 4>(float*, int)"))

fig, info = pc.draw("L1_RM", rows)
ax = fig.axes[0]
lo = info["lo"]
# lo is a quarter of the smallest value above zero (2000); the axes start there.
check(abs(lo - 500) < 1e-9 and abs(ax.get_xlim()[0] - lo) < 1e-9 and abs(ax.get_ylim()[0] - lo) < 1e-9,
      f"lower limit {lo}, axes {ax.get_xlim()}")
# Every kernel is drawn: 9 above zero, 3 on the axes.
drawn = [tuple(p) for c in ax.collections for p in c.get_offsets()]
check(len(drawn) == len(KERNELS), f"{len(drawn)} points drawn for {len(KERNELS)} kernels")
zero_marks = sorted(tuple(p) for p in ax.collections[1].get_offsets())
check(zero_marks == sorted([(lo, 1.7e7), (3.3e4, lo), (lo, lo)]), f"zero points at {zero_marks}")
legend = [t.get_text() for t in ax.get_legend().get_texts()]
check("3 at zero (drawn on the axis)" in legend and "9 kernels" in legend, f"legend {legend}")
check(ax.get_title() == "L1_RM: 12 kernels, 3 at zero", f"title {ax.get_title()!r}")
# Every name is on the plot or in the key, once.
texts = [a.get_text() for a in info["labels"]]
named = [t for t in texts if not t.startswith("[")] + [t for _, t in info["keyed"]]
check(sorted(named) == sorted(want for *_, want in KERNELS), f"names shown {sorted(named)}")
check(len(texts) == len(KERNELS), f"{len(texts)} labels for {len(KERNELS)} kernels")
# No overlap: labels with each other, with any point, with the legend and the title.
renderer = fig.canvas.get_renderer()
boxes = [a.get_window_extent(renderer) for a in info["labels"]]
for i in range(len(boxes)):
    for j in range(i + 1, len(boxes)):
        check(not boxes[i].overlaps(boxes[j]), f"labels {texts[i]!r} and {texts[j]!r} overlap")
r = 2.0 * fig.dpi / 72
others = [(f"the point at ({x:.0f}, {y:.0f})", Bbox.from_extents(x - r, y - r, x + r, y + r))
          for x, y in ax.transData.transform(drawn)]
others += [("the legend", ax.get_legend().get_window_extent(renderer)),
           ("the title", ax.title.get_window_extent(renderer))]
for what, other in others:
    for t, b in zip(texts, boxes):
        check(not b.overlaps(other), f"label {t!r} covers {what}")

# Forty kernels on one spot: most names find no free place; they are numbered there and named in the key.
crowd = [{"benchmark": "b", "kernel": f"kernel_number_{i}", "counter": "X", "hardware": str(1000 + i),
          "simulated": str(1000 + i)} for i in range(40)]
fig2, info2 = pc.draw("X", crowd)
named2 = [a.get_text() for a in info2["labels"] if not a.get_text().startswith("[")] + [t for _, t in info2["keyed"]]
check(sorted(named2) == sorted(r["kernel"] for r in crowd), "crowded: a name is missing")
check(info2["keyed"] and any(f"[{info2['keyed'][0][0]}] {info2['keyed'][0][1]}" in t.get_text() for t in fig2.texts),
      "crowded: no key beside the plot")
boxes2 = [a.get_window_extent(fig2.canvas.get_renderer()) for a in info2["labels"]]
check(not any(boxes2[i].overlaps(boxes2[j]) for i in range(len(boxes2)) for j in range(i + 1, len(boxes2))),
      "crowded: labels overlap")

# The script as correlate runs it: one PNG per counter, none left out.
with open(f"{work}/correlation.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["benchmark", "kernel", "counter", "hardware", "simulated"])
    w.writeheader()
    w.writerows(rows)
    w.writerows({**r, "counter": "CC_ACC", "hardware": "0", "simulated": "0"} for r in rows)
os.system(f"{sys.executable} {src}/scripts/plot_correlation.py {work}/correlation.csv {work}")
for counter in ("L1_RM", "CC_ACC"):
    png = f"{work}/correlation_{counter}.png"
    check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"{png} not written")

check.finish(f"{len(KERNELS)} kernels drawn, 3 at zero; a crowd of 40 with {len(info2['keyed'])} names in the key; "
             "no overlap")
