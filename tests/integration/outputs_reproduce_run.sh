#!/usr/bin/env bash
# Every output reproduces its run (issue 23, item 3): `numagpu run -c OUT/config.yaml`, started from another
# directory, gives identical statistics for a synthetic run, a run of trace kernels named by a relative path in
# a workload file, a workload.trace_list run (relative list path, from --set and from a file), and a sweep point
# of each kind; the written configuration names the workload and kernels that ran, not the built-in default.
# Usage: outputs_reproduce_run.sh NUMAGPU SOURCE_DIR SCRATCH
set -euo pipefail
numagpu=$(realpath "$1")
src=$(realpath "$2")
scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
scratch=$(realpath "$scratch")
py=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }

# The traces live in a directory of their own, named relative to the files that name them.
mkdir -p "$scratch/inputs/traces" "$scratch/inputs/workloads"
cp "$src"/tests/data/replay/*.traceg "$src/tests/data/replay/kernelslist.g" "$scratch/inputs/traces/"
cat > "$scratch/inputs/workloads/kernels.yaml" <<'YAML'
workload:
  name: two_traces
  kernels:
    - {name: barrier, trace: ../traces/kernel-1-barrier.traceg}
    - {name: compute, trace: ../traces/kernel-2-compute.traceg}
YAML
cat > "$scratch/inputs/workloads/list.yaml" <<'YAML'
workload:
  trace_list: ../traces/kernelslist.g
YAML
cat > "$scratch/inputs/workloads/tiny.yaml" <<'YAML'
workload:
  name: tiny
  kernels: [{name: k, ctas: 8, warps_per_cta: 2, accesses_per_warp: 4, write_percent: 25}]
YAML

# rerun NAME OUT: runs OUT/config.yaml again from / and compares everything the run wrote about itself.
rerun() {
  local name=$1 out=$2
  (cd / && "$numagpu" run -q -c "$out/config.yaml" -o "$scratch/rerun/$name") ||
    fail "$name: numagpu run -c $out/config.yaml failed"
  $py "$src/scripts/compare_stats.py" "$out/stats.json" "$scratch/rerun/$name/stats.json" >/dev/null ||
    fail "$name: the re-run's statistics differ"
  $py - "$out/stats.json" "$scratch/rerun/$name/stats.json" "$name" <<'PY' || fail "$name: the re-run describes itself differently"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for key in ("config_hash", "config"):
    if a[key] != b[key]:
        sys.exit(f"{sys.argv[3]}: {key} differs")
PY
  cmp -s "$out/config.yaml" "$scratch/rerun/$name/config.yaml" || fail "$name: the re-run's config.yaml differs"
}

# expect_workload OUT NAME TRACES...: the written configuration names the workload and the kernels' traces.
expect_workload() {
  $py - "$@" <<'PY'
import json, os, sys
out, name, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
w = json.load(open(os.path.join(out, "stats.json")))["config"]["workload"]
if w["name"] != name:
    sys.exit(f"{out}: workload.name is {w['name']!r}, expected {name!r}")
if w["trace_list"] != "":
    sys.exit(f"{out}: workload.trace_list {w['trace_list']!r} is still set; its kernels should be listed")
got = [k["trace"] for k in w["kernels"]]
if got != traces:
    sys.exit(f"{out}: kernel traces {got}, expected {traces}")
PY
}

t=$scratch/inputs/traces
cd "$scratch/inputs"  # relative paths on the command line are taken from here

"$numagpu" run -q --workload workloads/tiny.yaml --set system.sockets=2 -o "$scratch/synthetic"
rerun synthetic "$scratch/synthetic"
expect_workload "$scratch/synthetic" tiny "" || fail "synthetic: wrong workload"

"$numagpu" run -q --workload workloads/kernels.yaml -o "$scratch/trace"
expect_workload "$scratch/trace" two_traces "$t/kernel-1-barrier.traceg" "$t/kernel-2-compute.traceg" ||
  fail "trace kernels: wrong workload"
rerun trace "$scratch/trace"

"$numagpu" run -q --set workload.trace_list=traces/kernelslist.g -o "$scratch/list_set"
expect_workload "$scratch/list_set" "kernelslist.g: kernel-1-barrier.traceg" "$t/kernel-1-barrier.traceg" ||
  fail "trace list (--set): wrong workload"
rerun list_set "$scratch/list_set"

"$numagpu" run -q --workload workloads/list.yaml --set workload.name=mine -o "$scratch/list_file"
expect_workload "$scratch/list_file" mine "$t/kernel-1-barrier.traceg" || fail "trace list (file): wrong workload"
rerun list_file "$scratch/list_file"

# `config dump` writes the same description: it runs from anywhere too.
"$numagpu" config dump --set workload.trace_list=traces/kernelslist.g > "$scratch/dumped.yaml"
(cd / && "$numagpu" run -q -c "$scratch/dumped.yaml" -o "$scratch/rerun/dumped") || fail "config dump: does not run"
$py "$src/scripts/compare_stats.py" "$scratch/list_set/stats.json" "$scratch/rerun/dumped/stats.json" >/dev/null ||
  fail "config dump: its run differs from the run it describes"

# Sweep points: a synthetic, a trace-kernel and a trace-list workload.
cat > "$scratch/inputs/spec.yaml" <<'YAML'
name: reproduce
workloads:
  - {name: tiny, file: workloads/tiny.yaml}
  - {name: traces, file: workloads/kernels.yaml}
  - {name: list, file: workloads/list.yaml}
axes:
  - name: sockets
    values:
      - {label: s2, set: [{key: system.sockets, value: 2}]}
stats:
  - {name: cycles, path: run.sim_cycles}
YAML
"$numagpu" sweep spec.yaml -o "$scratch/sweep" -j 2 -q > /dev/null
for id in tiny.s2 traces.s2 list.s2; do
  point=$scratch/sweep/points/$id
  rerun "sweep_$id" "$point"
  $py - "$point" <<'PY' || fail "sweep point $id: stats.json and point.json name different configurations"
import json, os, sys
p = sys.argv[1]
if json.load(open(os.path.join(p, "stats.json")))["config_hash"] != json.load(open(os.path.join(p, "point.json")))["config_hash"]:
    sys.exit(1)
PY
done
expect_workload "$scratch/sweep/points/list.s2" "kernelslist.g: kernel-1-barrier.traceg" "$t/kernel-1-barrier.traceg" ||
  fail "sweep trace list: wrong workload"
echo "ok: synthetic, trace, trace-list (--set, file, config dump) and sweep-point outputs reproduce their runs"
