#!/bin/sh
# Each trace is opened once by a run: the configuration only asks whether it can be read, and the workload
# builder opens it, checks its header (the CTA against the SM) and reads its blocks from that one open
# (system/workload_builder.hpp, trace::open_kernel_trace). Two kernels replay two traces, one of them
# gzip-compressed (its format is sniffed from the decompressed start); strace counts the open calls of each
# path: exactly 1 each. Skipped (77) without strace or where it cannot trace.
# Usage: trace_opened_once.sh NUMAGPU SOURCE_DIR SCRATCH_DIR
set -eu
numagpu=$1
src=$2
dir=$3
rm -rf "$dir"
mkdir -p "$dir"

fail() {
  echo "trace_opened_once: $*" >&2
  exit 1
}

command -v strace > /dev/null || { echo "trace_opened_once: no strace: skipped"; exit 77; }
strace -f -o /dev/null true 2> /dev/null || { echo "trace_opened_once: strace cannot trace here: skipped"; exit 77; }
# LeakSanitizer cannot run under ptrace: a sanitizer build's leak check is off for this one traced run (the
# suite's other runs keep it).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

plain="$src/tests/data/replay/kernel-1-barrier.traceg"
gzip -c "$src/tests/data/replay/kernel-2-compute.traceg" > "$dir/compute.traceg.gz"
cat > "$dir/w.yaml" <<YAML
workload:
  kernels:
    - name: barrier
      trace: $plain
    - name: compute
      trace: compute.traceg.gz
YAML
strace -f -e trace=open,openat,creat -o "$dir/strace.log" \
  "$numagpu" run -q -w "$dir/w.yaml" --set system.sockets=1 --set sm.per_socket=1 -o "$dir/out" ||
  fail "the run failed"
for trace in "$plain" "$dir/compute.traceg.gz"; do
  opens=$(grep -c "\"$trace\"" "$dir/strace.log" || true)
  [ "$opens" -eq 1 ] || fail "$trace opened $opens times, not once"
done
grep -q '"kernels_total": 2' "$dir/out/stats.json" || fail "the run did not replay both kernels"
echo "trace_opened_once: each trace opened once"
