#!/usr/bin/env python3
"""numagpu export round trip (docs/power.md, "Exporting activity"): a run's activity.json exported to
Accelergy's action counts and to McPAT-style XML, parsed back with a YAML and an XML parser, gives every
counter of every instance back with its total; an activity file with counters numagpu does not write today
(new SM instruction classes, a cache sector counter) exports them too (the exporters follow the file).

Usage: export_roundtrip.py NUMAGPU WORKDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

try:
    import yaml
except ImportError:  # python3-yaml (scripts/setup.sh)
    if os.environ.get("CI") == "true":
        sys.exit("export_roundtrip: CI=true and python3-yaml is missing")
    print("export_roundtrip: python3-yaml missing (scripts/setup.sh installs it): skipped")
    sys.exit(77)

# docs/power.md, "McPAT": the counters McPAT has a name for; every other counter is "numagpu.<counter>". The
# memory controller also gets memory_accesses = reads + writes. Homogeneous components (one per kind) carry
# the average per instance, the memory controller the totals.
MCPAT_NAMES = {
    "l1": {"reads": "read_accesses", "writes": "write_accesses", "read_misses": "read_misses",
           "bank_conflicts": "conflicts"},
    "l2": {"reads": "read_accesses", "writes": "write_accesses", "read_misses": "read_misses",
           "bank_conflicts": "conflicts"},
    "dram": {"reads": "memory_reads", "writes": "memory_writes"},
    "crossbar": {"requests": "total_accesses"},
}
MCPAT_IDS = {"l1": "system.core0.dcache", "l2": "system.L20", "dram": "system.mc", "crossbar": "system.NoC0"}
MCPAT_COUNT = {"l1": "number_of_cores", "l2": "number_of_L2s", "crossbar": "number_of_NoCs", "dram": None}


def accelergy_name(name):
    """The name Accelergy gives an instance of these machines: numbered families as array elements."""
    return re.sub(r"\.(socket|sm|l1|l2|switch)_?(\d+)(?=\.|$)", r".\1[\2]", name)


failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"export_roundtrip: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    return p


def export(numagpu, activity, fmt, out):
    run([numagpu, "export", "--format", fmt, "--activity", activity, "-o", out, "-q"])


def check_accelergy(activity, path):
    doc = yaml.safe_load(open(path))
    check(doc["action_counts"]["version"] == 0.3, f"{path}: version {doc['action_counts']['version']}")
    local = doc["action_counts"]["local"]
    check(len(local) == len(activity["instances"]), f"{path}: {len(local)} entries")
    for entry, inst in zip(local, activity["instances"]):
        check(entry["name"] == accelergy_name(inst["name"]), f"{path}: {entry['name']} for {inst['name']}")
        back = {a["name"]: a["counts"] for a in entry["action_counts"]}
        check(back == inst["counters"], f"{path}: {inst['name']}: {back} != {inst['counters']}")


def check_mcpat(activity, path):
    root = ET.parse(path).getroot()
    system = root.find("component[@id='system']")
    comps = {c.get("id"): c for c in system.iter("component")}
    params = {p.get("name"): p.get("value") for p in system.findall("param")}
    seen = {}
    for kind, cid in MCPAT_IDS.items():
        insts = [i for i in activity["instances"] if i["kind"] == kind]
        seen[kind] = len(insts)
        comp = comps.get(cid)
        check(comp is not None, f"{path}: no {cid}")
        if comp is None:
            continue
        count = int(params[MCPAT_COUNT[kind]]) if MCPAT_COUNT[kind] else 1
        stats = {s.get("name"): float(s.get("value")) for s in comp.findall("stat")}
        names = MCPAT_NAMES[kind]
        for counter in {c for i in insts for c in i["counters"]}:
            stat = names.get(counter, "numagpu." + counter)
            total = sum(i["counters"].get(counter, 0) for i in insts)
            got = stats.get(stat, -1) * count
            check(abs(got - total) <= 1e-6 * max(1, total), f"{path}: {cid} {stat} x {count} = {got}, not {total}")
        if kind == "dram":
            check(stats["memory_accesses"] == stats["memory_reads"] + stats["memory_writes"],
                  f"{path}: memory_accesses")
            check(int(comp.find("param[@name='number_mcs']").get("value")) == len(insts), f"{path}: number_mcs")
    check(int(params["number_of_cores"]) == len([i for i in activity["instances"] if i["kind"] == "sm"]),
          f"{path}: number_of_cores {params['number_of_cores']}")
    check(int(params["number_of_L2s"]) == seen["l2"], f"{path}: number_of_L2s {params}")
    check(int(system.find("stat[@name='total_cycles']").get("value")) == activity["duration_cycles"],
          f"{path}: total_cycles")
    return seen


def main():
    numagpu, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # Two sockets with dynamic links and the NUMA-aware L2: every kind of instance is present.
    run([numagpu, "run", "-q", "-o", f"{work}/run", "--set", "system.sockets=2", "--set", "sm.per_socket=2",
         "--set", "link.mode=dynamic", "--set", "l2.organization=numa_aware",
         "--set", "workload.kernels=[{name: k, pattern: stream, ctas: 8, warps_per_cta: 2, accesses_per_warp: 16}]"])
    activity_path = f"{work}/run/activity.json"
    activity = json.load(open(activity_path))
    kinds = {i["kind"] for i in activity["instances"]}
    check({"sm", "l1", "l2", "crossbar", "dram", "link", "switch", "link_balancer",
           "partition_controller"} <= kinds, f"the run lacks kinds: {kinds}")

    export(numagpu, activity_path, "accelergy", f"{work}/counts.yaml")
    export(numagpu, activity_path, "mcpat", f"{work}/mcpat.xml")
    check_accelergy(activity, f"{work}/counts.yaml")
    seen = check_mcpat(activity, f"{work}/mcpat.xml")
    # 2 sockets x 2 SMs: 4 L1s; the paper's L2 has 16 banks per socket; one crossbar and one DRAM each.
    check(seen == {"l1": 4, "l2": 32, "crossbar": 2, "dram": 2}, f"instances per kind: {seen}")

    # Counters the exporters have never heard of: added to every SM (instruction classes summing to
    # `instructions`) and to the L2s (a sector count), they are exported like the others.
    extended = json.load(open(activity_path))
    for inst in extended["instances"]:
        c = inst["counters"]
        if inst["kind"] == "sm":
            c["instructions_fp32"] = c["instructions"] // 2
            c["instructions_memory"] = c["instructions"] - c["instructions_fp32"]
            c["resident_cycles"] = c["issue_cycles"] + 1
        elif inst["kind"] == "l2":
            c["read_sectors"] = 4 * c["reads"]
        for series in ("instructions_fp32", "instructions_memory", "resident_cycles", "read_sectors"):
            if series in c and "windows" in inst:
                # keep the windows consistent with the totals: all in the last window
                w = [0] * len(extended["windows"])
                w[-1] = c[series]
                inst["windows"][series] = w
    ext_path = f"{work}/extended_activity.json"
    json.dump(extended, open(ext_path, "w"))
    export(numagpu, ext_path, "accelergy", f"{work}/extended.yaml")
    export(numagpu, ext_path, "mcpat", f"{work}/extended.xml")
    check_accelergy(extended, f"{work}/extended.yaml")
    check_mcpat(extended, f"{work}/extended.xml")
    text = open(f"{work}/extended.xml").read()
    check('<stat name="numagpu.read_sectors"' in text, "the L2's new sector counter is not in the McPAT XML")

    # Bad input: one line naming the file, exit status 2, nothing written.
    with open(f"{work}/broken.json", "w") as f:
        f.write('{"schema": "numagpu-activity"')
    for args, want in ((["--format", "mcpat", "--activity", f"{work}/broken.json"], "broken.json: not valid JSON"),
                       (["--format", "x", "--activity", activity_path], "expected accelergy, accelergy-arch or mcpat"),
                       (["--format", "mcpat", "--activity", f"{work}/run/stats.json"], "stats.json: ")):
        p = subprocess.run([numagpu, "export", *args, "-o", f"{work}/never.out"], capture_output=True, text=True)
        check(p.returncode == 2 and want in p.stderr and p.stderr.count("\n") == 1,
              f"export {args}: exit {p.returncode}, stderr {p.stderr!r}")
        check(not os.path.exists(f"{work}/never.out"), f"export {args} wrote its output")

    # Issue 44: names with control bytes stay parseable XML (XML 1.0 cannot hold them even as references: they
    # are written as the text \xNN) and round-trip through the YAML; the file name in the provenance comment
    # too. Before, McPAT's output held the raw byte and did not parse, with exit 0.
    controlled = json.load(open(activity_path))
    for inst in controlled["instances"]:
        inst["name"] = inst["name"] + "\x01\x1b[31m"
    ctl_path = f"{work}/ctl\x02.json"
    json.dump(controlled, open(ctl_path, "w"))
    export(numagpu, ctl_path, "mcpat", f"{work}/ctl.xml")
    raw = open(f"{work}/ctl.xml", "rb").read()
    check(not any(b < 0x20 and b not in (0x09, 0x0A, 0x0D) for b in raw), "a control byte reached the McPAT XML")
    try:
        ET.parse(f"{work}/ctl.xml")
        check(b"ctl\\x02.json" in raw, "the escaped file name is not in the McPAT XML's provenance")
    except ET.ParseError as e:
        check(False, f"McPAT XML with control bytes in names does not parse: {e}")
    # Issue 47: a name with [ or ] is refused for Accelergy, which reads brackets as array indices: one line.
    p = subprocess.run([numagpu, "export", "--format", "accelergy", "--activity", ctl_path, "-o",
                        f"{work}/never.out"], capture_output=True, text=True)
    check(p.returncode == 2 and "an empty name segment or one with [ or ]" in p.stderr and p.stderr.count("\n") == 1,
          f"bracketed names: exit {p.returncode}, {p.stderr!r}")
    for inst in controlled["instances"]:
        inst["name"] = inst["name"].replace("[31m", "")
    json.dump(controlled, open(ctl_path, "w"))
    export(numagpu, ctl_path, "accelergy", f"{work}/ctl.yaml")
    check_accelergy(controlled, f"{work}/ctl.yaml")

    # Issue 44: a directory or a FIFO as --activity is one line and exit 2 (it crashed; a FIFO blocked), and
    # -o naming the --activity file itself is refused with the file unchanged (it was overwritten, exit 0).
    os.mkfifo(f"{work}/fifo")
    before = open(activity_path, "rb").read()
    # A number too large for a double is not a JSON parse error to the parser (out_of_range): it crashed both
    # commands (found by activity_fuzzer; fuzz/regressions/activity/number-overflow.json).
    overflow = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fuzz", "regressions",
                            "activity", "number-overflow.json")
    for cmd, want in ((["export", "--format", "mcpat", "--activity", overflow, "-o", f"{work}/never.out"],
                       "number-overflow.json: not valid JSON"),
                      (["power", "--activity", overflow, "-o", f"{work}/never"], "number-overflow.json: not valid JSON"),
                      (["export", "--format", "mcpat", "--activity", work, "-o", f"{work}/never.out"],
                       "not a regular file (a directory)"),
                      (["power", "--activity", work, "-o", f"{work}/never"], "not a regular file (a directory)"),
                      (["export", "--format", "mcpat", "--activity", f"{work}/fifo", "-o", f"{work}/never.out"],
                       "not a regular file (a pipe"),
                      (["power", "--activity", f"{work}/fifo", "-o", f"{work}/never"], "not a regular file (a pipe"),
                      (["export", "--format", "accelergy", "--activity", activity_path, "-o", activity_path],
                       "is the --activity file itself"),
                      (["power", "--activity", activity_path, "-o", f"{work}/run/../run/."], None)):
        try:
            p = subprocess.run([numagpu, *cmd, "-q"], capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            check(False, f"{cmd}: still running after 20 s")
            continue
        if want is None:  # power.json beside activity.json is another file: allowed
            check(p.returncode == 0, f"{cmd}: exit {p.returncode}, {p.stderr!r}")
            continue
        check(p.returncode == 2 and want in p.stderr and p.stderr.count("\n") == 1,
              f"{cmd}: exit {p.returncode}, stderr {p.stderr!r}")
        check(not os.path.exists(f"{work}/never.out") and not os.path.exists(f"{work}/never"),
              f"{cmd} wrote its output")
    check(open(activity_path, "rb").read() == before, "the activity file changed")

    if failures:
        for f in failures:
            print("FAIL:", f)
        sys.exit(1)
    print(f"export_roundtrip: {len(activity['instances'])} instances round-tripped through Accelergy and McPAT")


if __name__ == "__main__":
    main()
