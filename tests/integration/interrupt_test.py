#!/usr/bin/env python3
"""Interrupted runs keep their results (docs/reliability.md). Starts a real `numagpu run` again and again and
sends it SIGINT or SIGTERM at a random moment (sometimes twice in a row), then checks what it left behind:

- the exit status is 0 (it finished first), or 128 + the signal (130 SIGINT, 143 SIGTERM);
- every output file (stats.json, stats.txt, config.yaml, lanes.vcd) is absent or complete and parseable,
  and no temporary file is left beside them;
- after a single signal the outputs are all there or none is (none only when the signal came before the
  simulation started);
- stats.json says "complete": false exactly when the run was cut short, with run.stop_reason "interrupted" and
  the cycle reached; a run that exits 0 is complete.

The moments are spread over 1.2 times the duration of an uninterrupted run measured first, so the same test
adapts to a Release or a sanitizer build. Usage: interrupt_test.py NUMAGPU WORKDIR [TRIALS] [SEED]"""
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

import yaml

OUTPUTS = ("stats.json", "stats.txt", "config.yaml", "lanes.vcd", "activity.json", "power.json")


def problems_of(out_dir, status, signals_sent):
    """What is wrong with the outputs in out_dir; an empty list when everything holds."""
    found = []
    present = sorted(f for f in OUTPUTS if os.path.exists(os.path.join(out_dir, f)))
    leftovers = [f for f in (os.listdir(out_dir) if os.path.isdir(out_dir) else []) if f not in OUTPUTS]
    if leftovers:
        found.append(f"unexpected files left behind: {leftovers}")
    interrupted_status = {128 + s for s in signals_sent}
    if status != 0 and status not in interrupted_status:
        found.append(f"exit status {status}, expected 0 or one of {sorted(interrupted_status)}")
    if len(signals_sent) == 1 and present and present != sorted(OUTPUTS):
        found.append(f"after one signal the outputs are all there or none is; found only {present}")
    if status == 0 and present != sorted(OUTPUTS):
        found.append(f"a finished run wrote only {present}")
    for name in present:
        path = os.path.join(out_dir, name)
        with open(path, "rb") as f:
            data = f.read()
        if not data.endswith(b"\n"):
            found.append(f"{name} does not end with a newline (torn?)")
            continue
        text = data.decode()
        try:
            if name == "stats.json":
                doc = json.loads(text)
                run = doc["run"]
                if doc["schema_version"] != 2 or not isinstance(doc["complete"], bool):
                    found.append("stats.json: bad schema_version or complete field")
                elif doc["complete"]:
                    if run["stop_reason"] != "finished":
                        found.append(f"stats.json: complete, but stop_reason {run['stop_reason']}")
                else:
                    if run["stop_reason"] != "interrupted" or not isinstance(run["cycle_reached"], int):
                        found.append(f"stats.json: incomplete, but stop_reason {run['stop_reason']}")
                    if status == 0:
                        found.append("stats.json: incomplete, yet the run exited 0")
                if not doc["stats"]:
                    found.append("stats.json: no statistics")
            elif name == "stats.txt":
                if not text.startswith("# numagpu") or "# resolved configuration:\n" not in text:
                    found.append("stats.txt: header or resolved configuration missing")
            elif name == "config.yaml":
                if "system" not in yaml.safe_load(text):
                    found.append("config.yaml: no system section")
            elif name == "activity.json":
                if json.loads(text)["schema"] != "numagpu-activity":
                    found.append("activity.json: not an activity record")
            elif name == "power.json":
                if "total" not in json.loads(text):
                    found.append("power.json: no total")
            elif name == "lanes.vcd":
                if not text.startswith("$version") or "$enddefinitions $end" not in text:
                    found.append("lanes.vcd: header incomplete")
        except Exception as e:  # noqa: BLE001 - any parse failure is the finding
            found.append(f"{name}: cannot be parsed ({type(e).__name__}: {e})")
    return found


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: interrupt_test.py NUMAGPU WORKDIR [TRIALS] [SEED]")
    numagpu, work = sys.argv[1], sys.argv[2]
    trials = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 13
    rng = random.Random(seed)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # Two sockets of 8 SMs on the phased workload: several kernels and kernel boundaries, lanes.vcd written.
    args = ["run", "-q", "--set", "system.sockets=2", "--set", "sm.per_socket=8",
            "--workload", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs",
                                       "workloads", "phased.yaml")]

    start = time.monotonic()
    calibration = subprocess.run([numagpu, *args, "-o", os.path.join(work, "calibration")])
    duration = time.monotonic() - start
    if calibration.returncode != 0 or problems_of(os.path.join(work, "calibration"), 0, []):
        sys.exit("interrupt_test: the uninterrupted run failed")
    print(f"uninterrupted run: {duration:.2f} s; {trials} trials, seed {seed}")

    outcomes = {"finished first": 0, "stopped before the simulation": 0, "partial statistics": 0,
                "two signals": 0}
    failures = 0
    for trial in range(trials):
        out_dir = os.path.join(work, f"t{trial}")
        sig = rng.choice([signal.SIGINT, signal.SIGTERM])
        delay = rng.uniform(0.0, 1.2 * duration)
        second = rng.random() < 0.25  # a user who presses Ctrl-C twice
        proc = subprocess.Popen([numagpu, *args, "-o", out_dir], stderr=subprocess.PIPE)
        time.sleep(delay)
        sent = []
        if proc.poll() is None:
            proc.send_signal(sig)
            sent.append(sig)
            if second:
                time.sleep(rng.uniform(0.0, 0.05))
                if proc.poll() is None:
                    proc.send_signal(sig)
                    sent.append(sig)
        _, err = proc.communicate(timeout=120)
        status = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
        found = problems_of(out_dir, status, [int(s) for s in sent])
        if found:
            failures += 1
            print(f"trial {trial}: {signal.Signals(sig).name} after {delay:.3f} s"
                  f"{' (twice)' if len(sent) == 2 else ''}, exit {status}:")
            for f in found:
                print(f"  {f}")
            print("  stderr: " + err.decode().strip().replace("\n", "\n          "))
        if not sent or status == 0:
            outcomes["finished first"] += 1
        elif len(sent) == 2:
            outcomes["two signals"] += 1
        elif not os.path.exists(os.path.join(out_dir, "stats.json")):
            outcomes["stopped before the simulation"] += 1
        else:
            outcomes["partial statistics"] += 1
        shutil.rmtree(out_dir, ignore_errors=True)
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in outcomes.items()))
    if failures:
        sys.exit(f"interrupt_test: {failures} of {trials} trials left a bad result")
    if outcomes["partial statistics"] == 0:
        sys.exit("interrupt_test: no trial interrupted a running simulation; the moments missed it")
    print("interrupt_test: every output was absent or complete")


if __name__ == "__main__":
    main()
