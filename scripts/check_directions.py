#!/usr/bin/env python3
"""Asserts the directions "Beyond the Socket" establishes, on small study sweeps (tests/studies/).

Usage: check_directions.py RESULTS.json [RESULTS.json ...]

Each results.json (from `numagpu sweep configs/experiments/NAME.yaml --workloads ...`) is checked according
to its study kind. Every check names its margin; the margins are statements of direction with room for
noise-free model changes, not fits to the paper's numbers:

- figure3: the locality-optimized runtime (contiguous CTAs + first touch) beats the traditional one (CTA and
  page interleaving) on every workload by at least LOCALITY_MARGIN.
- figure6: dynamic lanes never lose more than DYNAMIC_LOSS_LIMIT to static lanes at any SampleTime and
  SwitchTime, and win by at least DYNAMIC_WIN_MARGIN (SampleTime 5K, SwitchTime 100) on the workloads whose
  traffic is asymmetric (ASYMMETRIC); doubled bandwidth is never slower than static (beyond NOISE).
- caches: GPU-side L2s (shared and NUMA-aware) beat the memory-side L2 by at least REUSE_MARGIN on the
  workloads with remote reuse (REMOTE_REUSE).
- scaling: adding sockets never slows the scalable workloads: each doubling of sockets is at least
  SCALING_MARGIN faster.
Exit status 1 when a check fails, 2 on unusable input.
"""
import json
import re
import sys

LOCALITY_MARGIN = 1.10  # locality-optimized at least 10 % faster than traditional
DYNAMIC_LOSS_LIMIT = 0.02  # dynamic lanes at most 2 % slower than static (the paper's bound at SwitchTime 500)
DYNAMIC_WIN_MARGIN = 1.03  # at least 3 % faster on asymmetric traffic
NOISE = 0.01  # a change that should not matter (doubled bandwidth on a local workload) moves cycles <= 1 %
# Asymmetric in the sense the balancer can exploit: one direction saturated for whole windows while the other
# idles (docs/validation.md explains why kmeans and histogram, asymmetric per kernel, are not).
ASYMMETRIC = {"reduction", "hpgmg"}
REUSE_MARGIN = 1.05  # GPU-side L2s at least 5 % faster than memory-side
# bfs is left out: its reuse is atomics, which a GPU-side L2 does not absorb (docs/validation.md). gemm is left
# out since the dispatcher spreads CTAs breadth-first (2026-11-26): each SM then runs one grid column and its
# L1 keeps that column of B, so no remote reuse reaches the L2 (docs/validation.md, Figure 3).
REMOTE_REUSE = {"spmv"}
SCALING_MARGIN = 1.05  # each doubling of sockets at least 5 % faster


class Checker:
    def __init__(self):
        self.failed = 0
        self.passed = 0

    def check(self, ok, text):
        print(("ok    " if ok else "FAIL  ") + text)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def cycles_by(results, axis):
    table = {}
    for p in results["points"]:
        if p["status"] != "ok":
            continue
        if axis == "combo":
            label = p["labels"].get("links", "") + "+" + p["labels"].get("l2", "")
        else:
            label = p["labels"].get(axis, "")
        table[(p["workload"], label)] = p["stats"].get("cycles")
    return table


def workloads(results):
    out = []
    for p in results["points"]:
        if p["workload"] not in out:
            out.append(p["workload"])
    return out


def speedup(table, w, label, base, c):
    a, b = table.get((w, base)), table.get((w, label))
    if not a or not b:
        c.check(False, f"{w}: points {label} and {base} both finished")
        return None
    return a / b


def figure3(results, c):
    t = cycles_by(results, "system")
    for w in workloads(results):
        s = speedup(t, w, "locality", "traditional", c)
        if s is not None:
            c.check(s >= LOCALITY_MARGIN,
                    f"figure3 {w}: locality-optimized {s:.2f}x traditional (need >= {LOCALITY_MARGIN})")


def figure6(results, c):
    t = cycles_by(results, "link")
    labels = sorted({lab for (_, lab) in t if re.fullmatch(r"s\d+k_w\d+", lab)})
    for w in workloads(results):
        for lab in labels:
            s = speedup(t, w, lab, "static", c)
            if s is not None:
                c.check(s >= 1 - DYNAMIC_LOSS_LIMIT,
                        f"figure6 {w}: dynamic {lab} {s:.3f}x static (need >= {1 - DYNAMIC_LOSS_LIMIT:.2f})")
        s = speedup(t, w, "double", "static", c)
        if s is not None:
            c.check(s >= 1 - NOISE, f"figure6 {w}: doubled bandwidth {s:.3f}x static (need >= {1 - NOISE:.2f})")
        if w in ASYMMETRIC:
            s = speedup(t, w, "s5k_w100", "static", c)
            if s is not None:
                c.check(s >= DYNAMIC_WIN_MARGIN,
                        f"figure6 {w} (asymmetric): dynamic 5K/100 {s:.2f}x static (need >= {DYNAMIC_WIN_MARGIN})")


def caches(results, c):
    t = cycles_by(results, "l2")
    for w in workloads(results):
        if w not in REMOTE_REUSE:
            continue
        for lab in ("shared", "numa_aware"):
            s = speedup(t, w, lab, "memside", c)
            if s is not None:
                c.check(s >= REUSE_MARGIN,
                        f"caches {w} (remote reuse): {lab} {s:.2f}x memory-side (need >= {REUSE_MARGIN})")


def scaling(results, c):
    t = cycles_by(results, "system")
    for w in workloads(results):
        for n in (1, 2, 4):
            s = speedup(t, w, f"sockets{2 * n}", f"sockets{n}", c)
            if s is not None:
                c.check(s >= SCALING_MARGIN,
                        f"scaling {w}: {2 * n} sockets {s:.2f}x {n} (need >= {SCALING_MARGIN})")


CHECKS = {"figure3": figure3, "figure6": figure6, "caches": caches, "scaling": scaling}


def main():
    if len(sys.argv) < 2:
        print("usage: check_directions.py RESULTS.json [...]", file=sys.stderr)
        return 2
    c = Checker()
    for path in sys.argv[1:]:
        try:
            with open(path) as f:
                results = json.load(f)
        except (OSError, ValueError) as e:
            print(f"check_directions.py: error: {path}: {e}", file=sys.stderr)
            return 2
        study = results.get("study", "")
        if study not in CHECKS:
            print(f"check_directions.py: error: {path}: no direction checks for study '{study}'", file=sys.stderr)
            return 2
        CHECKS[study](results, c)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
