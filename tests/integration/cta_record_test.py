#!/usr/bin/env python3
"""CTA recordings under bounds (issue 44, docs/reliability.md "Bounded memory"): a library kernel's or an
application's CTA body is recorded whole, in host time, before its warps run.

1. Past checks.max_record_bytes: parboil/sgemm_mysgemmNT at k = 65536 records about 22 MB per CTA (its k loop
   of 65536 / 8 = 8192 iterations; CTA 0 alone passes 16 MiB, measured 22.5 MB at the first look past it);
   with the limit at 16 MiB the run ends with exactly one line at the kernel's arguments (file:line:col,
   workload.kernels.0.args), exit 2, nothing written, in seconds.
2. SIGTERM while a CTA body is recorded: cudaTensorCoreGemm with 8 x 16 tiles and k_tiles = 65536 on sms = 1
   is one persistent CTA whose k loop takes seconds to record (the limit off: 0; measured 2026-11-29 on an
   idle machine of CI's kind: the first cycle at 3.1-3.4 s; at 8 x 8 tiles, 1.6-2.0 s, which made a signal
   sent 2 s in land after the recording on an idle machine). The signal, sent 1 s in, ends the run within a
   second (before this fix, not until the whole body was recorded): exit 143, statistics written, marked
   incomplete with stop_reason "interrupted" at cycle 0 (no simulated time passed while recording).
2b. SIGTERM while a kernel's input is generated (mergeSort's sorted runs): the run ends within 3 s.
3. An allocation that fails: the same sgemm without the limit, under ulimit -v 1,000,000 KiB: exit 2, one line
   "numagpu: error: out of memory ...", nothing written (before this fix, SystemC's E549 report and exit 1).
   Skipped in a sanitizer build, which cannot start under ulimit -v.

Usage: cta_record_test.py NUMAGPU WORKDIR"""
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def signal_after(command, delay, what, failures):
    """Starts `command`, sends SIGTERM `delay` s in, and returns (exit status, seconds it took after the
    signal, stderr); notes a run that ended before the signal."""
    p = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    if p.poll() is not None:
        failures.append(f"{what}: the run ended before the signal (exit {p.returncode})")
    sent = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        status = p.wait(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        status = p.wait()
    waited = time.monotonic() - sent
    print(f"{what}: exit {status} {waited:.2f} s after SIGTERM")
    return status, waited, p.stderr.read()


def main():
    numagpu, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failures = []

    # 1. The limit.
    sgemm = os.path.join(work, "sgemm.yaml")
    write(sgemm, "workload:\n  name: big\n  kernels:\n    - name: sgemm\n"
                 "      kernel: parboil/sgemm_mysgemmNT\n      args: \"k=65536\"\n")
    out = os.path.join(work, "limit")
    start = time.monotonic()
    p = subprocess.run([numagpu, "run", "-q", "-w", sgemm, "--set", "checks.max_record_bytes=16777216", "-o", out],
                       capture_output=True, text=True, timeout=120)
    took = time.monotonic() - start
    expected = (re.escape(f"numagpu: error: {sgemm}:6:13: workload.kernels.0.args: kernel parboil/sgemm_mysgemmNT "
                          "with args \"k=65536\": CTA ") + r"\d+ took \d+ B of recorded steps( beside the \d+ B of "
                r"the CTAs resident with it)?, more than checks\.max_record_bytes \(16777216 B\) allows; smaller "
                r"arguments fit, or a larger limit")
    if p.returncode != 2 or not re.fullmatch(expected, p.stderr.rstrip("\n")) or os.path.exists(out):
        failures.append(f"limit: exit {p.returncode}, written {os.path.exists(out)}, stderr {p.stderr!r}")
    if took > 60:
        failures.append(f"limit: took {took:.1f} s")
    print(f"limit: exit {p.returncode} in {took:.1f} s")

    # 2. SIGTERM during a CTA's recording.
    tc = os.path.join(work, "tc.yaml")
    write(tc, "workload:\n  name: tc\n  kernels:\n    - name: tc\n      kernel: cuda-samples/cudaTensorCoreGemm\n"
              "      args: \"m_tiles=8 n_tiles=16 k_tiles=65536 sms=1\"\n")
    out = os.path.join(work, "interrupt")
    status, waited, stderr = signal_after(
        [numagpu, "run", "-q", "-w", tc, "--set", "checks.max_record_bytes=0", "-o", out], 1, "interrupt", failures)
    if status != 128 + signal.SIGTERM or waited > 1.0:
        failures.append(f"interrupt: exit {status} {waited:.2f} s after SIGTERM, stderr {stderr!r}")
    else:
        doc = json.load(open(os.path.join(out, "stats.json")))
        if (doc["complete"], doc["run"]["stop_reason"], doc["run"]["cycle_reached"]) != (False, "interrupted", 0):
            failures.append(f"interrupt: stats.json says {doc['complete']} {doc['run']}")

    # 2b. SIGTERM while a kernel's input is generated (its prepare(), before its first CTA records): the sort
    # of mergeSort's runs (2 runs of 2^25 keys, stable_sort, ~6 s here) and the zero fill of its 256 MiB arrays
    # look at the interrupt (interrupt_point, resize_interruptibly). Sent 1.5 s in, the signal ends the run
    # within 3 s (freeing the arrays included); before, not until the generation was done (at n = 2^28, 30 s).
    ms = os.path.join(work, "ms.yaml")
    write(ms, "workload:\n  name: ms\n  kernels:\n    - name: ms\n"
              "      kernel: cuda-samples/mergeSort_generateSampleRanks\n"
              "      args: \"n=67108864 stride=33554432\"\n")
    out = os.path.join(work, "interrupt_generation")
    status, waited, stderr = signal_after(
        [numagpu, "run", "-q", "-w", ms, "--set", "system.sockets=1", "--set", "sm.per_socket=8", "-o", out], 1.5,
        "interrupt in generation", failures)
    if status != 128 + signal.SIGTERM or waited > 3.0:
        failures.append(f"interrupt in generation: exit {status} {waited:.2f} s after SIGTERM, stderr {stderr!r}")

    # 3. An allocation failure.
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1000000 * 1024, 1000000 * 1024))
    if subprocess.run([numagpu, "--version"], capture_output=True, preexec_fn=limit).returncode != 0:
        print("out of memory: skipped (numagpu cannot start under ulimit -v: a sanitizer build?)")
    else:
        out = os.path.join(work, "oom")
        p = subprocess.run([numagpu, "run", "-q", "-w", sgemm, "--set", "checks.max_record_bytes=0", "-o", out],
                           capture_output=True, text=True, timeout=300, preexec_fn=limit)
        print(f"out of memory: exit {p.returncode}")
        line = (r"numagpu: error: out of memory at cycle \d+: an allocation failed \(host memory, or a ulimit -v\); "
                r"nothing written")
        if p.returncode != 2 or not re.fullmatch(line, p.stderr.rstrip("\n")) or os.path.exists(out):
            failures.append(f"out of memory: exit {p.returncode}, written {os.path.exists(out)}, "
                            f"stderr {p.stderr[:500]!r}")

    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
