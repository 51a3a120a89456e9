#!/bin/sh
# Output failures as a shell sees them (issue 23, item 6; docs/reliability.md, "Output failures"): a run or
# a workload dump that cannot write all its outputs writes none of them, says so in one line and exits
# non-zero; a directory that cannot take files is found before simulating; a rerun that fails leaves the
# previous set as it was. A full disk is simulated two ways: the test hook NUMAGPU_TEST_FAIL_WRITE=N (the
# N-th atomic write of the process fails with ENOSPC, stats/atomic_write.hpp) and a real RLIMIT_FSIZE
# (`ulimit -f`, with SIGXFSZ ignored so that write() fails with EFBIG instead of killing the process).
# Usage: output_failures_cli.sh NUMAGPU SCRATCH_DIR
set -u
numagpu=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"

fail() {
  echo "output_failures_cli: $*" >&2
  exit 1
}

# A run of well under a second: the default workload on 2 sockets of 4 SMs. It writes, in this order,
# the probe, stats.json, stats.txt, lanes.vcd, config.yaml, activity.json and power.json.
small="--set system.sockets=2 --set sm.per_socket=4"

# One line on stderr, containing $2; exit status non-zero. $1 names the case.
expect_one_line_error() {
  [ "$status" -ne 0 ] || fail "$1: exit status 0"
  [ "$(wc -l < "$dir/err")" -eq 1 ] || fail "$1: expected one line on stderr, got: $(cat "$dir/err")"
  grep -qF -- "$2" "$dir/err" || fail "$1: expected '$2' on stderr, got: $(cat "$dir/err")"
}

# 1. Any one output failing: nothing is written, not even the directory.
for n in 2 3 4 5 6 7; do
  out="$dir/fresh_$n"
  # shellcheck disable=SC2086
  NUMAGPU_TEST_FAIL_WRITE=$n "$numagpu" run -q $small -o "$out" 2> "$dir/err"
  status=$?
  expect_one_line_error "write $n failing" "cannot write (No space left on device); the run's outputs were not written"
  [ ! -e "$out" ] || fail "write $n failing: $out was left behind: $(ls -A "$out")"
done

# 2. A rerun into a directory holding a complete set, failing at activity.json: the previous set stays whole
#    (the old stats.json is not left beside new files of another configuration, nor a new one beside old).
# shellcheck disable=SC2086
"$numagpu" run -q $small -o "$dir/rerun" || fail "the first run failed"
cp -r "$dir/rerun" "$dir/before"
# shellcheck disable=SC2086
NUMAGPU_TEST_FAIL_WRITE=6 "$numagpu" run -q $small --set sm.per_socket=2 -o "$dir/rerun" 2> "$dir/err"
status=$?
expect_one_line_error "rerun" "rerun/activity.json: cannot write (No space left on device)"
diff -r "$dir/before" "$dir/rerun" > /dev/null || fail "a failed rerun changed the previous set: $(ls -A "$dir/rerun")"
# A rerun that succeeds replaces the whole set, and leaves no staging directory.
# shellcheck disable=SC2086
"$numagpu" run -q $small --set sm.per_socket=2 -o "$dir/rerun" || fail "the second run failed"
grep -q '"per_socket": 2' "$dir/rerun/stats.json" || fail "the rerun did not replace stats.json"
[ "$(ls -A "$dir/rerun" | sort | tr '\n' ' ')" = "activity.json config.yaml lanes.vcd power.json stats.json stats.txt " ] ||
  fail "unexpected files after a rerun: $(ls -A "$dir/rerun")"

# 3. A directory that cannot take files is found before simulating. The default 4-socket run takes seconds;
#    the refusal must come at once.
start=$(date +%s)
NUMAGPU_TEST_FAIL_WRITE=1 "$numagpu" run -q -o "$dir/probe" 2> "$dir/err"
status=$?
expect_one_line_error "probe" "probe: cannot write output files there (No space left on device); found before running"
[ ! -e "$dir/probe" ] || fail "the failed probe left $dir/probe"
[ $(($(date +%s) - start)) -lt 3 ] || fail "the probe failure took more than 3 s: the run was simulated first"
if [ "$(id -u)" -ne 0 ]; then  # root writes into a read-only directory anyway
  mkdir "$dir/readonly" && chmod 555 "$dir/readonly"
  # shellcheck disable=SC2086
  "$numagpu" run -q $small -o "$dir/readonly" 2> "$dir/err"
  status=$?
  expect_one_line_error "read-only" "readonly: cannot write output files there (Permission denied)"
  chmod 755 "$dir/readonly"
fi

# 4. A real write failure: files larger than 64 KiB fail with EFBIG. stats.json (~50 KB) fits, stats.txt
#    (~160 KB) does not: before the output set, stats.json stayed alone, claiming "complete": true.
# shellcheck disable=SC2086
(trap '' XFSZ; ulimit -f 128 2> /dev/null; [ "$(ulimit -f)" = 128 ] || exit 99
 exec "$numagpu" run -q $small -o "$dir/efbig") 2> "$dir/err"
status=$?
if [ "$status" -eq 99 ]; then
  echo "output_failures_cli: ulimit -f unavailable; the EFBIG case is skipped"
else
  expect_one_line_error "EFBIG" "cannot write (File too large); the run's outputs were not written"
  [ ! -e "$dir/efbig" ] || fail "EFBIG: $dir/efbig was left behind: $(ls -A "$dir/efbig")"
fi

# 5. workload dump is all or nothing: workload.yaml failing (the probe is write 1) leaves no trace file.
NUMAGPU_TEST_FAIL_WRITE=2 "$numagpu" workload dump $small -o "$dir/dump" > /dev/null 2> "$dir/err"
status=$?
expect_one_line_error "dump" "dump/workload.yaml: cannot write (No space left on device)"
[ ! -e "$dir/dump" ] || fail "a failed dump left: $(ls -A "$dir/dump")"
# shellcheck disable=SC2086
"$numagpu" workload dump $small -o "$dir/dump" > /dev/null || fail "the dump failed"
[ "$(ls -A "$dir/dump" | grep -c '\.ngt$')" -eq 4 ] && [ -s "$dir/dump/workload.yaml" ] ||
  fail "the dump did not write 4 traces and workload.yaml: $(ls -A "$dir/dump")"
[ "$(ls -A "$dir/dump" | grep -c '^\.')" -eq 0 ] || fail "the dump left hidden files: $(ls -A "$dir/dump")"

echo "output_failures_cli: all cases passed"
