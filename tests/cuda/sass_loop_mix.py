#!/usr/bin/env python3
"""The instruction mix of the one loop of a `cuobjdump -sass` listing (docs/kernels.md, "sgemm against its
SASS"): the instructions from the backward branch's target through the branch, by opcode, and the FFMAs whose
three register sources lie in one register bank (Jia et al. 2018: two banks, a register's bank its number
mod 2), a source the reuse cache holds (the same register in the same slot, flagged .reuse by the
instruction before) not being read. Prints one `name count` line each.

Usage: sass_loop_mix.py LISTING"""
import re
import sys

INT = ("IADD3", "IMAD", "MOV", "ISETP", "SHF", "LEA", "LOP3")


def main(path):
    ins = []
    for line in open(path):
        m = re.match(r"\s+/\*([0-9a-f]{4})\*/\s+(.*?)\s*;", line)
        if m:
            ins.append((int(m.group(1), 16), re.sub(r"^@!?P\w+\s+", "", m.group(2).strip())))
    back = [(a, int(t.split()[1], 16)) for a, t in ins if t.startswith("BRA") and int(t.split()[1], 16) < a]
    if len(back) != 1:
        sys.exit("expected one backward branch, found %d" % len(back))
    end, start = back[0]
    counts = {"FFMA": 0, "LDS.128": 0, "LDG": 0, "STS": 0, "BAR": 0, "BRA": 0, "NOP": 0, "int": 0, "other": 0}
    conflicts = 0
    cache = {}
    for a, t in ins:
        if not start <= a <= end:
            continue
        op, _, rest = t.partition(" ")
        if op == "FFMA":
            counts["FFMA"] += 1
        elif op.startswith("LDS") and op.endswith(".128"):
            counts["LDS.128"] += 1
        elif op.startswith(("LDG", "STS", "BAR", "BRA", "NOP")):
            counts[op.split(".")[0]] += 1
        elif op.startswith(INT):
            counts["int"] += 1
        else:
            counts["other"] += 1
        sources = [o.strip() for o in rest.split(",")][1:]
        reads, kept = [], {}
        for slot, o in enumerate(sources):
            m = re.match(r"^-?\|?R(\d+)(\.reuse)?", o)
            if not m:
                continue
            reg = int(m.group(1))
            if cache.get(slot) != reg:
                reads.append(reg)
            if m.group(2):
                kept[slot] = reg
        cache = kept
        if op == "FFMA" and len(reads) == 3 and len({r % 2 for r in reads}) == 1:
            conflicts += 1
    for name, n in counts.items():
        print(name, n)
    print("bank_conflicts", conflicts)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
