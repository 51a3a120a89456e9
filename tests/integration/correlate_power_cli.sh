#!/bin/sh
# numagpu correlate --power on two library kernels and a row no kernel stands for, on the GV100
# configuration: the table has exactly the columns kernel,hardware,simulated; the hardware column is the
# input's; each simulated figure is its run's own power.json total; the breakdown's components add up to it;
# the figures are drawn; the unknown row is reported, not run. With --hw as well, a kernel the counter table
# has is also priced over its measured elapsed cycles (power_breakdown.csv's simulated_at_hardware_time:
# static power as simulated, dynamic energy over the measured time), and its idle-time attribution
# (simulated_with_hardware_idle: the simulated time lengthened by the hardware's cycles with no warp resident
# beyond the model's, worked out here from the run's own statistics); a run above the board's power limit
# (set to 10 W here) is listed as such; the breakdown figure stacks the components alone (each bar the
# simulated total); stdout holds the reports in full (it was once cut at 2,000 characters). Then a malformed
# table: one line, status 2, nothing written.
# Usage: correlate_power_cli.sh NUMAGPU SOURCE_DIR SCRATCH
set -eu
numagpu=$1 src=$2 out=$3
rm -rf "$out" "$out.bad" "$out.yaml"
# The GV100 configuration with a board power limit of 10 W, below its constant power alone (18.69 W), so
# that every run is above it.
printf 'include: %s\nenergy:\n  board:\n    power_limit_w: 10\n' "$src/configs/gpus/qv100.yaml" > "$out.yaml"
"$numagpu" correlate --power "$src/tests/data/correlate/power_small.csv" \
  --hw "$src/tests/data/correlate/hw_small.csv" -c "$out.yaml" -j 2 -o "$out" > "$out.stdout"
head -1 "$out/power_correlation.csv" | grep -qx 'kernel,hardware,simulated'
test "$(wc -l < "$out/power_correlation.csv")" -eq 3
grep -q '^hotspot_k1,200,' "$out/power_correlation.csv"
grep -q '^dct8x8_k2,100,' "$out/power_correlation.csv"
grep -q 'notastudyapp_k1' "$out/power_correlation.md"
test -s "$out/power_correlation.png"
test -s "$out/power_breakdown.png"
/usr/bin/python3 - "$out" "$src" <<'PY'
import csv, json, sys
out = sys.argv[1]
rows = {r["kernel"]: r for r in csv.DictReader(open(out + "/power_breakdown.csv"))}
for r in csv.DictReader(open(out + "/power_correlation.csv")):
    doc = json.load(open("%s/power_runs/%s/out/power.json" % (out, r["kernel"])))
    total = doc["total"]["power_w"]
    assert abs(float(r["simulated"]) - total) <= 1e-6 * total, (r, total)
    not_parts = ("kernel", "hardware", "simulated", "simulated_cycles", "hardware_cycles",
                 "simulated_at_hardware_time", "simulated_with_hardware_idle")
    parts = sum(float(v) for k, v in rows[r["kernel"]].items() if k not in not_parts)
    assert abs(parts - total) <= 1e-6 * total, (parts, total)
    # The GV100 table prices what the kernel executed: its SMs and its DRAM draw power, the SMs' static and
    # resident power is there, and so is the board's constant power (AccelWattch's, less the memory side's).
    comps = doc["total"]["components"]
    assert comps["sm"]["dynamic_j"] > 0 and comps["dram"]["dynamic_j"] > 0 and comps["sm"]["static_j"] > 0
    assert comps["board"]["static_j"] > 0
    assert float(rows[r["kernel"]]["simulated_cycles"]) == doc["duration_cycles"]
# hw_small.csv's hotspot row says 1000 elapsed cycles, its dct8x8 2DCT row 100: at the configuration's
# clock (clock_mhz cycles per us) that is N / clock_mhz us, over which the simulated dynamic energy is spread.
for kernel, cycles in (("hotspot_k1", 1000), ("dct8x8_k2", 100)):
    doc = json.load(open("%s/power_runs/%s/out/power.json" % (out, kernel)))
    t = doc["total"]
    assert float(rows[kernel]["hardware_cycles"]) == cycles
    expected = t["static_j"] / doc["duration_seconds"] + t["dynamic_j"] / (cycles / (doc["clock_mhz"] * 1e6))
    assert abs(float(rows[kernel]["simulated_at_hardware_time"]) - expected) <= 1e-6 * expected, kernel
