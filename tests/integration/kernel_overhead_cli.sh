#!/bin/sh
# runtime.kernel_overhead_cycles: each kernel's first CTAs reach the SMs that many cycles after its launch,
# inside its elapsed time. Two kernels (4 CTAs of 2 warps, 16 stream accesses a warp) on one socket of 2 SMs,
# run without and with an overhead of 700 cycles. One socket has no links and nothing in it acts on the
# absolute time, so the same work takes the same cycles however late it starts. By hand:
# - each kernel's cycles (runtime.kernel<N>.cycles) are exactly 700 more;
# - the run (run.sim_cycles) is exactly 2 x 700 = 1,400 longer: both kernels wait;
# - the SMs do the same work: instructions and the cycles their processing blocks hold a warp
#   (block_active_cycles) are unchanged, as no warp is resident during the overhead.
# An application (Rodinia backprop, in=4096 epochs=2: layerforward and adjust_weights launched twice each,
# four kernels) with runtime.launch_cycles 300 in both runs: the 300-cycle gaps between kernels stay, and
# - the application's cycles (first launch to last completion) are exactly 4 x 700 = 2,800 more, and so is
#   the run;
# - each of its two kernels' cycles (launches summed) is exactly 2 x 700 = 1,400 more.
# A run stopped (checks.max_cycles 300) inside the first kernel's overhead has launched it: kernels_total 1.
# A value beyond the key's range is refused with one line naming it.
# Usage: kernel_overhead_cli.sh NUMAGPU SCRATCH_DIR
set -eu
numagpu=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"

fail() {
  echo "kernel_overhead_cli: $*" >&2
  exit 1
}

kernels='workload.kernels=[{name: a, pattern: stream, ctas: 4, warps_per_cta: 2, accesses_per_warp: 16},
{name: b, pattern: stream, ctas: 4, warps_per_cta: 2, accesses_per_warp: 16}]'
"$numagpu" run -q --set system.sockets=1 --set sm.per_socket=2 --set "$kernels" -o "$dir/none" ||
  fail "the run without an overhead failed"
"$numagpu" run -q --set system.sockets=1 --set sm.per_socket=2 --set "$kernels" \
  --set runtime.kernel_overhead_cycles=700 -o "$dir/some" || fail "the run with an overhead failed"

python3 - "$dir/none/stats.json" "$dir/some/stats.json" <<'PY' || fail "the statistics differ from the derivation"
import json
import sys

none, some = (json.load(open(p)) for p in sys.argv[1:3])
errors = []
for k in ("kernel0", "kernel1"):
    a = none["stats"]["system"]["runtime"][k]["cycles"]
    b = some["stats"]["system"]["runtime"][k]["cycles"]
    if b - a != 700:
        errors.append(f"{k}: {a} cycles without, {b} with (expected +700)")
a, b = none["run"]["sim_cycles"], some["run"]["sim_cycles"]
if b - a != 1400:
    errors.append(f"run: {a} cycles without, {b} with (expected +1400)")
for sm in ("sm0", "sm1"):
    for key in ("instructions", "block_active_cycles"):
        a = none["stats"]["system"]["socket0"][sm][key]
        b = some["stats"]["system"]["socket0"][sm][key]
        if a != b:
            errors.append(f"{sm}.{key}: {a} without, {b} with (expected equal)")
for e in errors:
    print(e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY

workload=$(dirname "$0")/../../configs/workloads/apps/backprop.yaml
app="--set system.sockets=1 --set sm.per_socket=2 --set runtime.launch_cycles=300"
for overhead in 0 700; do
  # shellcheck disable=SC2086
  "$numagpu" run -q -w "$workload" $app --set "workload.kernels.0.args=in=4096 epochs=2" \
    --set runtime.kernel_overhead_cycles=$overhead -o "$dir/app$overhead" || fail "the application run failed"
done
python3 - "$dir/app0/stats.json" "$dir/app700/stats.json" <<'PY' || fail "the application's cycles differ"
import json
import sys

none, some = (json.load(open(p)) for p in sys.argv[1:3])
errors = []
a, b = (d["stats"]["system"]["runtime"]["app0"] for d in (none, some))
if b["cycles"] - a["cycles"] != 2800:
    errors.append(f"app0.cycles: {a['cycles']} without, {b['cycles']} with (expected +2800)")
for k in ("layerforward", "adjust_weights"):
    if b[k]["launches"] != 2 or a[k]["launches"] != 2:
        errors.append(f"app0.{k}.launches: {a[k]['launches']} and {b[k]['launches']} (expected 2)")
    if b[k]["cycles"] - a[k]["cycles"] != 1400:
        errors.append(f"app0.{k}.cycles: {a[k]['cycles']} without, {b[k]['cycles']} with (expected +1400)")
if some["run"]["sim_cycles"] - none["run"]["sim_cycles"] != 2800:
    errors.append(f"run: {none['run']['sim_cycles']} without, {some['run']['sim_cycles']} with (expected +2800)")
for e in errors:
    print(e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY

# shellcheck disable=SC2086
"$numagpu" run -q -w "$workload" $app --set "workload.kernels.0.args=in=4096 epochs=2" \
  --set runtime.kernel_overhead_cycles=700 --set checks.max_cycles=300 -o "$dir/stopped" ||
  fail "the stopped run failed"
python3 - "$dir/stopped/stats.json" <<'PY' || fail "a kernel inside its overhead is not counted as launched"
import json
import sys

run = json.load(open(sys.argv[1]))["run"]
sys.exit(0 if (run["kernels_total"], run["kernels_done"], run["stop_reason"]) == (1, 0, "max_cycles") else 1)
PY

if "$numagpu" run -q --set runtime.kernel_overhead_cycles=2000000 -o "$dir/bad" 2>"$dir/bad.err"; then
  fail "an overhead beyond the range was accepted"
fi
[ ! -e "$dir/bad" ] || fail "the refused run wrote an output"
[ "$(wc -l <"$dir/bad.err")" -eq 1 ] || fail "the refusal is not one line: $(cat "$dir/bad.err")"
grep -q 'runtime.kernel_overhead_cycles' "$dir/bad.err" || fail "the refusal does not name the key"
echo "kernel_overhead_cli: ok"
