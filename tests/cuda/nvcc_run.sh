#!/bin/sh
# Builds one example of examples/cuda/ with NVIDIA's nvcc (CUDA 13: PTX for compute_75, the shared runtime)
# and runs it unmodified through `numagpu run --cuda`, which puts numagpu's libcudart.so.13 first on the
# loader's path: the program must print PASS, exit 0 and leave stats.json. Exits 77 (ctest's SKIP) where nvcc
# is not installed.
#
# With --compare NUMAGPU_CC, also builds the example with numagpu-cc (clang) and runs it on the same system
# with the same arguments: both must issue the same global memory requests (the summary's loads and stores).
# --nvcc-flag FLAG adds FLAG to nvcc's command line (repeatable).
#
# Usage: nvcc_run.sh [--compare NUMAGPU_CC] [--nvcc-flag FLAG]... NVCC NUMAGPU EXAMPLE.cu OUT_DIR CONFIG [ARGS...]
set -eu
numagpu_cc=
nvcc_flags=
while :; do
  case $1 in
    --compare) numagpu_cc=$2 ;;
    --nvcc-flag) nvcc_flags="$nvcc_flags $2" ;;
    *) break ;;
  esac
  shift 2
done
nvcc=$1 numagpu=$2 source=$3 out=$4 config=$5
shift 5
if [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc not installed ('$nvcc')"
  exit 77
fi
name=$(basename "$source" .cu)
mkdir -p "$out"

# run PROGRAM LABEL [ARGS...]: runs the program with its arguments, checks PASS and stats.json, and prints
# the loads and stores of its summary ("requests    65536 loads, 32768 stores, 0 atomics; ...").
run() {
  program=$1 label=$2
  shift 2
  log=$out/$name.$label.log
  rc=0
  "$numagpu" run --cuda "$program" -c "$config" -o "$out/$name.$label.out" -- "$@" >"$log" 2>&1 || rc=$?
  if [ $rc -ne 0 ] || ! grep -q "PASS" "$log"; then
    echo "$program: exit status $rc, no PASS:" >&2
    cat "$log" >&2
    return 1
  fi
  test -s "$out/$name.$label.out/stats.json" || { echo "$program: no stats.json" >&2; return 1; }
  grep '^requests ' "$log" | cut -d';' -f1
}

# shellcheck disable=SC2086 # the flags are words
"$nvcc" -arch=compute_75 -code=compute_75 -cudart shared -O2 $nvcc_flags "$source" -o "$out/$name.nvcc"
nvcc_requests=$(run "$out/$name.nvcc" nvcc "$@")
echo "nvcc:  $nvcc_requests"
[ -n "$numagpu_cc" ] || exit 0

"$numagpu_cc" -O2 "$source" -o "$out/$name.clang"
clang_requests=$(run "$out/$name.clang" clang "$@")
echo "clang: $clang_requests"
if [ "$nvcc_requests" != "$clang_requests" ]; then
  echo "the nvcc-built and the clang-built $name issue different global memory requests"
  exit 1
fi
