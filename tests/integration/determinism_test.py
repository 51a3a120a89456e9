#!/usr/bin/env python3
"""Determinism (docs/reliability.md): the same configuration and seed give a byte-identical stats.json, the
wall-clock fields (run.wall_seconds, run.host_requests_per_second) apart, however the run is made:

- run twice in a row;
- run several at once (as a sweep with -j N does: processes sharing the machine, one output directory each);
- with `policy.impl: rtl` instead of `model` (the fields naming the implementation, and so the configuration
  hash, apart), when the build has the Verilated policies;
- with the protocol checkers on instead of off (`checks.protocol`: a checker on every binding, so every
  transport call goes through the sockets, instead of port groups calling each other directly), the fields
  naming the setting and counting the checked phases apart;
- by another build of numagpu (OTHER, e.g. the Debug build with sanitizers of scripts/ci_reliability.sh
  against the Release build): given OTHER, only that comparison is made.

The runs cover the workload suite (configs/workloads/suite.yaml), the phased workload with every dynamic
mechanism on (link balancer, numa_aware partition controller) and a trace replay, on small systems so the
whole check takes well under a minute in a Release build.
Usage: determinism_test.py NUMAGPU WORKDIR [OTHER_NUMAGPU]"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

CASES = {
    "suite": ["--workload", os.path.join(ROOT, "configs", "workloads", "suite.yaml"),
              "--set", "runtime.cta_schedule=interleave", "--set", "memory.placement=page_interleave",
              "--set", "checks.protocol=true"],
    "phased_dynamic": ["--workload", os.path.join(ROOT, "configs", "workloads", "phased.yaml"),
                       "--set", "system.sockets=2", "--set", "sm.per_socket=8", "--set", "link.mode=dynamic",
                       "--set", "l2.organization=numa_aware", "--set", "runtime.cta_schedule=interleave",
                       "--set", "memory.placement=page_interleave"],
    "trace_replay": ["--set", "workload.trace_list=" + os.path.join(ROOT, "tests", "data", "replay",
                                                                   "kernelslist.g")],
}

# Fields that measure the host, not the simulation: their lines are masked before the byte comparison.
WALL_CLOCK = re.compile(r'^(\s*"(?:wall_seconds|host_requests_per_second)": ).*?(,?)$', re.M)
# Fields that name the policy implementation (and the hash of the configuration that names it).
IMPLEMENTATION = re.compile(r'^(\s*"(?:policy_impl|impl|config_hash)": ).*?(,?)$', re.M)
# Fields that name or count the protocol checks (and the hash of the configuration that names them).
CHECKS = re.compile(r'^(\s*"(?:protocol|protocol_hops|protocol_phases_checked|config_hash)": ).*?(,?)$', re.M)


def run(numagpu, args, out_dir):
    shutil.rmtree(out_dir, ignore_errors=True)
    done = subprocess.run([numagpu, "run", "-q", *args, "-o", out_dir], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"determinism_test: {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    with open(os.path.join(out_dir, "stats.json"), "rb") as f:
        return WALL_CLOCK.sub(r"\1<wall clock>\2", f.read().decode())


def first_difference(a, b):
    for n, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return f"line {n}: {x.strip()!r} vs {y.strip()!r}"
    return f"lengths differ ({len(a)} vs {len(b)} bytes)"


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: determinism_test.py NUMAGPU WORKDIR [OTHER_NUMAGPU]")
    numagpu, work = sys.argv[1], sys.argv[2]
    other = sys.argv[3] if len(sys.argv) > 3 else None
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    has_rtl = subprocess.run([numagpu, "run", "-q", "--set", "policy.impl=rtl", "--set",
                              "workload.kernels=[{name: k, ctas: 1, warps_per_cta: 1, accesses_per_warp: 1}]",
                              "-o", os.path.join(work, "probe")], capture_output=True).returncode == 0
    failures = []

    def same(case, what, a, b):
        if a != b:
            failures.append(f"{case}: {what}: {first_difference(a, b)}")
        else:
            print(f"{case}: {what}: identical ({len(a)} bytes)")

    for case, args in CASES.items():
        reference = run(numagpu, args, os.path.join(work, case, "first"))
        if other:  # the other comparisons are the README suite's: only the builds are compared here
            same(case, f"{other} vs {numagpu}", reference, run(other, args, os.path.join(work, case, "other")))
            continue
        same(case, "second run", reference, run(numagpu, args, os.path.join(work, case, "second")))
        with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:  # three at once, like -j3
            parallel = list(pool.map(lambda i: run(numagpu, args, os.path.join(work, case, f"parallel{i}")),
                                     range(3)))
        for i, p in enumerate(parallel):
            same(case, f"parallel run {i}", reference, p)
        flipped = "false" if "checks.protocol=true" in args else "true"
        checks = run(numagpu, [*args, "--set", f"checks.protocol={flipped}"], os.path.join(work, case, "checks"))
        same(case, f"checks.protocol={flipped} vs the reference", CHECKS.sub(r"\1<checks>\2", reference),
             CHECKS.sub(r"\1<checks>\2", checks))
        if has_rtl:
            rtl = run(numagpu, [*args, "--set", "policy.impl=rtl"], os.path.join(work, case, "rtl"))
            same(case, "policy.impl rtl vs model", IMPLEMENTATION.sub(r"\1<impl>\2", reference),
                 IMPLEMENTATION.sub(r"\1<impl>\2", rtl))
    if not has_rtl and not other:
        print("determinism_test: this build has no policy.impl rtl; that comparison was not made")
    if failures:
        sys.exit("determinism_test: results differ:\n  " + "\n  ".join(failures))
    print("determinism_test: every comparison byte-identical")


if __name__ == "__main__":
    main()
