#!/usr/bin/env python3
"""Keeps the results of a study run in parts: docs/figures/data/parts/NAME.json (docs/studies.md).

Usage: study_part.py RESULTS.json REPO_ROOT PART.json

A study on the application suite costs tens of CPU-hours; it runs in parts (`numagpu sweep SPEC --workloads
a,b`, on any machine) and each part's results table is merged into PART.json, which the next part gives to
`numagpu sweep --reuse PART.json` so that nothing finished runs again. Unlike the tables of
docs/figures/data/ (scripts/study_tables.py), a part keeps what --reuse needs and what the study's host cost
is summed from: every row's configuration and inputs hashes, wall_seconds and cpu_seconds. File paths
become relative to REPO_ROOT, so the file is the same wherever it was written.

A row that is not `ok` (failed, interrupted or missing) is kept as `missing`, without its failure text.
Merging, by point id: a finished (`ok`) row replaces any earlier row of its id; an earlier `ok` row stays
when the new table has the point missing or failed (a part that did not run it). A row the new table took from
PART.json itself (`--reuse PART.json`) leaves the part's row as it was, with its own provenance. The merged table's rows
follow the new table's point order, then earlier rows the new table does not have. Both tables must define
the same statistics (name, path, reduction); two `ok` rows of one id and one identity with different
statistics are an error (a run is deterministic: one of them is not this model's).
"""
import json
import os
import sys


def fail(message):
    print(f"study_part.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def relative(path, root):
    if not isinstance(path, str) or not path or not os.path.isabs(path):
        return path
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    return path if rel.startswith("..") else rel


def is_same_file(path, part_path, root):
    """Whether a row's reused_from names the part file (as the sweep was given it, or relative to root)."""
    if not isinstance(path, str) or not path:
        return False
    target = os.path.realpath(part_path)
    return os.path.realpath(path) == target or os.path.realpath(os.path.join(root, path)) == target


def load(path):
    try:
        with open(path) as f:
            table = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{path}: cannot read a results table ({e})")
    if not isinstance(table, dict) or table.get("format") != "numagpu-sweep-results" or \
            not isinstance(table.get("points"), list) or not isinstance(table.get("stats"), list):
        fail(f"{path}: not a sweep's results table (format numagpu-sweep-results, with points and stats)")
    if any(not isinstance(row, dict) or not isinstance(row.get("id"), str) for row in table["points"]):
        fail(f"{path}: a point without an id")
    return table


def identity(row):
    return (row.get("config_hash"), row.get("inputs_hash"))


def main(argv):
    if len(argv) != 4:
        fail("usage: study_part.py RESULTS.json REPO_ROOT PART.json")
    results_path, root, part_path = argv[1:]
    new = load(results_path)
    new["spec"] = relative(new.get("spec"), root)
    # Rows this part took from the part file itself (`--reuse PART.json` on a fresh machine) say nothing new:
    # the part's own row stays, with its provenance, instead of a row that names the part as its source.
    self_reused = {row["id"] for row in new["points"] if is_same_file(row.get("reused_from"), part_path, root)}
    for row in new["points"]:
        for key in ("config_file", "workload_file", "reused_from"):
            if key in row:
                row[key] = relative(row[key], root)
        if row.get("status") != "ok":
            # A point that failed or was interrupted is simply not done in a part; why is in the run's own
            # output directory (its failure text names that machine's paths).
            row["status"] = "missing"
            row.pop("failure", None)
            row.pop("exit_code", None)

    merged_rows = new["points"]
    if os.path.exists(part_path):
        old = load(part_path)
        if old["stats"] != new["stats"]:
            fail(f"{part_path} and {results_path} define different statistics; a part must be of the same "
                 "spec (start a new part file after changing the spec's stats)")
        by_id = {row["id"]: i for i, row in enumerate(merged_rows)}
        for row in old["points"]:
            i = by_id.get(row["id"])
            if i is None:
                merged_rows.append(row)
                continue
            current = merged_rows[i]
            if current.get("status") != "ok":
                if row.get("status") == "ok":
                    merged_rows[i] = row
            elif row["id"] in self_reused and row.get("status") == "ok" and identity(row) == identity(current):
                merged_rows[i] = row
            elif row.get("status") == "ok" and identity(row) == identity(current) and \
                    row.get("stats") != current.get("stats"):
                fail(f"point {row['id']}: {part_path} and {results_path} hold runs of one configuration with "
                     "different statistics")
    new["points"] = merged_rows
    os.makedirs(os.path.dirname(os.path.abspath(part_path)), exist_ok=True)
    tmp = f"{part_path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(new, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, part_path)
    ok = sum(1 for r in merged_rows if r.get("status") == "ok")
    cpu = sum(r.get("cpu_seconds") or 0 for r in merged_rows if r.get("status") == "ok")
    print(f"study_part.py: {part_path}: {ok} of {len(merged_rows)} points finished, "
          f"{cpu:.0f} s of CPU recorded")


if __name__ == "__main__":
    main(sys.argv)
