#!/usr/bin/env bash
# Usage: sweep_slurm_cluster_test.sh NUMAGPU SCRATCH [cancel|timeout]. A sweep through a real Slurm: this test starts munged,
# slurmctld and slurmd (Debian's munge, slurmctld and slurmd packages) as a one-node cluster on 127.0.0.1 with
# its own key, ports, state and logs in a private directory, memory a consumable resource; stops every daemon
# it started when it ends, however it ends; and exits 77 (ctest: skipped) with the reason when they are not
# installed or do not start. Then it runs a 3-point sweep through sbatch (submit.sh) and cancels (scancel) the
# task of the long point while it runs. It checks:
#   - the scripts are executable and ask for the spec's slurm: partition, time and memory, and Slurm gives
#     each task the memory asked for (not the whole node);
#   - the two short points are ok; the cancelled one is recorded as failed, saying it was interrupted by
#     SIGTERM under Slurm, and leaves no temporary directory; the collect job names it by id;
#   - numagpu sweep --slurm again writes an array of only the failed index.
# With `timeout` (about 1.5 minutes: Slurm's shortest time limit is one minute) the long task is not cancelled but
# runs out of its 1-minute time limit instead, and the same is checked.
set -uo pipefail
numagpu=$1 scratch=$2 mode=${3:-cancel}
case $mode in cancel) minutes=10 ;; timeout) minutes=1 ;; *) echo "usage: $0 NUMAGPU SCRATCH [cancel|timeout]"; exit 2 ;; esac
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for tool in munged slurmctld slurmd sbatch squeue scancel scontrol; do
  command -v "$tool" > /dev/null || skip "$tool is not installed (apt-get install munge slurmctld slurmd slurm-client)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start jobs as the submitting user; this runs as $(id -un)"

