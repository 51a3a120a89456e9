#!/usr/bin/env bash
# Installs everything numagpu needs to build and test on Debian 12. Idempotent: when every package is
# already present it changes nothing and does not touch the network.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libsystemc-dev          # SystemC 2.3.4 + TLM-2.0
  verilator               # RTL lint, lockstep and in-the-loop models
  libyaml-cpp-dev         # configuration files
  nlohmann-json3-dev      # stats.json and resolved-config output
  libcli11-dev            # command line
  libgtest-dev libgmock-dev
  libbenchmark-dev        # bench/ harness
  yosys                   # RTL synthesis (area) and formal proofs
  liblzma-dev zlib1g-dev  # xz- and gzip-compressed Accel-Sim traces
  libzstd-dev             # the zstd-compressed PTX in nvcc (CUDA 13) fatbinaries (models/cuda/fatbin.cpp)
  python3-matplotlib      # bench-fabric --plot
  python3-numpy           # scripts/fit_energy.py (the energy calibration)
  python3-yaml            # tests/integration/interrupt_test.py reads config.yaml
  clang-14 libclang-rt-14-dev  # numagpu-cc (CUDA to PTX, docs/cuda.md); libFuzzer targets (fuzz/, scripts/fuzz.sh)
  munge slurmctld slurmd slurm-client  # a one-node Slurm for tests/integration/sweep_slurm_cluster_test.sh (3 MB)
  opensta                 # gate-level power from the in-loop RTL's switching activity (tests/flows, docs/power.md)
  iverilog                # the RTL on a second simulator: tests/rtl/icarus_vectors_test.sh (ctest rtl_icarus_vectors)
  python3-dev python3-pybind11 pybind11-dev  # Python bindings of the policy reference models (tb/python/)
  python3-venv            # the venv of the cocotb testbenches (below)
  libmetis-doc            # METIS's example meshes, the application suite's graph inputs (configs/workloads/apps)
  strace                  # tests/integration: each trace file is opened once (program_opens_each_trace_once)
)

# From PyPI, into a venv of Debian's python3 (which sees Debian's pybind11 and PyYAML): the cocotb testbenches
# (tb/cocotb, ctest rtl_cocotb_*). Pinned: cocotb 2.x requires Verilator >= 5.036 and Debian 12 ships 5.006;
# cocotb 1.9.2 accepts it (and Icarus 11), and cocotb-coverage 1.2.0 is the release for cocotb 1.x. The venv is
# $NUMAGPU_VENV, by default ~/.local/share/numagpu/venv (CMake's NUMAGPU_VENV has the same default).
pip_packages=(cocotb==1.9.2 cocotb-coverage==1.2.0 find_libpython==0.5.1 python-constraint==1.4.0)
venv=${NUMAGPU_VENV:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.local/share/numagpu/venv}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

pip_missing=()
if [ -x "$venv/bin/python" ]; then
  installed=$("$venv/bin/python" -m pip freeze --local 2>/dev/null | tr 'A-Z_' 'a-z-')
  for p in "${pip_packages[@]}"; do
    grep -qxF "$(tr 'A-Z_' 'a-z-' <<<"$p")" <<<"$installed" || pip_missing+=("$p")
  done
else
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  pip_missing=("${pip_packages[@]}")
fi
if [ ${#pip_missing[@]} -eq 0 ]; then
  echo "setup: the venv $venv has ${pip_packages[*]}"
else
  echo "setup: installing ${pip_missing[*]} into $venv"
  "$venv/bin/python" -m pip install -q "${pip_missing[@]}"
fi
