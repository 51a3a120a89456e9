#!/bin/sh
# scripts/fit_energy.py on bad input: a runs directory without correlate's power_breakdown.csv under
# --time hardware, an energy key that does not exist, a section named as a key, a power table without its
# column and a numagpu program that is not there each give one line on stderr and status 2.
# Usage: fit_energy_bad_input.sh SOURCE_DIR NUMAGPU SCRATCH
set -eu
src=$1 numagpu=$2 out=$3
rm -rf "$out" && mkdir -p "$out/runs/power_runs/k_k1/out"
printf ',mean HW_power\nk_k1,100\n' > "$out/power.csv"
fit() { /usr/bin/python3 "$src/scripts/fit_energy.py" --runs "$out/runs" --hw "$out/power.csv" --numagpu "$numagpu" "$@"; }
if fit --scale sm.fp32_pj --time hardware 2> "$out/err"; then exit 1; else rc=$?; fi
test "$rc" -eq 2 && test "$(wc -l < "$out/err")" -eq 1
grep -q "power_breakdown.csv: No such file or directory" "$out/err"
# A run whose configuration lacks the key: the key is named.
printf 'energy:\n  sm:\n    fp32_pj: 1\n' > "$out/runs/power_runs/k_k1/out/config.yaml"
echo '{}' > "$out/runs/power_runs/k_k1/out/activity.json"
if fit --scale sm.nope_pj 2> "$out/err"; then exit 1; else rc=$?; fi
test "$rc" -eq 2 && test "$(wc -l < "$out/err")" -eq 1
grep -q "energy.sm.nope_pj: no such energy key" "$out/err"
if fit --scale sm 2> "$out/err"; then exit 1; else rc=$?; fi
test "$rc" -eq 2 && test "$(wc -l < "$out/err")" -eq 1
grep -q "energy.sm: not a number" "$out/err"
printf 'kernel,watts\nk_k1,100\n' > "$out/bad_power.csv"
if /usr/bin/python3 "$src/scripts/fit_energy.py" --runs "$out/runs" --hw "$out/bad_power.csv" --fit sm.fp32_pj \
  2> "$out/err"; then exit 1; else rc=$?; fi
test "$rc" -eq 2 && test "$(wc -l < "$out/err")" -eq 1
grep -q "bad_power.csv:1: expected a header with a 'mean HW_power' column" "$out/err"
if /usr/bin/python3 "$src/scripts/fit_energy.py" --runs "$out/runs" --hw "$out/power.csv" --fit sm.fp32_pj \
  --numagpu "$out/no-such-numagpu" 2> "$out/err"; then exit 1; else rc=$?; fi
test "$rc" -eq 2 && test "$(wc -l < "$out/err")" -eq 1
grep -q "no-such-numagpu: No such file or directory" "$out/err"
echo "fit_energy bad input: ok"
