#!/usr/bin/env bash
# The RTL on a second simulator: the lockstep stimulus of each small parameter set, written as vector files by
# rtl_vectors (directed scenarios + constrained-random traffic, with the C++ reference's outputs), replayed on
# Icarus Verilog 11 by tb/sv/*_vectors_tb.sv, every output compared in every cycle. Then a deliberate bug
# (a mutant of rtl/link_balancer.sv, the floor check of scripts/rtl_formal.sh's lb_mut_floor) must make the
# replay fail, so a silent pass would be noticed. docs/rtl.md, "More than one simulator".
#
# The replays run with the RTL's assertions on (checked at each rising edge on Icarus, rtl/numagpu_assert.svh).
# Usage: icarus_vectors_test.sh RTL_VECTORS REPO_ROOT WORK_DIR [RANDOM_CYCLES]
# Exit 0 on success, 1 on a failure, 77 (skipped) when iverilog is missing outside CI.
set -euo pipefail
vectors_bin=$1 root=$2 work=$3 cycles=${4:-40000}

if ! command -v iverilog >/dev/null || ! command -v vvp >/dev/null; then
  if [ "${CI:-}" = true ]; then
    echo "icarus_vectors_test: iverilog not found, and CI=true requires it (run scripts/setup.sh)" >&2
    exit 1
  fi
  echo "icarus_vectors_test: iverilog not found (run scripts/setup.sh): skipped"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work"
