#!/usr/bin/env python3
"""Checks a Verilator coverage database (coverage.dat, e.g. merged by verilator_coverage --write) against
minimum percentages per kind of point, for the RTL files and the functional cover modules.

Usage: coverage_check.py COVERAGE_DAT [--min KIND=PERCENT ...] [--files SUFFIX ...]
  KIND: line, branch, toggle (from rtl/ and rtl/prim/) and user (the `cover property` points). A kind with no points at
  all fails too: a build without --coverage must not pass. Prints one row per file and kind, and every
  functional point that was never hit. A point instantiated in several testbenches counts once, as hit when
  any of them hit it. Exit 0 when every minimum holds, 1 otherwise, 2 on bad input.
"""
import argparse
import collections
import re
import sys

# A point: C '<key>' <count>, the key a list of \x01<name>\x02<value> fields: f file, l line, page kind/module,
# o comment (the cover property's label, or the toggled signal), h hierarchy.
POINT = re.compile(r"^C '(.*)' (\d+)$")


def parse(path):
    points = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line.startswith("C "):
                    continue
                m = POINT.match(line)
                if not m:
                    sys.exit(f"{path}:{n}: expected a coverage point C '<key>' <count>")
                fields = dict(x.split("\x02", 1) for x in m.group(1).split("\x01") if "\x02" in x)
                kind = fields.get("page", "").split("/")[0].removeprefix("v_")
                # The same point in several testbenches (hierarchies, parameterized module names in `page`) is
                # one point: hit if hit anywhere.
                where = tuple(sorted((k, v) for k, v in fields.items() if k not in ("h", "page")))
                points.append((fields.get("f", "?"), kind, fields.get("o", ""), where, int(m.group(2))))
    except OSError as e:
        sys.exit(f"{path}: cannot read ({e.strerror})")
    return points


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("coverage")
    ap.add_argument("--min", action="append", default=[], metavar="KIND=PERCENT")
    ap.add_argument("--files", nargs="+", default=["rtl/link_balancer.sv", "rtl/cache_partition_ctrl.sv",
                                                    "rtl/prim/prim_window_counter.sv",
                                                    "tb/sv/link_balancer_cover.sv",
                                                    "tb/sv/cache_partition_ctrl_cover.sv"])
    args = ap.parse_args()
    minimum = {}
    for item in args.min:
        kind, _, value = item.partition("=")
        try:
            minimum[kind] = float(value)
        except ValueError:
            print(f"--min {item}: expected KIND=PERCENT", file=sys.stderr)
            return 2

    counts = collections.Counter()
    for file, kind, comment, where, count in parse(args.coverage):
        counts[(file, kind, comment, where)] += count
    total = collections.Counter()
    hit = collections.Counter()
    missed_user = []
    for (file, kind, comment, where), count in sorted(counts.items()):
        suffix = next((s for s in args.files if file.endswith(s)), None)
        if suffix is None:
            continue
        # The cover modules' own toggles are the DUT's ports again: only their functional points count.
        if suffix.startswith("tb/") and kind != "user":
            continue
        total[(suffix, kind)] += 1
        hit[(suffix, kind)] += count > 0
        if kind == "user" and count == 0:
            missed_user.append(f"{suffix}: {comment}")

    failures = 0
    print(f"{'file':40} {'kind':7} {'hit':>6} {'points':>6} {'%':>6}  minimum")
    for kind, need in sorted(minimum.items()):
        rows = [(f, k) for (f, k) in sorted(total) if k == kind]
        if not rows:
            print(f"no {kind} coverage points at all (built without --coverage?)")
            failures += 1
        for key in rows:
            pct = 100.0 * hit[key] / total[key]
            ok = pct + 1e-9 >= need
            failures += not ok
            print(f"{key[0]:40} {kind:7} {hit[key]:6} {total[key]:6} {pct:6.1f}  {need:g} {'' if ok else 'FAILED'}")
    for m in missed_user:
        print(f"functional point never hit: {m}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
