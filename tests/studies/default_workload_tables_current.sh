#!/usr/bin/env bash
# The default workload's tables of docs/runtime-policies.md (cycles per socket count, both runtimes) and
# docs/power.md (communication power, "Measured") are what the model says now (issue 48, point 10): runs the
# ten configurations into SCRATCH (a few seconds each) and fails when a table scripts/doc_tables.py marks in
# either page differs from its rendering. After a change that moves them: run this, then
# `scripts/doc_tables.py write docs/runtime-policies.md docs/power.md --runs SCRATCH`.
# Usage: default_workload_tables_current.sh NUMAGPU SOURCE_DIR SCRATCH
set -euo pipefail
numagpu=$1 src=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
traditional=(-c "$src/configs/examples/traditional_runtime.yaml")
numa=(--set link.mode=dynamic --set l2.organization=numa_aware)
run() {  # NAME ARGS...: the run's outputs in SCRATCH/NAME
  local name=$1
  shift
  "$numagpu" run -q -o "$scratch/$name" "$@" > "$scratch/$name.log" 2>&1 ||
    { echo "FAIL: numagpu run $* (log: $scratch/$name.log)"; tail -5 "$scratch/$name.log"; exit 1; }
}
for n in 1 2 4 8; do
  run "s$n" --set system.sockets=$n
  run "traditional_s$n" "${traditional[@]}" --set system.sockets=$n
done
run numa_aware "${numa[@]}"
run traditional_numa_aware "${traditional[@]}" "${numa[@]}"
/usr/bin/python3 "$src/scripts/doc_tables.py" check "$src/docs/runtime-policies.md" "$src/docs/power.md" \
  --runs "$scratch"
