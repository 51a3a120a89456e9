#!/usr/bin/env bash
# The paper's directions on small applications (issue 26, item 4): tests/studies/apps_directions.yaml run, then
# scripts/check_app_directions.py asserts them. Usage: apps_directions.sh NUMAGPU SOURCE_DIR SCRATCH
set -euo pipefail
numagpu=$1 src=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
"$numagpu" sweep "$src/tests/studies/apps_directions.yaml" -o "$scratch" -j 2 -q
/usr/bin/python3 "$src/scripts/check_app_directions.py" "$scratch/results.json"
