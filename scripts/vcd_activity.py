#!/usr/bin/env python3
"""Switching activity of a policy block from its in-the-loop waveforms (rtl_<block>.vcd, `rtl.waves: true`),
in the forms gate-level power tools read (docs/power.md, "Switching activity of the policy blocks").

Usage: vcd_activity.py VCD [--saif FILE] [--sta-tcl FILE] [--clock clk_i]

For every bit of every signal of the block's scope and the scopes below it (the instances of rtl/prim/
primitives, e.g. u_win_cnt): TC (toggles, 0<->1), T0 and T1 (time low and high,
in the VCD's time unit) over the dumped window, and from them the activity (toggles per clock cycle, the
cycles being the rising edges of --clock in the window) and the duty (share of the time high).

  --saif     SAIF 2.0 (backward), one NET entry per bit: what commercial power tools and recent OpenSTA
             (read_saif) take. Verilator 5.006 writes no SAIF itself, so it is derived here.
  --sta-tcl  Tcl for the OpenSTA of Debian 12 (2019), which reads neither SAIF nor VCD and takes activity
             only per input port (its `set_power_activity -pins` fails on an undefined helper): one
             `set_power_activity -input_ports` per input bit; OpenSTA propagates it through the netlist.
             Source it after link_design and create_clock.

A summary (cycles, signals, bits, toggles) goes to stdout. Bad input: one line on stderr, exit status 2.
"""
import argparse
import os
import sys


def fail(message):
    print(f"vcd_activity.py: error: {message}", file=sys.stderr)
    sys.exit(2)


class Bit:
    __slots__ = ("name", "value", "since", "t1", "tc", "tx")

    def __init__(self, name):
        self.name = name
        self.value = "x"
        self.since = None
        self.t1 = 0
        self.tc = 0
        self.tx = 0


def parse(path):
    """(timescale text, top scope name, {code: [Bit, ...] msb first}, [(time, code, value)],
    [(name, code, [bit name, ...] msb first, (instance, ...) below the block)]): several names may share a
    code (Verilator dumps a net once and names every signal that carries it)."""
    try:
        text = open(path).read()
    except OSError as e:
        fail(f"{path}: cannot read ({e.strerror})")
    tokens = text.split()
    try:
        return parse_tokens(path, tokens)
    except (IndexError, ValueError) as e:
        fail(f"{path}: not a VCD this script reads ({type(e).__name__}: {e})")


def parse_tokens(path, tokens):
    i = 0
    timescale = "1ps"
    scopes = []
    top = None
    signals = {}
    changes = []
    order = []
    while i < len(tokens):
        t = tokens[i]
        if t == "$timescale":
            j = tokens.index("$end", i)
            timescale = "".join(tokens[i + 1:j])
            i = j + 1
        elif t == "$scope":
            scopes.append(tokens[i + 2])
            i = tokens.index("$end", i) + 1
        elif t == "$upscope":
            scopes.pop()
            i = tokens.index("$end", i) + 1
        elif t == "$var":
            j = tokens.index("$end", i)
            width, code, name = int(tokens[i + 2]), tokens[i + 3], tokens[i + 4]
            rng = tokens[i + 5] if j > i + 5 else ""
            # A parameter is a constant of the RTL, not a net of the netlist: a power tool given it as a net
            # reports it as unmatched. (numagpu's Verilated blocks are built with --no-trace-params, so
            # their dumps hold none; other simulators declare them with the type `parameter`.)
            if tokens[i + 1] == "parameter":
                i = j + 1
                continue
            # Only the block's own scope and its instances: the wrapper scope Verilator adds holds the same
            # ports again.
            if len(scopes) >= 2 and (top is None or scopes[1] == top):
                top = scopes[1]
                lsb = 0
                if rng.startswith("[") and ":" in rng:
                    lsb = int(rng[1:-1].split(":")[1])
                names = [name if width == 1 and not rng else f"{name}[{lsb + k}]" for k in reversed(range(width))]
                if code not in signals:
                    signals[code] = [Bit(n) for n in names]
                elif len(signals[code]) != width:
                    fail(f"{path}: {name} shares code {code} with a signal of another width")
                order.append((name, code, names, tuple(scopes[2:])))
            i = j + 1
        elif t in ("$enddefinitions", "$comment", "$date", "$version", "$dumpvars", "$end", "$dumpall",
                   "$dumpon", "$dumpoff"):
            if t in ("$comment", "$date", "$version"):
                i = tokens.index("$end", i) + 1
            else:
                i += 1
        elif t.startswith("#"):
            changes.append((int(t[1:]), None, None))
            i += 1
        elif t[0] in "bB":
            changes.append((None, tokens[i + 1], t[1:]))
            i += 2
        elif t[0] in "01xXzZ":
            changes.append((None, t[1:], t[0]))
            i += 1
        elif t[0] in "rR":
            i += 2  # reals: none in these blocks
        else:
            fail(f"{path}: unexpected token {t[:40]!r}")
    if top is None:
        fail(f"{path}: no signals under a block scope (is this a numagpu rtl_<block>.vcd?)")
    return timescale, top, signals, changes, order


