#!/usr/bin/env bash
# Runs a fixed set of configurations and keeps each run's stats.json in OUT/NAME/, so that a change meant to
# leave results alone can be checked against a run of the previous commit:
#   scripts/regression_stats.sh BUILD_DIR OUT_DIR          (then)
#   scripts/regression_stats.sh --compare OLD_DIR NEW_DIR
# Uses the Accel-Sim sample when NUMAGPU_ACCELSIM_SAMPLE_DIR names it.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
if [ "${1:-}" = "--compare" ]; then
  status=0
  for d in "$2"/*/; do
    name="$(basename "$d")"
    if python3 "$here/compare_stats.py" "$2/$name/stats.json" "$3/$name/stats.json" >/dev/null 2>&1; then
      echo "same      $name"
    else
      echo "DIFFERENT $name: $(python3 "$here/compare_stats.py" "$2/$name/stats.json" "$3/$name/stats.json" 2>&1 | head -1)"
      status=1
    fi
  done
  exit $status
fi
build="$1"; out="$2"; root="$here/.."
run() {  # NAME ARGS...
  local name="$1"; shift
  "$build/numagpu" run -q -o "$out/$name" "$@" >/dev/null 2>"$out/$name.err" || echo "run $name failed (see $out/$name.err)"
}
mkdir -p "$out"
run default
run s1 --set system.sockets=1
run s2 --set system.sockets=2
run s8 --set system.sockets=8
run traditional -c "$root/configs/examples/traditional_runtime.yaml"
run dyn_numa --set link.mode=dynamic --set l2.organization=numa_aware
run dyn_numa_rtl --set link.mode=dynamic --set l2.organization=numa_aware --set policy.impl=rtl
run trad_dyn_numa -c "$root/configs/examples/traditional_runtime.yaml" --set link.mode=dynamic --set l2.organization=numa_aware
run shared_l2 --set l2.organization=shared
run suite -w "$root/configs/workloads/suite.yaml"
run dgx1 -c "$root/configs/topologies/dgx1_v100.yaml"
run ladm -c "$root/configs/topologies/ladm_4x4.yaml"
run phased -w "$root/configs/workloads/phased.yaml" --set link.mode=dynamic
if [ -n "${NUMAGPU_ACCELSIM_SAMPLE_DIR:-}" ]; then
  run accelsim --set "workload.trace_list=$NUMAGPU_ACCELSIM_SAMPLE_DIR/kernelslist.g"
fi
