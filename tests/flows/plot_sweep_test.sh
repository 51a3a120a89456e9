#!/usr/bin/env bash
# numagpu plot sweep (docs/studies.md): a tiny sweep with power columns drawn as a PNG, grouped and not, on a
# categorical and on a numeric x axis; an unknown column is one line naming it, exit status 2, no PNG.
# Usage: plot_sweep_test.sh NUMAGPU WORKDIR
set -euo pipefail
numagpu=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  if [ "${CI:-}" = true ]; then echo "plot_sweep_test: CI=true and python3-matplotlib is missing" >&2; exit 1; fi
  echo "plot_sweep_test: python3-matplotlib missing (scripts/setup.sh): skipped"
  exit 77
fi
cat >"$work/tiny.yaml" <<'YAML'
workload:
  name: tiny
  kernels:
    - {name: k, pattern: stream, ctas: 1, warps_per_cta: 1, accesses_per_warp: 4}
YAML
cat >"$work/spec.yaml" <<'YAML'
name: plotted
set:
  - {key: system.sockets, value: 1}
  - {key: sm.per_socket, value: 1}
workloads:
  - {name: w, file: tiny.yaml}
axes:
  - name: accesses
    values:
      - {label: a4, set: [{key: workload.kernels.0.accesses_per_warp, value: 4}]}
      - {label: a8, set: [{key: workload.kernels.0.accesses_per_warp, value: 8}]}
  - name: ways
    values:
      - {label: w8, set: [{key: l2.ways, value: 8}]}
      - {label: w16, set: [{key: l2.ways, value: 16}]}
stats:
  - {name: cycles, path: run.sim_cycles}
  - {name: energy_j, path: power.total.energy_j}
  - {name: dram_j, path: power.total.components.dram.energy_j}
YAML
"$numagpu" sweep "$work/spec.yaml" -o "$work/out" -q -j 2

png_ok() {  # a PNG: the 8-byte signature, and more than a header
  [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(stat -c %s "$1")" -gt 2000 ]
}
"$numagpu" plot sweep "$work/out/results.json" --x accesses --y energy_j --group ways -o "$work/grouped.png"
png_ok "$work/grouped.png" || { echo "FAIL: grouped.png is not a PNG" >&2; exit 1; }
"$numagpu" plot sweep "$work/out/results.json" --x cycles --y dram_j >"$work/default.log"
png_ok "$work/out/sweep-dram_j-by-cycles.png" || { echo "FAIL: the default PNG beside results.json" >&2; exit 1; }
grep -q "wrote $work/out/sweep-dram_j-by-cycles.png" "$work/default.log" || { echo "FAIL: no 'wrote' line" >&2; exit 1; }

# Unknown column: one line naming the flag and the column, exit 2, no PNG.
set +e
"$numagpu" plot sweep "$work/out/results.json" --x accesses --y no_such_column -o "$work/bad.png" 2>"$work/bad.err"
rc=$?
set -e
[ "$rc" = 2 ] || { echo "FAIL: unknown column exits $rc, not 2" >&2; exit 1; }
[ "$(wc -l <"$work/bad.err")" = 1 ] || { echo "FAIL: not one line:" >&2; cat "$work/bad.err" >&2; exit 1; }
grep -q -- "--y no_such_column: no such column (columns: point, workload, grid, accesses, ways, cycles, energy_j, dram_j)" "$work/bad.err" ||
  { echo "FAIL: message:" >&2; cat "$work/bad.err" >&2; exit 1; }
[ ! -e "$work/bad.png" ] || { echo "FAIL: a PNG for a bad column" >&2; exit 1; }
set +e
"$numagpu" plot sweep "$work/missing.json" --x a --y b 2>"$work/missing.err"
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(wc -l <"$work/missing.err")" = 1 ] || { echo "FAIL: missing results.json ($rc)" >&2; exit 1; }
echo "plot_sweep_test: ok"
