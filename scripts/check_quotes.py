#!/usr/bin/env python3
"""Checks that the numbers a document quotes are the numbers of the study tables they come from.

Usage: check_quotes.py DOCUMENT QUOTES DATA_DIR

QUOTES (tests/studies/validation_quotes.txt) holds one quoted passage per line ('#' starts a comment line):
the passage as DOCUMENT writes it, with each number replaced by a {expression} that computes it from the
tables in DATA_DIR (docs/figures/data/NAME.md, as `numagpu plot study` prints them, and NAME.json). Every
line is rendered and must occur in DOCUMENT verbatim, so a number that moves in a regenerated table, or a
passage edited without its line here, fails the check. Expressions (Python) may use:

  t(study, row, column, table="")  a cell of study's Markdown tables (the first table whose "## " heading
                                   contains `table` and that has the row and the column), as a float
  lo(study, column, table="")      the smallest and largest cell of a column over the workload rows
  hi(study, column, table="")      (every row but the means and totals)
  stat(study, point, name)         a point's statistic in NAME.json
  series(study, point, name, key)  the values of one series of a statistic kept unreduced (a window series)
  ws(study, exclude=())            the study's workloads, in the order of NAME.json
  points(study)                    the points of NAME.json (id, workload, labels, stats, ...)
  am(values), gm(values)           arithmetic and geometric mean
  f(v, digits=2)                   v with that many decimals        x(v) = f(v) + "x"
  pct(speedup, digits=0)           a speedup as a signed change: 1.48 -> "+48 %", 0.96 -> "-4 %"
  int_(v)                          an integer with thousands separators: 52412 -> "52,412"
and min, max, abs, len, sum, round, str, int, enumerate, sorted.
"""
import json
import math
import os
import re
import sys


def fail(message):
    print(f"check_quotes.py: error: {message}", file=sys.stderr)
    sys.exit(2)


class Tables:
    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.cache = {}
        self.json_cache = {}

    def tables(self, study):
        if study not in self.cache:
            path = os.path.join(self.data_dir, study + ".md")
            try:
                lines = open(path).read().splitlines()
            except OSError as e:
                fail(str(e))
            tables, heading, rows = [], "", None
            for line in lines + [""]:
                if line.startswith("## "):
                    heading = line[3:]
                elif line.startswith("|"):
                    cells = [c.strip() for c in line.strip().strip("|").split("|")]
                    if rows is None:
                        rows = {"heading": heading, "columns": cells[1:], "rows": {}}
                    elif not set(line) <= set("|- "):
                        rows["rows"][cells[0]] = cells[1:]
                elif rows is not None:
                    tables.append(rows)
                    rows = None
            self.cache[study] = tables
        return self.cache[study]

    def find(self, study, column, table, row=None):
        for tab in self.tables(study):
            if table in tab["heading"] and column in tab["columns"] and (row is None or row in tab["rows"]):
                return tab
        fail(f"{study}: no table{' ' + repr(table) if table else ''} with column {column!r}"
             + (f" and row {row!r}" if row is not None else ""))

    def cell(self, study, row, column, table=""):
        tab = self.find(study, column, table, row)
        return float(tab["rows"][row][tab["columns"].index(column)])

    def column(self, study, column, table=""):
        tab = self.find(study, column, table)
        i = tab["columns"].index(column)
        return [float(v[i]) for r, v in tab["rows"].items() if not r.startswith(("mean", "total"))]

    def points(self, study):
        if study not in self.json_cache:
            try:
                with open(os.path.join(self.data_dir, study + ".json")) as f:
                    self.json_cache[study] = {p["id"]: p for p in json.load(f)["points"]}
            except (OSError, ValueError) as e:
                fail(str(e))
        return self.json_cache[study]

    def workloads(self, study, exclude=()):
        seen = []
        for p in self.points(study).values():
            if p["workload"] not in seen and p["workload"] not in exclude:
                seen.append(p["workload"])
        return seen

    def stat(self, study, point, name):
        try:
            return self.points(study)[point]["stats"][name]
        except KeyError:
            fail(f"{study}: no statistic {name!r} of point {point!r}")


def f(v, digits=2):
    return f"{v:.{digits}f}"


def x(v):
    return f(v) + "x"


def pct(speedup, digits=0):
    change = round((speedup - 1) * 100, digits)
    if change == 0:
        change = 0.0  # no "-0 %"
    return f"{change:+.{digits}f} %"


def am(values):
    values = list(values)
    return sum(values) / len(values)


def gm(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


def int_(v):
    return f"{int(v):,}"


def main():
    if len(sys.argv) != 4:
        fail("usage: check_quotes.py DOCUMENT QUOTES DATA_DIR")
    document_path, quotes_path, data_dir = sys.argv[1:]
    document = open(document_path).read()
    tables = Tables(data_dir)
    helpers = {
        "t": tables.cell,
        "lo": lambda *a: min(tables.column(*a)),
        "hi": lambda *a: max(tables.column(*a)),
        "stat": tables.stat,
        "series": lambda study, point, name, key: tables.stat(study, point, name)[key]["values"],
        "ws": tables.workloads,
        "points": lambda study: list(tables.points(study).values()),
        "am": am, "gm": gm, "f": f, "x": x, "pct": pct, "int_": int_,
    }
    builtins = {b.__name__: b for b in (min, max, abs, len, sum, round, str, int, enumerate, sorted)}
    # One scope for everything, so that comprehensions in an expression see the helpers too.
    scope = {"__builtins__": {}, **builtins, **helpers}
    errors, count = [], 0
    for number, line in enumerate(open(quotes_path).read().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        count += 1

        def render(match):
            try:
                return str(eval(match.group(1), scope))
            except SystemExit:
                raise
            except Exception as e:  # a malformed expression is the quotes file's fault: say where
                fail(f"{quotes_path}:{number}: {match.group(1)}: {e}")

        rendered = re.sub(r"\{([^{}]+)\}", render, line)
        if rendered not in document:
            errors.append(f"{quotes_path}:{number}: {document_path} does not say: {rendered}")
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f"check_quotes.py: {len(errors)} of {count} quoted passages differ from the tables in {data_dir}",
              file=sys.stderr)
        sys.exit(1)
    print(f"check_quotes.py: {count} quoted passages of {document_path} match the tables in {data_dir}")


if __name__ == "__main__":
    main()
