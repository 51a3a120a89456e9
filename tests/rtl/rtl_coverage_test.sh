#!/usr/bin/env bash
# Coverage of the RTL over the lockstep runs and the SystemVerilog runs, in one report: the GoogleTest lockstep
# runs of the coverage-instrumented variants (lb_l4, pc_w5: every directed scenario and the three random
# seeds), the same stimulus replayed from vector files through the Verilator vector testbenches, and the
# DPI-C scoreboard testbenches, all built with `verilator --coverage`; their databases merged by
# verilator_coverage into coverage.dat, annotated sources in annotated/, and minimum percentages checked by
# coverage_check.py (docs/rtl.md, "Coverage").
#
# Usage: rtl_coverage_test.sh REPO_ROOT WORK_DIR RTL_VECTORS SV_VECTORS_LB SV_VECTORS_PC SV_TB_LB SV_TB_PC
#                             TEST_RTL_LOCKSTEP
set -euo pipefail
root=$1 work=$2 vectors_bin=$3 vec_lb=$4 vec_pc=$5 tb_lb=$6 tb_pc=$7 lockstep=$8
cycles=200000

rm -rf "$work"
mkdir -p "$work"
cd "$work"

# The lockstep runs (each writes <run>.dat into lockstep/).
NUMAGPU_RTL_COVERAGE_DIR=$work/lockstep "$lockstep" --gtest_filter='*/lb_l4.*:*/pc_w5.*' >lockstep.log 2>&1 ||
  { tail -30 lockstep.log; exit 1; }
grep -h "^\[  PASSED" lockstep.log
# The lockstep stimulus at the parameter sets the vector testbenches are built with (lb_l4, pc_w5).
"$vectors_bin" link_balancer Lanes=4 SampleCycles=64 SwitchCycles=5 --cycles $cycles --seed 1 --out lb_l4.vec
"$vectors_bin" cache_partition_ctrl Ways=5 SampleCycles=40 SatNum=3 SatDen=4 --cycles $cycles --seed 1 \
  --out pc_w5.vec
"$vec_lb" +vectors=lb_l4.vec +coverage=lockstep_lb.dat >lockstep_lb.log
"$vec_pc" +vectors=pc_w5.vec +coverage=lockstep_pc.dat >lockstep_pc.log
# The DPI-C scoreboard runs.
"$tb_lb" +cycles=$cycles +seed=1 +coverage=sv_lb.dat >sv_lb.log
"$tb_pc" +cycles=$cycles +seed=1 +coverage=sv_pc.dat >sv_pc.log
tail -q -n 2 lockstep_lb.log lockstep_pc.log sv_lb.log sv_pc.log | grep -v '\$finish'

verilator_coverage --write coverage.dat lockstep/*.dat lockstep_lb.dat lockstep_pc.dat sv_lb.dat sv_pc.dat
verilator_coverage --annotate annotated coverage.dat | tail -1
# Lines: all but the proven-unreachable `default` of the turn FSM (1 of 15 in link_balancer.sv). Toggles:
# the bits a parameter set cannot reach stay at 0 (e.g. with 4 lanes a lane count never reaches 4, lanes 0
# and 3 never turn, a busy counter is cleared in the cycle it would reach 64). Every branch and every
# functional point must be hit.
python3 "$root/tests/rtl/coverage_check.py" coverage.dat --min line=90 --min branch=100 --min toggle=85 \
  --min user=100
echo "rtl_coverage: report in $work (coverage.dat, annotated/)"
