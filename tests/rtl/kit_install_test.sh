#!/usr/bin/env bash
# The verification kit as `cmake --install` lays it out (docs/rtl.md, "The installed kit"): installs the `kit`
# component of BUILD_DIR into WORK_DIR, then uses only the installed files: every filelist elaborates on
# Verilator (lint, -Wall) and on Icarus (when installed) through $NUMAGPU_RTL, the filelists name every
# primitive of the source tree, the SystemVerilog package lints, and the DPI-C library exports its C API.
#
# Usage: kit_install_test.sh BUILD_DIR REPO_ROOT WORK_DIR
# Exit 0 on success, 1 on a failure.
set -euo pipefail
build=$1 root=$2 work=$3
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

if [ "$failures" -ne 0 ]; then
  echo "kit_install_test: $failures failure(s)" >&2
  exit 1
fi
echo "kit_install_test: the installed kit in $work is complete and elaborates"
