#!/usr/bin/env bash
# Regenerates one study's figures: scripts/study.sh NAME [numagpu sweep options, e.g. -j 2]
#   runs configs/experiments/NAME.yaml into studies-out/NAME (resumable: finished points are kept), then
#   draws docs/figures/NAME*.png from its results.json and keeps the study's tables in docs/figures/data/
#   (NAME.json and NAME.csv: the results table; NAME.md: the printed tables), written by
#   scripts/study_tables.py without machine paths or wall times, so that they are the same wherever they are
#   regenerated (the ctest studies_tables_are_current checks them).
# Environment: NUMAGPU (default: ./build/numagpu) selects the binary; STUDY_OUT (default: studies-out) the
# sweeps' directory; FIGURES (default: docs/figures) where the PNGs and data/ go.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/study.sh NAME [sweep options]; NAME is one of: $(ls configs/experiments | sed 's/\.yaml$//' | tr '\n' ' ')}
shift
spec=configs/experiments/$name.yaml
[[ -f $spec ]] || { echo "study.sh: no $spec" >&2; exit 2; }
numagpu=${NUMAGPU:-./build/numagpu}
out=${STUDY_OUT:-studies-out}/$name
figures=${FIGURES:-docs/figures}
"$numagpu" sweep "$spec" -o "$out" "$@"
mkdir -p "$figures/data"
# The plots are named after the study's kind (figure3.png, ...); a spec of another name (apps_figure3) gets
# its own names (apps_figure3.png), so the suite's figures never overwrite the synthetic studies'.
kind=$(sed -n 's/^study:[[:space:]]*\([A-Za-z0-9_]*\).*/\1/p' "$spec" | head -1)
# The paper's §4-5 means leave out the workloads at 99 % of theoretical, which the figure3 study of the same
# suite decides (run it first): the tables give the means with and without them (docs/studies.md).
reference=()
suite_prefix=""
[[ $name == apps_* ]] && suite_prefix=apps_
if [[ $kind != figure3 && $kind != ladm* && -f $figures/data/${suite_prefix}figure3.json ]]; then
  reference=(--reference "$figures/data/${suite_prefix}figure3.json")
fi
rm -rf "$out/figures" && mkdir -p "$out/figures"
"$numagpu" plot study "$out/results.json" -o "$out/figures" "${reference[@]}" | tee "$out/plot.md"
for png in "$out"/figures/*.png; do
  base=$(basename "$png")
  [[ -n $kind && $name != "$kind" && $base == "$kind"* ]] && base=$name${base#"$kind"}
  cp "$png" "$figures/$base"
done
/usr/bin/python3 scripts/study_tables.py "$out/results.json" "$out/plot.md" . "$figures/data" "$name"
