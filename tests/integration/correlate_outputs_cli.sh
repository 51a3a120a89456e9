#!/bin/sh
# numagpu correlate's outputs are all or nothing (docs/correlation.md, "Outputs"):
# 1. the README's `correlate --power` without --hw draws both figures (its plot script once failed on the empty
#    --hw columns), and the breakdown stacks only the power components: each bar's height is the simulated
#    total (the script once stacked simulated_with_hardware_idle as a component);
# 2. a bad configuration, or a table with a negative, hexadecimal, zero-cycle or duplicate entry: one line
#    FILE:LINE:COL, status 2, nothing written (no directory made; an existing one untouched);
# 3. into a folder of an earlier correlate, the whole set is replaced: no stale figure or run stays;
# 4. a plot that fails after drawing one figure leaves no figure at all, and the message is the script's own
#    error, not "needs python3-matplotlib"; that advice only when matplotlib's import fails.
# Usage: correlate_outputs_cli.sh NUMAGPU SOURCE_DIR SCRATCH
set -eu
numagpu=$1 src=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
qv100=$src/configs/gpus/qv100.yaml
printf ',mean HW_power,st_dev,var,#samples\ndct8x8_k2,100,1,1,5\n' > "$out/one.csv"

# 1. The README's command on one kernel.
"$numagpu" correlate -q --power "$out/one.csv" -c "$qv100" -o "$out/pc" > "$out/pc.out"
test -s "$out/pc/power_correlation.png"
test -s "$out/pc/power_breakdown.png"
/usr/bin/python3 - "$src/scripts" "$out/pc/power_breakdown.csv" <<'PY'
import csv, sys
sys.path.insert(0, sys.argv[1])
import plot_power_correlation as p
with open(sys.argv[2], newline="") as f:
    reader = csv.DictReader(f)
    rows = list(reader)
kinds, totals = p.stacked(rows, reader.fieldnames)
assert "simulated_with_hardware_idle" not in kinds and "simulated_at_hardware_time" not in kinds, kinds
for r, t in zip(rows, totals):
    assert abs(t - float(r["simulated"])) <= 1e-6 * float(r["simulated"]), (r, t)
PY

# 1b. Two counter rows that one library kernel stands for (two manglings of CUDAkernel2DCT): each runs in a
# directory of its own (their names once made one), and --power prices dct8x8_k2 at neither's time.
printf 'Benchmark,Kernel,DRAM_Rd,Elapsed_Cycles\ndct8x8,_Z14CUDAkernel2DCTPfS_i,1,100\ndct8x8,_Z14CUDAkernel2DCTPfS_j,1,200\n' \
  > "$out/two.csv"
"$numagpu" correlate -q --power "$out/one.csv" --hw "$out/two.csv" -c "$qv100" -j 2 -o "$out/two" > /dev/null
test -s "$out/two/runs/dct8x8__CUDAkernel2DCT/out/stats.json"
test -s "$out/two/runs/dct8x8__CUDAkernel2DCT_2/out/stats.json"
test "$(grep -c '^dct8x8,_Z14CUDAkernel2DCTPfS_[ij],DRAM_Rd,1,' "$out/two/correlation.csv")" -eq 2
grep -q '^dct8x8_k2,100,[0-9.]*,.*,[0-9]*,,,$' "$out/two/power_breakdown.csv"
grep -q "several rows that \`cuda-samples/dct8x8_CUDAkernel2DCT\` stands for" "$out/two/power_correlation.md"

# 2. Bad input: one line, status 2, nothing written.
expect_bad() {  # expect_bad MESSAGE ARGS...: correlate ARGS fails with status 2 and exactly MESSAGE
  message=$1
  shift
  if "$numagpu" correlate -q "$@" -o "$out/bad" > "$out/bad.out" 2> "$out/bad.err"; then
    echo "accepted: $*" >&2
    exit 1
  else
    rc=$?
  fi
  test "$rc" -eq 2 || { echo "status $rc: $*" >&2; exit 1; }
  test "$(cat "$out/bad.err")" = "$message" || { echo "got: $(cat "$out/bad.err")" >&2; exit 1; }
  test ! -e "$out/bad"
}
printf 'system:\n  sockets: 1\nl2:\n  wayz: 4\n' > "$out/badconfig.yaml"
if "$numagpu" correlate -q --power "$out/one.csv" -c "$out/badconfig.yaml" -o "$out/bad" 2> "$out/bad.err"; then
  exit 1
