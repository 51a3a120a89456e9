#!/usr/bin/env bash
# Runs each libFuzzer target of a NUMAGPU_FUZZ build for a fixed time, starting from seed corpora made of the
# repository's own files, and fails on any finding: a crash, a sanitizer report (ASan, UBSan), an uncaught
# exception, an error message that breaks the one-line contract (fuzz/harness.hpp), an input that takes more
# than 10 s (a hang), or one that needs more than 2 GB of memory. A finding is kept in BUILD/fuzz-work/findings;
# once fixed, copy it to fuzz/regressions/<target>/ so the regular test suite replays it for ever.
#
# Each target gets a dictionary (fuzz/dict/<target>.dict: the words of its format; for config also every key
# and choice of docs/configuration.md) and a maximum input length well above its seeds (max_len below;
# FUZZ_MAX_LEN overrides it for every target), so mutations reach whole trace files and large configurations.
#
# Usage: scripts/fuzz.sh [--print-commands] BUILD_DIR [SECONDS_PER_TARGET] [TARGET...]  (targets: config accelsim ngt metis hwcsv activity ptx)
#   FUZZ_JOBS=N runs N targets at once (default 2)
#   --print-commands: print each target's fuzzer command line and exit (no build needed; tests check it)
# Example: cmake -S . -B build-fuzz -G Ninja -DNUMAGPU_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 &&
#          cmake --build build-fuzz && scripts/fuzz.sh build-fuzz 60
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
print_only=0
if [ "${1:-}" = --print-commands ]; then print_only=1; shift; fi
if [ $print_only -eq 1 ]; then
  build=${1:?usage: scripts/fuzz.sh [--print-commands] BUILD_DIR [SECONDS] [TARGET...]}
else
  build=$(cd "${1:?usage: scripts/fuzz.sh [--print-commands] BUILD_DIR [SECONDS] [TARGET...]}" && pwd)
fi
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(config accelsim ngt metis hwcsv activity ptx)

# Largest input per target, in bytes. The seeds are a few kB at most; without a limit libFuzzer guesses one
# from them and grows it slowly (-len_control), so in minutes of fuzzing no trace input exceeded 904 bytes.
declare -A max_len=([config]=16384 [accelsim]=65536 [ngt]=65536 [metis]=65536 [hwcsv]=65536 [activity]=65536 [ptx]=65536)
# How fast libFuzzer lets inputs grow towards max_len: 0 at once (the trace targets, whose seeds are under 1 kB),
# 20 gradually (the configuration target, whose seeds are up to 8 kB and whose inputs are slower to load).
declare -A len_control=([config]=20 [accelsim]=0 [ngt]=0 [metis]=0 [hwcsv]=0 [activity]=0 [ptx]=20)
work=$build/fuzz-work
fuzzer_command() {  # fuzzer_command TARGET: the libFuzzer command line, one argument per line
  local t=$1
  printf '%s\n' "$build/${t}_fuzzer" "-dict=$work/$t.dict" "-max_len=${FUZZ_MAX_LEN:-${max_len[$t]}}" \
    "-len_control=${len_control[$t]}" "-max_total_time=$seconds" -timeout=10 -rss_limit_mb=2048 \
    "-artifact_prefix=$work/findings/$t-" -print_final_stats=1 "$work/corpus/$t" "$work/seeds/$t"
}
if [ $print_only -eq 1 ]; then
  for t in "${targets[@]}"; do echo "$t: $(fuzzer_command "$t" | tr '\n' ' ')"; done
  exit 0
fi

rm -rf "$work"
mkdir -p "$work/findings"

# --- seed corpora: the repository's own files -------------------------------------------------------------
seed() {  # seed TARGET NAME FRAMING_BYTE|- FILE: copy FILE (after the framing byte, if any) into the seeds
  local dir=$work/seeds/$1
  mkdir -p "$dir"
  if [ "$3" = - ]; then cp "$4" "$dir/$2"; else { printf "\\x$3"; cat "$4"; } > "$dir/$2"; fi
}
for f in "$root"/configs/*.yaml "$root"/configs/*/*.yaml; do
  seed config "$(basename "$(dirname "$f")")-$(basename "$f")" - "$f"
