#!/usr/bin/env bash
# Synthesizes both policy blocks with yosys, at their default parameters and over a sweep of sizes, and
# regenerates docs/rtl-area.md (cells by type, flip-flops, transistor estimate) and models/power/rtl_area.json
# (the same figures as data: the simulator embeds it and reports each policy block's area in power.json).
#
# Two netlists per configuration:
#   generic: `synth -flatten -top` (yosys' internal gate library, sync-reset/enable flops as single cells);
#            `stat -json` gives the cells by type and the flip-flops.
#   cmos:    the generic netlist with every flop legalized to a plain D flop plus logic (dfflegalize) and the
#            logic mapped to NAND/NOR/NOT (abc -g cmos2); `stat -tech cmos` then counts every cell, so the
#            transistor estimate is complete (on the generic netlist yosys cannot cost the reset flops and
#            prints a lower bound, "N+").
#
# Usage: scripts/rtl_area.sh [--yosys PATH] [--out FILE] [--json FILE] [--liberty LIB] [--check]
#   --check    do not write; exit 1 if FILE (default docs/rtl-area.md) or the JSON table (default
#              models/power/rtl_area.json) differs from what would be generated.
#   --liberty  map to the Liberty library LIB instead (dfflibmap + abc -liberty, area by stat -liberty) and
#              write a page with the library's cells and area beside the generic counts, by default
#              docs/rtl-area-<LIB's file name without .lib>.md (the JSON table is not written: the simulator
#              reads only the technology-independent figures). scripts/liberty/numagpu_demo.lib is a small
#              stated cell set for trying the flow; see docs/power.md, "Area in a Liberty library".
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
yosys=yosys
out="$root/docs/rtl-area.md"
json_out="$root/models/power/rtl_area.json"
check=0
liberty=""
out_given=0
while [ $# -gt 0 ]; do
  case "$1" in
    --yosys) yosys=$2; shift 2 ;;
    --out) out=$2; out_given=1; shift 2 ;;
    --json) json_out=$2; shift 2 ;;
    --liberty) liberty=$2; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "rtl_area: unknown argument $1" >&2; exit 2 ;;
  esac
done

if [ -n "$liberty" ]; then
  if [ ! -r "$liberty" ]; then
    echo "rtl_area: --liberty $liberty: no such readable file" >&2
    exit 2
  fi
  liberty=$(cd "$(dirname "$liberty")" && pwd)/$(basename "$liberty")
  libname=$(basename "$liberty" .lib)
  [ "$out_given" = 1 ] || out="$root/docs/rtl-area-$libname.md"
fi

