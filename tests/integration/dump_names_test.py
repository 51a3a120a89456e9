#!/usr/bin/env python3
"""`numagpu workload dump` output always replays, whatever the names (issue 23, item 4).

Property test: a few hundred names (adversarial ones and seeded random strings of any Unicode scalar
value: control characters, NUL, DEL, C1, line and paragraph separators, BOM, non-ASCII, astral) are given
as workload and kernel names; for each batch the workload is run, dumped, and the dump run again. The
dump must load (exit 0), give identical statistics (scripts/compare_stats.py) and carry every name
unchanged (the `config` of both stats.json files holds exactly the names given).

The input workload files are written here with YAML's own double-quoted escapes (\\xHH, \\uHHHH,
\\UHHHHHHHH), independently of the emitter under test.

Usage: dump_names_test.py NUMAGPU SCRATCH COMPARE_STATS"""
import json
import os
import random
import shutil
import subprocess
import sys

ADVERSARIAL = [
    "kernelslist.g: kernel-1-barrier.traceg", 'a"b', "a'b", "'k'", '"k"', "back\\slash", "k\\u0041", "k\\x41",
    "line\nbreak", "cr\rlf\r\n", "tab\there", "", " ", "  lead", "trail ", "&anchor", "*alias", "!tag", "!!str",
    "[seq]", "{map}", "- dash", "-", "--- doc", "...", "% directive", "@at", "#hash", "a #comment", "`tick",
    "|block", ">fold", "?", "? key", ":", "key: value", "a:b", "a, b", "~", "null", "Null", "NULL", "true",
    "False", "yes", "no", "on", "off", "y", "n", "0", "123", "-1", "0x1F", "1e3", ".inf", "-.nan", "0o17",
    "2026-11-24", "<<", "=", "\x00", "nul\x00inside", "\x01\x02\x7f", "\x1b[31mred\x1b[0m", "\x85nel",
    "\xa0nbsp", "\u2028ls\u2029ps", "\ufeffbom", "\u00e9", "\u65e5\u672c\u8a9e", "\U0001F600",
    "\U0010FFFF", "\ud7ff\ue000\ufffd\uffff", "x" * 300, "\\", '"', "'", "\"'\\\n",
]


def random_name(rng):
    pools = [
        lambda: chr(rng.randint(0x20, 0x7E)),
        lambda: rng.choice("&*![]{}-%@#~|>?:,'\"\\` \t\n\r"),
        lambda: chr(rng.choice(list(range(0x00, 0x20)) + [0x7F])),
        lambda: chr(rng.randint(0x80, 0xFF)),
        lambda: chr(rng.choice([rng.randint(0x100, 0xD7FF), rng.randint(0xE000, 0xFFFF)])),
        lambda: chr(rng.randint(0x10000, 0x10FFFF)),
    ]
    return "".join(rng.choice(pools)() for _ in range(rng.randint(0, 16)))


def yaml_quoted(text):
    out = ['"']
    for ch in text:
        c = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif 0x20 <= c <= 0x7E:
            out.append(ch)
        elif c <= 0xFF:
            out.append("\\x%02x" % c)
        elif c <= 0xFFFF:
            out.append("\\u%04x" % c)
        else:
            out.append("\\U%08x" % c)
    out.append('"')
    return "".join(out)


SETS = ["--set", "system.sockets=1", "--set", "sm.per_socket=2", "--set", "l2.banks=2"]


def run(argv):
    p = subprocess.run(argv, capture_output=True)
    if p.returncode != 0:
        sys.exit("failed (%d): %r\n%s" % (p.returncode, argv, p.stderr.decode("utf-8", "replace")))


def names_in(stats_path):
    with open(stats_path, encoding="utf-8") as f:
        w = json.load(f)["config"]["workload"]
    return w["name"], [k["name"] for k in w["kernels"]]


def main(numagpu, scratch, compare):
    rng = random.Random(23)
    names = ADVERSARIAL + [random_name(rng) for _ in range(400)]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    per_batch = 41  # a workload name and 40 kernel names
    batches = [names[i:i + per_batch] for i in range(0, len(names), per_batch)]
    for b, batch in enumerate(batches):
        workload, kernels = batch[0], batch[1:] or ["k"]
        d = os.path.join(scratch, str(b))
        os.makedirs(d)
        lines = ["workload:", "  name: " + yaml_quoted(workload), "  kernels:"]
        for k in kernels:
            lines += ["    - name: " + yaml_quoted(k), "      ctas: 1", "      warps_per_cta: 1",
                      "      accesses_per_warp: 1"]
        src = os.path.join(d, "in.yaml")
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        run([numagpu, "workload", "dump", "--workload", src] + SETS + ["-o", os.path.join(d, "dump")])
        run([numagpu, "run", "-q", "--workload", src] + SETS + ["-o", os.path.join(d, "a")])
        run([numagpu, "run", "-q", "--workload", os.path.join(d, "dump", "workload.yaml")] + SETS +
            ["-o", os.path.join(d, "b")])
        p = subprocess.run([sys.executable, compare, os.path.join(d, "a", "stats.json"),
                            os.path.join(d, "b", "stats.json")], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("batch %d: statistics differ: %s" % (b, p.stderr.strip() or p.stdout.strip()))
        for run_dir in ("a", "b"):
            got = names_in(os.path.join(d, run_dir, "stats.json"))
            if got != (workload, kernels):
                for want, have in zip([workload] + kernels, [got[0]] + got[1]):
                    if want != have:
                        sys.exit("batch %d, run %s: name %r came back as %r" % (b, run_dir, want, have))
                sys.exit("batch %d, run %s: %d kernels came back as %d" % (b, run_dir, len(kernels), len(got[1])))
    print("%d names in %d workloads: dumped, replayed with identical statistics and names" %
          (len(names), len(batches)))


if __name__ == "__main__":
    main(*sys.argv[1:4])
