#!/bin/bash
# libnumagpu.so through numagpu.pc: examples/host_platform compiled with pkg-config's flags alone and run as
# built, with no LD_LIBRARY_PATH (numagpu.pc's -rpath); the installed libraries and programs carry a RUNPATH
# relative to themselves.
# Usage: pkg_config.sh PREFIX SOURCE_DIR WORK_DIR
set -euo pipefail  # no `cmd | grep -q` below: grep -q exiting early fails the pipe (SIGPIPE)
prefix=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
pc=$(find "$prefix" -name numagpu.pc | head -1)
[ -n "$pc" ] || { echo "pkg_config: no numagpu.pc under $prefix"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --cflags --libs numagpu)
g++ -std=c++17 -O1 -o "$work/host_platform" "$src/examples/host_platform/main.cpp" $flags
libdir=$(pkg-config --variable=libdir numagpu)
grep -q "libnumagpu.so" <<< "$(ldd "$work/host_platform")" || { echo "pkg_config: not linked to libnumagpu.so"; exit 1; }
grep -q "RUNPATH.*\[$libdir\]" <<< "$(readelf -d "$work/host_platform")" ||
  { echo "pkg_config: the program has no RUNPATH to $libdir"; readelf -d "$work/host_platform" | grep -i path; exit 1; }
for f in "$prefix"/bin/numagpu "$prefix"/lib*/libnumagpu.so; do
  grep -q 'RUNPATH.*\$ORIGIN' <<< "$(readelf -d "$f")" || { echo "pkg_config: $f has no RUNPATH from \$ORIGIN"; exit 1; }
done
(cd "$work" && env -u LD_LIBRARY_PATH ./host_platform)