else
  test $? -eq 2
fi
test "$(wc -l < "$out/bad.err")" -eq 1
grep -q "^numagpu: error: $out/badconfig.yaml:4:3: l2.wayz: " "$out/bad.err"
test ! -e "$out/bad"
# Into an existing folder, a bad configuration leaves it as it was.
cp -r "$out/pc" "$out/pc.before"
if "$numagpu" correlate -q --power "$out/one.csv" -c "$out/badconfig.yaml" -o "$out/pc" 2> /dev/null; then exit 1; fi
diff -r "$out/pc" "$out/pc.before"
# Counter tables: "b,k," is 4 bytes, so the third field starts at column 5.
printf 'Benchmark,Kernel,DRAM_Rd\nb,k,-5\n' > "$out/neg.csv"
expect_bad "numagpu: error: $out/neg.csv:2:5: DRAM_Rd: expected a non-negative decimal number, not '-5'" --hw "$out/neg.csv"
printf 'Benchmark,Kernel,DRAM_Rd\nb,k,0x1A\n' > "$out/hex.csv"
expect_bad "numagpu: error: $out/hex.csv:2:5: DRAM_Rd: expected a non-negative decimal number, not '0x1A'" --hw "$out/hex.csv"
printf 'Benchmark,Kernel,Elapsed_Cycles\nb,k,0\n' > "$out/zero.csv"
expect_bad "numagpu: error: $out/zero.csv:2:5: Elapsed_Cycles: expected at least 1 cycle, not 0" --hw "$out/zero.csv"
printf 'Benchmark,Kernel,DRAM_Rd\nb,k,1\nb,k,2\n' > "$out/dup.csv"
expect_bad "numagpu: error: $out/dup.csv:3:3: Kernel: a second row of kernel 'k' of benchmark 'b' (first on line 2): each kernel has one row, a mean over its launches, and rows without launch counts cannot be merged" --hw "$out/dup.csv"
# Power tables: "dct8x8_k2," is 10 bytes, the watts start at column 11.
printf ',mean HW_power\ndct8x8_k2,0\n' > "$out/zerow.csv"
expect_bad "numagpu: error: $out/zerow.csv:2:11: mean HW_power: expected a positive number of watts, not 0" --power "$out/zerow.csv"
printf ',mean HW_power\ndct8x8_k2,100\ndct8x8_k2,90\n' > "$out/dupw.csv"
expect_bad "numagpu: error: $out/dupw.csv:3:1: name: a second row of 'dct8x8_k2' (first on line 2): each kernel has one row, a mean over its runs, and rows without their sample counts cannot be merged" --power "$out/dupw.csv"

# 3. An earlier correlate's figures, tables and runs in the folder: replaced as a whole; other files stay.
# A runs/ folder that is not correlate's (an entry without its workload.yaml) is not replaced: refused first.
mkdir -p "$out/pc/runs/old"
if "$numagpu" correlate -q --power "$out/one.csv" -c "$qv100" -o "$out/pc" 2> "$out/runs.err"; then exit 1; else test $? -eq 2; fi
grep -qx "numagpu: error: $out/pc/runs: not an earlier correlate's runs, which correlate replaces; nothing written (choose another -o)" "$out/runs.err"
test -d "$out/pc/runs/old"
touch "$out/pc/runs/old/workload.yaml"
echo stale > "$out/pc/correlation_OLD.png"
echo stale > "$out/pc/correlation.md"
echo stale > "$out/pc/power_breakdown.png"
echo mine > "$out/pc/notes.txt"
"$numagpu" correlate -q --power "$out/one.csv" -c "$qv100" -o "$out/pc" > /dev/null
test ! -e "$out/pc/correlation_OLD.png"
test ! -e "$out/pc/correlation.md"
test ! -e "$out/pc/runs"
test "$(cat "$out/pc/power_breakdown.png")" != stale
test "$(cat "$out/pc/notes.txt")" = mine
test -z "$(find "$out/pc" -name '.numagpu-staging*')"

