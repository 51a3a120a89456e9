#!/usr/bin/env python3
"""The fuzzers run deep (docs/reliability.md, Fuzzing), checked without building them:

- every target has a dictionary, fuzz/dict/<target>.dict, in libFuzzer's syntax (a line is a comment, empty, or
  [name=]"value" with \\\\, \\" and \\xHH escapes only), that scripts/fuzz.sh passes with -dict;
- every target gets a -max_len of at least 16 kB (libFuzzer's own guess stays near its seeds' sizes);
- the Accel-Sim dictionary holds every header key, block and warp word and opcode family of the repository's
  traces and every opcode the reader classifies (models/trace/opcode.cpp); the .ngt one holds the magic.
Usage: fuzz_setup_test.py SOURCE_DIR"""
import glob
import os
import re
import subprocess
import sys

TARGETS = ("config", "accelsim", "ngt", "metis", "hwcsv", "activity")
LINE = re.compile(r'^([A-Za-z0-9_]+=)?"((?:\\\\|\\"|\\x[0-9A-Fa-f]{2}|[^"\\])*)"$')


def decode(value):
    """The bytes a dictionary value stands for."""
    out, i = bytearray(), 0
    while i < len(value):
        if value[i] == "\\":
            if value[i + 1] == "x":
                out.append(int(value[i + 2:i + 4], 16))
                i += 4
            else:
                out += value[i + 1].encode()
                i += 2
        else:
            out += value[i].encode()
            i += 1
    return bytes(out)


def read_dict(path, problems):
    words = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = LINE.match(line)
            if not m:
                problems.append(f"{path}:{n}: not libFuzzer dictionary syntax: {line}")
                continue
            words.append(decode(m.group(2)))
    return words


def main():
    root = sys.argv[1]
    problems = []
    words = {}
    for t in TARGETS:
        path = os.path.join(root, "fuzz", "dict", f"{t}.dict")
        if not os.path.isfile(path):
            problems.append(f"{t}: no dictionary {path}")
            continue
        words[t] = read_dict(path, problems)
        if len(words[t]) < 10:
            problems.append(f"{t}: only {len(words[t])} dictionary words")

    commands = subprocess.run(["bash", os.path.join(root, "scripts", "fuzz.sh"), "--print-commands", "BUILD", "45"],
                              capture_output=True, text=True)
    if commands.returncode != 0:
        problems.append(f"scripts/fuzz.sh --print-commands failed: {commands.stderr.strip()}")
    lines = dict(line.split(": ", 1) for line in commands.stdout.splitlines() if ": " in line)
    for t in TARGETS:
        line = lines.get(t, "")
        if f"-dict=BUILD/fuzz-work/{t}.dict" not in line:
            problems.append(f"{t}: scripts/fuzz.sh passes no dictionary: {line!r}")
        m = re.search(r"-max_len=(\d+)", line)
        if not m or int(m.group(1)) < 16384:
            problems.append(f"{t}: scripts/fuzz.sh sets no -max_len of at least 16384: {line!r}")
        if "-max_total_time=45" not in line:
            problems.append(f"{t}: the time given is not passed on: {line!r}")

    # The Accel-Sim dictionary speaks the traces' words.
    accelsim = b"\n".join(words.get("accelsim", []))
    needed = set()
    for trace in glob.glob(os.path.join(root, "tests", "data", "*", "*.traceg")):
        with open(trace, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line.startswith("-") and " = " in line:
                    needed.add(line.split(" = ")[0] + " = ")
                elif line.startswith("#BEGIN") or line.startswith("#END"):
                    needed.add(line)
                elif " = " in line:
                    needed.add(line.split(" = ")[0] + " = ")
                elif re.match(r"^[0-9a-f]+ [0-9a-f]{8} ", line):
                    fields = line.split()
                    dest_num = int(fields[2])
                    needed.add(fields[3 + dest_num].split(".")[0])
    with open(os.path.join(root, "models", "trace", "opcode.cpp"), encoding="utf-8") as f:
        needed.update(re.findall(r'"([A-Z][A-Z0-9_.]+)"', f.read()))
    for word in sorted(needed):
        if word.encode() not in accelsim:
            problems.append(f"accelsim.dict lacks {word!r} (used by the traces or the reader)")
    if not any(w.startswith(b"\x89NGT") for w in words.get("ngt", [])):
        problems.append("ngt.dict lacks the .ngt magic")
    # The hardware-table dictionary holds every column of the GV100 tables' headers and the power column.
    hwcsv = set(words.get("hwcsv", []))
    for column in ("Benchmark", "Kernel", "L1_RH", "L1_RM", "L1_WH", "L1_WM", "CC_ACC", "SHRD_ACC", "DRAM_Rd",
                   "DRAM_Wr", "L2_RH", "L2_RM", "L2_WH", "L2_WM", "NOC", "Pipeline_Duty", "Num_Idle_SMs",
                   "Elapsed_Cycles", "Chip Voltage", "mean HW_power"):
        if column.encode() not in hwcsv:
            problems.append(f"hwcsv.dict lacks the column {column!r}")

    for p in problems:
        print("FAIL: " + p)
    if problems:
        sys.exit(1)
    print(f"fuzz setup: {', '.join(f'{t} {len(words[t])} words' for t in TARGETS)}; -dict and -max_len passed")


if __name__ == "__main__":
    main()
