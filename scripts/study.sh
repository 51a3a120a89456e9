#!/usr/bin/env bash
# Regenerates one study's figures: scripts/study.sh NAME [numagpu sweep options, e.g. -j 2]
#   runs configs/experiments/NAME.yaml into studies-out/NAME (resumable: finished points are kept), then
#   draws docs/figures/NAME*.png from its results.json and keeps a copy of the results table in
#   docs/figures/data/ (results.csv/json and the printed tables, NAME.md). NUMAGPU (default: ./build/numagpu) selects the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/study.sh NAME [sweep options]; NAME is one of: $(ls configs/experiments | sed 's/\.yaml$//' | tr '\n' ' ')}
shift
spec=configs/experiments/$name.yaml
[[ -f $spec ]] || { echo "study.sh: no $spec" >&2; exit 2; }
numagpu=${NUMAGPU:-./build/numagpu}
out=studies-out/$name
"$numagpu" sweep "$spec" -o "$out" "$@"
mkdir -p docs/figures/data
"$numagpu" plot study "$out/results.json" -o docs/figures | tee "docs/figures/data/$name.md"
cp "$out/results.csv" "docs/figures/data/$name.csv"
cp "$out/results.json" "docs/figures/data/$name.json"
