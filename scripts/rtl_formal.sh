#!/usr/bin/env bash
# Proves the invariants of the policy RTL with yosys, and shows that the proofs can fail.
#
# Each rtl/*.sv ends with an `ifdef NUMAGPU_ASSERTIONS` section of named immediate assertions, enabled by
# FORMAL (rtl/numagpu_assert.svh; docs/policies.md lists them). The shared primitives (rtl/prim/*.sv) are read
# with every block and flattened into it, so each proof covers the block with its counters.
# They are proven for ALL reachable states by temporal induction (`sat -tempinduct`): step 1 holds rst_ni low
# and is not checked; from step 2 on every input is free. Induction does not depend on the window length, so
# the paper's defaults are proven as well as small and extreme parameter sets.
#
# A proof that cannot fail proves nothing (a contradictory assumption or an assertion that never fires would
# pass too). So each block is also mutated, one deliberate bug at a time, in a temporary copy: every mutant
# must be REJECTED with a concrete counterexample trace (a failing base case, not merely an induction that
# does not close). The mutants are generated here and never stored as source files.
#
# Usage: scripts/rtl_formal.sh [--yosys PATH] [--work DIR] [--no-mutants]
# Exit status 0 when every proof holds and every mutant is caught. Logs and counterexample VCDs go to DIR
# (default: a temporary directory, removed on success and kept on failure).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
yosys=yosys
work=""
mutants=1
while [ $# -gt 0 ]; do
  case "$1" in
    --yosys) yosys=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --no-mutants) mutants=0; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "rtl_formal: unknown argument $1" >&2; exit 2 ;;
  esac
done
own_work=0
if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/rtl_formal.XXXXXX)
  own_work=1
fi
mkdir -p "$work"

