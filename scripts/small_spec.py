#!/usr/bin/env python3
"""Writes a reduced copy of a study spec of the application suite: every application at its `small` arguments
(the line "`small`: ARGS" in its workload file, configs/workloads/apps/*.yaml), for checking that a study runs
end to end in minutes before its long run (docs/studies.md, "Gap experiments").

Usage: small_spec.py SPEC.yaml OUT.yaml [--workloads a,b,...]

The copy names its configuration and workload files by absolute paths, so it may be written anywhere; a
workload's own `set` is kept and its `small` arguments come after it (workload.kernels.0.args). A workload
file without a `small` line is one error line, exit 2."""
import os
import re
import sys

import yaml


def small_args(path):
    """The arguments a workload file's "`small`: ARGS" comment names."""
    try:
        with open(path) as f:
            m = re.search(r"`small`:\s*(.+?)\s*$", f.read(), re.M)
    except OSError as e:
        fail(f"{path}: {e}")
    if not m:
        fail(f"{path}: no \"`small`: ARGS\" line")
    return m.group(1)


def fail(message):
    print(f"small_spec.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    args = sys.argv[1:]
    only = None
    if "--workloads" in args:
        k = args.index("--workloads")
        if k + 1 >= len(args):
            fail("--workloads needs a comma-separated list")
        only = args[k + 1].split(",")
        del args[k:k + 2]
    if len(args) != 2:
        fail("usage: small_spec.py SPEC.yaml OUT.yaml [--workloads a,b,...]")
    spec_path, out_path = args
    try:
        spec = yaml.safe_load(open(spec_path))
    except (OSError, yaml.YAMLError) as e:
        fail(f"{spec_path}: {e}")
    here = os.path.dirname(os.path.abspath(spec_path))
    if spec.get("config"):
        spec["config"] = os.path.normpath(os.path.join(here, spec["config"]))
    workloads = []
    for w in spec.get("workloads", []):
        if only is not None and w["name"] not in only:
            continue
        w["file"] = os.path.normpath(os.path.join(here, w["file"]))
        w["set"] = list(w.get("set", [])) + [{"key": "workload.kernels.0.args", "value": small_args(w["file"])}]
        workloads.append(w)
    if only is not None and len(workloads) != len(only):
        fail(f"--workloads: not all of {','.join(only)} are workloads of {spec_path}")
    spec["workloads"] = workloads
    spec["description"] = spec.get("description", "") + " [small arguments]"
    with open(out_path, "w") as f:
        f.write(f"# Written by scripts/small_spec.py from {os.path.abspath(spec_path)}: every application at its "
                f"`small` arguments.\n")
        yaml.safe_dump(spec, f, sort_keys=False, width=200)


if __name__ == "__main__":
    main()
