#!/usr/bin/env bash
# Usage: sweep_signal_test.sh NUMAGPU SCRATCH. A sweep under signals (docs/reliability.md):
#   1. SIGTERM to `numagpu sweep` while two long points run and one waits: it forwards the signal, waits for
#      them, exits 143 within the grace period, leaves no process and no temporary directory behind, records
#      both running points and the waiting one as failed with the reason, and writes the results table with
#      the point that finished and the failed ones named by id;
#   2. SIGKILL to the sweep orphans its running points: a rerun (--collect) leaves the temporary directories
#      of those live processes alone, and once they are gone turns them into failure records.
# The fast point is one SM running the default workload; the long ones run it 400 times over (minutes).
set -euo pipefail
numagpu=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
# Every `numagpu run` of this test writes under $scratch/out: that is how its processes are found.
children() { pgrep -f -- "-o $scratch/out/" || true; }
cleanup() { children | xargs -r kill -KILL 2> /dev/null || true; }
trap cleanup EXIT

cat > "$scratch/spec.yaml" <<'YAML'
name: signal-test
set:
  - {key: system.sockets, value: 1}
  - {key: sm.per_socket, value: 1}
workloads: [{name: w}]
axes:
  - name: n
    values:
      - {label: fast}
      - {label: long1, set: [{key: workload.scale, value: 400}]}
      - {label: long2, set: [{key: workload.scale, value: 401}]}
      - {label: long3, set: [{key: workload.scale, value: 402}]}
stats: [{name: cycles, path: summary.sim_cycles}]
YAML
out=$scratch/out

# Waits (at most 30 s) until the fast point is done and two long ones run (two temporary directories, two
# child processes).
wait_for_two_running() {
  for _ in $(seq 300); do
    if [ -d "$out/points/w.fast" ] && [ "$(find "$out/points" -maxdepth 1 -name '.tmp.*' 2> /dev/null | wc -l)" -eq 2 ] &&
       [ "$(children | wc -l)" -eq 2 ]; then return 0; fi
    sleep 0.1
  done
  fail "the two long points never ran"
}

# --- 1. SIGTERM ---------------------------------------------------------------------------------------------
"$numagpu" sweep "$scratch/spec.yaml" -o "$out" -j 2 > "$scratch/term.out" 2> "$scratch/term.err" &
sweep=$!
wait_for_two_running
start=$(date +%s)
kill -TERM "$sweep"
rc=0; wait "$sweep" || rc=$?
took=$(( $(date +%s) - start ))
cat "$scratch/term.out" "$scratch/term.err"
test "$rc" -eq 143 || fail "SIGTERM: exit $rc, expected 143"
test "$took" -le 12 || fail "SIGTERM: the sweep took ${took} s to stop (grace: 10 s)"
test -z "$(children)" || fail "SIGTERM: points still running after the sweep exited: $(children | tr '\n' ' ')"
test -z "$(find "$out/points" -maxdepth 1 -name '.*')" || fail "SIGTERM: temporary directories left: $(ls -A "$out/points")"
grep -q '^w.fast,w,fast,ok,' "$out/results.csv" || fail "SIGTERM: no results table with the finished point"
for p in long1 long2 long3; do
  grep -q "^w.$p,w,$p,failed," "$out/results.csv" || fail "SIGTERM: w.$p is not failed in results.csv"
  grep -q '"failure": ".*interrupted by SIGTERM' "$out/failed/w.$p/point.json" || fail "SIGTERM: w.$p: no reason"
  grep -q "^numagpu sweep: failed: w.$p: " "$scratch/term.err" || fail "SIGTERM: w.$p is not named"
done
grep -q '"failure": "not started: ' "$out/failed/w.long3/point.json" || fail "SIGTERM: w.long3 not 'not started'"
test -s "$out/failed/w.long1/run.log" || fail "SIGTERM: the stopped point's log is lost"
grep -q '1 ok, 3 failed, 0 missing' "$scratch/term.out" || fail "SIGTERM: summary line"

# --- 2. SIGKILL: the orphans' directories are theirs until they end --------------------------------------------
rm -rf "$out"
"$numagpu" sweep "$scratch/spec.yaml" -o "$out" -j 2 > /dev/null 2>&1 &
sweep=$!
wait_for_two_running
kill -KILL "$sweep"
wait "$sweep" 2> /dev/null || true
test "$(children | wc -l)" -eq 2 || fail "SIGKILL: expected two orphaned points running"
rc=0; "$numagpu" sweep "$scratch/spec.yaml" -o "$out" --collect > "$scratch/k1.out" 2> "$scratch/k1.err" || rc=$?
test "$(find "$out/points" -maxdepth 1 -name '.tmp.*' | wc -l)" -eq 2 ||
  fail "SIGKILL: a rerun removed the temporary directory of a running point"
grep -q 'missing (never ran, or still running): w.long1 w.long2 w.long3' "$scratch/k1.err" ||
  { cat "$scratch/k1.err"; fail "SIGKILL: collect does not name the missing points"; }
children | xargs -r kill -KILL
for _ in $(seq 50); do [ -z "$(children)" ] && break; sleep 0.1; done
"$numagpu" sweep "$scratch/spec.yaml" -o "$out" --collect > "$scratch/k2.out" 2> "$scratch/k2.err" || true
test -z "$(find "$out/points" -maxdepth 1 -name '.*')" || fail "SIGKILL: dead points' directories left: $(ls -A "$out/points")"
for p in long1 long2; do
  grep -q '"failure": ".*ended without recording a result' "$out/failed/w.$p/point.json" ||
    fail "SIGKILL: w.$p has no failure record"
done
grep -q '1 ok, 2 failed, 1 missing' "$scratch/k2.out" || { cat "$scratch/k2.out"; fail "SIGKILL: summary line"; }
echo "sweep under signals: ok"
