#!/usr/bin/env bash
# Usage: sweep_slurm_test.sh NUMAGPU SCRATCH. Checks `numagpu sweep --slurm` without Slurm: the scripts must
# parse and be executable, ask for the documented default time and memory, each array task
# (SLURM_ARRAY_TASK_ID=i bash array.sbatch) must finish exactly its point, collect.sbatch must name the points
# still missing and then report all points ok, a second --slurm must write an array of only the points still to
# do, a script must refuse to run where a path baked into it does not exist, and a bad slurm: value is an
# error at its line. (tests/integration/sweep_slurm_cluster_test.sh runs a sweep through a real Slurm.) The points: one SM streaming 2 and 6 distinct lines, so
# DRAM serves 2 and 6 reads (cold caches).
set -euo pipefail
numagpu=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
cat > "$scratch/spec.yaml" <<'YAML'
name: slurm-test
set:
  - {key: system.sockets, value: 1}
  - {key: sm.per_socket, value: 1}
  - {key: 'workload.kernels', value: '[{name: k, ctas: 1, warps_per_cta: 1, accesses_per_warp: 2}]'}
workloads: [{name: w}]
axes:
  - name: n
    values:
      - {label: n2}
      - {label: n6, set: [{key: workload.kernels.0.accesses_per_warp, value: 6}]}
stats: [{name: reads, path: 'system.socket*.dram.reads', reduce: sum}]
YAML
out="$scratch/out"
"$numagpu" sweep "$scratch/spec.yaml" -o "$out" --slurm --slurm-option=--partition=test > "$scratch/gen.txt"
for f in array.sbatch collect.sbatch submit.sh; do
  bash -n "$out/slurm/$f" || { echo "FAIL: $f does not parse"; exit 1; }
done
grep -qx '#SBATCH --array=0-1' "$out/slurm/array.sbatch" || { echo "FAIL: array range"; exit 1; }
grep -qx '#SBATCH --partition=test' "$out/slurm/array.sbatch" || { echo "FAIL: --slurm-option"; exit 1; }
grep -qx '#SBATCH --time=1:00:00' "$out/slurm/array.sbatch" || { echo "FAIL: default time"; exit 1; }
grep -qx '#SBATCH --mem=2G' "$out/slurm/array.sbatch" || { echo "FAIL: default memory"; exit 1; }
for f in array.sbatch collect.sbatch submit.sh; do
  test -x "$out/slurm/$f" || { echo "FAIL: $f is not executable"; exit 1; }
done
test ! -e "$out/points" || { echo "FAIL: --slurm ran points"; exit 1; }

# Before any task: the collect step reports both points missing and fails.
if bash "$out/slurm/collect.sbatch" > "$scratch/c0.txt" 2>&1; then echo "FAIL: collect passed early"; exit 1; fi
grep -q '0 ok, 0 failed, 2 missing' "$scratch/c0.txt" || { cat "$scratch/c0.txt"; exit 1; }
grep -q 'missing (never ran, or still running): w.n2 w.n6' "$scratch/c0.txt" || { cat "$scratch/c0.txt"; exit 1; }

# After task 0 only, a second --slurm writes an array of index 1 alone.
SLURM_ARRAY_TASK_ID=0 bash "$out/slurm/array.sbatch" > "$scratch/task0.txt" 2>&1 || { cat "$scratch/task0.txt"; exit 1; }
"$numagpu" sweep "$scratch/spec.yaml" -o "$out" --slurm > "$scratch/gen2.txt"
grep -qx '#SBATCH --array=1' "$out/slurm/array.sbatch" || { echo "FAIL: resubmission array"; exit 1; }

for i in 0 1; do
  SLURM_ARRAY_TASK_ID=$i bash "$out/slurm/array.sbatch" > "$scratch/task$i.txt" 2>&1 ||
    { echo "FAIL: task $i"; cat "$scratch/task$i.txt"; exit 1; }
done
test -s "$out/points/w.n2/stats.json" && test -s "$out/points/w.n6/stats.json" || { echo "FAIL: points"; exit 1; }
rc=0; SLURM_ARRAY_TASK_ID=2 bash "$out/slurm/array.sbatch" 2> "$scratch/task2.txt" || rc=$?
test "$rc" -eq 2 || { echo "FAIL: task 2 of a 2-point array exited $rc"; exit 1; }
rc=0; bash "$out/slurm/array.sbatch" 2> /dev/null || rc=$?
test "$rc" -ne 0 || { echo "FAIL: array.sbatch ran without SLURM_ARRAY_TASK_ID"; exit 1; }

bash "$out/slurm/collect.sbatch" > "$scratch/c1.txt"
grep -q '2 ok, 0 failed, 0 missing' "$scratch/c1.txt" || { cat "$scratch/c1.txt"; exit 1; }
grep -q '^w.n2,w,n2,ok,.*,2$' "$out/results.csv" || { cat "$out/results.csv"; exit 1; }
grep -q '^w.n6,w,n6,ok,.*,6$' "$out/results.csv" || { cat "$out/results.csv"; exit 1; }

# A path baked into the scripts that does not exist where they run: a clear error, exit 2.
cp "$numagpu" "$scratch/numagpu-copy"
"$scratch/numagpu-copy" sweep "$scratch/spec.yaml" -o "$scratch/out2" --slurm > /dev/null
rm "$scratch/numagpu-copy"
rc=0; SLURM_ARRAY_TASK_ID=0 bash "$scratch/out2/slurm/array.sbatch" 2> "$scratch/moved.txt" || rc=$?
test "$rc" -eq 2 && grep -q "numagpu-copy: not found on .*shared file system" "$scratch/moved.txt" ||
  { echo "FAIL: missing binary: exit $rc"; cat "$scratch/moved.txt"; exit 1; }

# slurm: settings are checked where they are written.
sed 's/^stats:/slurm: {time: "1:2:3:4", memory: 2G}\nstats:/' "$scratch/spec.yaml" > "$scratch/bad.yaml"
rc=0; "$numagpu" sweep "$scratch/bad.yaml" -o "$scratch/out3" --slurm 2> "$scratch/bad.txt" || rc=$?
test "$rc" -eq 2 && grep -q "bad.yaml:[0-9]*:[0-9]*: slurm.time: '1:2:3:4' is not a Slurm time" "$scratch/bad.txt" ||
  { echo "FAIL: bad slurm.time: exit $rc"; cat "$scratch/bad.txt"; exit 1; }
echo "slurm scripts: ok"