def activity(path, clock):
    timescale, top, signals, changes, order = parse(path)
    clock_code = next((c for n, c, _, inst in order if n == clock and not inst), None)
    if clock_code is None:
        fail(f"{path}: no clock signal {clock!r} in scope {top}")
    now = None
    first = None
    rising = 0
    for time, code, value in changes:
        if time is not None:
            now = time
            if first is None:
                first = time
            continue
        bits = signals.get(code)
        if bits is None:
            continue
        value = value.lower()
        if len(value) < len(bits):  # VCD drops leading zeros (or extends x/z)
            value = (value[0] if value[0] in "xz" else "0") * (len(bits) - len(value)) + value
        for bit, v in zip(bits, value[-len(bits):]):
            if bit.value == v:
                continue
            if bit.since is not None and bit.value == "1":
                bit.t1 += now - bit.since
            if bit.value in "01" and v in "01":
                bit.tc += 1
                if code == clock_code and v == "1":
                    rising += 1
            bit.value, bit.since = v, now
    if now is None or rising == 0:
        fail(f"{path}: no rising edge of {clock} in the dump")
    # The dump's last instant is a rising edge; the window ends half a period later (the falling phase of
    # the cycle after it is not dumped), so it spans `rising` whole periods from the first timestamp.
    period = (now - first) / (rising - 0.5) if rising > 1 else 2 * (now - first) or 1
    end = first + round(period * rising)
    duration = end - first
    for bits in signals.values():
        for bit in bits:
            if bit.since is not None and bit.value == "1":
                bit.t1 += end - bit.since
            bit.since = None
    return timescale, top, signals, order, rising, duration


def write_atomically(path, text):
    """Whole or not at all: a temporary file beside `path`, renamed over it."""
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def saif_name(name):
    return name.replace("[", "\\[").replace("]", "\\]")


def write_saif(path, timescale, top, signals, order, duration):
    unit = timescale.lstrip("0123456789")
    scale = timescale[:len(timescale) - len(unit)] or "1"
    lines = ["(SAIFILE", '(SAIFVERSION "2.0")', '(DIRECTION "backward")', f'(DESIGN "{top}")',
             '(VENDOR "numagpu")', '(PROGRAM_NAME "scripts/vcd_activity.py")', '(VERSION "1")',
             "(DIVIDER / )", f"(TIMESCALE {scale} {unit})", f"(DURATION {duration})"]

    # One INSTANCE per scope, its nets first, then the instances below it, in the dump's order.
    def instance(name, inst, depth):
        pad = "  " * depth
        lines.append(f"{pad}(INSTANCE {name}")
        lines.append(f"{pad}  (NET")
        for _, code, names, where in order:
            if where != inst:
                continue
            for bit, bit_name in zip(reversed(signals[code]), reversed(names)):  # lsb first
                t1 = bit.t1
                lines.append(f"{pad}    ({saif_name(bit_name)} (T0 {duration - t1}) (T1 {t1}) (TX 0) "
                             f"(TC {bit.tc}) (IG 0))")
        lines.append(f"{pad}  )")
        below = dict.fromkeys(where[:len(inst) + 1] for _, _, _, where in order
                              if len(where) > len(inst) and where[:len(inst)] == inst)
        for sub in below:
            instance(sub[-1], sub, depth + 1)
        lines.append(f"{pad})")

    instance(top, (), 0)
    lines.append(")")
    write_atomically(path, "\n".join(lines) + "\n")


def write_sta_tcl(path, vcd, top, signals, order, cycles, duration, clock):
    """OpenSTA Tcl: the activity of every input port bit (see the module's doc for why only those)."""
    lines = [f"# Switching activity of {top}'s input ports from {vcd} ({cycles} cycles): scripts/vcd_activity.py.",
             "# activity = toggles per clock cycle, duty = share of the time high (set_power_activity).",
             "# Source after read_liberty, read_verilog, link_design and create_clock.",
             "set numagpu_activity_ports 0"]
    for name, code, names, inst in order:
        if inst or name == clock or not (name.endswith("_i") or name.endswith("_ni")):
            continue
        for bit, bit_name in zip(reversed(signals[code]), reversed(names)):
            act = bit.tc / cycles
            duty = bit.t1 / duration if duration else 0.0
            lines.append(f"set_power_activity -input_ports [get_ports {{{bit_name}}}] -activity {act:.6g} "
                         f"-duty {duty:.6g}")
            lines.append("incr numagpu_activity_ports")
    lines.append('puts "numagpu: switching activity of $numagpu_activity_ports input ports set"')
    write_atomically(path, "\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("vcd")
    ap.add_argument("--saif")
    ap.add_argument("--sta-tcl")
    ap.add_argument("--clock", default="clk_i")
    a = ap.parse_args()
    timescale, top, signals, order, cycles, duration = activity(a.vcd, a.clock)
    try:
        if a.saif:
            write_saif(a.saif, timescale, top, signals, order, duration)
        if a.sta_tcl:
            write_sta_tcl(a.sta_tcl, a.vcd, top, signals, order, cycles, duration, a.clock)
    except OSError as e:
        fail(f"{e.filename}: cannot write ({e.strerror})")
    nbits = sum(len(b) for b in signals.values())
    toggles = sum(bit.tc for bits in signals.values() for bit in bits)
    print(f"{a.vcd}: {top}, {cycles} cycles ({duration} {timescale.lstrip('0123456789')}), "
          f"{len(order)} signals ({nbits} distinct bits), {toggles} toggles")


if __name__ == "__main__":
    main()