failures=0
prims=("$root"/rtl/prim/*.sv)

# run_sat NAME FILE TOP "PARAM=VALUE ..." MAXSTEPS -> writes $work/NAME.log, returns yosys' status.
run_sat() {
  local name=$1 file=$2 top=$3 params=$4 maxsteps=$5
  local chparam=""
  if [ -n "$params" ]; then
    chparam="chparam"
    for kv in $params; do chparam+=" -set ${kv%%=*} ${kv#*=}"; done
    chparam+=" $top;"
  fi
  # -I: a mutant is a copy outside rtl/, and the primitives in rtl/prim/, still include rtl/numagpu_assert.svh.
  "$yosys" -q -l "$work/$name.log" -p "read_verilog -formal -sv -I$root/rtl ${prims[*]} $file; $chparam \
    prep -flatten -top $top; \
    sat -tempinduct -prove-asserts -set-assumes -seq 1 -set-at 1 rst_ni 0 -maxsteps $maxsteps \
        -show-ports -verify -dump_vcd $work/$name.cex.vcd" >/dev/null 2>&1
}

# prove NAME TOP "PARAMS": every assertion must hold.
prove() {
  local name=$1 top=$2 params=$3
  local start=$SECONDS
  if run_sat "$name" "$root/rtl/$top.sv" "$top" "$params" 12 &&
     grep -q "Induction step proven: SUCCESS" "$work/$name.log"; then
    local len
    len=$(grep -c "^\*\* Trying induction with length" "$work/$name.log" || true)
    local n
    n=$(grep -c "^Import proof for assert" "$work/$name.log" || true)
    printf 'PROVEN   %-34s %3d assertions, induction length %d (%ds)  [%s]\n' \
      "$name" "$n" "$len" $((SECONDS - start)) "${params:-defaults}"
  else
    printf 'FAILED   %-34s see %s\n' "$name" "$work/$name.log"
    failures=$((failures + 1))
  fi
}

# mutant NAME TOP "PARAMS" "FROM" "TO" "WHY": replacing the exact text FROM by TO must break a proof.
mutant() {
  local name=$1 top=$2 params=$3 from=$4 to=$5 why=$6
  local src="$root/rtl/$top.sv" copy="$work/$name.sv"
  local text
  text=$(<"$src")
  if [ "$(grep -cF -- "$from" "$src")" != 1 ]; then
    printf 'STALE    %-34s the mutated text no longer occurs exactly once: %s\n' "$name" "$from"
    failures=$((failures + 1))
    return
  fi
  printf '%s\n' "${text/"$from"/"$to"}" >"$copy"
  if run_sat "$name" "$copy" "$top" "$params" 40; then
    printf 'MISSED   %-34s the proof still passes with: %s\n' "$name" "$why"
    failures=$((failures + 1))
  elif grep -q "model found for base case: FAIL" "$work/$name.log"; then
    # Base case N checks the N steps after the reset step; the last one fails: cycle N-1 after reset.
    local n
    n=$(grep -o "^\[base case [0-9]*\]" "$work/$name.log" | tail -1 | grep -o "[0-9]*")
    printf 'CAUGHT   %-34s fails in cycle %d after reset: %s\n' "$name" $((n - 1)) "$why"
  else
    printf 'UNCLEAR  %-34s failed without a counterexample, see %s\n' "$name" "$work/$name.log"
    failures=$((failures + 1))
  fi
}

echo "== proofs (yosys $("$yosys" -V | awk '{print $2}'))"
prove lb_default link_balancer ""
prove lb_lanes2 link_balancer "Lanes=2 SampleCycles=1 SwitchCycles=1"
prove lb_lanes4 link_balancer "Lanes=4 SampleCycles=8 SwitchCycles=3 SatNum=9 SatDen=10"
prove lb_lanes8 link_balancer "Lanes=8 SampleCycles=64 SwitchCycles=5"
prove lb_lanes32 link_balancer "Lanes=32 SampleCycles=100 SwitchCycles=10"
prove pc_default cache_partition_ctrl ""
prove pc_ways2 cache_partition_ctrl "Ways=2 SampleCycles=1 ReqW=1"
prove pc_ways5 cache_partition_ctrl "Ways=5 SampleCycles=40 SatNum=3 SatDen=4"
prove pc_ways32 cache_partition_ctrl "Ways=32 SampleCycles=100 ReqW=4"

if [ "$mutants" = 1 ]; then
  echo "== mutants (each must be caught)"
  lb="Lanes=4 SampleCycles=4 SwitchCycles=2"
  mutant lb_mut_floor link_balancer "$lb" \
    "if (lanes_b_q >= LaneCntW'(2)) begin" \
    "if (lanes_b_q >= LaneCntW'(1)) begin" \
    "B may give away its last lane (floor check >= 1 instead of >= 2)"
  mutant lb_mut_counted link_balancer "$lb" \
    "lanes_a_d = lanes_a_q - LaneCntW'(1);" \
    "lanes_a_d = lanes_a_q;" \
    "a lane turning toward B still counts as an active A lane"
  mutant lb_mut_concurrent link_balancer "$lb" \
    "    if (turning) begin" \
    "    if (1'b0) begin" \
    "a window may start a second turn while one is in flight"
  mutant lb_mut_layout link_balancer "$lb" \
    "lane_dir_o[i]     = is_turning ? turn_to_b_q : (Idx >= lanes_a_q);" \
    "lane_dir_o[i]     = is_turning ? turn_to_b_q : (Idx > lanes_a_q);" \
    "per-lane directions disagree with the counts"
  pc="Ways=4 SampleCycles=4"
  mutant pc_mut_local_floor cache_partition_ctrl "$pc" \
    "if (local_q >= WayCntW'(2)) begin" \
    "if (local_q >= WayCntW'(1)) begin" \
    "local may give away its last way"
  mutant pc_mut_remote_floor cache_partition_ctrl "$pc" \
    "if (remote_q >= WayCntW'(2)) begin" \
    "if (remote_q >= WayCntW'(1)) begin" \
    "remote may give away its last way"
  mutant pc_mut_step cache_partition_ctrl "$pc" \
    "remote_d = remote_q + WayCntW'(1);" \
    "remote_d = remote_q + WayCntW'(2);" \
    "the split moves by two ways at once"
  mutant pc_mut_every_cycle cache_partition_ctrl "$pc" \
    "end else if (win_end) begin" \
    "end else if (1'b1) begin" \
    "decisions taken every cycle instead of once per window"
  mutant pc_mut_mask cache_partition_ctrl "$pc" \
    "assign remote_mask_o[w] = (WayCntW'(w) >= local_q);" \
    "assign remote_mask_o[w] = (WayCntW'(w) > local_q);" \
    "the way mask disagrees with remote_ways"
fi

if [ "$failures" -ne 0 ]; then
  echo "rtl_formal: $failures failure(s); logs in $work" >&2
  exit 1
fi
if [ "$own_work" = 1 ]; then
  rm -rf "$work"
  echo "rtl_formal: all proofs hold and every mutant is caught"
else
  echo "rtl_formal: all proofs hold and every mutant is caught (logs in $work)"
fi
