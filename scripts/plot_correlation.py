#!/usr/bin/env python3
"""Draws `numagpu correlate`'s scatter plots from its correlation.csv: one PNG per counter, simulated against
hardware on log-log axes with the y = x line, as Accel-Sim's correlation figures are drawn.

Every kernel of the table is drawn. A value of zero has no place on a log axis, and leaving it out would hide
what the table's correlation counts (one kernel at zero can turn a Pearson coefficient negative while the
others lie on y = x): a kernel that is zero on an axis is drawn on that axis (at its lower limit) with its
own marker, and the legend says how many are. Kernel names are demangled (`_Z9mysgemmNTPKfiS0_iPfiiff` ->
`mysgemmNT`) and placed where they overlap no other; a name that finds no free place is numbered on the plot
and listed beside it (points closer together than a label share one number).

Usage: plot_correlation.py CORRELATION.csv OUT_DIR
"""
import csv
import os
import re
import shutil
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

LABEL_FONT = 6
# Where a label may go, relative to its point (offset in points, alignment), nearest first.
CANDIDATES = [(4, 3, "left", "bottom"), (4, -3, "left", "top"), (-4, 3, "right", "bottom"),
              (-4, -3, "right", "top"), (0, 6, "center", "bottom"), (0, -6, "center", "top"),
              (8, 0, "left", "center"), (-8, 0, "right", "center"), (10, 10, "left", "bottom"),
              (-10, -10, "right", "top"), (10, -10, "left", "top"), (-10, 10, "right", "bottom"),
              (0, 14, "center", "bottom"), (0, -14, "center", "top")]


def _fallback_demangle(name):
    """The Itanium names of plain and namespaced functions (`_Z<len><name>...`, `_ZN<len><a><len><b>...E`),
    for when c++filt is not installed."""
    m = re.match(r"_Z(N?)(.*)", name)
    if not m:
        return name
    rest, parts = m.group(2), []
    while True:
        n = re.match(r"(\d+)", rest)
        if not n:
            break
        length = int(n.group(1))
        start = len(n.group(1))
        parts.append(rest[start:start + length])
        rest = rest[start + length:]
        if not m.group(1):
            break
    return "::".join(parts) if parts else name


def demangle(names):
    """{mangled: demangled} for every name (unchanged when it is not a mangled C++ name)."""
    names = list(dict.fromkeys(names))
    out = {n: n for n in names}
    mangled = [n for n in names if n.startswith("_Z")]
    if not mangled:
        return out
    filt = shutil.which("c++filt")
    if filt:
        try:
            p = subprocess.run([filt], input="\n".join(mangled) + "\n", capture_output=True, text=True,
                               timeout=10)
            lines = p.stdout.splitlines()
            if p.returncode == 0 and len(lines) == len(mangled):
                out.update(zip(mangled, lines))
                return out
        except (OSError, subprocess.SubprocessError):
            pass
    out.update({n: _fallback_demangle(n) for n in mangled})
    return out


def short_name(demangled, limit=28):
    """A demangled signature without its parameters and template arguments: `ns::kernel`."""
    name = demangled
    depth, kept = 0, []
    for ch in name:  # drop <...> (nested)
        if ch == "<":
            depth += 1
        elif ch == ">" and depth:
            depth -= 1
        elif not depth:
            kept.append(ch)
    name = "".join(kept)
    if "(" in name:
        name = name[:name.index("(")]
    name = name.strip() or demangled
    return name if len(name) <= limit else name[:limit - 1] + "…"


def labels_for(rows):
    """A readable label per row: the kernel's short demangled name, with its benchmark's first word where
    two benchmarks share the name."""
    names = demangle(r["kernel"] for r in rows)
    short = [short_name(names[r["kernel"]]) for r in rows]
    out = []
    for r, s in zip(rows, short):
        if short.count(s) > 1 and r.get("benchmark"):
            s = f"{r['benchmark'].split('-')[0]}:{s}"
        out.append(s)
    return out


def _free(bbox, taken, fig_bbox):
    return (fig_bbox.x0 <= bbox.x0 and bbox.x1 <= fig_bbox.x1 and fig_bbox.y0 <= bbox.y0 and bbox.y1 <= fig_bbox.y1
            and not any(bbox.overlaps(t) for t in taken))


