#!/usr/bin/env python3
"""Long time series stay bounded (stats.max_windows, docs/stats.md): a run with a cap gives the same
simulation as one without, and its per-window records are the uncapped ones merged pairwise.

Both runs: the sparse idle benchmark workload shortened to ~260,000 cycles, 1,000-cycle windows, dynamic links
and the NUMA-aware L2 (so every kind of series exists). Uncapped, n windows of 1,000 cycles; capped at 8, the
window doubles each time 8 windows are full, so it ends k doublings later, with k the smallest number such
that n // 2**k < 8 (the rule, applied to the uncapped count by hand here), and holds n // 2**k windows of
1,000 * 2**k cycles. Each capped value must be the mean (utilization) or the last (lanes, ways) of the 2**k
uncapped values it covers; every counter must be equal (the cap changes no simulated event); activity.json
must hold at most 8 windows plus the one the run ends in, adding up to its totals.
Usage: window_cap_test.py NUMAGPU WORKDIR"""
import json
import math
import os
import shutil
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CAP = 8
WINDOW = 1000
ARGS = ["-w", os.path.join(ROOT, "configs", "workloads", "bench", "sparse_idle.yaml"),
        "--set", "workload.kernels.0.compute_cycles=2000", "--set", "link.mode=dynamic",
        "--set", "l2.organization=numa_aware", "--set", f"stats.sample_cycles={WINDOW}"]


def run(numagpu, out_dir, cap):
    shutil.rmtree(out_dir, ignore_errors=True)
    done = subprocess.run([numagpu, "run", "-q", *ARGS, "--set", f"stats.max_windows={cap}", "-o", out_dir],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"window_cap_test: run with max_windows={cap} failed: {done.stderr.strip()}")
    with open(os.path.join(out_dir, "stats.json")) as f:
        stats = json.load(f)["stats"]
    with open(os.path.join(out_dir, "activity.json")) as f:
        activity = json.load(f)
    return flatten(stats), activity


def flatten(tree, prefix=""):
    out = {}
    for key, value in tree.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict) and "window_cycles" not in value and "value" not in value:
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out


def main():
    numagpu, work = sys.argv[1], sys.argv[2]
    fine, _ = run(numagpu, os.path.join(work, "uncapped"), 0)
    coarse, activity = run(numagpu, os.path.join(work, "capped"), CAP)
    failures = []

    series = {p: v for p, v in fine.items() if isinstance(v, dict) and "window_cycles" in v}
    if not any(p.endswith(".utilization") for p in series) or not any(p.endswith(".lanes") for p in series) \
            or not any(p.endswith(".remote_ways") for p in series):
        sys.exit("window_cap_test: expected utilization, lanes and remote_ways series")
    n = len(next(iter(series.values()))["values"])
    k = 0
    while n // 2 ** k >= CAP:
        k += 1
    if k < 2:
        sys.exit(f"window_cap_test: only {n} windows; the test needs at least two doublings")
    group = 2 ** k
    for path, f in series.items():
        c = coarse[path]
        if f["window_cycles"] != WINDOW or c["window_cycles"] != WINDOW * group:
            failures.append(f"{path}: windows {f['window_cycles']} / {c['window_cycles']}, expected "
                            f"{WINDOW} / {WINDOW * group}")
            continue
        if len(c["values"]) != n // group:
            failures.append(f"{path}: {len(c['values'])} capped values, expected {n} // {group} = {n // group}")
            continue
        last = path.endswith(".lanes") or path.endswith(".remote_ways")
        for i, got in enumerate(c["values"]):
            covered = f["values"][i * group:(i + 1) * group]
            want = covered[-1] if last else sum(covered) / group
            if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9):
                failures.append(f"{path}[{i}]: {got}, expected {want} from {covered}")
                break

    # Everything that is not a series (counters, averages, histograms, scalars) is the same simulation.
    for path, value in fine.items():
        if path in series or path.startswith("run."):
            continue
        if coarse.get(path) != value:
            failures.append(f"{path}: {coarse.get(path)} with the cap, {value} without")

    windows = activity["windows"]
    if not 1 <= len(windows) <= CAP + 1:
        failures.append(f"activity.json: {len(windows)} windows, expected at most {CAP} + 1")
    if any(w["cycles"] != WINDOW * group for w in windows[:-1]):
        failures.append(f"activity.json: window lengths {[w['cycles'] for w in windows]}, expected "
                        f"{WINDOW * group} but for the last")
    if activity["window_cycles"] != WINDOW * group:
        failures.append(f"activity.json: window_cycles {activity['window_cycles']}, expected {WINDOW * group}")

    if failures:
        print("\n".join(failures[:20]))
        sys.exit(1)
    print(f"window_cap_test: {n} windows of {WINDOW} cycles -> {n // group} of {WINDOW * group} "
          f"({len(series)} series), activity {len(windows)} windows")


if __name__ == "__main__":
    main()
