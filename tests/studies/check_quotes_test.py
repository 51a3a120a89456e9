#!/usr/bin/env python3
"""Hand-made pages for scripts/check_quotes.py's coverage check (its LITERALS argument): which numbers a page
claims, what covers them (a quote's expression, a declared literal), and stale literals.

Usage: check_quotes_test.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

source = sys.argv[1]
script = os.path.join(source, "scripts", "check_quotes.py")
failures = []

# One study table: speedups 1.25 and 0.80 (the values are what the quotes compute, so they are chosen, not run).
TABLE = """# demo

## Speedup over base
| workload | fast |
|---|---|
| a | 1.25 |
| b | 0.80 |
"""
QUOTES = "a runs {x(t('demo', 'a', 'fast'))} faster\n"
LITERALS_HEAD = "%cover ## Covered -> ## Not covered\n"


def run(page, literals):
    with tempfile.TemporaryDirectory() as d:
        files = {"page.md": page, "quotes.txt": QUOTES, "lit.txt": LITERALS_HEAD + literals, "data/demo.md": TABLE,
                 "data/demo.json": '{"points": []}'}
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        r = subprocess.run([sys.executable, script, *(os.path.join(d, n) for n in
                                                       ("page.md", "quotes.txt", "data", "lit.txt"))],
                           capture_output=True, text=True)
        return r.returncode, r.stderr


def expect(name, page, literals, code, *needles, absent=()):
    rc, err = run(page, literals)
    if rc != code or any(n not in err for n in needles) or any(n in err for n in absent):
        failures.append(f"{name}: exit {rc} (expected {code}); stderr:\n{err}")


# Everything covered: the quote's 1.25x, a literal's 64 GB/s; the numbers that are not claims are skipped:
# a code span, a date, a reference, a list number, a name with a digit, a setting with a unit letter.
base = ("# Page\n## Covered\n"
        "1. a runs 1.25x faster over 64 GB/s links (Figure 5, `-j 2`, 2026-11-30, minicontact2, SampleTime 5K)\n"
        "## Not covered\nb: 0.80x, 7 %\n")
expect("covered page passes", base, "setup: over 64 GB/s links\n", 0)
# A number added without a quote or a literal fails, naming its line and the number.
expect("unquoted number fails", base.replace("faster over", "faster (b 0.80x) over"), "setup: over 64 GB/s links\n",
       1, "page.md:3: '0.80'")
# A literal that covers only part of a number does not cover it ("4 GB/s" inside "64 GB/s").
expect("partial literal does not cover", base, "setup: 4 GB/s links\n", 1, "'64'")
# A literal the page no longer says is stale.
expect("stale literal fails", base, "setup: over 64 GB/s links\nsetup: 128 GB/s\n", 1, "stale literal")
# The quote's number is covered only where its expression renders it: the same text elsewhere, unquoted, is not.
expect("quote covers only its expression", base.replace("faster over", "faster, 1.25 over"),
       "setup: over 64 GB/s links\n", 1, "'1.25'")
# A tag outside the list is an error of the literals file.
rc, err = run(base, "measured: over 64 GB/s links\n")
if rc != 2 or "TAG" not in err:
    failures.append(f"unknown tag: exit {rc} (expected 2); stderr:\n{err}")

for f in failures:
    print(f, file=sys.stderr)
print(f"check_quotes_test.py: {6 - len(failures)} of 6 cases pass")
sys.exit(1 if failures else 0)
