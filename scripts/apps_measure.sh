#!/usr/bin/env bash
# Measures each application of the suite on the paper system (the default configuration): simulated cycles,
# host seconds (CPU time of the run, user + system, which other jobs on the machine disturb less than the
# wall time, also given), the footprint (pages homed x page size), and the
# launches. Usage: scripts/apps_measure.sh [APP...] (default: every configs/workloads/apps/*.yaml); prints a
# Markdown table for configs/workloads/apps/README.md. NUMAGPU (default ./build/numagpu) selects the binary,
# OUT (default apps-measure) where the runs go; ARGS (optional) replaces every app's args (e.g. the small ones).
set -euo pipefail
cd "$(dirname "$0")/.."
numagpu=${NUMAGPU:-./build/numagpu}
out=${OUT:-apps-measure}
apps=("$@")
[[ ${#apps[@]} -gt 0 ]] || apps=($(ls configs/workloads/apps/*.yaml | xargs -n1 basename | sed 's/\.yaml$//'))
echo "| app | simulated cycles | host s (CPU) | host s (wall) | footprint MiB | launches |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"
for a in "${apps[@]}"; do
  extra=()
  [[ -n ${ARGS:-} ]] && extra=(--set "workload.kernels.0.args=$ARGS")
  /usr/bin/time -f "%U %S" -o "$out.$a.time" "$numagpu" run -q -w "configs/workloads/apps/$a.yaml" "${extra[@]}" \
    -o "$out/$a" > "$out.$a.log" 2>&1 || { echo "| $a | failed: $(tail -1 "$out.$a.log") | | | | |"; continue; }
  /usr/bin/python3 - "$out/$a/stats.json" "$a" "$out.$a.time" <<'PY'
import json, sys
cpu = sum(float(x) for x in open(sys.argv[3]).read().split()[-2:])
d = json.load(open(sys.argv[1]))
run, stats = d["run"], d["stats"]
page = d["config"]["memory"]["page_bytes"]
pages = sum(sum(v["pages"].values()) for v in stats.get("placement", {}).values())
launches = []
for item, v in sorted(stats["system"]["runtime"].items()):
    if item.startswith("app") and isinstance(v, dict):
        launches += [f"{k} x {s['launches']}" for k, s in v.items() if isinstance(s, dict)]
print(f"| {sys.argv[2]} | {run['sim_cycles']:,} | {cpu:.1f} | {run['wall_seconds']:.1f} | {pages * page / 2**20:.1f} | "
      f"{', '.join(launches)} |")
PY
done