rm -rf "$scratch" && mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
# Sockets need short paths: the daemons' files live in a private directory under /tmp.
run=$(mktemp -d /tmp/numagpu-slurm.XXXXXX)
pids=()
cleanup() {
  if [ -f "$run/slurm.conf" ]; then
    SLURM_CONF=$run/slurm.conf timeout 5 scancel --quiet --user=root 2> /dev/null || true
  fi
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2> /dev/null || true; done
  for _ in $(seq 50); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2> /dev/null && alive=1; done
    [ $alive -eq 0 ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2> /dev/null || true; done
  pkill -KILL -f -- "-o $scratch/out " 2> /dev/null || true  # any point a killed job left
  rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Three free TCP ports on 127.0.0.1 (slurmctld, slurmd, and a spare one that is not used).
read -r ctld_port slurmd_port < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
node=$(hostname -s)

# --- munge ---------------------------------------------------------------------------------------------------
head -c 1024 /dev/urandom > "$run/munge.key" && chmod 0400 "$run/munge.key"
munged --foreground --force --socket="$run/munge.sock" --key-file="$run/munge.key" --pid-file="$run/munged.pid" \
  --log-file="$run/munged.log" --seed-file="$run/munge.seed" 2> "$run/munged.err" &
pids+=($!)
for _ in $(seq 50); do [ -S "$run/munge.sock" ] && break; sleep 0.1; done
[ -S "$run/munge.sock" ] || skip "munged did not start: $(cat "$run/munged.err" "$run/munged.log" 2> /dev/null | tail -3)"

# --- slurmctld and slurmd ----------------------------------------------------------------------------------------
mkdir -p "$run/state" "$run/spool"
cat > "$run/slurm.conf" <<CONF
ClusterName=numagputest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$run/munge.sock
CredType=cred/munge
StateSaveLocation=$run/state
SlurmdSpoolDir=$run/spool
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=$run/slurmctld.log
SlurmdLogFile=$run/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
KillWait=30
MinJobAge=600
InactiveLimit=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 RealMemory=2000 State=UNKNOWN
PartitionName=numagputest Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$run/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" > "$run/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" > "$run/slurmd.out" 2>&1 &
pids+=($!)
up=0
for _ in $(seq 100); do
  if sinfo -h -N -o '%T' 2> /dev/null | grep -qE '^(idle|mixed|allocated)'; then up=1; break; fi
  sleep 0.2
done
if [ $up -eq 0 ]; then
  skip "slurmctld/slurmd did not bring up the node in 20 s: $(tail -n 3 "$run/slurmctld.log" "$run/slurmd.log" \
    "$run/slurmctld.out" "$run/slurmd.out" 2> /dev/null | tr '\n' ' ')"
fi
echo "slurm: one-node cluster up ($node, slurmctld port $ctld_port, slurmd port $slurmd_port)"

# --- the sweep ----------------------------------------------------------------------------------------------------
cat > "$scratch/spec.yaml" <<YAML
name: slurm-cluster-test
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
      - {label: long, set: [{key: workload.kernels, value: '[{name: k, ctas: 64, warps_per_cta: 4, accesses_per_warp: 1048576}]'}]}
stats: [{name: reads, path: 'system.socket*.dram.reads', reduce: sum}]
slurm: {partition: numagputest, time: '$minutes', memory: 300M}
YAML
# An output directory with a blank, a quote, a '#' and a '%': sbatch must read its #SBATCH --output as written
# (the collect job's log is looked for there, with %j as written, below).
out="$scratch/out o't #1 %j"
"$numagpu" sweep "$scratch/spec.yaml" -o "$out" --slurm > "$scratch/gen.txt" || fail "numagpu sweep --slurm"
for f in array.sbatch collect.sbatch submit.sh; do
  [ -x "$out/slurm/$f" ] || fail "$f is not executable ($(stat -c %A "$out/slurm/$f"))"
done
for line in '--array=0-2' '--partition=numagputest' "--time=$minutes" '--mem=300M'; do
  grep -qx -- "#SBATCH $line" "$out/slurm/array.sbatch" || fail "array.sbatch lacks #SBATCH $line"
done
bash "$out/slurm/submit.sh" > "$scratch/submit.txt" || fail "submit.sh: $(cat "$scratch/submit.txt")"
cat "$scratch/submit.txt"
array=$(sed -n 's/.*array job \([0-9]*\) .*/\1/p' "$scratch/submit.txt")
collect=$(sed -n 's/.*collect job \([0-9]*\).*/\1/p' "$scratch/submit.txt")
[ -n "$array" ] && [ -n "$collect" ] || fail "submit.sh printed no job ids"

# Wait until the long point runs (its temporary directory is there), then look at what Slurm gave it and cancel it.
running=0
for _ in $(seq 300); do
  if [ "$(squeue -h -j "${array}_2" -o %T 2> /dev/null)" = RUNNING ] &&
     [ -n "$(find "$out/points" -maxdepth 1 -name '.tmp.w.long.*' 2> /dev/null)" ]; then running=1; break; fi
  sleep 0.1
done
[ $running -eq 1 ] || fail "the long point's task never ran: $(squeue 2>&1 | tr '\n' ' ') $(tail -n 5 "$run/slurmctld.log")"
scontrol show job "${array}_2" > "$scratch/job.txt"
grep -q 'MinMemoryNode=300M' "$scratch/job.txt" || fail "the task was not given 300M: $(grep -i mem "$scratch/job.txt")"
grep -q "TimeLimit=00:$(printf %02d "$minutes"):00" "$scratch/job.txt" ||
  fail "the task has not the spec's time: $(grep TimeLimit "$scratch/job.txt")"
if [ "$mode" = cancel ]; then
  scancel "${array}_2" || fail "scancel"
  wait_seconds=60
else
  echo "slurm: waiting for the long task's 1-minute time limit"
  wait_seconds=180
fi

for _ in $(seq $(( wait_seconds * 10 ))); do
  [ -z "$(squeue -h 2> /dev/null)" ] && break
  sleep 0.1
done
[ -z "$(squeue -h)" ] || fail "jobs still queued after $wait_seconds s: $(squeue | tr '\n' ' ')"
if [ "$mode" = timeout ]; then
  grep -q "Time limit exhausted for JobId=" "$run/slurmctld.log" ||
    fail "Slurm did not end the task for its time limit: $(tail -n 5 "$run/slurmctld.log")"
fi
collect_log=$out/slurm/logs/collect_$collect.out
[ -f "$collect_log" ] || fail "the collect job left no log ($(ls "$out/slurm/logs"))"
cat "$collect_log"

grep -q '^w.n2,w,n2,ok,.*,2$' "$out/results.csv" || fail "w.n2: $(cat "$out/results.csv")"
grep -q '^w.n6,w,n6,ok,.*,6$' "$out/results.csv" || fail "w.n6: $(cat "$out/results.csv")"
grep -q '^w.long,w,long,failed,' "$out/results.csv" || fail "the cancelled point is not failed: $(cat "$out/results.csv")"
grep -q "\"failure\": \".*interrupted by SIGTERM (Slurm job ${array}_2: cancelled" \
  "$out/failed/w.long/point.json" || fail "no reason recorded: $(grep failure "$out/failed/w.long/point.json")"
grep -q '^numagpu sweep: failed: w.long: ' "$collect_log" || fail "the collect job does not name the failed point"
grep -q '2 ok, 1 failed, 0 missing' "$collect_log" || fail "collect summary"
[ -z "$(find "$out/points" -maxdepth 1 -name '.*')" ] || fail "temporary directories left: $(ls -A "$out/points")"

# Resubmission: only the failed index.
"$numagpu" sweep "$scratch/spec.yaml" -o "$out" --slurm > "$scratch/gen2.txt" || fail "second --slurm"
grep -qx -- '#SBATCH --array=2' "$out/slurm/array.sbatch" ||
  fail "resubmission array: $(grep -- --array "$out/slurm/array.sbatch")"
echo "sweep through a real Slurm ($mode): ok"
