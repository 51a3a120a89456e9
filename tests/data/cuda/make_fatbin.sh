#!/bin/sh
# Builds vector_add.cu with nvcc and writes the fatbinary container its registration passes
# (__cudaRegisterFatBinary's wrapper, in .nvFatBinSegment, points at it in .nv_fatbin) to OUTPUT.
# Usage: make_fatbin.sh SOURCE.cu OUTPUT [NVCC]; exit status 77 (skip) without nvcc or objcopy.
set -eu
source=$1 output=$2 nvcc=${3:-nvcc}
command -v "$nvcc" >/dev/null 2>&1 || { echo "no nvcc: skipped"; exit 77; }
command -v objcopy >/dev/null 2>&1 || { echo "no objcopy: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$nvcc" -arch=compute_75 -code=compute_75 -cudart shared "$source" -o "$work/program"
objcopy -O binary --only-section=.nv_fatbin "$work/program" "$work/section"
objcopy -O binary --only-section=.nvFatBinSegment "$work/program" "$work/wrappers"
# The wrappers are {u32 magic, u32 version, u64 data, u64 name}; the section's address is in the headers.
# The container is the one a version-1 wrapper points at (CUDA 13 also emits a version-2 wrapper beside it).
section_address=$(objdump -h "$work/program" | awk '$2 == ".nv_fatbin" { print $4 }')
od -A n -t x4 -v -w24 "$work/wrappers" | while read -r magic version data_low data_high rest; do
  if [ "$magic" = 466243b1 ] && [ "$version" = 00000001 ]; then
    offset=$((0x$data_high$data_low - 0x$section_address))
    header=$(od -A n -t u8 -j $((offset + 8)) -N 8 "$work/section" | tr -d ' ')
    dd if="$work/section" of="$output" bs=1 skip=$offset count=$((16 + header)) 2>/dev/null
    echo "wrote $output: $((16 + header)) bytes at offset $offset of .nv_fatbin"
  fi
done
test -s "$output"
