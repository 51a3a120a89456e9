#!/bin/sh
# numagpu bench-sm as a shell sees it (docs/microbenchmarks.md): bad input is one line, exit 2 and nothing
# written; a run writes bench_sm.csv, bench_sm.md and bench_sm.png together.
# Usage: bench_sm_cli.sh NUMAGPU SOURCE_DIR SCRATCH
set -u
numagpu=$1 src=$2 scratch=$3
qv100=$src/configs/gpus/qv100.yaml
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# One line on stderr, exit status 2, the output directory not created.
refused() {  # refused NAME EXPECTED_TEXT ARGS...
  name=$1 text=$2
  shift 2
  "$numagpu" bench-sm "$@" > "$scratch/$name.out" 2> "$scratch/$name.err"
  status=$?
  [ $status -eq 2 ] || fail "$name: exit $status, expected 2"
  [ "$(wc -l < "$scratch/$name.err")" -eq 1 ] || fail "$name: expected one line, got: $(cat "$scratch/$name.err")"
  grep -q -- "$text" "$scratch/$name.err" || fail "$name: expected '$text' in: $(cat "$scratch/$name.err")"
  [ ! -e "$scratch/$name" ] || fail "$name: wrote $scratch/$name"
}
refused no_config "config" -o "$scratch/no_config"
refused no_out "out" -c "$qv100"
refused bad_regex "--only '(': not a regular expression" -c "$qv100" --only '(' -o "$scratch/bad_regex"
refused no_match "matches no benchmark" -c "$qv100" --only 'no_such_benchmark' -o "$scratch/no_match"
refused bad_set "sm.wayz" -c "$qv100" --set sm.wayz=1 -o "$scratch/bad_set"
refused missing_config "no_such.yaml" -c "$scratch/no_such.yaml" -o "$scratch/missing_config"
# A published table with a benchmark the suite does not have: FILE:LINE: key: what.
cat > "$scratch/published.yaml" <<'YAML'
values:
  - {benchmark: ffma_latency, value: 4, unit: cycles, source: s, where: w, kind: measured}
  - {benchmark: no_such_benchmark, value: 1, unit: cycles, source: s, where: w, kind: measured}
YAML
refused bad_published "published.yaml:3:.*values.1.benchmark: 'no_such_benchmark' is not a bench-sm benchmark" \
  -c "$qv100" --published "$scratch/published.yaml" -o "$scratch/bad_published"
# A published value in another unit than the benchmark's.
cat > "$scratch/unit.yaml" <<'YAML'
values:
  - {benchmark: ffma_latency, value: 4, unit: ns, source: s, where: w, kind: measured}
YAML
refused bad_unit "ffma_latency is in 'ns'" -c "$qv100" --published "$scratch/unit.yaml" -o "$scratch/bad_unit"

# A run: the three outputs, the table's header and rows, the not-modelled row named as such.
"$numagpu" bench-sm -q -c "$qv100" --only '^(ffma_latency|launch_overhead|dram_latency_tlb_miss)$' -o "$scratch/run" \
  2> "$scratch/run.err"
status=$?
if [ $status -ne 0 ] && grep -q "matplotlib" "$scratch/run.err"; then
  echo "SKIP: python3-matplotlib is not installed"; exit 77
fi
[ $status -eq 0 ] || fail "run: exit $status: $(cat "$scratch/run.err")"
for f in bench_sm.csv bench_sm.md bench_sm.png; do
  [ -s "$scratch/run/$f" ] || fail "run: $f missing"
done
[ "$(ls -A "$scratch/run" | wc -l)" -eq 3 ] || fail "run: more than the three outputs: $(ls -A "$scratch/run")"
grep -q '^| benchmark | unit | published | source (paper, table/figure, page) | model | error % |$' \
  "$scratch/run/bench_sm.md" || fail "run: the table's header"
grep -q '^| ffma_latency | cycles | 4 | NVIDIA Volta Tuning Guide, Section 4.1.1 (vendor) | 4 | 0 |$' "$scratch/run/bench_sm.md" \
  || fail "run: the ffma_latency row: $(grep ffma "$scratch/run/bench_sm.md")"
grep -q '^| dram_latency_tlb_miss | cycles | 1029 | .* | not modelled: numagpu has no TLB |  |$' "$scratch/run/bench_sm.md" || fail "run: the not-modelled row"
echo "ok"
