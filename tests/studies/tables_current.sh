#!/usr/bin/env bash
# The documentation's study tables are what the model says now (issue 23, item 3): regenerates the seven studies
# of configs/experiments with scripts/study.sh into SCRATCH, fails when a table of docs/figures/data (NAME.md,
# NAME.csv, NAME.json; not the PNGs) differs or names a machine path, and checks every number docs/validation.md
# quotes (tests/studies/validation_quotes.txt) against the regenerated tables. After a change that moves
# results, regenerate with `scripts/study.sh NAME -j 2` for each study and update docs/validation.md.
# Usage: tables_current.sh NUMAGPU SOURCE_DIR SCRATCH [STUDY...]   (default: all seven)
set -euo pipefail
numagpu=$(realpath "$1")
src=$(realpath "$2")
scratch=$3
shift 3
studies=("$@")
[[ ${#studies[@]} -gt 0 ]] || studies=(figure3 figure5 figure6 caches combined scaling ladm)
rm -rf "$scratch" && mkdir -p "$scratch"  # fresh: a resumed sweep would keep points of an older model
scratch=$(realpath "$scratch")
status=0
for name in "${studies[@]}"; do
  NUMAGPU=$numagpu STUDY_OUT=$scratch/sweeps FIGURES=$scratch/figures \
    "$src/scripts/study.sh" "$name" -j 2 -q > "$scratch/$name.log" 2>&1 ||
    { echo "FAIL: scripts/study.sh $name (log: $scratch/$name.log)"; tail -5 "$scratch/$name.log"; exit 1; }
  for ext in md csv json; do
    if ! diff -u "$src/docs/figures/data/$name.$ext" "$scratch/figures/data/$name.$ext" > "$scratch/$name.$ext.diff"; then
      echo "FAIL: docs/figures/data/$name.$ext differs from a regeneration (scripts/study.sh $name -j 2):"
      head -40 "$scratch/$name.$ext.diff"
      status=1
    fi
  done
done
# No table names a file by a path of the machine that made it.
/usr/bin/python3 - "$src/docs/figures/data" <<'PY' || status=1
import json, os, sys
bad = []
files = [f for f in sorted(os.listdir(sys.argv[1])) if os.path.isfile(os.path.join(sys.argv[1], f))]
# parts/: the tables of studies run in parts (scripts/study_part.py), which keep each point's host times
# on purpose (a study's host cost is summed from them); only machine paths are checked there.
parts = os.path.join(sys.argv[1], "parts")
if os.path.isdir(parts):
    files += [os.path.join("parts", f) for f in sorted(os.listdir(parts)) if f.endswith(".json")]
for f in files:
    path = os.path.join(sys.argv[1], f)
    text = open(path).read()
    if f.endswith(".json"):
        def walk(v):
            if isinstance(v, dict):
                for x in v.values(): walk(x)
            elif isinstance(v, list):
                for x in v: walk(x)
            elif isinstance(v, str) and os.path.isabs(v):
                bad.append(f"{f}: {v}")
        walk(json.loads(text))
    elif not f.startswith("parts") and ("wall_seconds" in text or "cpu_seconds" in text):
        bad.append(f"{f}: wall_seconds or cpu_seconds (differ on every run)")
for b in bad:
    print(f"FAIL: docs/figures/data/{b}")
sys.exit(1 if bad else 0)
PY
# The numbers docs/validation.md quotes, from the regenerated tables (a full regeneration only: a quote may
# draw on any study).
# The application suite's studies take hours and are not regenerated here: their quotes are checked against
# the committed tables, copied beside the regenerated ones.
if [[ ${#studies[@]} -eq 7 ]]; then
  for f in "$src"/docs/figures/data/apps_*.md "$src"/docs/figures/data/apps_*.json; do
    [[ -e $f ]] && cp "$f" "$scratch/figures/data/"
  done
  # and the part files of the studies still running in parts (a status row counts their finished points)
  mkdir -p "$scratch/figures/data/parts"
  for f in "$src"/docs/figures/data/parts/*.json; do
    [[ -e $f ]] && cp "$f" "$scratch/figures/data/parts/"
  done
  /usr/bin/python3 "$src/scripts/check_quotes.py" "$src/docs/validation.md" "$src/tests/studies/validation_quotes.txt" \
    "$scratch/figures/data" "$src/tests/studies/validation_literals.txt" || status=1
fi
[[ $status -eq 0 ]] && echo "ok: ${studies[*]}: docs/figures/data and the numbers docs/validation.md quotes are current"
exit $status
