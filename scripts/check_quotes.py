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

LITERALS (tests/studies/validation_literals.txt, optional) makes the check one of coverage as well: every number
in the regions it names must be computed by a quote's expression or stand in a passage it declares a literal,
with the reason the number cannot come from a table. Its lines:

  %cover FROM -> TO    a region: from the line that starts with FROM up to the line that starts with TO (TO
                       empty: the end of DOCUMENT); repeatable
  TAG: PASSAGE         a passage DOCUMENT says verbatim whose numbers are literals, TAG one of
                       paper (a paper or datasheet says it), setup (a parameter of the system, workload or run),
                       derivation (arithmetic in the text), threshold (the bound that defines a count),
                       second-edition (the old model's result, tables docs/figures/data/*_second_edition.md),
                       history (an earlier model's result the text recounts), host (a host time, its
                       conditions stated in the text)

A number is a run of digits (thousands commas, decimals) not inside a word ("minicontact2", "L2") and not
followed by a letter other than x ("5K" is a setting, "1.8x" a result). Code spans, link targets, dates and
references ("Figure 5", "Table 2", "row 7", "§3.2", "issue 49", "point 2" of a list), list numbers and links
with their text are not numbers the page claims.
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


NUMBER = re.compile(r"(?<![\w.,])\d+(?:,\d{3})*(?:\.\d+)?(?![\d,.]?\d)(?![A-Za-wyz_])")
NOT_CLAIMS = re.compile(r"`[^`\n]*`|!?\[[^\]\n]*\]\([^)\n]*\)|\d{4}-\d{2}-\d{2}(?:/\d{2})?|(?m:^\s*\d+\.\s)|"
                        r"(?:\b(?:Figures?|Tables?|rows?|Section|Algorithm|Equation|issue|stop|Step|point)\s+|§)"
                        r"[\dIVX]+(?:\.\d+)?(?:(?:\s*(?:and|,|-|to)\s*)[\dIVX]+(?:\.\d+)?)*")
LITERAL_TAGS = ("paper", "setup", "derivation", "threshold", "second-edition", "history", "host")


def read_literals(path, document):
    """The regions to cover and the literal passages of LITERALS (docstring); a passage DOCUMENT does not say
    is stale and an error."""
    regions, passages, errors = [], [], []
    lines = document.split("\n")
    for number, line in enumerate(open(path).read().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("%cover "):
            start, _, end = line[len("%cover "):].partition(" -> ")
            begin = next((i for i, l in enumerate(lines) if l.startswith(start)), None)
            stop = len(lines) if not end.strip() else next(
                (i for i, l in enumerate(lines) if begin is not None and i > begin and l.startswith(end)), None)
            if begin is None or stop is None:
                fail(f"{path}:{number}: %cover: no line starts with {start if begin is None else end!r}")
            regions.append((len("\n".join(lines[:begin])), len("\n".join(lines[:stop]))))
            continue
        tag, sep, passage = line.partition(": ")
        if not sep or tag not in LITERAL_TAGS or not passage.strip():
            fail(f"{path}:{number}: expected 'TAG: passage' with TAG one of {', '.join(LITERAL_TAGS)}")
        if passage not in document:
            errors.append(f"{path}:{number}: stale literal, the document does not say: {passage}")
        passages.append(passage)
    return regions, passages, errors


def mark_occurrences(covered, document, text, spans):
    """Marks the characters of `spans` (offsets into `text`) at every occurrence of `text` in `document`."""
    at = document.find(text)
    while at >= 0:
        for begin, end in spans:
            covered[at + begin:at + end] = b"\1" * (end - begin)
        at = document.find(text, at + 1)


def uncovered_numbers(document, regions, covered):
    """(line number, number, context) of each number in the regions that nothing covers."""
    masked = NOT_CLAIMS.sub(lambda m: " " * len(m.group(0)), document)
    found = []
    for begin, end in regions:
        for m in NUMBER.finditer(masked, begin, end):
            if not all(covered[m.start():m.end()]):
                line = document.count("\n", 0, m.start()) + 1
                context = document[max(0, m.start() - 50):m.end() + 20].replace("\n", " ")
                found.append((line, m.group(0), context))
    return found


def report(errors, failed, passed):
    """Prints the errors and the failure summary and exits 1, or prints the success line."""
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f"check_quotes.py: {failed}", file=sys.stderr)
        sys.exit(1)
    print(f"check_quotes.py: {passed}")


def main():
    if len(sys.argv) not in (4, 5):
        fail("usage: check_quotes.py DOCUMENT QUOTES DATA_DIR [LITERALS]")
    document_path, quotes_path, data_dir = sys.argv[1:4]
    literals_path = sys.argv[4] if len(sys.argv) == 5 else None
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
    covered = bytearray(len(document))
    for number, line in enumerate(open(quotes_path).read().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        count += 1

        def render_expression(expression):
            try:
                return str(eval(expression, scope))
            except SystemExit:
                raise
            except Exception as e:  # a malformed expression is the quotes file's fault: say where
                fail(f"{quotes_path}:{number}: {expression}: {e}")

        # Render piece by piece, keeping where each expression's text lands, for the coverage check.
        rendered, spans = "", []
        for i, piece in enumerate(re.split(r"\{([^{}]+)\}", line)):
            text = piece if i % 2 == 0 else render_expression(piece)
            if i % 2:
                spans.append((len(rendered), len(rendered) + len(text)))
            rendered += text
        if rendered not in document:
            errors.append(f"{quotes_path}:{number}: {document_path} does not say: {rendered}")
        mark_occurrences(covered, document, rendered, spans)
    report(errors, f"{len(errors)} of {count} quoted passages differ from the tables in {data_dir}",
           f"{count} quoted passages of {document_path} match the tables in {data_dir}")
    if literals_path:
        regions, passages, errors = read_literals(literals_path, document)
        for passage in passages:
            mark_occurrences(covered, document, passage, [(0, len(passage))])
        missing = uncovered_numbers(document, regions, covered)
        for line, number, context in missing:
            errors.append(f"{document_path}:{line}: {number!r} is neither computed by a quote ({quotes_path}) nor "
                          f"a declared literal ({literals_path}): ...{context}...")
        report(errors, f"{len(missing)} numbers unchecked, {len(errors) - len(missing)} stale literals",
               f"every number in the {len(regions)} covered regions is quoted or a declared literal "
               f"({len(passages)} literal passages)")


if __name__ == "__main__":
    main()
