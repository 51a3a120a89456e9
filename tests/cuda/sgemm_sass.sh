#!/bin/sh
# sgemm against its SASS (docs/kernels.md): compiles tests/cuda/sgemm_nt_sm70.cu for sm_70 with NVCC
# (`nvcc -arch=sm_70 -cubin`), disassembles it with the cuobjdump beside it, and checks that the loop's
# instruction mix a step is the one the library's parboil/sgemm_mysgemmNT issues with dependent latencies
# (models/kernels/parboil/sgemm_mysgemmNT.cpp, sass_step; CUDA 11.8 and ptxas 12.9 give it): 128 FFMA, 32
# LDS.128, 9 LDG, 1 STS, 2 BAR, 1 BRA, 2 NOP, 17 integer instructions, 1 FFMA with its three sources in
# one register bank. Exits 77 (ctest's SKIP) where NVCC is missing or no longer targets sm_70 (CUDA 13).
#
# Usage: sgemm_sass.sh NVCC SOURCE_DIR OUT_DIR
set -eu
nvcc=$1 src=$2 out=$3
if [ ! -x "$nvcc" ] || ! "$nvcc" --list-gpu-arch 2>/dev/null | grep -qx compute_70; then
  echo "SKIP: no nvcc that targets sm_70 ('$nvcc')"
  exit 77
fi
cuobjdump=$(dirname "$nvcc")/cuobjdump
if [ ! -x "$cuobjdump" ]; then
  echo "SKIP: no cuobjdump beside '$nvcc'"
  exit 77
fi
mkdir -p "$out"
"$nvcc" -arch=sm_70 -cubin -O3 -o "$out/sgemm_nt.cubin" "$src/tests/cuda/sgemm_nt_sm70.cu"
"$cuobjdump" -sass "$out/sgemm_nt.cubin" > "$out/sgemm_nt.sass"
python3 "$src/tests/cuda/sass_loop_mix.py" "$out/sgemm_nt.sass" > "$out/mix.txt"
expected='FFMA 128
LDS.128 32
LDG 9
STS 1
BAR 2
BRA 1
NOP 2
int 17
other 0
bank_conflicts 1'
if [ "$(cat "$out/mix.txt")" != "$expected" ]; then
  echo "the loop's mix differs from the library's sgemm step (re-check models/kernels/parboil/sgemm_mysgemmNT.cpp):"
  diff "$out/mix.txt" - <<EOT || true
$expected
EOT
  exit 1
fi
echo "sgemm's loop: the library's step"
