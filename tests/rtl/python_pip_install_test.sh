#!/usr/bin/env bash
# The Python package as a user installs it (docs/rtl.md, "Python package"): `pip install ./tb/python` into a
# fresh venv of Debian's python3, offline (--no-build-isolation --no-index: setuptools from the venv, pybind11
# from Debian's python3-pybind11), then, from the venv alone, the reference models, and an RTL class at a
# parameter set given at construction (Verilated into RTL_CACHE, which the build fills) against the reference.
#
# Usage: python_pip_install_test.sh REPO_ROOT WORK_DIR RTL_CACHE
# Exit 0 on success, 1 on a failure, 77 (skipped) without python3-venv or pybind11 outside CI.
set -euo pipefail
root=$1 work=$2 rtl_cache=$3
skip() {
  if [ "${CI:-}" = true ]; then
    echo "python_pip_install_test: $1, and CI=true requires it (run scripts/setup.sh)" >&2
    exit 1
  fi
  echo "python_pip_install_test: $1 (run scripts/setup.sh): skipped"
  exit 77
}
/usr/bin/python3 -c "import pybind11, venv" 2>/dev/null || skip "python3-pybind11 or python3-venv missing"
rm -rf "$work"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
# setuptools' scratch files in the work folder, the compiler through ccache when there is one.
export NUMAGPU_PIP_BUILD_DIR=$work/pip_build
if command -v ccache >/dev/null; then export CC="ccache gcc" CXX="ccache g++"; fi
if ! "$work/venv/bin/python" -m pip install --no-build-isolation --no-index "$root/tb/python" >"$work/pip.log" 2>&1; then
  cat "$work/pip.log"
  echo "python_pip_install_test: pip install ./tb/python failed" >&2
  exit 1
fi
echo "PASS     pip install ./tb/python: $(grep -o 'Successfully installed.*' "$work/pip.log")"
left=$(git -C "$root" status --porcelain --ignored --untracked-files=all tb/python 2>/dev/null | grep '^[?!]' || true)
[ -z "$left" ] || { echo "python_pip_install_test: pip left files in tb/python:"; echo "$left"; exit 1; }
cd "$work"
NUMAGPU_RTL_CACHE=$rtl_cache "$work/venv/bin/python" - <<'PY'
import numagpu_policy as n
assert "/venv/" in n.__file__, n.__file__  # the installed copy, not the build tree's
# Hand-derived: 4 lanes (2 per direction), 8-cycle windows, switch 2, saturation 99/100 -> threshold
# ceil(99 * 8 / 100) = 8: A busy in all 8 cycles of window 0, B idle, so the window's decision (visible in
# cycle 8) turns one B lane toward A (code 1), and that lane quiesces.
ref = n.LinkBalancer(lanes=4, sample_cycles=8, switch_cycles=2)
assert ref.saturation_threshold == 8, ref.saturation_threshold
for _ in range(8):
    out = ref.step(busy_a=True)
assert out.decision_valid and out.decision == 1 and out.lanes_b == 1 and out.lane_quiesce != 0, out
# The RTL at a parameter set given here (Verilated from the venv's copy of the RTL; the build's cache holds
# this set already, rtl_python_bindings uses it too): the same outputs as the reference in every cycle.
params = dict(lanes=8, sample_cycles=100, switch_cycles=10, sat_num=9, sat_den=10)
rtl, ref = n.LinkBalancerRtl(**params), n.LinkBalancer(**params)
for cycle in range(3000):
    assert rtl.outputs() == ref.outputs(), (cycle, rtl.outputs(), ref.outputs())
    inputs = dict(busy_a=cycle % 600 < 400, busy_b=cycle % 7 == 0, drained=cycle % 5 == 0)
    rtl.step(**inputs)
    ref.step(**inputs)
print("PASS     the pip-installed package: directed reference sequence; LinkBalancerRtl(%s) = reference, 3000 cycles"
      % params)
PY
echo "python_pip_install_test: pass"
