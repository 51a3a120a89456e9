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

# A 0-byte stats.json is no finished point: collect names it and suggests --slurm and submit.sh, and --slurm
# writes that submit.sh, with an array of that point alone; its task runs it again.
: > "$out/points/w.n2/stats.json"
rm "$out/slurm/submit.sh"
rc=0; bash "$out/slurm/collect.sbatch" > "$scratch/c2.txt" 2>&1 || rc=$?
test "$rc" -eq 1 || { echo "FAIL: collect with an empty stats.json exited $rc"; cat "$scratch/c2.txt"; exit 1; }
grep -q 'points/w.n2: incomplete (stats.json is empty); the point counts as missing' "$scratch/c2.txt" &&
  grep -q '1 ok, 0 failed, 1 missing' "$scratch/c2.txt" &&
  grep -qF -- "--slurm && bash '$out/slurm/submit.sh'" "$scratch/c2.txt" || { cat "$scratch/c2.txt"; exit 1; }
"$numagpu" sweep "$scratch/spec.yaml" -o "$out" --slurm > "$scratch/gen3.txt"
grep -qx '#SBATCH --array=0' "$out/slurm/array.sbatch" || { echo "FAIL: empty stats.json not resubmitted"; exit 1; }
test -x "$out/slurm/submit.sh" || { echo "FAIL: the submit.sh collect names was not written"; exit 1; }
SLURM_ARRAY_TASK_ID=0 bash "$out/slurm/array.sbatch" > "$scratch/task0b.txt" 2>&1 || { cat "$scratch/task0b.txt"; exit 1; }
bash "$out/slurm/collect.sbatch" > "$scratch/c3.txt" && grep -q '2 ok, 0 failed, 0 missing' "$scratch/c3.txt" &&
  grep -q '^w.n2,w,n2,ok,.*,2$' "$out/results.csv" || { echo "FAIL: rerun point"; cat "$scratch/c3.txt"; exit 1; }

# --slurm-option is one sbatch argument on one #SBATCH line: a newline (a line bash would run) or a value that
# is no option is refused in one line, exit 2, nothing written.
for bad in $'--qos=long\necho INJECTED' 'echo' $'--comment=a\tb'; do
  rc=0; "$numagpu" sweep "$scratch/spec.yaml" -o "$scratch/inj" --slurm --slurm-option="$bad" 2> "$scratch/inj.txt" || rc=$?
  test "$rc" -eq 2 && test "$(wc -l < "$scratch/inj.txt")" -eq 1 && grep -q '^numagpu: error: --slurm-option: ' "$scratch/inj.txt" &&
    test ! -e "$scratch/inj" || { echo "FAIL: --slurm-option $bad: exit $rc"; cat "$scratch/inj.txt"; exit 1; }
done
rc=0; "$numagpu" sweep "$scratch/spec.yaml" -o "$scratch/inj" --slurm --slurm-option=$'--qos=long\necho INJECTED' 2> "$scratch/inj.txt" || rc=$?
grep -qxF "numagpu: error: --slurm-option: '--qos=long\necho INJECTED' holds a control byte (a newline, say); one option per --slurm-option" "$scratch/inj.txt" ||
  { echo "FAIL: the injected option's message"; cat "$scratch/inj.txt"; exit 1; }
# An output directory with a newline, or a backslash (Slurm then expands no %A in --output), cannot be an
# #SBATCH --output: refused the same way.
for bad in "$scratch/nl"$'\n'"x" "$scratch/back\\slash"; do
  rc=0; "$numagpu" sweep "$scratch/spec.yaml" -o "$bad" --slurm 2> "$scratch/nl.txt" || rc=$?
  test "$rc" -eq 2 && test "$(wc -l < "$scratch/nl.txt")" -eq 1 && test ! -e "$bad" &&
    grep -q "holds a control byte or a backslash" "$scratch/nl.txt" ||
    { echo "FAIL: output directory $bad: exit $rc"; cat "$scratch/nl.txt"; exit 1; }
done

# Legal but awkward values reach sbatch and bash as written, nothing more: an output directory with blanks,
# quotes, $, # and %, an option with a blank and a #, a --set value with $( ) and backquotes. sbatch reads an
# #SBATCH line split at blanks outside quotes, '"' (and in newer Slurm '\'') quoting, '\' escaping the next
# byte and an unescaped '#' (outside quotes) starting a comment, and expands % in --output (%% is one %): so
# an argument with any of those is written in double quotes with '\', '"' and '#' escaped. By hand:
#   directory  o u't "q" $HOME #1 %j   ->  "--output=.../o u't \"q\" $HOME \#1 %%j/slurm/logs/%A_%a.out"
#   option     --comment=a b#c         ->  "--comment=a b\#c"
# (Slurm 22.05's sbatch reads both back as written: checked with `sbatch -vvv`, "Found in script, argument";
# tests/integration/sweep_slurm_cluster_test.sh runs jobs with such an output directory.)
weird="$scratch/o u't \"q\" \$HOME #1 %j"
(cd "$scratch" && "$numagpu" sweep "$scratch/spec.yaml" -o "$weird" --slurm --slurm-option='--comment=a b#c' \
   --set 'workload.name=x$(touch INJECTED)`touch INJECTED`y' > "$scratch/weird.txt")
for f in array.sbatch collect.sbatch submit.sh; do
  bash -n "$weird/slurm/$f" || { echo "FAIL: $f in an awkward directory does not parse"; exit 1; }
done
grep -qxF '#SBATCH "--comment=a b\#c"' "$weird/slurm/array.sbatch" &&
  grep -qxF '#SBATCH "--comment=a b\#c"' "$weird/slurm/collect.sbatch" ||
  { echo "FAIL: --slurm-option with a blank and a #"; grep SBATCH "$weird/slurm/array.sbatch"; exit 1; }
escaped="$scratch"'/o u'"'"'t \"q\" $HOME \#1 %%j/slurm/logs'
grep -qxF "#SBATCH \"--output=$escaped/%A_%a.out\"" "$weird/slurm/array.sbatch" &&
  grep -qxF "#SBATCH \"--output=$escaped/collect_%j.out\"" "$weird/slurm/collect.sbatch" ||
  { echo "FAIL: --output of an awkward directory"; grep SBATCH "$weird/slurm/array.sbatch"; exit 1; }
for i in 0 1; do
  (cd "$scratch" && SLURM_ARRAY_TASK_ID=$i bash "$weird/slurm/array.sbatch") > "$scratch/wtask$i.txt" 2>&1 ||
    { echo "FAIL: task $i in an awkward directory"; cat "$scratch/wtask$i.txt"; exit 1; }
done
(cd "$scratch" && bash "$weird/slurm/collect.sbatch") > "$scratch/wc.txt" 2>&1 &&
  grep -q '2 ok, 0 failed, 0 missing' "$scratch/wc.txt" || { echo "FAIL: collect in an awkward directory"; cat "$scratch/wc.txt"; exit 1; }
  grep -qF 'x$(touch INJECTED)`touch INJECTED`y' "$weird/points/w.n2/config.yaml" ||
  { echo "FAIL: the --set value did not reach the point as written"; exit 1; }
test ! -e "$scratch/INJECTED" || { echo "FAIL: a --set value ran as a command"; exit 1; }

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