failures=0
run_plusargs=""  # extra plusargs of one replay (run_plusargs=... run ...)
prims=("$root"/rtl/prim/*.sv)  # the shared primitives, read with every block

# run NAME TOP RTL_FILE "Param=value ..." [DEFINES...] -> replays NAME.vec on RTL_FILE; returns vvp's status, log
# in NAME.log. The replays run with the RTL's assertions (-DNUMAGPU_ASSERTIONS), checked at every rising edge.
run() {
  local name=$1 top=$2 rtl=$3 params=$4 pargs=""
  shift 4
  for kv in $params; do pargs+=" -P${top}_vectors_tb.${kv}"; done
  # shellcheck disable=SC2086  # pargs is a list of options
  iverilog -g2012 -I"$root/rtl" "$@" $pargs -s "${top}_vectors_tb" -o "$work/$name.vvp" "${prims[@]}" "$rtl" \
    "$root/tb/sv/${top}_vectors_tb.sv" \
    >"$work/$name.compile.log" 2>&1 || { cat "$work/$name.compile.log"; return 1; }
  vvp -n "$work/$name.vvp" "+vectors=$work/${name%%_mut*}.vec" $run_plusargs >"$work/$name.log" 2>&1
}

# The parameter sets of the lockstep tests (cmake/Rtl.cmake). The two with the paper's 5000-cycle windows run
# random traffic only (--no-scenarios, the cycle count as for the others): their directed scenarios alone are
# ~10^6 cycles, too slow for an event-driven simulator in CI.
variants=(
  "lb_default|link_balancer||--no-scenarios"
  "pc_default|cache_partition_ctrl||--no-scenarios"
  "lb_l2|link_balancer|Lanes=2 SampleCycles=16 SwitchCycles=2"
  "lb_l4|link_balancer|Lanes=4 SampleCycles=64 SwitchCycles=5"
  "lb_l8|link_balancer|Lanes=8 SampleCycles=100 SwitchCycles=10 SatNum=9 SatDen=10"
  "lb_l16|link_balancer|Lanes=16 SampleCycles=50 SwitchCycles=3 SatNum=3 SatDen=4"
  "pc_w2|cache_partition_ctrl|Ways=2 SampleCycles=16"
  "pc_w4|cache_partition_ctrl|Ways=4 SampleCycles=64"
  "pc_w5|cache_partition_ctrl|Ways=5 SampleCycles=40 SatNum=3 SatDen=4"
  "pc_w16|cache_partition_ctrl|Ways=16 SampleCycles=100 SatNum=9 SatDen=10 RespBytes=128 IngressBytesPerCycle=32 ReqW=3"
)
for v in "${variants[@]}"; do
  IFS='|' read -r name top params options <<<"$v"
  start=$SECONDS
  # shellcheck disable=SC2086  # params and options are lists of arguments
  "$vectors_bin" "$top" $params $options --cycles "$cycles" --seed 1 --out "$work/$name.vec"
  if run "$name" "$top" "$root/rtl/$top.sv" "$params" -DNUMAGPU_ASSERTIONS && grep -q "cycles of .* match" "$work/$name.log"; then
    printf 'PASS     %-8s %s (%ds)\n' "$name" "$(tail -1 "$work/$name.log" | sed 's/.*: //')" $((SECONDS - start))
  else
    printf 'FAIL     %-8s see %s\n' "$name" "$work/$name.log"
    tail -5 "$work/$name.log"
    failures=$((failures + 1))
  fi
done

# The checker can fail: B may give away its last lane. The lb_l4 vectors reach the floor, so the mutant's
# outputs must differ from the reference's.
from="if (lanes_b_q >= LaneCntW'(2)) begin"
to="if (lanes_b_q >= LaneCntW'(1)) begin"
if [ "$(grep -cF -- "$from" "$root/rtl/link_balancer.sv")" != 1 ]; then
  echo "FAIL     mutant: the mutated text no longer occurs exactly once in rtl/link_balancer.sv: $from"
  failures=$((failures + 1))
else
  text=$(<"$root/rtl/link_balancer.sv")
  printf '%s\n' "${text/"$from"/"$to"}" >"$work/link_balancer_mut_floor.sv"
  if run lb_l4_mut_floor link_balancer "$work/link_balancer_mut_floor.sv" \
       "Lanes=4 SampleCycles=64 SwitchCycles=5"; then
    echo "FAIL     mutant lb_l4_mut_floor: the replay passed with a broken floor check"
    failures=$((failures + 1))
  elif grep -q "vector mismatch at cycle" "$work/lb_l4_mut_floor.log"; then
    echo "CAUGHT   mutant lb_l4_mut_floor: $(grep -m1 -o 'vector mismatch at cycle.*' "$work/lb_l4_mut_floor.log")"
  else
    echo "FAIL     mutant lb_l4_mut_floor failed without a vector mismatch, see $work/lb_l4_mut_floor.log"
    failures=$((failures + 1))
  fi
  # With the assertions on, the same mutant is stopped by the floor invariant itself (B's count reaches 0), not
  # by the comparison (+inputs_only: the outputs are not compared): the assertions are live on Icarus.
  if run_plusargs=+inputs_only run lb_l4_mut_floor_assert link_balancer "$work/link_balancer_mut_floor.sv" \
       "Lanes=4 SampleCycles=64 SwitchCycles=5" -DNUMAGPU_ASSERTIONS; then
    echo "FAIL     mutant lb_l4_mut_floor_assert: the replay passed with a broken floor check"
    failures=$((failures + 1))
  elif grep -q "LanesBFloor_A violated" "$work/lb_l4_mut_floor_assert.log"; then
    echo "CAUGHT   mutant lb_l4_mut_floor_assert: $(grep -m1 -o 'LanesBFloor_A violated' "$work/lb_l4_mut_floor_assert.log") ($(grep -m1 -o 'Time: [0-9]*' "$work/lb_l4_mut_floor_assert.log"))"
  else
    echo "FAIL     mutant lb_l4_mut_floor_assert failed without LanesBFloor_A, see $work/lb_l4_mut_floor_assert.log"
    failures=$((failures + 1))
  fi
fi

if [ "$failures" -ne 0 ]; then
  echo "icarus_vectors_test: $failures failure(s)" >&2
  exit 1
fi
echo "icarus_vectors_test: every parameter set matches the C++ reference on $(iverilog -V 2>&1 | head -1 | cut -d'(' -f1)"
