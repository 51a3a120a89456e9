#!/bin/sh
# A faulting kernel (fault.cu): the run stops with one line naming the kernel, the CTA, the thread and the PTX
# line, the host's calls return the CUDA error a GPU gives (and keep returning it: sticky), nothing is written,
# and the process exits with the run's failure status (1).
# Usage: fault_test.sh NUMAGPU_CC FAULT.cu WORKDIR
set -u
cc=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$cc" -O2 "$source" -o fault || exit 1
fail=0
check() {  # check MODE ERROR_NAME LINE_PATTERN
  NUMAGPU_OUT=out_$1 ./fault "$1" >stdout_$1 2>stderr_$1
  status=$?
  [ "$status" -eq 1 ] || { echo "$1: exit status $status, expected 1"; fail=1; }
  grep -q "fault: launch $2, synchronize $2" stdout_$1 || { echo "$1: host did not get $2:"; cat stdout_$1; fail=1; }
  grep -q "fault: then memcpy $2" stdout_$1 || { echo "$1: the error is not sticky"; fail=1; }
  [ "$(grep -c 'numagpu: error:' stderr_$1)" -eq 1 ] || { echo "$1: not one error line:"; cat stderr_$1; fail=1; }
  grep -q "$3" stderr_$1 || { echo "$1: the error line does not match '$3':"; cat stderr_$1; fail=1; }
  [ ! -e out_$1/stats.json ] || { echo "$1: outputs written after a fault"; fail=1; }
}
# The last thread of CTA 1 (threads 128..255 of 256, one past the end by 8 elements).
check oob cudaErrorIllegalAddress "fault\.ptx:[0-9]*:[0-9]*: out-of-bounds global load of 4 bytes at address 0x[0-9a-f]* in kernel '_Z13read_past_endPKiPii', CTA (1,0,0), thread (127,0,0)"
# Thread 37 of CTA 0.
check trap cudaErrorAssert "fault\.ptx:[0-9]*:[0-9]*: trap in kernel '_Z9trap_oncePii', CTA (0,0,0), thread (37,0,0)"
[ $fail -eq 0 ] && echo "fault: PASS"
exit $fail
