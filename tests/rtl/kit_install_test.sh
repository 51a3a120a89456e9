#!/usr/bin/env bash
# The verification kit as `cmake --install` lays it out (docs/rtl.md, "The installed kit"): installs the `kit`
# component of BUILD_DIR into WORK_DIR, then uses only the installed files: every filelist elaborates on
# Verilator (lint, -Wall) and on Icarus (when installed) through $NUMAGPU_RTL, the filelists name every
# primitive of the source tree, the SystemVerilog package lints, the DPI-C library exports its C API, the
# installed Python package imports and runs its reference models and (from RTL_CACHE, the build's cache of
# Verilated parameter sets) its RTL classes with the installed RTL, and the installed cocotb bench runs a short
# smoke test on Icarus when the cocotb venv (VENV) and iverilog are there.
#
# Usage: kit_install_test.sh BUILD_DIR REPO_ROOT WORK_DIR [VENV RTL_CACHE [PYTHON_PACKAGE]]
# (PYTHON_PACKAGE 0: the build has no Python package, pybind11 missing, so none is expected.)
# Exit 0 on success, 1 on a failure.
set -euo pipefail
build=$1 root=$2 work=$3 venv=${4:-} rtl_cache=${5:-} python_package=${6:-1}
rm -rf "$work"
cmake --install "$build" --component kit --prefix "$work" >"$work.install.log" 2>&1 || {
  cat "$work.install.log"
  exit 1
}
share=$work/share/numagpu
export NUMAGPU_RTL=$share/rtl
failures=0
fail() {
  echo "FAIL     $*"
  failures=$((failures + 1))
}

for f in link_balancer.sv cache_partition_ctrl.sv numagpu_assert.svh link_balancer.f cache_partition_ctrl.f \
  numagpu_rtl.f; do
  [ -f "$NUMAGPU_RTL/$f" ] || fail "missing share/numagpu/rtl/$f"
done
for f in numagpu_policy_pkg.sv link_balancer_cover.sv cache_partition_ctrl_cover.sv; do
  [ -f "$share/sv/$f" ] || fail "missing share/numagpu/sv/$f"
done
dpi=$(find "$work" -name 'libnumagpu_policy_dpi.so' | head -1)
if [ -z "$dpi" ] || [[ $dpi != "$work"/lib*/libnumagpu_policy_dpi.so ]]; then
  fail "libnumagpu_policy_dpi.so is not installed under lib/ (found: ${dpi:-nothing})"
elif ! nm -D --defined-only "$dpi" | grep -qw numagpu_lb_new; then
  fail "$dpi does not export numagpu_lb_new"
fi

# Every primitive of the source tree is in every filelist (a new primitive must be added to them).
for prim in "$root"/rtl/prim/*.sv; do
  for fl in "$NUMAGPU_RTL"/*.f; do
    grep -qF "\${NUMAGPU_RTL}/prim/$(basename "$prim")" "$fl" || fail "$(basename "$fl") does not list prim/$(basename "$prim")"
  done
done

for top in link_balancer cache_partition_ctrl; do
  for fl in "$top.f" numagpu_rtl.f; do
    if verilator --lint-only -Wall --top-module "$top" -f "$NUMAGPU_RTL/$fl" >"$work/lint_$top.log" 2>&1; then
      echo "PASS     verilator -f share/numagpu/rtl/$fl (top $top)"
    else
      fail "verilator -f $fl (top $top):"
      cat "$work/lint_$top.log"
    fi
    if command -v iverilog >/dev/null; then
      if iverilog -g2012 -DNUMAGPU_ASSERTIONS -s "$top" -o "$work/$top.vvp" -c "$NUMAGPU_RTL/$fl" \
        >"$work/iverilog_$top.log" 2>&1; then
        echo "PASS     iverilog -c share/numagpu/rtl/$fl (top $top)"
      else
        fail "iverilog -c $fl (top $top):"
        cat "$work/iverilog_$top.log"
      fi
    fi
  done
done
if verilator --lint-only -Wall "$share/sv/numagpu_policy_pkg.sv" >"$work/lint_pkg.log" 2>&1; then
  echo "PASS     verilator share/numagpu/sv/numagpu_policy_pkg.sv"
else
  fail "numagpu_policy_pkg.sv:"
  cat "$work/lint_pkg.log"
fi

# The Python package, from the install only (its own copy of the RTL; RTL classes from the build's cache).
pkg=$(find "$work" -type d -name numagpu_policy -path '*-packages/*' | head -1)
if [ "$python_package" = 0 ]; then
  echo "SKIP     the Python package (not built: pybind11 missing)"
elif [ -z "$pkg" ]; then
  fail "the Python package numagpu_policy is not installed"
else
  pypath=$(dirname "$pkg")
  if PYTHONPATH=$pypath NUMAGPU_RTL_CACHE=${rtl_cache:-$work/rtl_cache} /usr/bin/python3 -c "
import numagpu_policy as n
assert n.__file__.startswith('$pkg'), n.__file__
params = dict(lanes=4, sample_cycles=64, switch_cycles=5)
ref, rtl = n.LinkBalancer(**params), n.LinkBalancerRtl(**params)
assert str(rtl.library).startswith('${rtl_cache:-$work/rtl_cache}'), rtl.library
for cycle in range(3000):  # A saturated, B a third busy: turns toward A until B is at its floor
    assert rtl.outputs() == ref.outputs(), cycle
    inputs = dict(busy_a=True, busy_b=cycle % 3 == 0, drained=True)
    rtl.step(**inputs)
    ref.step(**inputs)
assert ref.outputs().lanes_b == 1, ref.outputs()
print('PASS     the installed numagpu_policy: LinkBalancerRtl = LinkBalancer for 3000 cycles,', ref.outputs())
"; then :; else fail "the installed Python package"; fi
  if [ -n "$venv" ] && [ -x "$venv/bin/cocotb-config" ] && command -v iverilog >/dev/null; then
    mkdir -p "$work/cocotb"
    (cd "$work/cocotb" && PATH="$venv/bin:$PATH" PYTHONPATH=$pypath NUMAGPU_COCOTB_CYCLES=1500 \
      NUMAGPU_COCOTB_COVERAGE_GOAL=0 make -f "$share/cocotb/Makefile" SIM=icarus BLOCK=link_balancer \
      >"$work/cocotb/run.log" 2>&1) || true
    if [ -f "$work/cocotb/results.xml" ] && ! grep -q "<failure" "$work/cocotb/results.xml" &&
      grep -q "Running tests with cocotb" "$work/cocotb/run.log"; then
      echo "PASS     share/numagpu/cocotb/Makefile on Icarus with the installed RTL and package (1500 cycles)"
    else
      fail "the installed cocotb bench, see $work/cocotb/run.log"
      tail -20 "$work/cocotb/run.log"
    fi
  fi
fi

if [ "$failures" -ne 0 ]; then
  echo "kit_install_test: $failures failure(s)" >&2
  exit 1
fi
echo "kit_install_test: the installed kit in $work is complete and elaborates"
