#!/usr/bin/env python3
"""Tables inside written pages of docs/, generated from the program's outputs, and checked.

Usage: doc_tables.py render NAME DIR        print table NAME rendered from the outputs in DIR
       doc_tables.py check DOC... [--from DIR] [--runs DIR]
       doc_tables.py write DOC... [--from DIR] [--runs DIR]

A generated table stands in a document between `<!-- doc_tables.py NAME -->` and `<!-- end doc_tables.py -->`.
A table's outputs are either correlate's (--from DIR: the -o folder of `numagpu correlate --power ... --hw
... -c configs/gpus/qv100.yaml`, tests/studies/correlation_tables_current.sh) or a folder of runs of the
default workload (--runs DIR: one `numagpu run -o DIR/NAME` per configuration, as
tests/studies/default_workload_tables_current.sh makes them). `check` without a table's folder is fast (no
simulation): the table must be in its generator's format (the header the generator writes, every row with
its columns, every figure in its number format); with it, exactly the rendering. `write` replaces each marked
table whose folder is given by its rendering. Exit 0 when all hold, 1 when one does not, 2 on bad input.

Tables (NAME):
  correlation_kernels   docs/correlation.md: per kernel, DRAM sectors read, L2 read hit rate, elapsed cycles
                        (correlation.csv)
  correlation_counters  docs/correlation.md: per counter, Pearson's r and the mean absolute error
                        (correlate's correlation.md, "Per counter")
  correlation_time_split  docs/correlation.md: per kernel, the cycles with no warp resident, with a warp, and
                        the pipe work, per SM sub-partition (correlation.csv, as correlate's last table)
  power_kernels         docs/power.md: per kernel, measured and simulated power, at the hardware's time, and
                        the simulated power by component (power_breakdown.csv)
  runtime_sockets       docs/runtime-policies.md (--runs): the default workload's cycles on 1, 2, 4 and 8
                        sockets, locality-optimized (sN) and traditional (traditional_sN)
  power_communication   docs/power.md (--runs): communication and total power and energy of the four
                        configurations of its "Measured"
"""
import csv
import json
import re
import sys

BEGIN = re.compile(r"^<!-- doc_tables\.py (\w+) -->$")
END = "<!-- end doc_tables.py -->"
MINUS = "\u2212"  # docs/power.md writes negative percentages with a minus sign


PARTS = ["sm", "l1", "l2", "crossbar", "dram", "board"]  # power_breakdown.csv's component columns shown
# The header (and separator) line each generator writes.
HEADER = {
    "correlation_kernels": ["| kernel | DRAM sectors read: hw | sim | error | L2 read hit rate: hw | sim | difference "
                            "| elapsed cycles: hw | sim | error |", "|---|---|---|---|---|---|---|---|---|---|"],
    "correlation_counters": ["| counter | Pearson | mean abs. error % |", "|---|---|---|"],
    "correlation_time_split": ["| kernel | no warp resident, cycles: hw / sim / difference | with a warp: hw / sim | "
                               "pipe work, cycles: hw / sim / ratio |", "| --- | ---: | ---: | ---: |"],
    "runtime_sockets": ["| sockets | locality-optimized (default) | traditional | traditional / optimized |",
                        "| --- | --- | --- | --- |"],
    "power_communication": ["| configuration | command | cycles | communication power | communication energy | "
                            "total power | total energy |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"],
    "power_kernels": ["| kernel | measured W | simulated W | error % | at the hardware's time W | error % | "
                      + " | ".join(PARTS) + " |", "| --- |" + " ---: |" * (5 + len(PARTS))],
}


def fail(message):
    print(f"doc_tables.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: cannot read ({e.strerror})")


def md_table(text, heading):
    """The rows (lists of cells) of the first table under the `## heading` of a Markdown text."""
    lines = text.split("\n")
    try:
        i = lines.index(f"## {heading}")
    except ValueError:
        fail(f"no section '## {heading}'")
    rows = []
    for line in lines[i + 1:]:
        if line.startswith("## "):
            break
        if line.startswith("|") and not re.match(r"^\|[-|: ]+\|$", line):
            rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows[1:]  # without the header


