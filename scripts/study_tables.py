#!/usr/bin/env python3
"""Writes a study's tables for docs/figures/data/ (scripts/study.sh; the ctest studies_tables_are_current).

Usage: study_tables.py RESULTS.json PLOT_OUTPUT.md REPO_ROOT DEST_DIR NAME

Copies the sweep's results table as DEST_DIR/NAME.json and NAME.csv and the tables `numagpu plot study`
printed as NAME.md, keeping only what the model computed, so that the copies are the same on every machine
and every regeneration: file paths (the spec, each point's config and workload file) become relative to
REPO_ROOT, the host-dependent wall_seconds and cpu_seconds columns are dropped (and a point's reused_from), and the plot's "wrote
FILE.png" lines (which name the output directory) are left out. The configuration hashes are dropped too: they change with every new
configuration key (a new key's default enters the resolved configuration), which moves no result, and the
tables are there for the results.
"""
import csv
import io
import json
import os
import sys


def fail(message):
    print(f"study_tables.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def relative(path, root):
    if not path or not os.path.isabs(path):
        return path
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    if rel.startswith(".."):
        fail(f"{path} is outside {root}: a table in the repository cannot name it")
    return rel


def main():
    if len(sys.argv) != 6:
        fail("usage: study_tables.py RESULTS.json PLOT_OUTPUT.md REPO_ROOT DEST_DIR NAME")
    results_json, plot_md, root, dest, name = sys.argv[1:]
    csv_path = os.path.join(os.path.dirname(results_json), "results.csv")
    try:
        with open(results_json) as f:
            results = json.load(f)
        with open(csv_path, newline="") as f:
            rows = list(csv.reader(f))
        with open(plot_md) as f:
            plot_lines = f.read().splitlines()
    except (OSError, ValueError) as e:
        fail(str(e))

    results["spec"] = relative(results.get("spec", ""), root)
    for p in results["points"]:
        for key in ("config_file", "workload_file"):
            if key in p:
                p[key] = relative(p[key], root)
        p.pop("wall_seconds", None)
        p.pop("cpu_seconds", None)
        p.pop("config_hash", None)
        p.pop("inputs_hash", None)  # like the configuration hash: an identity, not a result
        p.pop("reused_from", None)  # where a point came from (a machine path), not a result

    header = rows[0] if rows else []
    drop = {header.index(c) for c in ("wall_seconds", "cpu_seconds", "config_hash") if c in header}
    out_csv = io.StringIO()
    writer = csv.writer(out_csv, lineterminator="\n")
    for row in rows:
        writer.writerow([v for i, v in enumerate(row) if i not in drop])

    kept = [line for line in plot_lines if not line.startswith("wrote ")]
    while kept and kept[-1] == "":
        kept.pop()

    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, name + ".json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(dest, name + ".csv"), "w") as f:
        f.write(out_csv.getvalue())
    with open(os.path.join(dest, name + ".md"), "w") as f:
        f.write("\n".join(kept) + "\n")


if __name__ == "__main__":
    main()
