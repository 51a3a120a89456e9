#!/usr/bin/env python3
"""Soak (docs/reliability.md; ctest label `soak`, registered with -DNUMAGPU_SOAK=ON, not in the README's test
command). The 8-socket system runs the phased workload (a symmetric stream, a reduction to one socket, a
histogram of atomics, the stream again) under every L2 organization and every link mode, with the TLM-2.0
protocol checker on every binding and the end-of-run audit, one process per combination. Each run must:

- exit 0 with "complete": true, every kernel done, zero protocol violations, zero audit errors (no transaction
  left in flight: none lost), the watchdog quiet, and protocol phases actually checked;
- complete every load and atomic it issued exactly once (over all SMs, loads + atomics issued == data
  responses received: none lost or duplicated) and every CTA it dispatched (CTAs dispatched == CTAs completed over all SMs);
- keep its resident memory flat: sampled from /proc every 0.2 s, the RSS at the end of the run is at most
  10 % + 16 MiB above the RSS a quarter of the way in (by then every structure is built; later growth would be
  a leak that grows with simulated time).

The RSS figures are printed for each run. Usage: soak_test.py NUMAGPU WORKDIR [SCALE]"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ORGANIZATIONS = ("memside", "static", "shared", "numa_aware")
LINK_MODES = ("static", "dynamic", "double_bandwidth")


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def counters(stats_txt, pattern):
    """Sum of every counter of stats.txt whose whole name matches the regular expression, and how many."""
    total, n = 0, 0
    with open(stats_txt) as f:
        for line in f:
            if line.startswith("#"):
                continue
            name, _, rest = line.partition(" ")
            if re.fullmatch(pattern, name):
                total += int(float(rest.split()[0]))
                n += 1
    return total, n


def soak_one(numagpu, work, organization, link_mode, scale):
    out = os.path.join(work, f"{organization}-{link_mode}")
    shutil.rmtree(out, ignore_errors=True)
    args = [numagpu, "run", "-q", "--workload", os.path.join(ROOT, "configs", "workloads", "phased.yaml"),
            "--scale", str(scale), "--set", "system.sockets=8", "--set", "sm.per_socket=8",
            "--set", f"l2.organization={organization}", "--set", f"link.mode={link_mode}",
            "--set", "checks.protocol=true", "-o", out]
    start = time.monotonic()
    proc = subprocess.Popen(args, stderr=subprocess.PIPE)
    samples = []  # (seconds, KiB)
    while proc.poll() is None:
        kib = rss_kib(proc.pid)
        if kib is not None:
            samples.append((time.monotonic() - start, kib))
        time.sleep(0.2)
    err = proc.stderr.read().decode()
    seconds = time.monotonic() - start
    problems = []
    if proc.returncode != 0:
        return seconds, [f"exit status {proc.returncode}: {err.strip()}"], ""
    with open(os.path.join(out, "stats.json")) as f:
        doc = json.load(f)
    run, checks = doc["run"], doc["run"]["checks"]
    if not doc["complete"] or run["kernels_done"] != run["kernels_total"]:
        problems.append(f"incomplete: {run['kernels_done']}/{run['kernels_total']} kernels")
    for key in ("protocol_violations", "audit_errors"):
        if checks[key] != 0:
            problems.append(f"{key} {checks[key]}")
    if checks["watchdog_fired"]:
        problems.append("the watchdog fired")
    if checks["protocol_phases_checked"] == 0:
        problems.append("the protocol checker checked nothing")
    stats_txt = os.path.join(out, "stats.txt")
    # An SM's load_latency counts every request that returns data: its loads and its atomics.
    loads, sms = counters(stats_txt, r"system\.socket\d+\.sm\d+\.loads")
    atomics, _ = counters(stats_txt, r"system\.socket\d+\.sm\d+\.atomics")
    completed, _ = counters(stats_txt, r"system\.socket\d+\.sm\d+\.load_latency::count")
    if sms != 64 or loads == 0 or loads + atomics != completed:
        problems.append(f"loads + atomics issued {loads} + {atomics} by {sms} SMs, completed {completed}")
    dispatched, _ = counters(stats_txt, r"system\.runtime\.ctas_dispatched")
    ctas_done, _ = counters(stats_txt, r"system\.socket\d+\.sm\d+\.ctas")
    if dispatched == 0 or dispatched != ctas_done:
        problems.append(f"CTAs dispatched {dispatched}, completed {ctas_done}")
    rss = ""
    if len(samples) >= 8:
        quarter = next(k for t, k in samples if t >= samples[-1][0] / 4)
        peak, last = max(k for _, k in samples), samples[-1][1]
        rss = f"RSS {quarter // 1024} MiB at 1/4, {last // 1024} MiB at the end, peak {peak // 1024} MiB"
        if last > quarter * 1.10 + 16 * 1024:
            problems.append(f"memory grows over time: {rss}")
    else:
        rss = f"RSS not judged (only {len(samples)} samples)"
    shutil.rmtree(out, ignore_errors=True)
    return seconds, problems, f"{run['sim_cycles']} cycles, {run['transactions']} transactions, {rss}"


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: soak_test.py NUMAGPU WORKDIR [SCALE]")
    numagpu, work = sys.argv[1], sys.argv[2]
    scale = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    os.makedirs(work, exist_ok=True)
    failures = 0
    total = time.monotonic()
    for organization in ORGANIZATIONS:
        for link_mode in LINK_MODES:
            seconds, problems, facts = soak_one(numagpu, work, organization, link_mode, scale)
            verdict = "ok" if not problems else "FAILED: " + "; ".join(problems)
            print(f"soak {organization:10} {link_mode:16} {seconds:6.1f} s  {facts}  {verdict}", flush=True)
            failures += bool(problems)
    print(f"soak: {len(ORGANIZATIONS) * len(LINK_MODES)} runs in {time.monotonic() - total:.0f} s, "
          f"{failures} failed")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