# The idle-time attribution. hw_small.csv's hotspot row: Num_Idle_SMs 8 of the script's 80 SMs over 1000
# cycles = 100 cycles per sub-partition with no warp. The model's, from its statistics: each SM's blocks
# (sm.issue_width) held a warp block_active_cycles in all, so a sub-partition had none for elapsed -
# sum / (SMs x blocks) cycles. The time becomes the simulated one + (100 - that) cycles.
def flat(d, prefix=""):
    for k, v in d.items():
        if isinstance(v, dict):
            yield from flat(v, prefix + k + ".")
        else:
            yield prefix + k, v
for kernel, hw_no_warp in (("hotspot_k1", 100.0), ("dct8x8_k2", 0.0)):
    doc = json.load(open("%s/power_runs/%s/out/power.json" % (out, kernel)))
    stats = json.load(open("%s/power_runs/%s/out/stats.json" % (out, kernel)))
    active = [v for k, v in flat(stats["stats"]) if k.startswith("system.socket0.sm") and
              k.endswith(".block_active_cycles") and k.split(".")[2][2:].isdigit()]
    blocks = stats["config"]["sm"]["issue_width"]
    elapsed = doc["duration_cycles"]
    sim_no_warp = elapsed - sum(active) / (len(active) * blocks)
    seconds = (elapsed + hw_no_warp - sim_no_warp) / (doc["clock_mhz"] * 1e6)
    t = doc["total"]
    expected = t["static_j"] / doc["duration_seconds"] + t["dynamic_j"] / seconds
    got = float(rows[kernel]["simulated_with_hardware_idle"])
    assert abs(got - expected) <= 1e-6 * expected, (kernel, got, expected)
md = open(out + "/power_correlation.md").read()
assert "With the hardware's elapsed time" in md
assert "With the hardware's idle time as well" in md
# Every run is above the 10 W limit (its board alone draws 18.69 W): power.json says so and the table lists
# each with its socket's power.
listed = md.split("## Above the board's power limit")[1]
for kernel in rows:
    socket = json.load(open("%s/power_runs/%s/out/power.json" % (out, kernel)))["sockets"][0]
    assert socket["power_limit_w"] == 10 and socket["power_w"] > 18.69, kernel
    assert socket["above_power_limit"], kernel
    assert ("- %s (%s W > 10 W)" % (kernel, ("%.1f" % socket["power_w"]).rstrip("0").rstrip("."))) in listed, kernel
# The breakdown figure's bars: the components only, adding up to the simulated total.
sys.path.insert(0, sys.argv[2] + "/scripts")
import plot_power_correlation as p
with open(out + "/power_breakdown.csv", newline="") as f:
    reader = csv.DictReader(f)
    table = list(reader)
kinds, totals = p.stacked(table, reader.fieldnames)
for r, total in zip(table, totals):
    assert abs(total - float(r["simulated"])) <= 1e-6 * float(r["simulated"]), (r["kernel"], kinds, total)
# stdout: each report from its summary (the counters' from "## Per counter") to its end, in full; the
# counters' part is longer than 2,000 characters with this configuration's sectored counters.
stdout = open(out + ".stdout").read()
counters = open(out + "/correlation.md").read()
counters = counters[counters.index("## Per counter"):]
assert len(counters) > 2000, len(counters)
assert counters in stdout, "the counters report is not on stdout in full"
power = md[md.index("Kernels:"):]
assert power in stdout, "the power report is not on stdout in full"
PY
printf ',mean HW_power\nhotspot_k1,lots\n' > "$out.csv"
if "$numagpu" correlate -q --power "$out.csv" -o "$out.bad" 2> "$out.err"; then exit 1; else rc=$?; fi
test "$rc" -eq 2
test "$(wc -l < "$out.err")" -eq 1
# "hotspot_k1," is 11 bytes: the watts start at column 12.
grep -qx "numagpu: error: $out.csv:2:12: mean HW_power: expected a positive decimal number of watts, not 'lots'" "$out.err"
test ! -e "$out.bad"
echo "correlate --power: ok"
