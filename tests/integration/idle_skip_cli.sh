#!/bin/sh
# Idle time for free, and no different: a sparse workload (8 single-warp CTAs, 4 accesses each, 60,000
# compute cycles before each: about 240,000 cycles of mostly nothing) on dynamic links with the NUMA-aware
# L2. Skipping quiet policy windows in closed form (the default) must give byte-identical statistics to
# stepping every cycle (debug.step_idle_windows), with the C++ policies and with their Verilated RTL, and the
# skip must actually happen (bench.json counts the windows and the in-window cycles skipped).
# Usage: idle_skip_cli.sh NUMAGPU SCRATCH_DIR COMPARE_STATS_PY
set -eu
numagpu=$1
dir=$2
compare=$3
rm -rf "$dir"
mkdir -p "$dir"

fail() {
  echo "idle_skip_cli: $*" >&2
  exit 1
}

sparse="--set workload.kernels.0.ctas=8 --set workload.kernels.0.accesses_per_warp=4
        --set workload.kernels.0.compute_cycles=60000 --set link.mode=dynamic --set l2.organization=numa_aware"
workload=$(dirname "$0")/../../configs/workloads/bench/sparse_idle.yaml

for impl in model rtl; do
  # shellcheck disable=SC2086
  "$numagpu" run -q --bench -w "$workload" $sparse --set policy.impl=$impl -o "$dir/skip_$impl" >/dev/null ||
    fail "$impl: the skipping run failed"
  # shellcheck disable=SC2086
  "$numagpu" run -q -w "$workload" $sparse --set policy.impl=$impl --set debug.step_idle_windows=true \
    -o "$dir/step_$impl" >/dev/null || fail "$impl: the stepping run failed"
  python3 "$compare" "$dir/skip_$impl/stats.json" "$dir/step_$impl/stats.json" >/dev/null ||
    fail "$impl: skipping quiet windows changed the statistics"
  # 240,000 cycles are 48 windows of 5,000 cycles for each of 4 links and 4 partition controllers; at most 32
  # requests can break a window's quiet, so most of the 384 windows must have been skipped. Half is a safe
  # floor (each window needs a whole quiet window before it to be skippable).
  skipped=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['quiet_windows_skipped'])" \
    "$dir/skip_$impl/bench.json")
  [ "$skipped" -ge 192 ] || fail "$impl: only $skipped quiet windows skipped (expected at least 192)"
  # Inside the windows that are not skipped whole, the quiet cycles are: of the 8 x 240,000 block-cycles,
  # the skipped windows leave at most 8 x 240,000 - 192 x 5,000 = 960,000, and only the cycles around 32
  # requests (each busy for a few cycles), the cycle after each decision and the window ends must be stepped;
  # a tenth of them is a safe floor.
  cycles=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['quiet_cycles_skipped'])" \
    "$dir/skip_$impl/bench.json")
  [ "$cycles" -ge 96000 ] || fail "$impl: only $cycles quiet cycles skipped inside windows (expected >= 96000)"
done
echo "idle_skip_cli: ok"
