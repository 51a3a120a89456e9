#!/usr/bin/env python3
"""numagpu export's Accelergy and McPAT files checked against the formats as the tools read them (issue 47;
docs/power.md, "Exporting activity").

Accelergy is not on PyPI and McPAT is not a Debian package, so neither runs here (when an `accelergy`
program is on the PATH, it is also run on the export). Instead this test holds the files to the rules the
tools' parsers apply, learnt from their sources:

- Accelergy 0.3/0.4 (raw_inputs_2_dicts.py, parsing_utils.py): the architecture has one root subtree; a
  component's flattened name is its subtrees' names and its own joined by dots, an array declared as
  `name[a..b]`; an action-count entry `system.socket[0].sm[3]` names an element of such a component (same
  name with the brackets removed, as many indices, each within its range); every action counted is an action
  of the component's class; a compound class has name, attributes, subcomponents and actions, its
  subcomponents are primitive classes of Accelergy's library and its actions use their actions.
- McPAT (XML_Parse.cc): the system's child components are read by position: the cores (one when
  homogeneous), L1 directories, L2 directories, L2s, L3s, NoCs (one each when homogeneous), then mc, niu,
  pcie and flashc, each recognised by its id or name (`core`, `L1Directory`, `L2Directory`, `L2`, `L3`,
  `noc`, `system.mc`, ...); one mc component with `number_mcs`; cache configurations of eight numbers.

Each checker is also given the files as numagpu wrote them before (names `system.socket0.sm0`, no
architecture; `mc0`/`mc1` before the NoCs) and must reject them.

Usage: export_formats_test.py NUMAGPU WORKDIR
"""
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # no __pycache__ beside the tests in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flows_check import Checks, require  # noqa: E402

yaml = require("yaml", "export_formats_test", "python3-yaml")
check = Checks("export_formats_test")


