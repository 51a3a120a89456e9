#!/bin/sh
# Builds one example of examples/cuda/ with numagpu-cc (-Wall -Werror, its PTX kept) and checks the PTX:
# every function it calls is defined in it (no libdevice on a machine without the CUDA toolkit; vprintf,
# the driver's, is the one allowed external).
# Usage: build_example.sh NUMAGPU_CC EXAMPLE.cu OUTPUT CUDART_DIR
set -eu
cc=$1 source=$2 out=$3 cudart=$4
ptx_dir=$out.ptx
rm -rf "$ptx_dir" && mkdir -p "$ptx_dir"
"$cc" -O2 -Wall -Werror --keep-ptx "$ptx_dir" --cudart-dir "$cudart" "$source" -o "$out"
test -x "$out"
name=$(basename "$source" .cu)
ptx=$ptx_dir/$name.ptx
grep -q '^\.visible \.entry' "$ptx" || { echo "$ptx: no kernel entry"; exit 1; }
if grep -E '^\.extern \.(func|global|const)' "$ptx" | grep -v ' vprintf$'; then
  echo "$ptx: calls the external functions above (the header must define them)"
  exit 1
fi
echo "built $out ($(grep -c '^\.visible \.entry' "$ptx") kernels)"