def grouped(n):
    return f"{round(n):,}"


def signed(v, minus="-"):
    text = f"{v:+.1f}"
    return text.replace("-", minus) if minus != "-" else text


def kernel_name(benchmark, function):
    """`hotspot-rodinia-3.1` and `calculate_temp` -> `hotspot calculate_temp` (the application's short name)."""
    return f"{benchmark.split('-')[0]} {function}"


def correlation_kernels(d):
    out = list(HEADER["correlation_kernels"])
    for name, v in kernels(d):
        (dh, ds), (eh, es) = v["DRAM_Rd"], v["Elapsed_Cycles"]
        # The L2 read hit rate from the read hits and misses (sectors).
        rate = [100 * v["L2_RH"][i] / (v["L2_RH"][i] + v["L2_RM"][i]) if v["L2_RH"][i] + v["L2_RM"][i] else 0.0
                for i in (0, 1)]
        out.append(f"| {name} | {grouped(dh)} | {grouped(ds)} | {signed(100 * (ds - dh) / dh)} % | "
                   f"{rate[0]:.1f} % | {rate[1]:.1f} % | {signed(rate[1] - rate[0])} | {grouped(eh)} | {grouped(es)} | "
                   f"{signed(100 * (es - eh) / eh)} % |")
    return out


def kernels(d):
    """[(name, {counter: (hardware, simulated)})] in correlation.csv's order, named as correlation_kernels."""
    functions = {}
    for bench, fn, counter, *_ in md_table(open(f"{d}/correlation.md").read(), "Per kernel"):
        if counter == "Elapsed_Cycles":
            functions.setdefault(bench, []).append(fn)
    values = {}
    for r in read_csv(f"{d}/correlation.csv"):
        values.setdefault((r["benchmark"], r["kernel"]), {})[r["counter"]] = (float(r["hardware"]),
                                                                              float(r["simulated"]))
    seen = {}
    out = []
    for bench, kernel in values:
        k = seen.setdefault(bench, 0)
        seen[bench] += 1
        out.append((kernel_name(bench, functions[bench][k]), values[(bench, kernel)]))
    return out


# The hardware table's Num_Idle_SMs is over 80 SMs and its Pipeline_Duty over 4 sub-partitions per SM
# (models/cli/correlate.cpp); the GV100 configuration (configs/gpus/qv100.yaml) has as many.
HW_SMS, HW_BLOCKS = 80, 4
SIM_SMS, SIM_BLOCKS = 80, 4


def correlation_time_split(d):
    def pair(a, b):
        return f"{grouped(a)} / {grouped(b)}"

    out = list(HEADER["correlation_time_split"])
    for name, v in kernels(d):
        (eh, es), (ih, is_), (ph, ps) = v["Elapsed_Cycles"], v["Num_Idle_SMs"], v["Pipeline_Duty"]
        idle_h, idle_s = ih / HW_SMS * eh, is_ / SIM_SMS * es
        with_h, with_s = eh - idle_h, es - idle_s
        work_h, work_s = ph * 5 / HW_BLOCKS * eh, ps * 5 / SIM_BLOCKS * es
        out.append(f"| {name} | {pair(idle_h, idle_s)} / {grouped(idle_h - idle_s).replace('-', MINUS)} | "
                   f"{pair(with_h, with_s)} ({signed(100 * (with_s - with_h) / with_h, MINUS)} %) | "
                   f"{pair(work_h, work_s)} / {work_s / work_h:.2f} |")
    return out


def correlation_counters(d):
    out = list(HEADER["correlation_counters"])
    for counter, _, r, e in md_table(open(f"{d}/correlation.md").read(), "Per counter"):
        if "-" not in (r, e):  # a counter with no figure (no kernel has a value) is left out
            out.append(f"| {counter} | {float(r):.3f} | {float(e):.1f} |")
    return out


