#!/usr/bin/env python3
"""docs/rtl-area-numagpu_demo.md (scripts/rtl_area.sh --liberty) against the library's stated cell areas:
every configuration's area is the sum over its cells by type of the area scripts/liberty/numagpu_demo.lib
states for that cell (its header: 0.5 um^2 per transistor), so the page's figures are the library's.

Usage: liberty_area_check.py PAGE
"""
import re
import sys

AREA = {"INV_X1": 1.0, "BUF_X1": 2.0, "NAND2_X1": 2.0, "NOR2_X1": 2.0, "AND2_X1": 3.0, "OR2_X1": 3.0,
        "XOR2_X1": 5.0, "XNOR2_X1": 5.0, "MUX2_X1": 6.0, "DFF_X1": 12.0}

page = open(sys.argv[1]).read()
failures = []
blocks = page.split("\n## ")[1:]
if len(blocks) != 2:
    sys.exit(f"liberty_area_check: {sys.argv[1]}: expected two block sections, found {len(blocks)}")
for block in blocks:
    title = block.splitlines()[0]
    tables = [t for t in re.split(r"\n\n", block) if t.startswith("|")]
    summary, by_type = tables[0].splitlines()[2:], tables[1].splitlines()
    areas = [float(row.split("|")[5]) for row in summary]
    cells = [int(row.split("|")[4]) for row in summary]
    sums = [0.0] * len(areas)
    counts = [0] * len(areas)
    for row in by_type[2:]:
        fields = [f.strip() for f in row.strip("|").split("|")]
        cell = fields[0].strip("`")
        for k, n in enumerate(fields[1:]):
            sums[k] += int(n) * AREA[cell]
            counts[k] += int(n)
    for k in range(len(areas)):
        if abs(sums[k] - areas[k]) > 0.05 or counts[k] != cells[k]:
            failures.append(f"{title}, column {k}: area {areas[k]} and {cells[k]} cells; the cells by type "
                            f"give {sums[k]} and {counts[k]}")
if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print("liberty_area_check: every area is the library's cell areas summed")