# 4. Plot failures. The second figure fails (a sitecustomize that makes the second savefig raise): no figure
# is left, not even the first or an earlier run's, the tables are written, status 1, and the message is the
# script's error with where the script raised it.
mkdir -p "$out/site" "$out/nompl/matplotlib"
cat > "$out/site/sitecustomize.py" <<'PY'
import matplotlib.figure
real, calls = matplotlib.figure.Figure.savefig, [0]
def savefig(self, *args, **kwargs):
    calls[0] += 1
    if calls[0] == 2:
        raise OverflowError("the second figure overflows")
    return real(self, *args, **kwargs)
matplotlib.figure.Figure.savefig = savefig
PY
printf '#!/bin/sh\nPYTHONPATH=%s exec /usr/bin/python3 "$@"\n' "$out/site" > "$out/python-fails"
printf 'raise ModuleNotFoundError("No module named %s", name="matplotlib")\n' "'matplotlib'" \
  > "$out/nompl/matplotlib/__init__.py"
printf '#!/bin/sh\nPYTHONPATH=%s exec /usr/bin/python3 "$@"\n' "$out/nompl" > "$out/python-nompl"
chmod +x "$out/python-fails" "$out/python-nompl"
if NUMAGPU_PYTHON=$out/python-fails "$numagpu" correlate -q --power "$out/one.csv" -c "$qv100" -o "$out/pc" \
  > "$out/fail.out" 2> "$out/fail.err"; then exit 1; else test $? -eq 1; fi
test -z "$(find "$out/pc" -name '*.png')"
test -s "$out/pc/power_correlation.csv" && test -s "$out/pc/power_correlation.md"
test "$(wc -l < "$out/fail.err")" -eq 1
grep -q "^numagpu: error: correlate: plotting failed, no figure written: plot_power_correlation.py: OverflowError: the second figure overflows (scripts/plot_power_correlation.py:[0-9]* in breakdown)" "$out/fail.err"
if grep -q matplotlib "$out/fail.err"; then exit 1; fi
grep -q "power_correlation.md$" "$out/fail.out"  # the tables are said to be written, no figure
if NUMAGPU_PYTHON=$out/python-nompl "$numagpu" correlate -q --power "$out/one.csv" -c "$qv100" -o "$out/pc" \
  2> "$out/nompl.err" > /dev/null; then exit 1; fi
grep -q "plotting failed, no figure written: plot_power_correlation.py: matplotlib is missing: it needs python3-matplotlib" "$out/nompl.err"
# 5. A SIGTERM to correlate and its run (its process group, as a Ctrl-C reaches both) while the first of two
# kernels runs: no other run starts, the results so far are written as a whole set with the runs not finished
# listed as failed, no staging directory is left, and the status is 128 + 15. A staging directory of a dead
# correlate (pid 999999999 cannot be alive: above Linux's pid limit) is removed.
mkdir -p "$out/term/.numagpu-staging.999999999"
setsid "$numagpu" correlate -q --power "$src/tests/data/correlate/power_small.csv" -c "$qv100" -j 1 \
  -o "$out/term" > "$out/term.out" 2> "$out/term.err" &
pid=$!
tries=0
until pgrep -P "$pid" > /dev/null; do  # its first run has started
  tries=$((tries + 1))
  test "$tries" -lt 600 || { echo "no run started" >&2; exit 1; }
  sleep 0.05
done
/bin/kill -TERM -- "-$pid"
if wait "$pid"; then exit 1; else rc=$?; fi
test "$rc" -eq 143 || { echo "status $rc" >&2; cat "$out/term.err" >&2; exit 1; }
grep -q "^numagpu: correlate interrupted by SIGTERM" "$out/term.err"
grep -q "^## Failed runs" "$out/term/power_correlation.md"
grep -q "^- dct8x8_k2 (not run: interrupted)" "$out/term/power_correlation.md"
test -z "$(find "$out/term" -name '.numagpu-staging*')"
echo "correlate outputs: ok"