def power_kernels(d):
    rows = read_csv(f"{d}/power_breakdown.csv")
    out = list(HEADER["power_kernels"])
    for r in sorted(rows, key=lambda r: r["kernel"]):
        hw, sim, at = float(r["hardware"]), float(r["simulated"]), float(r["simulated_at_hardware_time"])
        out.append(f"| {r['kernel']} | {hw:.1f} | {sim:.1f} | {signed(100 * (sim - hw) / hw, MINUS)} | {at:.1f} | "
                   f"{signed(100 * (at - hw) / hw, MINUS)} | " + " | ".join(f"{float(r[p]):.1f}" for p in PARTS) + " |")
    return out


def run_figures(d, name):
    """(cycles, communication W, communication J, total W, total J) of the run DIR/NAME."""
    try:
        with open(f"{d}/{name}/stats.json") as f:
            cycles = json.load(f)["stats"]["summary"]["sim_cycles"]
        with open(f"{d}/{name}/power.json") as f:
            power = json.load(f)
    except (OSError, KeyError, ValueError) as e:
        fail(f"{d}/{name}: no run's stats.json and power.json ({e})")
    c, t = power["communication"], power["total"]
    return cycles, c["power_w"], c["energy_j"], t["power_w"], t["energy_j"]


def runtime_sockets(d):
    out = list(HEADER["runtime_sockets"])
    for n in (1, 2, 4, 8):
        optimized, traditional = run_figures(d, f"s{n}")[0], run_figures(d, f"traditional_s{n}")[0]
        out.append(f"| {n} | {grouped(optimized)} | {grouped(traditional)} | {traditional / optimized:.1f} |")
    return out


# docs/power.md's configurations: the label, the command as the page prints it, the run (--runs DIR/NAME).
COMMUNICATION_RUNS = [
    ("traditional runtime (interleaved CTAs and pages, Figure 3's first bar)",
     "`numagpu run -c configs/examples/traditional_runtime.yaml`", "traditional_s4"),
    ("traditional runtime + dynamic links and NUMA-aware L2",
     "the same `--set link.mode=dynamic --set l2.organization=numa_aware`", "traditional_numa_aware"),
    ("locality-optimized runtime (the paper's baseline and the default: contiguous CTAs, first touch)",
     "`numagpu run`", "s4"),
    ("locality-optimized + dynamic links and NUMA-aware L2",
     "`numagpu run --set link.mode=dynamic --set l2.organization=numa_aware`", "numa_aware"),
]


def power_communication(d):
    out = list(HEADER["power_communication"])
    for label, command, name in COMMUNICATION_RUNS:
        cycles, cw, cj, tw, tj = run_figures(d, name)
        out.append(f"| {label} | {command} | {round(cycles)} | {cw:.1f} W | {cj * 1e6:.0f} \u00b5J | {tw:.0f} W | "
                   f"{tj * 1e3:.1f} mJ |")
    return out


SOURCE = {"correlation_kernels": "correlate", "correlation_counters": "correlate",
          "correlation_time_split": "correlate", "power_kernels": "correlate",
          "runtime_sockets": "runs", "power_communication": "runs"}
TABLES = {"correlation_kernels": correlation_kernels, "correlation_counters": correlation_counters,
          "correlation_time_split": correlation_time_split, "power_kernels": power_kernels,
          "runtime_sockets": runtime_sockets, "power_communication": power_communication}

