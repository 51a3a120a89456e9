#!/usr/bin/env bash
# CI-sized studies (issue 10, point 5): each study spec of configs/experiments run on a few of its workloads,
# then scripts/check_directions.py asserts the paper's directions with the margins it states.
# Usage: direction_checks.sh NUMAGPU SOURCE_DIR SCRATCH
set -euo pipefail
numagpu=$1 src=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"  # fresh: finished points would survive a model change
run() {  # run NAME WORKLOADS: resumable, so a rerun after a failure only runs what changed
  "$numagpu" sweep "$src/configs/experiments/$1.yaml" --workloads "$2" -o "$scratch/$1" -j 2 -q
}
run figure3 stream_triad,transpose
run figure6 reduction,transpose
run caches spmv
run scaling stream_triad,stencil2d
/usr/bin/python3 "$src/scripts/check_directions.py" "$scratch"/{figure3,figure6,caches,scaling}/results.json
