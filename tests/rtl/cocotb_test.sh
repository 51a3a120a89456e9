#!/usr/bin/env bash
# One cocotb testbench of tb/cocotb/ on one simulator (docs/rtl.md, "cocotb testbenches"): runs cocotb's
# Makefile flow in WORK_DIR with the cocotb of VENV and the numagpu_policy package of PYTHON_PATH, then reads
# results.xml: every test must pass (cocotb's make exits 0 either way). With --expect-mismatch the reference is
# built wrong (NUMAGPU_COCOTB_REF_FAULT) and the run must fail with a scoreboard mismatch instead.
#
# Usage: cocotb_test.sh [--expect-mismatch] SIM BLOCK REPO_ROOT WORK_DIR VENV PYTHON_PATH
# Exit 0 on success, 1 on a failure, 77 (skipped) when cocotb or the simulator is missing outside CI.
set -euo pipefail
expect_mismatch=false
if [ "$1" = --expect-mismatch ]; then
  expect_mismatch=true
  shift
fi
sim=$1 block=$2 root=$3 work=$4 venv=$5 pypath=$6

skip() {
  if [ "${CI:-}" = true ]; then
    echo "cocotb_test: $1, and CI=true requires it (run scripts/setup.sh)" >&2
    exit 1
  fi
  echo "cocotb_test: $1 (run scripts/setup.sh): skipped"
  exit 77
}
[ -x "$venv/bin/cocotb-config" ] || skip "no cocotb in $venv (NUMAGPU_VENV)"
"$venv/bin/python" -c "import cocotb_coverage" 2>/dev/null || skip "no cocotb-coverage in $venv"
case $sim in
  icarus) command -v iverilog >/dev/null && command -v vvp >/dev/null || skip "iverilog not found" ;;
  verilator) command -v verilator >/dev/null || skip "verilator not found" ;;
esac

mkdir -p "$work"
cd "$work"
rm -f results.xml
# No bytecode files written into the source tree (the test modules are imported from tb/cocotb).
export PATH="$venv/bin:$PATH" PYTHONPATH="$pypath${PYTHONPATH:+:$PYTHONPATH}" PYTHONDONTWRITEBYTECODE=1
export NUMAGPU_COCOTB_COVERAGE_DIR="$work/coverage"
if $expect_mismatch; then
  export NUMAGPU_COCOTB_REF_FAULT="${NUMAGPU_COCOTB_REF_FAULT:-switch_cycles=6}" NUMAGPU_COCOTB_CYCLES=3000
fi
# A fixed seed: the stimulus depends only on it and the reference, so a run is the same on both simulators.
make -f "$root/tb/cocotb/Makefile" SIM="$sim" BLOCK="$block" SIM_BUILD="$work/sim_build" RANDOM_SEED=1 \
  >"$work/run.log" 2>&1 || true
grep -E "coverage |mismatches|scoreboard mismatch|Error|TESTS=" "$work/run.log" | sed 's/^ *[0-9.]*ns //' || true
if [ ! -f results.xml ]; then
  echo "cocotb_test: no results.xml, see $work/run.log:" >&2
  tail -30 "$work/run.log" >&2
  exit 1
fi
tests=$(grep -c "<testcase" results.xml || true)
failed=$(grep -c "<failure" results.xml || true)
if $expect_mismatch; then
  if [ "$failed" -ge 1 ] && grep -q "scoreboard mismatch at cycle" "$work/run.log"; then
    echo "cocotb_test: CAUGHT the wrong reference ($NUMAGPU_COCOTB_REF_FAULT): $(grep -o -m1 'scoreboard mismatch at cycle [0-9]*' "$work/run.log")"
    exit 0
  fi
  echo "cocotb_test: a reference with $NUMAGPU_COCOTB_REF_FAULT was not caught, see $work/run.log" >&2
  exit 1
fi
if [ "$tests" -ge 1 ] && [ "$failed" -eq 0 ]; then
  echo "cocotb_test: $block on $sim: $tests passed, 0 failed"
  exit 0
fi
echo "cocotb_test: $block on $sim: $failed of $tests failed, see $work/run.log" >&2
exit 1
