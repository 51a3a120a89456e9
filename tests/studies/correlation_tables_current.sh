#!/usr/bin/env bash
# The correlation tables of docs/correlation.md and docs/power.md are what the model says now (issue 48,
# point 10): runs `numagpu correlate --power --hw` on the GV100 tables into SCRATCH (the command of
# docs/correlation.md, "Reproduce", and docs/power.md) and fails when a table scripts/doc_tables.py marks in
# either page differs from its rendering of the outputs. After a change that moves them:
# `scripts/doc_tables.py write docs/correlation.md docs/power.md --from SCRATCH/corr`.
# Usage: correlation_tables_current.sh NUMAGPU SOURCE_DIR SCRATCH QV100_DIR
# QV100_DIR holds hw_perf_train.csv and hw_power_train.csv (the workplace's shared/data/qv100); without it the
# test is skipped (77) outside CI.
set -euo pipefail
numagpu=$1 src=$2 scratch=$3 data=$4
if [[ ! -r $data/hw_perf_train.csv || ! -r $data/hw_power_train.csv ]]; then
  echo "no GV100 tables in $data (NUMAGPU_QV100_DIR)"
  [[ ${CI:-} == true ]] && exit 1
  exit 77
fi
rm -rf "$scratch" && mkdir -p "$scratch"
"$numagpu" correlate -q --power "$data/hw_power_train.csv" --hw "$data/hw_perf_train.csv" \
  -c "$src/configs/gpus/qv100.yaml" -j 2 -o "$scratch/corr" > "$scratch/correlate.log" 2>&1 ||
  { echo "FAIL: numagpu correlate (log: $scratch/correlate.log)"; tail -5 "$scratch/correlate.log"; exit 1; }
/usr/bin/python3 "$src/scripts/doc_tables.py" check "$src/docs/correlation.md" "$src/docs/power.md" \
  --from "$scratch/corr"
