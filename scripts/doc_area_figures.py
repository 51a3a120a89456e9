#!/usr/bin/env python3
"""Writes the area figures that docs/power.md quotes from the area pages that scripts/rtl_area.sh generates
(docs/rtl-area.md, docs/rtl-area-<library>.md), so that the two never differ: each quote sits between
`<!-- doc_area_figures.py NAME -->` and `<!-- end doc_area_figures.py -->` and is rewritten from the default
row of each block's table.

Usage: doc_area_figures.py [--check] [DOCS_DIR]     (DOCS_DIR: the repository's docs/, by default)

--check writes nothing and exits 1 when docs/power.md differs from what it would write (the ctest
docs_power_area_figures_match_the_area_pages). A page or a marker that is missing is one line, exit 2.
"""
import os
import re
import sys

NBSP = "\u00a0"  # keeps a number and its unit on one line while wrapping; written as a space
BLOCKS = [("link balancer", "Link balancer"), ("partition controller", "Cache partition controller")]


def fail(message):
    print(f"doc_area_figures.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def default_rows(path):
    """{section title: [cells of the row marked (default)]} of an area page."""
    try:
        text = open(path).read()
    except OSError as e:
        fail(f"{path}: cannot read ({e.strerror})")
    rows, section = {}, None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:]
        elif section and "(default)" in line and line.startswith("|") and section not in rows:
            rows[section] = [c.strip() for c in line.strip().strip("|").split("|")]
    return rows


def row_of(rows, title, path):
    for section, cells in rows.items():
        if section.startswith(title):
            return cells
    fail(f"{path}: no default row under a section '{title} ...'")


def number(text):
    value = float(text.replace(",", ""))
    return f"{value:.0f}" if value == int(value) else f"{value:g}"


def quotes(docs):
    """{marker name: text} from the pages."""
    generic_path = os.path.join(docs, "rtl-area.md")
    demo_path = os.path.join(docs, "rtl-area-numagpu_demo.md")
    generic, demo = default_rows(generic_path), default_rows(demo_path)
    # rtl-area.md: size | generic cells | flip-flops | CMOS cells | transistors | share in flip-flops
    g = {name: row_of(generic, title, generic_path) for name, title in BLOCKS}
    # rtl-area-numagpu_demo.md: size | generic cells | flip-flops | library cells | area
    d = {name: row_of(demo, title, demo_path) for name, title in BLOCKS}
    (lb, pc) = (name for name, _ in BLOCKS)
    generic_text = (
        f"At the defaults the {lb} is {g[lb][1]} generic cells of which {g[lb][2]} flip-flops "
        f"({g[lb][4]} transistors), and the {pc} {g[pc][1]} generic cells of which {g[pc][2]} flip-flops "
        f"({g[pc][4]} transistors) ([rtl-area.md](rtl-area.md)).")
    demo_text = (
        f"At the defaults the {lb} maps to {d[lb][3]} cells, {number(d[lb][4])}{NBSP}µm², and the {pc} to "
        f"{d[pc][3]} cells, {number(d[pc][4])}{NBSP}µm² ([rtl-area-numagpu_demo.md](rtl-area-numagpu_demo.md)).")
    return {"generic": generic_text, "numagpu_demo": demo_text}


def wrap(text, width=110):
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line]).replace(NBSP, " ")


def rewrite(doc_text, texts, path):
    out = doc_text
    for name, text in texts.items():
        pattern = re.compile(r"(<!-- doc_area_figures\.py " + re.escape(name) + r" -->\n)(.*?)(<!-- end doc_area_figures\.py -->)",
                             re.S)
        if not pattern.search(out):
            fail(f"{path}: no <!-- doc_area_figures.py {name} --> ... <!-- end doc_area_figures.py --> block")
        out = pattern.sub(lambda m: m.group(1) + wrap(text) + "\n" + m.group(3), out)
    return out


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    docs = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")
    path = os.path.join(docs, "power.md")
    try:
        before = open(path).read()
    except OSError as e:
        fail(f"{path}: cannot read ({e.strerror})")
    after = rewrite(before, quotes(docs), path)
    if check:
        if after != before:
            print(f"{path}: the area figures differ from the area pages; run scripts/doc_area_figures.py",
                  file=sys.stderr)
            sys.exit(1)
        print(f"{path}: area figures as on the area pages")
        return
    if after != before:
        with open(path + ".tmp", "w") as f:
            f.write(after)
        os.replace(path + ".tmp", path)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
