#!/usr/bin/env python3
"""Draws any column of a numagpu sweep's results table against another (`numagpu plot sweep`).

Usage: plot_sweep.py RESULTS.json X Y GROUP OUT.png     (GROUP may be "" for none)

Columns are those of results.csv: `point`, `workload`, `grid`, every axis of the sweep (its labels), and
every statistic of the spec whose value is one number per point (a statistic with wildcards and no
reduction is a table, not a column: reduce it in the spec). Only the points that ran (`status: ok`) are
drawn. X is numeric when every drawn value is a number (points joined in order of X), otherwise categorical
(values in order of first appearance); each value of GROUP is one line, with its own marker and line style
(and smaller markers for later lines), so that lines lying on each other stay apart. An axis of a numeric
column is labelled with the column's unit, read from its name or its statistic's path (`energy_j`: J,
`power.total.power_w`: W, `cycles`: cycles; UNITS). Bad input is one line on stderr and exit status 2.
"""
import json
import math
import os
import sys


def fail(message, status=2):
    print(f"numagpu: error: plot sweep: {message}", file=sys.stderr)
    sys.exit(status)


def load(path):
    try:
        with open(path) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    if not isinstance(results, dict) or results.get("format") != "numagpu-sweep-results":
        fail(f"{path}: not a numagpu sweep results.json")
    return results


def columns(results):
    """Name -> function(point) giving that column's value, in results.csv's order."""
    cols = {"point": lambda p: p.get("id"), "workload": lambda p: p.get("workload"),
            "grid": lambda p: p.get("grid")}
    for axis in results.get("axes", []):
        cols[axis] = lambda p, a=axis: p.get("labels", {}).get(a)
    for stat in results.get("stats", []):
        name = stat.get("name")
        if name in cols:  # a statistic named like an axis: the axis wins, as in results.csv's first match
            continue
        cols[name] = lambda p, n=name: p.get("stats", {}).get(n)
    return cols


# Name endings and their units (the statistics' paths in stats.json and power.json follow them).
UNITS = [("_pj", "pJ"), ("_nj", "nJ"), ("_uj", "µJ"), ("_mj", "mJ"), ("_j", "J"), ("_mw", "mW"), ("_w", "W"),
         ("_ns", "ns"), ("_us", "µs"), ("_ms", "ms"), ("_seconds", "s"), ("_s", "s"), ("_mhz", "MHz"),
         ("_gbps", "GB/s"), ("_bytes", "bytes"), ("_bits", "bits"), ("_percent", "%"), ("_pct", "%"),
         ("cycles", "cycles"), ("_fraction", "fraction"), ("_ratio", "ratio")]
STYLES = [("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"), ("v", "-"), ("P", "--"), ("X", "-."), ("*", ":")]


def unit_of(results, column):
    """The unit of a column, from its name or, for a statistic, the last part of its path; None if neither
    says."""
    names = [column]
    for stat in results.get("stats", []):
        if stat.get("name") == column and isinstance(stat.get("path"), str):
            names.append(stat["path"].split(".")[-1])
    for name in names:
        low = name.lower()
        for ending, unit in UNITS:
            if low.endswith(ending) or low == ending.lstrip("_"):
                return unit
    return None


def axis_label(results, column, numeric):
    unit = unit_of(results, column) if numeric else None
    return f"{column} ({unit})" if unit else column


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def draw(plt, results, series, categories, numeric_x, x, y, group):
    """The figure: one line per group, each with its own marker and line style, the axes with units."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for k, (name, pts) in enumerate(series.items()):
        pts.sort(key=lambda t: t[0])
        marker, style = STYLES[k % len(STYLES)]
        size = max(3.0, 8.0 - 1.5 * (k % 4))  # later lines smaller: points on each other stay visible
        ax.plot([t[0] for t in pts], [t[1] for t in pts], marker=marker, linestyle=style, markersize=size,
                markerfacecolor="none" if k % 2 else None, label=name or None)
    if not numeric_x:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels(categories, rotation=30 if len(categories) > 4 else 0, ha="right"
                           if len(categories) > 4 else "center")
    ax.set_xlabel(axis_label(results, x, numeric_x))
    ax.set_ylabel(axis_label(results, y, True))
    ax.set_title(f"{results.get('sweep', '')}: {y} by {x}" + (f", per {group}" if group else ""))
    ax.grid(True, alpha=0.3)
    if group:
        ax.legend(title=group, fontsize="small")
    return fig


def main():
    if len(sys.argv) != 6:
        fail("usage: plot_sweep.py RESULTS.json X Y GROUP OUT.png")
    path, x, y, group, out = sys.argv[1:]
    results = load(path)
    cols = columns(results)
    for role, name in (("--x", x), ("--y", y), ("--group", group)):
        if name and name not in cols:
            fail(f"{path}: {role} {name}: no such column (columns: {', '.join(cols)})")
    points = [p for p in results.get("points", []) if p.get("status") == "ok"]
    if not points:
        fail(f"{path}: no point has run (status ok), so there is nothing to draw")
    for p in points:
        v = cols[y](p)
        if not number(v) and v is not None:
            fail(f"{path}: --y {y}: point {p.get('id')} has {json.dumps(v)[:60]}, not one number "
                 "(reduce a wildcard statistic in the spec)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("python3-matplotlib is not installed (scripts/setup.sh installs it)", status=3)

    xs_all = [cols[x](p) for p in points]
    numeric_x = all(number(v) for v in xs_all)
    categories = []
    if not numeric_x:
        for v in xs_all:
            key = json.dumps(v) if not isinstance(v, str) else v
            if key not in categories:
                categories.append(key)
    series = {}
    for p in points:
        g = cols[group](p) if group else None
        xv = cols[x](p)
        yv = cols[y](p)
        if yv is None:
            continue  # a statistic the point did not have
        if not numeric_x:
            xv = categories.index(json.dumps(xv) if not isinstance(xv, str) else xv)
        series.setdefault("" if g is None else str(g), []).append((xv, yv))

    fig = draw(plt, results, series, categories, numeric_x, x, y, group)
    fig.tight_layout()
    # Whole or not at all: written beside the target, then renamed over it.
    tmp = f"{out}.tmp.{os.getpid()}"
    try:
        fig.savefig(tmp, dpi=110, format="png")
        os.replace(tmp, out)
    except OSError as e:
        fail(f"{out}: cannot write ({e.strerror})")
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


if __name__ == "__main__":
    main()
