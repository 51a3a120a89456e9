#!/usr/bin/env python3
"""Exits 0 when two numagpu stats.json files hold the same simulation results: every statistic and the
run's simulated cycles, kernels and transaction counts equal. Fields that name how the run was made
(configuration, its hash, policy implementation, wall time) may differ. Usage: compare_stats.py A B"""
import json
import sys


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return path or "."
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}"
            d = first_difference(a[key], b[key], f"{path}.{key}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path} (length {len(a)} vs {len(b)})"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def main(path_a, path_b):
    with open(path_a) as fa, open(path_b) as fb:
        a, b = json.load(fa), json.load(fb)
    for key in ("sim_cycles", "drained_cycles", "kernels_done", "transactions"):
        if a["run"][key] != b["run"][key]:
            sys.exit(f"run.{key} differs: {a['run'][key]} vs {b['run'][key]}")
    diff = first_difference(a["stats"], b["stats"], "stats")
    if diff:
        sys.exit(f"first difference at {diff}")
    print(f"identical: {len(json.dumps(a['stats']))} bytes of statistics, sim_cycles {a['run']['sim_cycles']}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: compare_stats.py A B")
    main(sys.argv[1], sys.argv[2])