def run(cmd, ok=True):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if ok and p.returncode != 0:
        sys.exit(f"export_formats_test: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    return p


# Accelergy's primitive component library (share/primitive_component_libs/primitive_component.lib.yaml,
# version 0.3): the classes the exported compound components may use, with their attributes and actions.
PRIMITIVES = {
    "SRAM": ({"technology", "width", "depth", "n_rd_ports", "n_wr_ports", "n_rdwr_ports", "n_banks", "latency"},
             {"read", "write", "idle"}),
    "regfile": ({"technology", "width", "depth", "n_ports", "latency"}, {"read", "write", "idle"}),
    "DRAM": ({"technology", "type", "width"}, {"read", "write", "idle"}),
    "counter": ({"technology", "width", "latency"}, {"count", "idle"}),
    "comparator": ({"technology", "datawidth"}, {"compare", "idle"}),
    "intmac": ({"technology", "datawidth", "num_pipeline_stages", "latency"},
               {"mac_random", "mac_reused", "mac_gated", "idle"}),
    "fpmac": ({"technology", "exponent", "mantissa", "sign", "num_pipeline_stages", "latency"},
              {"mac_random", "mac_reused", "mac_gated", "idle"}),
    "crossbar": ({"technology", "n_inputs", "n_outputs", "datawidth", "latency"},
                 {"transfer_random", "transfer_repeated", "idle"}),
    "wire": ({"technology", "length", "latency"}, {"transfer_random", "transfer_repeated", "idle"}),
}
RANGE = re.compile(r"^(?P<base>[^\[\]]+)\[(?P<lo>\d+)\.\.(?P<hi>\d+)\]$")


class FormatError(Exception):
    pass


def require(cond, what):
    if not cond:
        raise FormatError(what)


def flatten_architecture(arch):
    """{flattened name: (class, attributes)} as Accelergy flattens the tree (names keep their ranges)."""
    require(arch.get("version") in (0.3, 0.4), f"architecture version {arch.get('version')}")
    roots = arch.get("subtree")
    require(isinstance(roots, list) and len(roots) == 1, "architecture: not exactly one root subtree")
    out = {}

    def node(n, prefix):
        require("name" in n and isinstance(n["name"], str), f"{prefix}: a node without a name")
        require("local" in n or "subtree" in n, f"{prefix}.{n['name']}: neither local nor subtree")
        here = n["name"] if prefix is None else f"{prefix}.{n['name']}"
        for c in n.get("local", []):
            require("name" in c and "class" in c, f"{here}: a local component without name or class")
            full = f"{here}.{c['name']}"
            require(full not in out, f"{full}: declared twice")
            out[full] = (c["class"], c.get("attributes", {}))
        for s in n.get("subtree", []):
            node(s, here)

    node(roots[0], None)
    return out


def split_name(name):
    """[(base, index or (lo, hi) or None)] per segment: split at the dots that are not part of a range's
    `..` (as Accelergy dissects a flattened name)."""
    parts = []
    for seg in re.split(r"(?<!\.)\.(?!\.)", name):
        m = RANGE.match(seg)
        if m:
            parts.append((m["base"], (int(m["lo"]), int(m["hi"]))))
            continue
        m = re.match(r"^([^\[\]]+)\[(\d+)\]$", seg)
        parts.append((m[1], int(m[2])) if m else (seg, None))
    return parts


def check_accelergy(counts_doc, arch_doc, instances):
    """Raises FormatError on the first rule broken; returns the number of entries matched."""
    ac = counts_doc.get("action_counts", {})
    require(ac.get("version") in (0.3, 0.4), f"action counts version {ac.get('version')}")
    require("architecture" in arch_doc, "no architecture description")
    require("compound_components" in arch_doc, "no compound component description")
    flat = flatten_architecture(arch_doc["architecture"])
    cc = arch_doc["compound_components"]
    require(cc.get("version") in (0.3, 0.4), f"compound components version {cc.get('version')}")
    classes = {}
    for c in cc.get("classes", []):
        for key in ("name", "attributes", "subcomponents", "actions"):
            require(key in c, f"class {c.get('name')}: no {key}")
        subs = {}
        for s in c["subcomponents"]:
            require("name" in s and "class" in s, f"class {c['name']}: a subcomponent without name or class")
            require(s["class"] in PRIMITIVES, f"class {c['name']}: {s['class']} is not an Accelergy primitive")
            attrs, _ = PRIMITIVES[s["class"]]
            for k, v in s.get("attributes", {}).items():
                require(k in attrs, f"class {c['name']}.{s['name']}: {s['class']} has no attribute {k}")
                # A string naming another attribute is a binding Accelergy 0.4 reads as text when quoted.
                require(not (isinstance(v, str) and v in c["attributes"]),
                        f"class {c['name']}.{s['name']}: attribute {k} bound to {v}")
            subs[s["name"]] = s["class"]
        actions = set()
        for a in c["actions"]:
            require("name" in a and "subcomponents" in a, f"class {c['name']}: an action without name/subcomponents")
            for sa in a["subcomponents"]:
                require(sa.get("name") in subs, f"class {c['name']}.{a['name']}: no subcomponent {sa.get('name')}")
                for act in sa.get("actions", []):
                    require(act.get("name") in PRIMITIVES[subs[sa["name"]]][1],
                            f"class {c['name']}.{a['name']}: {subs[sa['name']]} has no action {act.get('name')}")
            actions.add(a["name"])
        classes[c["name"]] = actions
    # The flattened components by their names without brackets.
    by_base = {}
    for full, (cls, _) in flat.items():
        require(cls in classes, f"{full}: class {cls} is not described")
        by_base[".".join(b for b, _ in split_name(full))] = (split_name(full), cls)
    seen = set()
    for entry in ac.get("local", []):
        name = entry["name"]
        parts = split_name(name)
        base = ".".join(b for b, _ in parts)
        require(base in by_base, f"action counts: {name} is no component of the architecture")
        ref, cls = by_base[base]
        for (b, idx), (_, rng) in zip(parts, ref):
            if rng is None:
                require(idx is None, f"action counts: {name}: {b} is not an array")
            else:
                require(isinstance(idx, int) and rng[0] <= idx <= rng[1],
                        f"action counts: {name}: {b} needs an index within [{rng[0]}..{rng[1]}]")
        for a in entry["action_counts"]:
            require(a["name"] in classes[cls], f"action counts: {name}: {cls} has no action {a['name']}")
            require(isinstance(a["counts"], int) and a["counts"] >= 0, f"action counts: {name}.{a['name']}: counts")
        require(name not in seen, f"action counts: {name} twice")
        seen.add(name)
    # Every element of every array has its counts: nothing is left for the user to write.
    elements = 1
    total = 0
    for parts, _ in by_base.values():
        elements = 1
        for _, rng in parts:
            if rng is not None:
                elements *= rng[1] - rng[0] + 1
        total += elements
    require(total == len(seen) == len(instances), f"{total} architecture elements, {len(seen)} counted, "
                                                   f"{len(instances)} instances")
    return len(seen)


def accelergy_name(name):
    """numagpu's instance name as the export names it, for the default machine's instances."""
    return re.sub(r"\.(socket|sm|l1|l2|switch)_?(\d+)(?=\.|$)", r".\1[\2]", name)


# McPAT (XML_Parse.cc): the system parameters it reads, and what it looks for at each position.
SYSTEM_PARAMS = ["number_of_cores", "number_of_L1Directories", "number_of_L2Directories", "number_of_L2s",
                 "Private_L2", "number_of_L3s", "number_of_NoCs", "homogeneous_cores", "homogeneous_L2s",
                 "homogeneous_L1Directories", "homogeneous_L2Directories", "homogeneous_L3s", "homogeneous_NoCs",
                 "core_tech_node", "target_core_clockrate", "temperature", "number_cache_levels",
                 "interconnect_projection_type", "device_type", "longer_channel_device", "machine_bits",
                 "virtual_address_width", "physical_address_width", "virtual_memory_page_size"]
MCPAT_NODES = {22, 32, 45, 65, 90, 180}


def params(c):
    return {p.get("name"): p.get("value") for p in c.findall("param")}


def stats(c):
    return {s.get("name"): float(s.get("value")) for s in c.findall("stat")}


def check_mcpat(root):
    """Raises FormatError on the first rule broken; returns the system's components by McPAT's role."""
    require(root.tag == "component" and root.get("id") == "root", "the first component is not root")
    system = root.find("component")
    require(system is not None and system.get("id") == "system", "the second layer is not system")
    p = params(system)
    for name in SYSTEM_PARAMS:
        require(name in p, f"system: no param {name}")
        require(re.fullmatch(r"-?\d+", p[name]) is not None, f"system: {name}={p[name]} is not an integer")
    require(int(p["core_tech_node"]) in MCPAT_NODES, f"core_tech_node {p['core_tech_node']}")
    require("total_cycles" in stats(system), "system: no total_cycles")
    children = system.findall("component")
    pos = 0
    role = {}

    def slots(kind, homogeneous, number, attr, text):
        nonlocal pos
        n = 1 if int(p[homogeneous]) == 1 else int(p[number])
        for _ in range(n):
            require(pos < len(children), f"position {pos}: missing ({kind})")
            c = children[pos]
            require(text in (c.get(attr) or ""), f"position {pos}: {c.get('id')} where McPAT reads {kind} "
                                                 f"({attr} containing {text!r})")
            role.setdefault(kind, c)
            pos += 1

    slots("core", "homogeneous_cores", "number_of_cores", "name", "core")
    slots("L1Directory", "homogeneous_L1Directories", "number_of_L1Directories", "id", "L1Directory")
    slots("L2Directory", "homogeneous_L2Directories", "number_of_L2Directories", "id", "L2Directory")
    slots("L2", "homogeneous_L2s", "number_of_L2s", "name", "L2")
    slots("L3", "homogeneous_L3s", "number_of_L3s", "name", "L3")
    slots("NoC", "homogeneous_NoCs", "number_of_NoCs", "name", "noc")
    for kind in ("mc", "niu", "pcie", "flashc"):
        require(pos < len(children), f"position {pos}: missing system.{kind}")
        require(f"system.{kind}" in children[pos].get("id"),
                f"position {pos}: {children[pos].get('id')} where McPAT reads system.{kind}")
        role[kind] = children[pos]
        pos += 1
    ids = [c.get("id") for c in children]
    require(not any(re.fullmatch(r"system\.mc\d+", i) for i in ids), f"per-controller mc components: {ids}")
    require("number_mcs" in params(role["mc"]), "mc: no number_mcs")
    core = role["core"]
    sub = {c.get("name"): c for c in core.findall("component")}
    for name, key in (("icache", "icache_config"), ("dcache", "dcache_config")):
        require(name in sub and key in params(sub[name]), f"core: no {name} with {key}")
        fields = params(sub[name])[key].split(",")
        require(len(fields) == 8 and all(re.fullmatch(r"\d+", f) for f in fields), f"{key}: {fields}")
    fields = params(role["L2"]).get("L2_config", "").split(",")
    require(len(fields) == 8 and all(re.fullmatch(r"\d+", f) for f in fields), f"L2_config: {fields}")
    return p, role


def old_style_mcpat(root):
    """The McPAT file as numagpu wrote it before issue 47: mc0, mc1 before the NoCs, no technology."""
    bad = copy.deepcopy(root)
    system = bad.find("component")
    children = system.findall("component")
    mc = next(c for c in children if c.get("id") == "system.mc")
    noc = next(c for c in children if c.get("id") == "system.NoC0")
    system.remove(mc)
    for i in range(2):
        m = copy.deepcopy(mc)
        m.set("id", f"system.mc{i}")
        system.insert(list(system).index(noc), m)
    for prm in system.findall("param"):
        if prm.get("name") == "core_tech_node":
            system.remove(prm)
    return bad


def main():
    numagpu, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # Two sockets with dynamic links and the NUMA-aware L2: every kind of instance is present.
    run([numagpu, "run", "-q", "-o", f"{work}/run", "--set", "system.sockets=2", "--set", "sm.per_socket=4",
         "--set", "link.mode=dynamic", "--set", "l2.organization=numa_aware",
         "--set", "workload.kernels=[{name: k, pattern: stream, ctas: 8, warps_per_cta: 2, accesses_per_warp: 16}]"])
    act_path = f"{work}/run/activity.json"
    activity = json.load(open(act_path))
    inst = activity["instances"]
    for fmt, out in (("accelergy", "counts.yaml"), ("accelergy-arch", "arch.yaml"), ("mcpat", "mcpat.xml")):
        run([numagpu, "export", "--format", fmt, "--activity", act_path, "-o", f"{work}/{out}", "-q"])

    # Accelergy.
    counts = yaml.safe_load(open(f"{work}/counts.yaml"))
    arch = yaml.safe_load(open(f"{work}/arch.yaml"))
    try:
        check(check_accelergy(counts, arch, inst) == len(inst), "Accelergy: not every instance matched")
    except FormatError as e:
        check(False, f"Accelergy: {e}")
    # The names are Accelergy's: sockets, SMs, L1s, L2 banks and switches as arrays, each counter back.
    names = [e["name"] for e in counts["action_counts"]["local"]]
    check(names == [accelergy_name(i["name"]) for i in inst], f"Accelergy names {names[:6]}...")
    check("system.socket[1].sm[3]" in names and "system.socket[0].l2[15]" in names, f"names {names[:6]}")
    for e, i in zip(counts["action_counts"]["local"], inst):
        check({a["name"]: a["counts"] for a in e["action_counts"]} == i["counters"], f"{e['name']}: counts")
    subtree = arch["architecture"]["subtree"][0]
    check(subtree["name"] == "system" and subtree["attributes"]["technology"] == "22nm", f"root {subtree}")
    check([s["name"] for s in subtree["subtree"]] == ["socket[0..1]", "link_gpu0_switch0", "link_gpu1_switch0"],
          f"subtrees {[s['name'] for s in subtree['subtree']]}: the sockets are not one array")
    check({c["name"] for c in subtree["subtree"][0]["local"]} >= {"sm[0..3]", "l1[0..3]", "l2[0..15]", "xbar",
                                                                   "dram"}, "socket's locals")
    # The files numagpu wrote before are refused: names as SystemC spells them, no architecture.
    old_counts = copy.deepcopy(counts)
    for e, i in zip(old_counts["action_counts"]["local"], inst):
        e["name"] = i["name"]
    for what, c, a in (("SystemC names", old_counts, arch), ("no architecture", counts, {})):
        try:
            check_accelergy(c, a, inst)
            check(False, f"Accelergy checker accepted {what}")
        except FormatError:
            pass
    accelergy = shutil.which("accelergy")
    if accelergy:
        p = run([accelergy, f"{work}/arch.yaml", f"{work}/counts.yaml", "-o", f"{work}/accelergy"], ok=False)
        check(p.returncode == 0, f"accelergy: exit {p.returncode}: {p.stderr[-400:]}")
    else:
        print("export_formats_test: accelergy is not installed (not on PyPI): checked against its format only")

    # McPAT.
    root = ET.parse(f"{work}/mcpat.xml").getroot()
    try:
        p, role = check_mcpat(root)
        by_kind = {}
        for i in inst:
            by_kind.setdefault(i["kind"], []).append(i)

        def total(kind, counter):
            return sum(i["counters"].get(counter, 0) for i in by_kind.get(kind, []))

        check(int(p["number_of_cores"]) == len(by_kind["sm"]) == 8, f"number_of_cores {p['number_of_cores']}")
        check(int(p["number_of_L2s"]) == len(by_kind["l2"]), "number_of_L2s")
        check(int(p["number_of_NoCs"]) == len(by_kind["crossbar"]), "number_of_NoCs")
        check(int(params(role["mc"])["number_mcs"]) == len(by_kind["dram"]) == 2, "number_mcs")
        check(int(p["target_core_clockrate"]) == activity["clock_mhz"], "clock")
        check(stats(root.find("component"))["total_cycles"] == activity["duration_cycles"], "total_cycles")
        # Homogeneous components carry the average: McPAT multiplies it back by the count.
        dcache = next(c for c in role["core"].findall("component") if c.get("name") == "dcache")
        for comp, count, kind, stat, counter in (
                (dcache, p["number_of_cores"], "l1", "read_accesses", "reads"),
                (dcache, p["number_of_cores"], "l1", "write_accesses", "writes"),
                (role["L2"], p["number_of_L2s"], "l2", "read_accesses", "reads"),
                (role["L2"], p["number_of_L2s"], "l2", "read_misses", "read_misses"),
                (role["NoC"], p["number_of_NoCs"], "crossbar", "total_accesses", "requests"),
                (role["core"], p["number_of_cores"], "sm", "total_instructions", "instructions")):
            got = stats(comp)[stat] * int(count)
            check(abs(got - total(kind, counter)) <= 1e-6 * max(1, total(kind, counter)),
                  f"{comp.get('id')} {stat} x {count} = {got}, total {counter} {total(kind, counter)}")
        mc = stats(role["mc"])
        check(mc["memory_reads"] == total("dram", "reads") and mc["memory_writes"] == total("dram", "writes")
              and mc["memory_accesses"] == mc["memory_reads"] + mc["memory_writes"], f"mc stats {mc}")
        # L1: 128 KiB, 128-byte lines, 4 ways, write-through (policy 0); L2 bank: write-back (policy 1).
        check(params(dcache)["dcache_config"].split(",")[:3] == ["131072", "128", "4"], "dcache_config")
        check(params(dcache)["dcache_config"].endswith(",0") and params(role["L2"])["L2_config"].endswith(",1"),
              "cache policies")
    except FormatError as e:
        check(False, f"McPAT: {e}")
    try:
        check_mcpat(old_style_mcpat(root))
        check(False, "McPAT checker accepted mc0/mc1 before the NoCs")
    except FormatError:
        pass
    # --technology-nm: McPAT's nodes only; written into both descriptions.
    bad = run([numagpu, "export", "--format", "mcpat", "--activity", act_path, "--technology-nm", "12", "-o",
               f"{work}/never.xml"], ok=False)
    check(bad.returncode == 2 and "McPAT models 22, 32, 45, 65, 90 or 180 nm" in bad.stderr
          and bad.stderr.count("\n") == 1 and not os.path.exists(f"{work}/never.xml"), f"--technology-nm 12: {bad.stderr}")
    run([numagpu, "export", "--format", "accelergy-arch", "--activity", act_path, "--technology-nm", "12", "-o",
         f"{work}/arch12.yaml", "-q"])
    check('technology: "12nm"' in open(f"{work}/arch12.yaml").read(), "accelergy-arch --technology-nm 12")

    check.finish(f"{len(inst)} instances; Accelergy names, classes and McPAT positions as the tools read them")


if __name__ == "__main__":
    main()
