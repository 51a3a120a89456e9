#!/bin/sh
# The power outputs as a shell sees them: every run writes activity.json and power.json; `numagpu power`
# recomputes from a run's activity.json with another energy table exactly the power.json that simulating
# again with that table writes; bad input is one line and a non-zero exit with nothing written; and
# `numagpu plot power` draws the time series (when python3-matplotlib is installed).
# Usage: power_cli.sh NUMAGPU SCRATCH_DIR
set -eu
numagpu=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"

fail() {
  echo "power_cli: $*" >&2
  exit 1
}

# A small run that moves data over the links and turns lanes: four sockets on 4-lane links, the default
# workload cut to 64 CTAs per kernel, dynamic links deciding every 500 cycles, 1000-cycle sample windows.
small="--set link.lanes=4 --set workload.kernels.0.ctas=64 --set workload.kernels.1.ctas=64
       --set workload.kernels.2.ctas=64 --set workload.kernels.3.ctas=64 --set link.mode=dynamic
       --set link.sample_cycles=500 --set stats.sample_cycles=1000"
# Another table: every kind of per-event energy and static power changed.
other="energy.link.pj_per_bit=5 energy.link.turnaround_pj=1000 energy.link.static_w=0.5
       energy.switch.pj_per_bit=2 energy.switch.static_w=3 energy.crossbar.pj_per_bit=0.25
       energy.dram.read_pj_per_bit=7 energy.dram.write_pj_per_bit=9 energy.dram.static_w=1
       energy.l1.read_pj=11 energy.l1.write_pj=12 energy.l1.fill_pj=13 energy.l2.static_w=0.5
       energy.sm.instruction_pj=100 energy.sm.static_w=0.25 energy.policy.flop_cycle_fj=4"
sets=""
for kv in $other; do sets="$sets --set $kv"; done

# shellcheck disable=SC2086
"$numagpu" run -q $small -o "$dir/default" || fail "run with the default table failed"
# shellcheck disable=SC2086
"$numagpu" run -q $small $sets -o "$dir/other" || fail "run with the other table failed"
for f in stats.json config.yaml activity.json power.json; do
  test -s "$dir/default/$f" || fail "a run did not write $f"
done
# Activity does not depend on the energy table.
cmp -s "$dir/default/activity.json" "$dir/other/activity.json" ||
  fail "activity.json differs between runs that differ only in their energy tables"
cmp -s "$dir/default/power.json" "$dir/other/power.json" && fail "the energy table did not change power.json"
grep -q '"turnarounds": [1-9]' "$dir/default/activity.json" || fail "the small run turned no lane (test too weak)"

# Recompute from the first run's activity with the other table, given as --set and as a YAML file.
# shellcheck disable=SC2086
"$numagpu" power -q --activity "$dir/default/activity.json" $sets -o "$dir/recomputed" ||
  fail "numagpu power failed"
cmp "$dir/recomputed/power.json" "$dir/other/power.json" ||
  fail "recomputed power.json differs from re-simulating with the table"
{
  echo "energy:"
  last=""
  for kv in $(echo "$other" | tr ' ' '\n' | sort); do
    key=${kv%%=*}
    key=${key#energy.}
    section=${key%%.*}
    [ "$section" = "$last" ] || echo "  $section:"
    last=$section
    echo "    ${key#*.}: ${kv#*=}"
  done
} >"$dir/table.yaml"
"$numagpu" power --activity "$dir/default/activity.json" --energy "$dir/table.yaml" -o "$dir/from_file" \
  >"$dir/from_file.out" || fail "numagpu power --energy failed"
cmp "$dir/from_file/power.json" "$dir/other/power.json" || fail "--energy table.yaml differs from --set"
grep -q '^power ' "$dir/from_file.out" || fail "numagpu power printed no summary table"

# Bad input: one line naming the place, exit 2, nothing written.
echo '{"schema": "numagpu-activity", "schema_version": 99}' >"$dir/bad.json"
if "$numagpu" power --activity "$dir/bad.json" -o "$dir/bad" 2>"$dir/bad.err"; then fail "bad activity accepted"; fi
test "$(wc -l <"$dir/bad.err")" -eq 1 || fail "more than one line of error: $(cat "$dir/bad.err")"
grep -q 'bad.json: schema_version: 99 is not supported' "$dir/bad.err" || fail "unclear error: $(cat "$dir/bad.err")"
test ! -e "$dir/bad" || fail "a failed recompute wrote its output directory"
printf 'energy:\n  link:\n    pj_per_bit: -1\n' >"$dir/bad.yaml"
if "$numagpu" power --activity "$dir/default/activity.json" --energy "$dir/bad.yaml" -o "$dir/bad" \
  2>"$dir/bad.err"; then fail "a negative energy was accepted"; fi
grep -q 'bad.yaml:3:17: energy.link.pj_per_bit' "$dir/bad.err" || fail "unclear error: $(cat "$dir/bad.err")"
test ! -e "$dir/bad" || fail "a failed recompute wrote its output directory"

# The plot, where matplotlib is installed (scripts/setup.sh installs it).
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  "$numagpu" plot power "$dir/default" >/dev/null || fail "numagpu plot power failed"
  test -s "$dir/default/power.png" || fail "numagpu plot power wrote no PNG"
fi
echo "power_cli: ok"
