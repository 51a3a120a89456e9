#!/usr/bin/env bash
# Usage: sweep_progress_test.sh NUMAGPU SCRATCH. On a terminal (a pseudo-terminal from script(1)) numagpu
# sweep draws its progress line: points done of the total, running, failed, elapsed time and ETA; the
# per-point lines of a non-terminal run are replaced by it.
set -euo pipefail
numagpu=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
cat > "$scratch/spec.yaml" <<'YAML'
name: progress
set:
  - {key: system.sockets, value: 1}
  - {key: sm.per_socket, value: 1}
  - {key: 'workload.kernels', value: '[{name: k, ctas: 1, warps_per_cta: 1, accesses_per_warp: 2}]'}
workloads: [{name: w}]
axes:
  - name: n
    values: [{label: a}, {label: b}, {label: c}]
stats: [{name: cycles, path: run.sim_cycles}]
YAML
script -qec "$numagpu sweep $scratch/spec.yaml -o $scratch/out -j 1" "$scratch/tty.log" > /dev/null
tr '\r' '\n' < "$scratch/tty.log" > "$scratch/lines.txt"
grep -Eq '^\[[#.]{24}\] [0-3]/3 done, [01] running, 0 failed, [0-9]+s elapsed, ETA ' "$scratch/lines.txt" ||
  { echo "FAIL: no progress line"; cat "$scratch/lines.txt"; exit 1; }
grep -q '3 ok, 0 failed, 0 missing' "$scratch/lines.txt" || { echo "FAIL: no final line"; exit 1; }
if grep -q '^\[1/3\] w.a done' "$scratch/lines.txt"; then echo "FAIL: per-point lines on a terminal"; exit 1; fi
# Not a terminal: one line per point, no bar.
"$numagpu" sweep "$scratch/spec.yaml" -o "$scratch/out2" -j 1 > "$scratch/plain.txt" 2>&1
grep -q '^\[3/3\] w\.' "$scratch/plain.txt" || { echo "FAIL: per-point lines"; cat "$scratch/plain.txt"; exit 1; }
if grep -q 'ETA' "$scratch/plain.txt"; then echo "FAIL: progress bar without a terminal"; exit 1; fi
echo "progress: ok"
