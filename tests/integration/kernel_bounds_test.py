#!/usr/bin/env python3
"""Every library kernel and application at the bounds of its arguments, under a memory limit (issue 44,
docs/reliability.md "Bounded memory"). For each kernel and application that `numagpu kernels` lists, and for
each of its arguments, a run with that argument at its allowed maximum (the others at their defaults), in an
address space of AS_KIB (ulimit -v) and with a wall-clock limit, must:

- exit 0 (it ran: checks.max_cycles cuts the simulation short, its statistics marked incomplete), or
- exit 2 with exactly one line on stderr, "numagpu: error: ...", and nothing written (an argument whose CTAs'
  records pass checks.max_record_bytes, an allocation that fails under the memory limit);

never a crash, a SystemC report (E549), another exit status, more than one line, or a run past the time limit.

The machine is one socket of 8 SMs and the simulation stops at cycle 20000 (checks.max_cycles): the property is
about what the arguments make the host build, not about simulating it to the end. checks.max_record_bytes is
set to 64 MiB so that a kernel whose records would grow without bound reaches it in seconds.

Usage: kernel_bounds_test.py NUMAGPU WORKDIR [--only NAME=ARG,...] [--seconds N] [--as-kib N]"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time


def catalogue(numagpu):
    """[(kind, name, [(arg, max)])] from `numagpu kernels`: kind "kernel" or "app"."""
    text = subprocess.run([numagpu, "kernels"], check=True, capture_output=True, text=True).stdout
    entries, kind = [], "kernel"
    for line in text.splitlines():
        if line.startswith("Applications"):
            kind = "app"
            continue
        if line and not line.startswith(" ") and "/" in line:
            entries.append((kind, line.strip(), []))
            continue
        m = re.match(r"^  ([a-z_0-9]+)=(-?\d+)  \((-?\d+)\.\.(-?\d+)\)", line)
        if m and entries:
            entries[-1][2].append((m.group(1), int(m.group(4))))
    return entries


def limit_memory(as_kib):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (as_kib * 1024, as_kib * 1024))
    return apply


def run_case(numagpu, work, kind, name, arg, value, seconds, as_kib):
    """A list of what is wrong with one run (empty: it holds), and a one-word outcome."""
    out_dir = os.path.join(work, re.sub(r"[^A-Za-z0-9]+", "_", f"{name}_{arg}"))
    shutil.rmtree(out_dir, ignore_errors=True)
    item = f"{{name: k, {kind}: '{name}', args: '{arg}={value}'}}"
    cmd = [numagpu, "run", "-q", "--set", "system.sockets=1", "--set", "sm.per_socket=8",
           "--set", "checks.max_cycles=20000", "--set", "checks.max_record_bytes=67108864",
           "--set", f"workload.kernels=[{item}]", "-o", out_dir]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds, preexec_fn=limit_memory(as_kib))
    except subprocess.TimeoutExpired:
        return [f"still running after {seconds} s"], "timeout"
    took = time.monotonic() - start
    lines = p.stderr.splitlines()
    found = []
    if p.returncode == 0:
        if not os.path.exists(os.path.join(out_dir, "stats.json")):
            found.append("exit 0 without stats.json")
        return found, f"ran ({took:.1f} s)"
    if p.returncode != 2:
        found.append(f"exit status {p.returncode}")
    if len(lines) != 1 or not lines[0].startswith("numagpu: error: "):
        found.append(f"stderr is not one error line: {p.stderr[:400]!r}")
    if "E549" in p.stderr or "In process" in p.stderr:
        found.append("a SystemC report")
    if os.path.exists(out_dir):
        found.append(f"{out_dir} written")
    return found, f"refused ({took:.1f} s): {lines[0][:160] if lines else ''}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("numagpu")
    ap.add_argument("work")
    ap.add_argument("--only", default="", help="comma-separated NAME=ARG cases (default: every argument of all)")
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--as-kib", type=int, default=2000000)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    # A sanitizer build reserves terabytes of address space: it cannot run under ulimit -v at all.
    probe = subprocess.run([a.numagpu, "--version"], capture_output=True, preexec_fn=limit_memory(a.as_kib))
    if probe.returncode != 0:
        print("kernel_bounds_test: numagpu cannot start under ulimit -v (a sanitizer build?): skipped")
        return 77
    only = {tuple(c.split("=", 1)) for c in a.only.split(",") if c}
    cases = [(kind, name, arg, value) for kind, name, args in catalogue(a.numagpu) for arg, value in args
             if not only or (name, arg) in only]
    if only and len(cases) != len(only):
        sys.exit(f"kernel_bounds_test: some of --only are not kernels' arguments: {sorted(only)}")
    failures = 0
    for kind, name, arg, value in cases:
        found, outcome = run_case(a.numagpu, a.work, kind, name, arg, value, a.seconds, a.as_kib)
        print(f"{'FAIL' if found else 'ok  '} {name} {arg}={value}: {outcome}", flush=True)
        for f in found:
            print(f"       {f}")
        failures += bool(found)
    print(f"{len(cases)} cases, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