# The format of each table's rows, cell by cell (the check without --from).
NUM = r"-?[\d,]+"
PCT = r"[-+]\d+\.\d %"
ROW_FORMAT = {
    "correlation_kernels": [r".+", NUM, NUM, PCT, r"\d+\.\d %", r"\d+\.\d %", r"[-+]\d+\.\d", NUM, NUM, PCT],
    "correlation_counters": [r"\w+", r"-?\d\.\d{3}", r"\d+\.\d"],
    "correlation_time_split": [r".+", f"[\\d,]+ / [\\d,]+ / {MINUS}?[\\d,]+",
                               f"[\\d,]+ / [\\d,]+ \\([{MINUS}+]\\d+\\.\\d %\\)", r"[\d,]+ / [\d,]+ / \d+\.\d\d"],
    "runtime_sockets": [r"\d", r"[\d,]+", r"[\d,]+", r"\d+\.\d"],
    "power_communication": [r".+", r".+", r"\d+", r"\d+\.\d W", "\\d+ \u00b5J", r"\d+ W", r"\d+\.\d mJ"],
    "power_kernels": [r"\w+", r"\d+\.\d", r"\d+\.\d", f"[{MINUS}+]\\d+\\.\\d", r"\d+\.\d", f"[{MINUS}+]\\d+\\.\\d"]
                     + [r"\d+\.\d"] * 6,
}


def marked(path):
    """[(name, first line index, end line index)] of the marked tables of a document."""
    lines = open(path).read().split("\n")
    out = []
    for i, line in enumerate(lines):
        m = BEGIN.match(line)
        if m:
            if m.group(1) not in TABLES:
                fail(f"{path}:{i + 1}: no table {m.group(1)} (known: {', '.join(TABLES)})")
            try:
                j = lines.index(END, i)
            except ValueError:
                fail(f"{path}:{i + 1}: {m.group(1)} has no '{END}'")
            out.append((m.group(1), i, j))
    return lines, out


def check_format(name, table):
    ok = table[:2] == HEADER[name]
    if not ok:
        print(f"  {name}: the header is not the generator's: {table[:2]}")
    want = ROW_FORMAT[name]
    for k, row in enumerate(table[2:], 3):
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != len(want) or not all(re.fullmatch(p, c) for p, c in zip(want, cells)):
            print(f"  row {k} is not in the format of doc_tables.py {name}: {row}")
            ok = False
    if len(table) < 3:
        print(f"  {name}: no rows")
        ok = False
    return ok


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "render":
        if args[1] not in TABLES:
            fail(f"no table {args[1]} (known: {', '.join(TABLES)})")
        print("\n".join(TABLES[args[1]](args[2])))
        return 0
    if not args or args[0] not in ("check", "write"):
        fail("usage: doc_tables.py render NAME DIR | check|write DOC... [--from DIR] [--runs DIR]")
    folders = {}
    for option, kind in (("--from", "correlate"), ("--runs", "runs")):
        if option in args:
            k = args.index(option)
            folders[kind] = args[k + 1] if k + 1 < len(args) else fail(f"{option} needs a folder")
            args = args[:k] + args[k + 2:]
    if args[0] == "write" and not folders:
        fail("write needs --from DIR or --runs DIR")
    status = 0
    for doc in args[1:]:
        lines, tables = marked(doc)
        if not tables:
            fail(f"{doc}: no table marked '<!-- doc_tables.py NAME -->'")
        for name, i, j in reversed(tables):
            current = [line for line in lines[i + 1:j] if line.strip()]
            src = folders.get(SOURCE[name])
            if args[0] == "write" and src is None:
                continue
            if src is not None:
                rendered = TABLES[name](src)
                if args[0] == "write":
                    lines[i + 1:j] = [""] + rendered + [""]
                elif current != rendered:
                    option = "--from" if SOURCE[name] == "correlate" else "--runs"
                    print(f"{doc}: {name} is not what the program says now (doc_tables.py write {doc} "
                          f"{option} {src}):")
                    for a, b in zip(current + [""] * len(rendered), rendered + [""] * len(current)):
                        if a != b:
                            print(f"  doc: {a}\n  now: {b}")
                    status = 1
            elif not check_format(name, current):
                print(f"{doc}: {name} is not in its generator's format")
                status = 1
        if args[0] == "write":
            with open(doc, "w") as f:
                f.write("\n".join(lines))
    if status == 0 and args[0] == "check":
        print(f"doc_tables.py: the marked tables of {', '.join(args[1:])} are "
              + (f"current ({', '.join(folders)} outputs) or in their generators' format" if folders
                 else "in their generators' format"))
    return status


if __name__ == "__main__":
    sys.exit(main())
