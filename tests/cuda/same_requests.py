#!/usr/bin/env python3
"""The CUDA versions of the library kernels issue the same global memory requests as the C++ kernels.

For each case, the CUDA program (examples/cuda/, built by numagpu-cc, run through numagpu's CUDA runtime) and
the C++ library kernel or application it mirrors run on the same system with the same input; the global
memory requests must be equal exactly: the SMs' line requests (loads, stores, atomics) and the 32 B sectors
they ask of the L1s (read and write sector hits plus misses). Why they must be: each program allocates the
same arrays in the same order and sizes, launches the same grids, and each thread reads and writes the same
elements; the SM's coalescer turns a warp's addresses into lines and sectors the same way whichever front end
made them. The placement of the arrays differs (the runtime's device memory against the library's address
space), but lines and sectors are counted per access, whatever the address.

Instruction counts per class are not asserted (PTX is not the C++ kernels' hand count): --table prints them
side by side, for docs/cuda.md.

Usage: same_requests.py NUMAGPU NUMAGPU_CC SOURCE_DIR WORK_DIR [--only NAME] [--table]
"""
import json
import os
import re
import subprocess
import sys

GRAPHS = "/usr/share/doc/libmetis-dev/examples/graphs"

# name, the program and its arguments, the workload items it mirrors.
CASES = [
    ("saxpy", [], [{"kernel": "example/saxpy", "args": "n=1048576"}]),
    ("hotspot", ["64", "64", "2"], [{"kernel": "rodinia/hotspot", "args": "rows=64 cols=64 pyramid=2"}]),
    ("backprop", ["256"], [{"kernel": "rodinia/backprop_layerforward", "args": "in=256 hid=16"},
                           {"kernel": "rodinia/backprop_adjust_weights", "args": "in=256 hid=16"}]),
    ("sgemm", ["128", "32", "64"], [{"kernel": "parboil/sgemm_mysgemmNT", "args": "m=128 n=32 k=64"}]),
    ("btree", ["100000", "20"], [{"kernel": "rodinia/btree_findK", "args": "size=100000 count=20"}]),
    ("btree_range", ["100000", "20", "6000"], [{"kernel": "rodinia/btree_findRangeK",
                                                "args": "size=100000 count=20 range=6000"}]),
    ("dct8x8", ["64", "32"], [{"kernel": "cuda-samples/dct8x8_CUDAkernel1DCT", "args": "width=64 height=32"},
                              {"kernel": "cuda-samples/dct8x8_CUDAkernel2DCT", "args": "width=64 height=32"}]),
    ("kmeans", ["3000", "34", "5"], [{"kernel": "rodinia/kmeans_kmeansPoint",
                                      "args": "points=3000 features=34 clusters=5"}]),
    ("histogram", ["65536", "2009"], [{"kernel": "cuda-samples/histogram64", "args": "bytes=65536 seed=2009"}]),
    # srad alone: the library models srad2 only inside the application rodinia/srad (extract, prepare, reduce).
    ("srad", ["64", "40", "1"], [{"kernel": "rodinia/srad_v1_srad", "args": "rows=64 cols=40"}]),
    ("bfs", [GRAPHS + "/4elt.graph", "1"], [{"app": "rodinia/bfs", "args": "layers=1",
                                             "input": GRAPHS + "/4elt.graph"}]),
    ("hotspot_app", ["64", "48", "2", "8"], [{"app": "rodinia/hotspot", "args": "rows=64 cols=48 pyramid=2 steps=8"}]),
    ("cfd", [GRAPHS + "/mdual.graph", "1", "2000"], [{"app": "rodinia/cfd", "args": "iterations=1 elements=2000",
                                                    "input": GRAPHS + "/mdual.graph"}]),
]

REQUESTS = ["loads", "stores", "atomics", "l1 read sectors", "l1 write sectors"]
CLASSES = ["fp32", "fp64", "int", "sfu", "tensor", "branch", "shared", "memory"]


def flatten(o, prefix=""):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from flatten(v, prefix + "." + k if prefix else k)
    else:
        yield prefix, o


def totals(stats_json):
    with open(stats_json) as f:
        stats = json.load(f)["stats"]
    t = {k: 0 for k in REQUESTS + CLASSES}
    for key, value in flatten(stats):
        if not isinstance(value, (int, float)):
            continue
        m = re.search(r"\.sm\d+\.(loads|stores|atomics|instructions_(\w+))$", key)
        if m:
            name = m.group(2) or m.group(1)
            if name in t:
                t[name] += value
        m = re.search(r"\.l1_\d+\.(read|write)_sector_(hits|misses)$", key)
        if m:
            t["l1 %s sectors" % m.group(1)] += value
    return t


def yaml_item(i, item):
    lines = ["    - name: k%d" % i]
    for k, v in item.items():
        lines.append("      %s: %s" % (k, json.dumps(v)))
    return "\n".join(lines)


def main():
    numagpu, cc, source, work = sys.argv[1:5]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    table = "--table" in sys.argv
    config = os.path.join(source, "configs/gpus/qv100.yaml")  # sectored caches, dependent latencies
    os.makedirs(work, exist_ok=True)
    failed = []
    rows = []
    for name, args, items in CASES:
        if only and name != only:
            continue
        if any("input" in i and not os.path.exists(i["input"]) for i in items):
            print("%s: skipped (no %s)" % (name, GRAPHS))
            continue
        program = os.path.join(work, name)
        subprocess.run([cc, "-O2", os.path.join(source, "examples/cuda", name + ".cu"), "-o", program], check=True)
        env = dict(os.environ, NUMAGPU_CONFIG=config, NUMAGPU_OUT=os.path.join(work, name + "-cuda"),
                   NUMAGPU_QUIET="1")
        run = subprocess.run([program] + args, env=env, capture_output=True, text=True)
        if run.returncode != 0 or "PASS" not in run.stdout:
            print("%s: the CUDA program failed (%d): %s %s" % (name, run.returncode, run.stdout, run.stderr))
            failed.append(name)
            continue
        workload = os.path.join(work, name + ".yaml")
        with open(workload, "w") as f:
            f.write("workload:\n  name: %s\n  kernels:\n%s\n" %
                    (name, "\n".join(yaml_item(i, it) for i, it in enumerate(items))))
        subprocess.run([numagpu, "run", "-q", "-c", config, "-w", workload, "-o", os.path.join(work, name + "-cpp")],
                       check=True)
        cuda = totals(os.path.join(work, name + "-cuda", "stats.json"))
        cpp = totals(os.path.join(work, name + "-cpp", "stats.json"))
        differ = [k for k in REQUESTS if cuda[k] != cpp[k]]
        print("%s: %s" % (name, "same requests" if not differ else "DIFFERENT " + ", ".join(
            "%s %d (CUDA) vs %d (C++)" % (k, cuda[k], cpp[k]) for k in differ)))
        if differ:
            failed.append(name)
        rows.append((name, cuda, cpp))
    if table:
        print("\n| program | " + " | ".join(CLASSES) + " |")
        print("|---|" + "---|" * len(CLASSES))
        for name, cuda, cpp in rows:
            print("| %s (PTX / C++) | %s |" % (name, " | ".join(
                "%d / %d" % (cuda[c], cpp[c]) for c in CLASSES)))
    if failed:
        print("FAILED: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
