#!/usr/bin/env python3
"""scripts/study_part.py: a study run in parts keeps one merged results table with what --reuse needs
(docs/studies.md, "Run in parts"). Hand-made tables; what each merge must give is stated beside it.

Usage: study_part_test.py SOURCE_DIR WORKDIR
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tests in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flows_check import Checks, fresh_dir  # noqa: E402

src, work = sys.argv[1], fresh_dir(sys.argv[2])
check = Checks("study_part_test")
STATS = [{"name": "cycles", "path": "run.cycles", "reduce": "none"}]


def table(rows, stats=STATS):
    return {"format": "numagpu-sweep-results", "version": 1, "spec": os.path.join(src, "configs/x.yaml"),
            "stats": stats, "points": rows}


def row(pid, status, cycles=None, cpu=None, hash_="h1"):
    r = {"id": pid, "status": status, "config_hash": hash_, "inputs_hash": "",
         "workload_file": os.path.join(src, "configs/workloads/apps/hotspot.yaml"), "stats": {}}
    if status == "ok":
        r["stats"] = {"cycles": cycles}
        r["cpu_seconds"] = cpu
        r["wall_seconds"] = cpu * 2
    return r


def part(rows, name, stats=STATS):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        json.dump(table(rows, stats), f)
    out = os.path.join(work, "parts", "p.json")
    done = subprocess.run([sys.executable, os.path.join(src, "scripts/study_part.py"), path, src, out],
                          capture_output=True, text=True)
    merged = json.load(open(out)) if os.path.exists(out) else None
    return done, merged


def by_id(merged):
    return {r["id"]: r for r in merged["points"]}


# Part 1 ran a.x and a.y; b.x is missing. Kept as it is, paths made relative, hashes and CPU kept.
done, merged = part([row("a.x", "ok", 100, 10), row("a.y", "ok", 200, 20), row("b.x", "missing")], "one.json")
check(done.returncode == 0, f"part 1 exits 0: {done.stderr}")
rows = by_id(merged)
check(merged["spec"] == "configs/x.yaml", f"spec relative: {merged['spec']}")
check(rows["a.x"]["workload_file"] == "configs/workloads/apps/hotspot.yaml", "workload file relative")
check(rows["a.x"]["config_hash"] == "h1" and rows["a.x"]["cpu_seconds"] == 10, "hash and CPU kept")
check("2 of 3 points finished, 30 s of CPU" in done.stdout, f"summary: {done.stdout}")

# Part 2 (another machine, --workloads b) has only b.x: merged, a.x and a.y stay: 3 of 3, 10 + 20 + 5 s.
done, merged = part([row("b.x", "ok", 300, 5)], "two.json")
rows = by_id(merged)
check(done.returncode == 0 and rows["b.x"]["stats"]["cycles"] == 300, "part 2's row merged")
check(rows["a.y"]["stats"]["cycles"] == 200, "part 1's rows stay")
check("3 of 3 points finished, 35 s of CPU" in done.stdout, f"summary: {done.stdout}")

# A whole-spec collect where a.y is missing here (a fresh machine): the part's ok row is not lost.
done, merged = part([row("a.x", "ok", 100, 10), row("a.y", "missing"), row("b.x", "ok", 300, 5)], "three.json")
check(by_id(merged)["a.y"]["status"] == "ok", "an ok row is not replaced by a missing one")
check([r["id"] for r in merged["points"]] == ["a.x", "a.y", "b.x"], "the new table's order")

# The same configuration with other statistics: one of the two is not this model's run. Refused, file kept.
done, merged = part([row("a.x", "ok", 101, 10)], "four.json")
check(done.returncode == 2 and "point a.x" in done.stderr, f"conflict refused: {done.stderr}")
check(by_id(merged)["a.x"]["stats"]["cycles"] == 100, "the part file unchanged after a refusal")

# A new configuration of a.x (the spec changed a setting): the new run replaces the old row.
done, merged = part([row("a.x", "ok", 150, 12, hash_="h2")], "five.json")
check(done.returncode == 0 and by_id(merged)["a.x"]["stats"]["cycles"] == 150, "a new identity replaces")

# Other statistics: a part of another spec. Refused.
done, _ = part([row("a.x", "ok", 150, 12, hash_="h2")], "six.json",
               stats=[{"name": "cycles", "path": "run.cycles", "reduce": "sum"}])
check(done.returncode == 2 and "different statistics" in done.stderr, f"other stats refused: {done.stderr}")

# A fresh machine's part resumed from the part file itself (`--reuse PART.json`): its a.x row names the part
# as its source (the sweep's tabled point, with the part row's own 12 s). The part's row stays as it was, with
# no reused_from naming itself; b.x, reused from elsewhere, keeps its source.
out = os.path.join(work, "parts", "p.json")
a_x = dict(row("a.x", "ok", 150, 12, hash_="h2"), reused_from=out)
b_x = dict(row("b.x", "ok", 300, 5), reused_from=os.path.join(work, "elsewhere"))
done, merged = part([a_x, b_x], "seven.json")
rows = by_id(merged)
check(done.returncode == 0 and "reused_from" not in rows["a.x"], f"no self-reference: {rows['a.x']}")
check(rows["a.x"]["cpu_seconds"] == 12 and rows["a.x"]["stats"]["cycles"] == 150, "the part's row kept")
elsewhere = os.path.relpath(os.path.realpath(os.path.join(work, "elsewhere")), os.path.realpath(src))
elsewhere = os.path.join(work, "elsewhere") if elsewhere.startswith("..") else elsewhere  # made relative when inside
check(rows["b.x"].get("reused_from") == elsewhere, f"another source is kept: {rows['b.x'].get('reused_from')}")

# Not a results table.
with open(os.path.join(work, "bad.json"), "w") as f:
    f.write("[1, 2]")
done = subprocess.run([sys.executable, os.path.join(src, "scripts/study_part.py"), os.path.join(work, "bad.json"),
                       src, os.path.join(work, "parts", "p.json")], capture_output=True, text=True)
check(done.returncode == 2 and "not a sweep's results table" in done.stderr, f"bad table: {done.stderr}")

check.finish("7 merges and 1 bad table as derived")
