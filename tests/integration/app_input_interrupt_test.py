#!/usr/bin/env python3
"""SIGTERM while an application's input graph is being read (issue 44): the program stops within a second,
exits 143, says it was interrupted before the run started, and writes nothing. Before, the reader took the
whole file (and a FIFO blocked for ever) with the signal only noted.

The input is a sparse 2 GiB file, one comment line: '%' then zero bytes (no disk space; the reader drops a
comment's bytes as they come, so its memory stays at one 4 MiB chunk, and reading it all takes about a second).
The signal is sent as soon as the program has the file open, found in /proc/PID/fd. The reader looks at the
interrupt flag every 4 MiB, so it stops long before the end. Usage: app_input_interrupt_test.py NUMAGPU WORKDIR"""
import os
import shutil
import signal
import subprocess
import sys
import time


def main():
    numagpu, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    graph = os.path.join(work, "huge.graph")
    with open(graph, "wb") as f:
        f.write(b"%")
        f.truncate(2 << 30)
    workload = os.path.join(work, "w.yaml")
    with open(workload, "w") as f:
        f.write("workload:\n  name: w\n  kernels:\n    - name: bfs\n      app: rodinia/bfs\n"
                f"      args: \"layers=1\"\n      input: {graph}\n")
    out = os.path.join(work, "out")
    proc = subprocess.Popen([numagpu, "run", "-q", "-w", workload, "-o", out], stderr=subprocess.PIPE, text=True)
    fd_dir = f"/proc/{proc.pid}/fd"
    deadline = time.monotonic() + 20
    opened = False
    while not opened and proc.poll() is None and time.monotonic() < deadline:
        try:
            opened = any(os.readlink(os.path.join(fd_dir, fd)) == graph for fd in os.listdir(fd_dir))
        except OSError:
            pass
        if not opened:
            time.sleep(0.001)
    if not opened:
        proc.kill()
        sys.exit(f"the program never opened {graph} (exit status {proc.poll()}): {proc.stderr.read()}")
    sent = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        sys.exit("SIGTERM while reading the input was ignored for 5 s")
    waited = time.monotonic() - sent
    err = proc.stderr.read()
    problems = []
    if proc.returncode != 143:
        problems.append(f"exit status {proc.returncode}, expected 143")
    if waited > 1.0:
        problems.append(f"it took {waited:.2f} s to stop, more than a second")
    if err.strip() != "numagpu: interrupted by SIGTERM before the run started; nothing written":
        problems.append(f"stderr: {err!r}")
    if os.path.exists(out):
        problems.append(f"{out} was written")
    shutil.rmtree(work, ignore_errors=True)
    if problems:
        sys.exit("; ".join(problems))
    print(f"stopped {waited * 1000:.0f} ms after SIGTERM: ok")


if __name__ == "__main__":
    main()