def place_labels(fig, ax, points, texts, avoid=()):
    """Annotates each point with its text where it overlaps no label placed before, no point, nothing in
    `avoid` (display boxes: the legend, the title, the key's column) and stays in the figure. A text that
    finds no such place is numbered there instead and named in the key; where not even the number fits
    (points closer than a label), the text joins the key entry of the nearest numbered point. Returns
    (annotations, {number: [texts]})."""
    renderer = fig.canvas.get_renderer()
    fig_bbox = fig.bbox
    r = 2.0 * fig.dpi / 72  # a marker's half width
    shown = ax.transData.transform(points)
    taken = list(avoid) + [Bbox.from_extents(px - r, py - r, px + r, py + r) for px, py in shown]
    placed, key, numbered_at = [], {}, []  # numbered_at: (display x, y, number)

    def try_place(i, text):
        for dx, dy, ha, va in CANDIDATES:
            a = ax.annotate(text, points[i], xytext=(dx, dy), textcoords="offset points", ha=ha, va=va,
                            fontsize=LABEL_FONT, annotation_clip=False)
            bbox = a.get_window_extent(renderer).expanded(1.04, 1.08)
            if _free(bbox, taken, fig_bbox):
                taken.append(bbox)
                placed.append(a)
                return True
            a.remove()
        return False

    for i in sorted(range(len(points)), key=lambda k: (points[k][0], points[k][1])):
        if try_place(i, texts[i]):
            continue
        number = len(key) + 1
        if try_place(i, f"[{number}]") or not numbered_at:
            if not placed or placed[-1].get_text() != f"[{number}]":  # the very first number, forced
                placed.append(ax.annotate(f"[{number}]", points[i], xytext=CANDIDATES[0][:2],
                                          textcoords="offset points", fontsize=LABEL_FONT, annotation_clip=False))
            key[number] = [texts[i]]
            numbered_at.append((shown[i][0], shown[i][1], number))
            continue
        x, y = shown[i]
        nearest = min(numbered_at, key=lambda n: (n[0] - x) ** 2 + (n[1] - y) ** 2)[2]
        key[nearest].append(texts[i])
    return placed, key


def draw(counter, rows):
    """The figure of one counter; returns (figure, {"zero": kernels at zero, "labels": annotations,
    "keyed": numbered names, "lo": the axes' lower limit})."""
    pts = [(float(r["hardware"]), float(r["simulated"])) for r in rows]
    texts = labels_for(rows)
    positive = [v for h, s in pts for v in (h, s) if v > 0]
    lo = min(positive) / 4 if positive else 0.1
    hi = max(positive) * 2 if positive else 10.0
    # A fixed layout: the axes on the left, the legend and the key of numbered names on the right; labels
    # are placed once the axes no longer move.
    fig = plt.figure(figsize=(7.2, 4.8))
    ax = fig.add_axes([0.11, 0.11, 0.56, 0.8])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.plot([lo, hi], [lo, hi], color="grey", linewidth=1, label="y = x")
    above = [(h, s) for h, s in pts if h > 0 and s > 0]
    zero = [(max(h, lo), max(s, lo)) for h, s in pts if h <= 0 or s <= 0]
    if above:
        ax.scatter([h for h, _ in above], [s for _, s in above], s=18, label=f"{len(above)} kernels")
    if zero:
        ax.scatter([h for h, _ in zero], [s for _, s in zero], s=30, marker="X", color="tab:red", clip_on=False,
                   zorder=3, label=f"{len(zero)} at zero (drawn on the axis)")
    ax.set_xlabel(f"hardware {counter} (log; 0 on the axis)")
    ax.set_ylabel(f"simulated {counter} (log; 0 on the axis)")
    title = ax.set_title(f"{counter}: {len(pts)} kernels" + (f", {len(zero)} at zero" if zero else ""),
                         fontsize=10)
    legend = ax.legend(loc="upper left", bbox_to_anchor=(1.03, 1.0), fontsize=7, frameon=False)
    renderer = fig.canvas.get_renderer()
    key_column = Bbox.from_extents(0.69 * fig.bbox.width, 0, fig.bbox.width, 0.72 * fig.bbox.height)
    drawn = [(max(h, lo), max(s, lo)) for h, s in pts]
    labels, key = place_labels(fig, ax, drawn, texts, avoid=[legend.get_window_extent(renderer),
                                                             title.get_window_extent(renderer), key_column])
    if key:
        lines = [f"[{n}] " + ("\n     ".join(names)) for n, names in key.items()]
        text = "\n".join(lines).split("\n")
        fig.text(0.70, 0.70, "\n".join(text[:44]) + (f"\n... {len(text) - 44} more" if len(text) > 44 else ""),
                 fontsize=LABEL_FONT, va="top", family="monospace")
    keyed = [(n, t) for n, names in key.items() for t in names]
    return fig, {"zero": len(zero), "labels": labels, "keyed": keyed, "lo": lo}


def main():
    if len(sys.argv) != 3:
        print("usage: plot_correlation.py CORRELATION.csv OUT_DIR", file=sys.stderr)
        sys.exit(2)
    by_counter = {}
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f):
            by_counter.setdefault(row["counter"], []).append(row)
    for counter, rows in by_counter.items():
        fig, _ = draw(counter, rows)
        fig.savefig(os.path.join(sys.argv[2], f"correlation_{counter}.png"), dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main()