done
for f in "$root"/tests/data/*/*.traceg; do
  name=$(basename "$(dirname "$f")")-$(basename "$f")
  seed accelsim "$name-plain" 00 "$f"
  seed accelsim "$name-gzip" 01 "$f"
  seed accelsim "$name-xz" 02 "$f"
  gzip -c "$f" > "$work/raw.gz" && seed accelsim "$name-raw-gz" 03 "$work/raw.gz"
  xz -c "$f" > "$work/raw.xz" && seed accelsim "$name-raw-xz" 03 "$work/raw.xz"
done
for f in "$root"/tests/data/*/kernelslist.g; do
  seed accelsim "$(basename "$(dirname "$f")")-kernelslist" 04 "$f"
done
"$build/ngt_seeds" "$work/seeds/ngt" "$root"/tests/data/*/*.traceg
# METIS graphs: small ones written here (every fmt), and the package's small examples when installed.
mkdir -p "$work/seeds/metis"
printf '%% a triangle and a pendant\n4 4\n2 3\n1 3\n1 2 4\n3\n' > "$work/seeds/metis/plain"
printf '3 1 11\n5 2 7\n6 1 7\n4\n' > "$work/seeds/metis/weights"
printf '3 2 100\n1 2\n2 1 3\n1 2\n' > "$work/seeds/metis/sizes"
printf '2 1 10 2\n1 1 2\n3 4 1\n' > "$work/seeds/metis/ncon"
if [ -f /usr/share/doc/libmetis-dev/examples/graphs/test.mgraph ]; then cp /usr/share/doc/libmetis-dev/examples/graphs/test.mgraph "$work/seeds/metis/"; fi
# Hardware tables (correlate): the test tables and the GV100's, when shared/ is beside the checkout; the first
# byte picks the reader (00 the counter table, 01 the measured-power table).
for f in "$root"/tests/data/correlate/hw_*.csv "$root"/../shared/data/qv100/hw_perf*.csv; do
  if [ -f "$f" ]; then seed hwcsv "perf-$(basename "$f")" 00 "$f"; fi
done
for f in "$root"/tests/data/correlate/power_*.csv "$root"/../shared/data/qv100/hw_power*.csv; do
  if [ -f "$f" ]; then seed hwcsv "power-$(basename "$f")" 01 "$f"; fi
done
# activity.json: a small document written here (two windows, an SM, a link and a policy block with an area),
# and the regression inputs below.
mkdir -p "$work/seeds/activity"
cat > "$work/seeds/activity/small.json" <<'JSON'
{"schema": "numagpu-activity", "schema_version": 1, "generator": {"name": "numagpu", "version": "0.1.0"},
 "machine_hash": "0123456789abcdef", "clock_mhz": 1000, "duration_cycles": 2000, "sim_cycles": 2000,
 "window_cycles": 1000, "sockets": 1,
 "windows": [{"start_cycle": 0, "cycles": 1000}, {"start_cycle": 1000, "cycles": 1000}],
 "instances": [
  {"name": "system.socket0.sm0", "kind": "sm", "socket": 0, "properties": {},
   "counters": {"instructions": 10, "resident_cycles": 5}, "windows": {"instructions": [4, 6], "resident_cycles": [5, 0]}},
  {"name": "system.link_gpu0_switch0", "kind": "link", "socket": null,
   "properties": {"a": "gpu0", "a_kind": "gpu", "b": "switch0", "b_kind": "switch"},
   "counters": {"bits_a_to_b": 1024, "turnarounds": 1}, "windows": {"bits_a_to_b": [0, 1024], "turnarounds": [1, 0]}},
  {"name": "system.socket0.partition", "kind": "partition_controller", "socket": 0,
   "properties": {"area": {"flip_flops": 100, "transistors": 5000}, "channels": 4},
   "counters": {"clocked_cycles": 2000}, "windows": {"clocked_cycles": [1000, 1000]}}],
 "config": {}}
JSON
# PTX: the test kernels clang and nvcc compiled (tests/data/ptx).
mkdir -p "$work/seeds/ptx"
cp "$root"/tests/data/ptx/*.ptx "$work/seeds/ptx/"
# Inputs found earlier are seeds too: the fuzzer starts from what once broke the code.
for t in config accelsim ngt metis hwcsv activity ptx; do
  mkdir -p "$work/seeds/$t"
  if [ -d "$root/fuzz/regressions/$t" ]; then cp "$root/fuzz/regressions/$t"/* "$work/seeds/$t/" 2>/dev/null || true; fi
done

# Dictionaries: fuzz/dict/<target>.dict; the configuration target's also gets every key name and choice of the
# reference, so mutations speak the schema's words.
for t in accelsim ngt metis hwcsv activity ptx; do cp "$root/fuzz/dict/$t.dict" "$work/$t.dict"; done
{ cat "$root/fuzz/dict/config.dict"; awk -F'|' '/^\| `/ {
    key = $2; gsub(/[ `]/, "", key); gsub(/\[\]/, "", key)
    n = split(key, part, "."); for (i = 1; i <= n; i++) print "\"" part[i] ": \""
    allowed = $5; while (match(allowed, /`[a-z_]+`/)) { print "\"" substr(allowed, RSTART + 1, RLENGTH - 2) "\""; allowed = substr(allowed, RSTART + RLENGTH) }
  }' "$root/docs/configuration.md" | sort -u; } > "$work/config.dict"

# --- run -----------------------------------------------------------------------------------------------------
# FUZZ_JOBS targets at once (default 2, one per core of the CI machine): each libFuzzer process is single
# threaded, so one at a time leaves a core idle for the whole run. Each target's summary is printed in order.
run_target() {  # run_target TARGET: fuzz it; writes $work/TARGET.summary and $work/TARGET.status (0 or 1)
  local t=$1 rc=0
  mkdir -p "$work/corpus/$t"
  {
    echo "fuzz: $t for ${seconds}s ($(ls "$work/seeds/$t" | wc -l) seeds, $(grep -c '^[^#]' "$work/$t.dict") dictionary words, max_len ${FUZZ_MAX_LEN:-${max_len[$t]}})"
    mapfile -t command < <(fuzzer_command "$t")
    if ! "${command[@]}" > "$work/$t.log" 2>&1; then
      rc=1
    fi
    grep -q "Dictionary: [1-9][0-9]* entries" "$work/$t.log" || { echo "fuzz: $t: the dictionary was not loaded"; rc=1; }
    # The last status line: coverage, corpus, and "lim:", the input length libFuzzer had reached.
    { grep -E '^#[0-9]+.*cov:' "$work/$t.log" | tail -n 1 || true; } | sed 's/^/fuzz: last status: /'
    { grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::peak_rss_mb" "$work/$t.log" || true; } | tr '\n' ' ' |
      sed 's/^/fuzz: /'
    echo "corpus $(ls "$work/corpus/$t" | wc -l) inputs"
  } > "$work/$t.summary"
  echo "$rc" > "$work/$t.status"
}
fuzz_jobs=${FUZZ_JOBS:-2}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$fuzz_jobs" ]; do wait -n || true; done
  run_target "$t" &
done
wait
status=0
for t in "${targets[@]}"; do
  cat "$work/$t.summary"
  [ "$(cat "$work/$t.status" 2>/dev/null)" = 0 ] || status=1
done

if [ -n "$(ls -A "$work/findings")" ] || [ "$status" -ne 0 ]; then
  echo "fuzz: FINDINGS (logs in $work/*.log):" >&2
  ls -l "$work/findings" >&2
  for t in "${targets[@]}"; do
    grep -E "ERROR|numagpu fuzz:|SUMMARY|Test unit written|terminate called|what\(\)" "$work/$t.log" >&2 || true
  done
  # CI keeps only its log: print each finding's first frames and the input itself (base64, when small enough
  # to carry in a log), so it can be replayed on another machine without the CI's files:
  #   base64 -d > finding && build-fuzz/<target>_fuzzer finding
  for f in "$work/findings"/*; do
    [ -f "$f" ] || continue
    echo "fuzz: finding $(basename "$f") ($(stat -c %s "$f") bytes):" >&2
    if [ "$(stat -c %s "$f")" -le 16384 ]; then base64 -w 120 "$f" >&2; fi
  done
  for t in "${targets[@]}"; do grep -E "^    #[0-9]+ " "$work/$t.log" | head -n 12 >&2 || true; done
  exit 1
fi
echo "fuzz: no findings"
