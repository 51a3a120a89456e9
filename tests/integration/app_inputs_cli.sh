#!/bin/bash
# An application's input and arguments, tried as a new user would (issue 44): each bad one is one error line at
# the key that named it, exit status 2, nothing written; a host loop that does not converge ends at its launch
# bound with complete outputs marked incomplete, exit status 1.
# Usage: app_inputs_cli.sh NUMAGPU SCRATCH
set -eu
numagpu=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
# A small machine: the tests are about inputs, not timing.
small=(--set system.sockets=1 --set sm.per_socket=2)

workload() {  # workload NAME APP ARGS INPUT
  printf 'workload:\n  name: %s\n  kernels:\n    - name: %s\n      app: %s\n      args: "%s"\n      input: %s\n' \
    "$1" "$1" "$2" "$3" "$4" > "$out/$1.yaml"
}
# refused NAME EXPECTED...: the run of $out/NAME.yaml exits 2 within seconds, with one line holding each EXPECTED,
# and writes nothing.
refused() {
  local name=$1 rc=0
  shift
  timeout 20 "$numagpu" run -q "${small[@]}" -w "$out/$name.yaml" -o "$out/$name.out" 2> "$out/$name.err" || rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l < "$out/$name.err")" -ne 1 ] || [ -e "$out/$name.out" ]; then
    echo "$name: exit status $rc, expected 2 with one line and nothing written:" && cat "$out/$name.err" && exit 1
  fi
  for expected in "$@"; do
    grep -qF -- "$expected" "$out/$name.err" || { echo "$name: no '$expected' in:" && cat "$out/$name.err" && exit 1; }
  done
}

# 1. The 3-vertex graph whose sums overflowed int32 (about 5 x 10^8 launches before): refused at its line 3.
printf '3 2 1\n2 1073741822\n1 1073741822 3 2147483647\n2 2147483647\n' > "$out/overflow.graph"
workload overflow lonestar/sssp "layers=1" "$out/overflow.graph"
refused overflow "workload.kernels.0.input" "overflow.graph:3: an edge weight of 2147483647, more than 1073741824"

# 2. A 12-byte header asking for 2^28 - 1 vertices, under a 512 MiB address-space limit (the program runs in
# 256 MiB): it reserved 1 GiB of row pointers before (bad_alloc, SystemC's E549 even at a 1 GiB limit); now one
# line. A sanitizer build, whose shadow memory needs terabytes of address space, runs it without the limit.
printf '268435455 1\n' > "$out/header.graph"
workload header rodinia/bfs "layers=1" "$out/header.graph"
limit=524288
(ulimit -v $limit && "$numagpu" --version > /dev/null 2>&1) || limit=unlimited
(ulimit -v $limit && refused header "workload.kernels.0.input" "header.graph:1: the file ends after 0 of 268435455 vertex lines")

# 3. A FIFO (nobody writes it: opening it would block) and a directory (the configuration check finds it).
mkfifo "$out/g.fifo"
workload fifo rodinia/bfs "layers=1" "$out/g.fifo"
refused fifo "workload.kernels.0.input" "g.fifo: is a FIFO, not a regular file"
workload dir rodinia/bfs "layers=1" "$out"
refused dir "workload.kernels.0.input" "Is a directory"

# 4. A 1-vertex graph: at the input (it was reported at memory.placement of the built-in configuration).
printf '1 0\n\n' > "$out/one.graph"
workload one lonestar/mst "layers=1" "$out/one.graph"
refused one "workload.kernels.0.input" "one.graph: a graph without edges (1 vertex)"

# 5. An argument given twice.
printf '3 3\n2 3\n1 3\n1 2\n' > "$out/triangle.graph"
workload twice rodinia/bfs "layers=1 layers=2" "$out/triangle.graph"
refused twice "workload.kernels.0.args" "argument 'layers' is given twice ('layers=1', then 'layers=2')"

# 6. The launch bound: SSSP on the triangle takes 4 launches (weights from the seed: iteration 1 reaches both
# neighbours of vertex 1, iteration 2 may improve one, iteration 3 nothing: 4 or 6); a bound of 3 stops it at
# launch 4, with the outputs complete and marked incomplete (stop_reason max_launches), exit status 1.
workload bound lonestar/sssp "layers=1" "$out/triangle.graph"
rc=0
"$numagpu" run -q "${small[@]}" -w "$out/bound.yaml" --set checks.max_launches=3 -o "$out/bound.out" \
  2> "$out/bound.err" || rc=$?
test "$rc" -eq 1 || { echo "bound: exit status $rc, expected 1" && cat "$out/bound.err" && exit 1; }
grep -qF "numagpu: run failed: application 'bound' stopped at its launch bound: its host program asked for launch 4 ('SSSP2') after 3 (checks.max_launches)" "$out/bound.err" \
  || { echo "bound: unexpected message:" && cat "$out/bound.err" && exit 1; }
/usr/bin/python3 - "$out/bound.out/stats.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["complete"] is False and doc["run"]["stop_reason"] == "max_launches", (doc["complete"], doc["run"])
EOF
for f in stats.txt config.yaml activity.json power.json; do test -s "$out/bound.out/$f"; done
# Without the key, the application's own bound (2 (n + 1) = 8) lets it finish.
"$numagpu" run -q "${small[@]}" -w "$out/bound.yaml" -o "$out/unbound.out"
echo "app inputs: ok"
