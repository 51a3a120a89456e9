#!/usr/bin/env bash
# The hot path's figure of merit (docs/performance.md, "Instructions per SM request"): instructions executed in
# the simulation's delivery loop (callgrind, --toggle-collect on DeliveryScheduler::fire, so start-up and
# output writing are left out) divided by the SM requests of the same run (loads + stores + atomics of every
# SM, from its stats.txt). Instruction counts do not depend on the machine's load, so two binaries can be
# compared on a busy machine where their wall times cannot.
#   scripts/instructions_per_request.sh NUMAGPU_BINARY [numagpu run options...]
# Prints one line: instructions, requests, instructions per request. Needs valgrind.
set -eu
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 NUMAGPU_BINARY [run options...]" >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
binary="$1"; shift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
  --toggle-collect='numagpu::DeliveryScheduler::fire()' "$binary" run -q -o "$work/run" "$@" \
  >/dev/null 2>"$work/valgrind.log" || { echo "$0: the run failed:" >&2; tail -5 "$work/valgrind.log" >&2; exit 1; }
instructions="$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$work/valgrind.log")"
requests="$(awk '/^system\..*\.sm[0-9]+\.(loads|stores|atomics) /{s += $2} END {print s + 0}' "$work/run/stats.txt")"
if [ -z "$instructions" ] || [ "$requests" -eq 0 ]; then
  echo "$0: no instruction count or no SM requests (see callgrind's log)" >&2
  exit 1
fi
awk -v i="$instructions" -v r="$requests" 'BEGIN {printf "instructions %d  requests %d  per request %.0f\n", i, r, i / r}'
