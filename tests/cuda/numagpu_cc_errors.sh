#!/bin/sh
# numagpu-cc's errors (docs/cuda.md): an unknown option is one line naming it (status 2); a file of unknown
# kind is one line naming it; a clang failure passes clang's message through with clang's status (1).
# Usage: numagpu_cc_errors.sh NUMAGPU_CC SOURCE_DIR WORK_DIR
set -u
cc=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0
expect() {  # expect NAME STATUS PATTERN LINES -- command...
  name=$1 status=$2 pattern=$3 lines=$4
  shift 5
  "$@" >"$work/$name.out" 2>"$work/$name.err"
  got=$?
  n=$(wc -l <"$work/$name.err")
  if [ "$got" != "$status" ] || ! grep -q -- "$pattern" "$work/$name.err" || { [ "$lines" != any ] && [ "$n" != "$lines" ]; }; then
    echo "FAIL $name: status $got (want $status), $n lines (want $lines), stderr:"
    cat "$work/$name.err"
    failures=$((failures + 1))
  else
    echo "ok $name: $(head -n 1 "$work/$name.err")"
  fi
}
printf '__global__ void k(int* p) { p[0] = undeclared_name; }\n' >"$work/bad.cu"
printf 'int main() { return 0; }\n' >"$work/fine.cpp"
expect unknown_option 2 "numagpu-cc: unknown option '--bogus'" 1 -- "$cc" --bogus "$work/fine.cpp"
expect unknown_kind 2 "numagpu-cc: '$work/notes.txt': unknown kind of file" 1 -- "$cc" "$work/notes.txt"
expect no_inputs 2 "numagpu-cc: no input files" 1 -- "$cc" -O2
expect bad_arch 2 "numagpu-cc: -arch: 'volta' is not an architecture" 1 -- "$cc" -arch=volta "$work/bad.cu"
expect missing_value 2 "numagpu-cc: option '-o' needs a value" 1 -- "$cc" "$work/fine.cpp" -o
expect missing_file 2 "numagpu-cc: '$work/absent.cu': no such file" 1 -- "$cc" -c "$work/absent.cu"
# clang's own diagnostic (file:line:column: error: ...) and its exit status.
expect clang_error 1 "bad.cu:1:.*error: use of undeclared identifier 'undeclared_name'" any -- "$cc" -c "$work/bad.cu" -o "$work/bad.o"
# -v prints each command before running it: the device compile to PTX comes first.
expect verbose 0 "--cuda-device-only" any -- "$cc" -v -c "$src/registration_probe.cu" -o "$work/probe.o"
[ "$failures" = 0 ]
