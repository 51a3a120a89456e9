#!/bin/sh
# l2.replacement from the command line: a working set reused across a scan, where LRU must lose it and SRRIP
# must keep it (docs/memory-system.md, "Replacement").
#
# One socket, one L2 bank of 8 KiB with 4 ways: 16 sets, line n in set n mod 16. Four kernels, each reading
# every line of its range once (stream; the L1s are emptied at every kernel boundary, so each read reaches
# the L2):
#   warm        lines 0..31       (W: 2 lines per set)   32 misses, filling 2 ways of every set
#   reuse       lines 0..31                              32 hits
#   scan        lines 8192..8255  (S: 4 lines per set)   64 misses
#   reuse_again lines 0..31
# LRU: in each set the scan's first 2 lines take the free ways and its last 2 evict W's 2 lines, older than
# any scan line: reuse_again misses all 32 (and evicts 2 scan lines per set). L2 read hits 32, misses
# 32 + 64 + 32 = 128, evictions 16 x 2 + 16 x 2 = 64.
# SRRIP: W is inserted at RRPV 2 and its hits set 0. The scan's first 2 lines take the free ways at 2; the
# third finds no 3, ages the set (W 1, scan 3) and evicts a scan line; the fourth evicts the other one at 3
# (tests/unit/model/tag_array_test.cpp derives the same set step by step). W survives: reuse_again hits all
# 32. Hits 64, misses 32 + 64 = 96, evictions 16 x 2 = 32.
# Usage: replacement_cli.sh NUMAGPU SCRATCH_DIR
set -eu
numagpu=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"

k='compute_cycles: 0, ctas: 1, accesses_per_warp: 8'
kernels="workload.kernels=[{name: warm, $k, warps_per_cta: 4}, {name: reuse, $k, warps_per_cta: 4}, {name: scan, $k, warps_per_cta: 8, base_address: 1048576}, {name: reuse_again, $k, warps_per_cta: 4}]"

expect() {  # POLICY STAT VALUE
  got=$(awk -v k="system.socket0.l2_0.$2" '$1 == k { print $2 }' "$dir/$1/stats.txt")
  [ "$got" = "$3" ] || { echo "replacement_cli: $1: l2_0.$2 is $got, expected $3" >&2; exit 1; }
}

check() {  # POLICY HITS MISSES EVICTIONS
  "$numagpu" run -q --set system.sockets=1 --set l2.banks=1 --set l2.size_bytes=8192 --set l2.ways=4 \
    --set "l2.replacement=$1" --set "$kernels" -o "$dir/$1"
  expect "$1" read_hits.local_local "$2"
  expect "$1" read_misses.local_local "$3"
  expect "$1" evictions "$4"
}

check lru 32 128 64
check srrip 64 96 32
echo "replacement_cli: lru and srrip give the derived L2 hits, misses and evictions"