work=$(mktemp -d /tmp/rtl_area.XXXXXX)
prims=("$root"/rtl/prim/*.sv)
trap 'rm -rf "$work"' EXIT

# name top "Param=value ..." : the sweep. The first point of each block is its default configuration.
configs=(
  "lb_default|link_balancer|"
  "lb_lanes4|link_balancer|Lanes=4"
  "lb_lanes8|link_balancer|Lanes=8"
  "lb_lanes32|link_balancer|Lanes=32"
  "pc_default|cache_partition_ctrl|"
  "pc_ways4|cache_partition_ctrl|Ways=4"
  "pc_ways8|cache_partition_ctrl|Ways=8"
  "pc_ways32|cache_partition_ctrl|Ways=32"
)

for entry in "${configs[@]}"; do
  IFS='|' read -r name top params <<<"$entry"
  chparam=""
  if [ -n "$params" ]; then
    chparam="chparam"
    for kv in $params; do chparam+=" -set ${kv%%=*} ${kv#*=}"; done
    chparam+=" $top;"
  fi
  # The Liberty mapping: flops legalized to plain D flops (the blocks' resets are synchronous, so the
  # library needs no set/reset flop), mapped by dfflibmap, the logic by abc to the library's gates.
  libmap=""
  if [ -n "$liberty" ]; then
    libmap="design -save generic; dfflegalize -cell \$_DFF_P_ 01; dfflibmap -liberty $liberty; \
      abc -liberty $liberty; opt_clean; tee -q -o $work/$name.lib.json stat -json; \
      tee -q -o $work/$name.lib.txt stat -liberty $liberty; design -load generic;"
  fi
  # shellcheck disable=SC2016  # $_DFF_P_ is a yosys cell name, not a shell variable
  # The primitives (rtl/prim/) are read with the block and flattened into it: one netlist per block.
  "$yosys" -q -l "$work/$name.log" -p "read_verilog -sv -I$root/rtl ${prims[*]} $root/rtl/$top.sv; $chparam \
    synth -flatten -top $top; \
    tee -q -o $work/$name.generic.json stat -json; $libmap \
    dfflegalize -cell \$_DFF_P_ 01; abc -g cmos2; opt_clean; \
    tee -q -o $work/$name.cmos.json stat -json -tech cmos" >/dev/null
  printf '%s|%s|%s\n' "$name" "$top" "$params" >>"$work/index"
done

"$yosys" -V | awk '{print $1" "$2}' >"$work/version"

libshown=""
if [ -n "$liberty" ]; then libshown=${liberty#"$root"/}; fi
python3 - "$work" "$work/page.md" "$work/area.json" "$libshown" <<'PY'
import json, re, sys

work, out, json_out, liberty = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
version = open(f"{work}/version").read().strip()
rows = [line.rstrip("\n").split("|") for line in open(f"{work}/index")]

DEFAULTS = {
    "link_balancer": "Lanes=16 SampleCycles=5000 SwitchCycles=100 SatNum=99 SatDen=100",
    "cache_partition_ctrl": "Ways=16 SampleCycles=5000 SatNum=99 SatDen=100 RespBytes=144 "
                            "IngressBytesPerCycle=64 ReqW=2",
}
TITLES = {"link_balancer": "Link balancer (`rtl/link_balancer.sv`)",
          "cache_partition_ctrl": "Cache partition controller (`rtl/cache_partition_ctrl.sv`)"}
SWEPT = {"link_balancer": "Lanes", "cache_partition_ctrl": "Ways"}
CMOS_DFF = 16  # transistors yosys' cmos cost table charges for a $_DFF_P_


def design(path):
    return json.load(open(path))["design"]


data = []
for name, top, params in rows:
    g = design(f"{work}/{name}.generic.json")
    c = design(f"{work}/{name}.cmos.json")
    by_type = g["num_cells_by_type"]
    ffs = sum(n for t, n in by_type.items() if "DFF" in t)
    size = dict(kv.split("=") for kv in params.split()) if params else {}
    swept = size.get(SWEPT[top], DEFAULTS[top].split()[0].split("=")[1])
    data.append(dict(name=name, top=top, params=params, swept=int(swept), generic=g, cmos=c, ffs=ffs,
                     transistors=int(str(c["estimated_num_transistors"]).rstrip("+")),
                     cmos_ffs=c["num_cells_by_type"].get("$_DFF_P_", 0)))
    if liberty:
        lib = design(f"{work}/{name}.lib.json")
        area = re.search(r"Chip area for module .*: ([0-9.]+)", open(f"{work}/{name}.lib.txt").read())
        if not area:
            sys.exit(f"rtl_area: {liberty}: yosys reported no chip area for {name} (cells without area?)")
        data[-1].update(lib=lib, area=float(area.group(1)))


def liberty_page():
    """The page of --liberty: the library's cells and area beside the generic counts."""
    libname = liberty.rsplit("/", 1)[-1].removesuffix(".lib")
    lines = []
    w = lines.append
    w(f"# RTL area mapped to `{libname}`")
    w("")
    w(f"<!-- Generated by scripts/rtl_area.sh --liberty {liberty}; do not edit. -->")
    w("")
    w(f"The two policy blocks synthesized with {version} (`synth -flatten -top`), then mapped to the Liberty library")
    w(f"`{liberty}`: every flip-flop legalized to a plain D flip-flop (`dfflegalize`; the blocks' resets are")
    w("synchronous), flops mapped by `dfflibmap -liberty`, logic by `abc -liberty`; the area is yosys'")
    w("`stat -liberty` sum of the cells' `area` attributes, in the library's area unit. The generic columns")
    w("are those of [rtl-area.md](rtl-area.md). What the library states, and how to use another one:")
    w("[power.md](power.md), \"Area in a Liberty library\".")
    w("")
    for top in ("link_balancer", "cache_partition_ctrl"):
        pts = sorted((d for d in data if d["top"] == top), key=lambda d: d["swept"])
        default = next(d for d in data if d["top"] == top and not d["params"])
        w(f"## {TITLES[top]}")
        w("")
        w(f"| {SWEPT[top]} | generic cells | flip-flops | {libname} cells | area (library units) |")
        w("|---:|---:|---:|---:|---:|")
        for d in pts:
            mark = " (default)" if d is default else ""
            w(f"| {d['swept']}{mark} | {d['generic']['num_cells']} | {d['ffs']} | {d['lib']['num_cells']} | "
              f"{d['area']:.1f} |")
        w("")
        types = sorted({t for d in pts for t in d["lib"]["num_cells_by_type"]})
        w(f"{libname} cells by type:")
        w("")
        w("| cell | " + " | ".join(f"{SWEPT[top]}={d['swept']}" for d in pts) + " |")
        w("|---|" + "---:|" * len(pts))
        for t in types:
            w(f"| `{t}` | " + " | ".join(str(d["lib"]["num_cells_by_type"].get(t, 0)) for d in pts) + " |")
        w("")
    open(out, "w").write("\n".join(lines).rstrip("\n") + "\n")


if liberty:
    liberty_page()
    sys.exit(0)

lines = []
w = lines.append
w("# RTL area")
w("")
w("<!-- Generated by scripts/rtl_area.sh; do not edit. `ctest -L rtl` fails when this page is stale. -->")
w("")
w(f"Synthesis of the two policy blocks with {version} (`synth -flatten -top`), at their default parameters and over a")
w("sweep of sizes; every other parameter keeps its default. Two figures per configuration:")
w("")
w("- **generic cells**: the netlist of `synth -flatten -top` in yosys' internal gate library (`stat -json`), where a")
w("  flip-flop with synchronous reset and enable is one cell;")
w("- **transistors**: the same netlist with every flip-flop legalized to a plain D flip-flop plus logic")
w("  (`dfflegalize`) and the logic mapped to NAND/NOR/NOT (`abc -g cmos2`), counted by `stat -tech cmos`")
w(f"  ({CMOS_DFF} transistors per flip-flop, 4 per 2-input NAND/NOR, 2 per inverter). On the generic netlist")
w("  yosys cannot cost the reset flops and prints only a lower bound, hence the second mapping.")
w("")
w("These are technology-independent estimates for comparing configurations and design choices, not a")
w("signoff area: no timing constraints, no library, no wires. Regenerate with `scripts/rtl_area.sh`.")
w("")

for top in ("link_balancer", "cache_partition_ctrl"):
    pts = sorted((d for d in data if d["top"] == top), key=lambda d: d["swept"])
    default = next(d for d in data if d["top"] == top and not d["params"])
    w(f"## {TITLES[top]}")
    w("")
    w(f"Defaults: `{DEFAULTS[top]}`.")
    w("")
    w(f"| {SWEPT[top]} | generic cells | flip-flops | CMOS cells | transistors | of which in flip-flops |")
    w("|---:|---:|---:|---:|---:|---:|")
    for d in pts:
        mark = " (default)" if d is default else ""
        share = 100.0 * d["cmos_ffs"] * CMOS_DFF / d["transistors"]
        w(f"| {d['swept']}{mark} | {d['generic']['num_cells']} | {d['ffs']} | {d['cmos']['num_cells']} | "
          f"{d['transistors']} | {share:.0f} % |")
    w("")
    types = sorted({t for d in pts for t in d["generic"]["num_cells_by_type"]})
    w(f"Generic cells by type ({SWEPT[top]} = " + ", ".join(str(d["swept"]) for d in pts) + "):")
    w("")
    w("| cell | " + " | ".join(f"{SWEPT[top]}={d['swept']}" for d in pts) + " |")
    w("|---|" + "---:|" * len(pts))
    for t in types:
        w(f"| `{t}` | " + " | ".join(str(d["generic"]["num_cells_by_type"].get(t, 0)) for d in pts) + " |")
    w(f"| **total** | " + " | ".join(f"**{d['generic']['num_cells']}**" for d in pts) + " |")
    w("")

w("## Reading the numbers")
w("")
w("- Both blocks are small next to what they steer (a 16-lane SerDes link, a socket's L1s and L2). Their")
w("  state is a handful of counters; see the flip-flop column.")
w("- The flip-flop count grows only logarithmically with the lane/way count (the counts are")
w("  `$clog2(N+1)` bits); the logic that grows linearly is the per-lane/per-way decode of the outputs")
w("  (`lane_dir_o`, `lane_quiesce_o`, `lane_switch_o`, `remote_mask_o`: one comparison against a count per")
w("  lane or way).")
w("- The window counters dominate the flip-flops at the paper's 5000-cycle window: 13 bits for the window")
w("  position and, because the busy/request counters saturate at their threshold (docs/policies.md), only")
w("  `$clog2(threshold+1)` bits each instead of counting whole windows.")
open(out, "w").write("\n".join(lines) + "\n")

# The same figures as data, for power.json's area section (models/power/rtl_area.hpp reads it).
table = {"generator": f"scripts/rtl_area.sh with {version}; do not edit", "blocks": {}}
for top in ("link_balancer", "cache_partition_ctrl"):
    pts = sorted((d for d in data if d["top"] == top), key=lambda d: d["swept"])
    table["blocks"][top] = {
        "source": f"rtl/{top}.sv",
        "swept": SWEPT[top],
        "defaults": {k: int(v) for k, v in (kv.split("=") for kv in DEFAULTS[top].split())},
        "points": [{SWEPT[top]: d["swept"], "generic_cells": d["generic"]["num_cells"], "flip_flops": d["ffs"],
                    "cmos_cells": d["cmos"]["num_cells"], "transistors": d["transistors"]} for d in pts],
    }
open(json_out, "w").write(json.dumps(table, indent=2) + "\n")
PY

pairs=("$out|$work/page.md" "$json_out|$work/area.json")
[ -z "$liberty" ] || pairs=("$out|$work/page.md")  # --liberty writes no JSON table
if [ "$check" = 1 ]; then
  stale=0
  for pair in "${pairs[@]}"; do
    if ! diff -u "${pair%%|*}" "${pair#*|}"; then
      echo "rtl_area: ${pair%%|*} is stale; run scripts/rtl_area.sh" >&2
      stale=1
    fi
  done
  [ "$stale" = 0 ] || exit 1
  if [ -n "$liberty" ]; then echo "rtl_area: $out is current"; else echo "rtl_area: $out and $json_out are current"; fi
else
  cp "$work/page.md" "$out"
  if [ -n "$liberty" ]; then
    echo "rtl_area: wrote $out"
  else
    cp "$work/area.json" "$json_out"
    echo "rtl_area: wrote $out and $json_out"
  fi
fi
