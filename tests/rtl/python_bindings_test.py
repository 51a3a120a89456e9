#!/usr/bin/env python3
"""The Python package numagpu_policy (tb/python: the reference models' bindings, the RTL classes), checked:

1. directed: hand-derived outputs of short scripted sequences (the derivations are in the comments);
2. against the C++: rtl_vectors writes the lockstep stimulus with the C++ reference's outputs; the Python
   model replays the same inputs and must produce the same outputs in every cycle;
3. as a plain-Python testbench driving the RTL: Python constrained-random stimulus with the Python model
   as reference, run in lockstep with the RTL Verilated by the package at the testbench's parameters
   (LinkBalancerRtl, PartitionControllerRtl: every output compared every cycle), then written as a vector file and replayed
   on the RTL by the Verilator vector testbenches (tb/sv/*_vectors_tb.sv, --binary --timing) and on Icarus
   Verilog when it is installed.

Usage: python_bindings_test.py --module-dir DIR --rtl-vectors BIN --sv-vectors-lb BIN --sv-vectors-pc BIN
                               --repo ROOT --work DIR
"""
import argparse
import glob
import os
import random
import shutil
import subprocess
import sys

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL {what}")


def directed(npol):
    # Link balancer, 4 lanes, 4-cycle windows, switch 2, 99/100: threshold ceil(99 * 4 / 100) = 4 busy cycles.
    lb = npol.LinkBalancer(lanes=4, sample_cycles=4, switch_cycles=2)
    check(lb.saturation_threshold == 4, f"lb threshold: {lb.saturation_threshold} != 4")
    o = lb.outputs()
    # Reset: 2 lanes per direction; lanes 0-1 carry A (0), lanes 2-3 carry B (1): lane_dir = 0b1100.
    check((o.lanes_a, o.lanes_b, o.lane_dir, o.decision_valid, o.decision) == (2, 2, 0xC, False, 0),
          f"lb reset outputs: {o}")
    # A busy for a whole window: at its end A is saturated alone and B has 2 >= 2 lanes: turn toward A
    # (code 1). The lowest B lane (index 2 = lanes_a) leaves B at once and quiesces, turning to A: lanes 2/1,
    # lane_quiesce = 1 << 2, lane_dir = lane 3 only (0b1000), decision_valid pulses.
    for _ in range(3):
        o = lb.step(busy_a=True)
        check(not o.decision_valid, "lb: no decision before the window's end")
    o = lb.step(busy_a=True)
    check((o.lanes_a, o.lanes_b, o.lane_dir, o.lane_quiesce, o.lane_switch, o.decision_valid, o.decision) ==
          (2, 1, 0x8, 0x4, 0, True, int(npol.LinkBalancer.Decision.TURN_TO_A)), f"lb turn to A: {o}")
    # Drained: the lane switches for switch_cycles = 2 cycles, then joins A: 3/1 with lane_dir 0b1000.
    o = lb.step(drained=True)
    check((o.lane_quiesce, o.lane_switch, o.decision_valid) == (0, 0x4, False), f"lb switching 1: {o}")
    o = lb.step()
    check(o.lane_switch == 0x4, f"lb switching 2: {o}")
    o = lb.step()
    check((o.lanes_a, o.lanes_b, o.lane_dir, o.lane_switch) == (3, 1, 0x8, 0), f"lb turn done: {o}")
    check(lb.coverage[int(npol.LinkBalancer.Decision.TURN_TO_A)] == 1, f"lb coverage: {lb.coverage}")
    # A kernel launch restores the symmetric split and clears the decision.
    o = lb.step(kernel_launch=True)
    check((o.lanes_a, o.lanes_b, o.decision) == (2, 2, 0), f"lb launch: {o}")

    # Partition controller, 4 ways, 4-cycle windows, 99/100, 144 B responses on 64 B/cycle: DRAM threshold
    # ceil(0.99 * 4) = 4 busy cycles; link threshold ceil(99 * 64 * 4 / (144 * 100)) = ceil(1.76) = 2 requests.
    pc = npol.PartitionController(ways=4, sample_cycles=4)
    check((pc.dram_threshold, pc.link_threshold) == (4, 2), f"pc thresholds: {pc.dram_threshold} {pc.link_threshold}")
    o = pc.outputs()
    # Reset: equal split, 2 remote ways, the top two: mask 0b1100.
    check((o.remote_ways, o.local_ways, o.remote_mask) == (2, 2, 0xC), f"pc reset: {o}")
    # Two requests in the window, DRAM idle: link saturated alone, local has 2 >= 2 ways: one way to remote.
    pc.step(read_reqs=1)
    pc.step(read_reqs=1)
    pc.step()
    o = pc.step()
    check((o.remote_ways, o.local_ways, o.remote_mask, o.decision_valid, o.decision) ==
          (3, 1, 0xE, True, int(npol.PartitionController.Decision.TO_REMOTE)), f"pc to remote: {o}")

    # Bad parameters raise ValueError naming the parameter.
    for make, name in ((lambda: npol.LinkBalancer(lanes=3), "lanes"),
                       (lambda: npol.PartitionController(ways=1), "ways")):
        try:
            make()
            check(False, f"{name}: an invalid value was accepted")
        except ValueError as e:
            check(name in str(e), f"{name}: the error does not name it: {e}")


# --- Vector files (the format of tb/vectors/rtl_vectors.cpp) -------------------------------------------------
LB_PARAMS = dict(lanes=4, sample_cycles=64, switch_cycles=5, sat_num=99, sat_den=100)
PC_PARAMS = dict(ways=5, sample_cycles=40, sat_num=3, sat_den=4, resp_bytes=144, ingress_bytes_per_cycle=64)
PC_REQ_W = 2


def lb_outputs(o):
    return [o.lanes_a, o.lanes_b, o.lane_dir, o.lane_quiesce, o.lane_switch, int(o.decision_valid), o.decision]


def pc_outputs(o):
    return [o.remote_ways, o.local_ways, o.remote_mask, int(o.decision_valid), o.decision]


def replay_in_python(path, model, n_inputs, outputs, apply):
    """Steps `model` through the inputs of a vector file and compares its outputs with the file's."""
    with open(path) as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines[2:]):
        fields = [int(x, 16) for x in line.split()]
        if outputs(model.outputs()) != fields[n_inputs:]:
            return f"{path}:{n + 3}: python {outputs(model.outputs())} != C++ {fields[n_inputs:]}"
        if fields[0] == 0:
            model.reset()
        else:
            apply(model, fields[1:n_inputs])
    return None if len(lines) > 1000 else f"{path}: only {len(lines)} lines"


def against_cpp(npol, args):
    runs = (
        ("link_balancer", ["Lanes=4", "SampleCycles=64", "SwitchCycles=5"],
         lambda: npol.LinkBalancer(**LB_PARAMS), 5, lb_outputs,
         lambda m, i: m.step(kernel_launch=bool(i[0]), busy_a=bool(i[1]), busy_b=bool(i[2]), drained=bool(i[3]))),
        ("cache_partition_ctrl", ["Ways=5", "SampleCycles=40", "SatNum=3", "SatDen=4"],
         lambda: npol.PartitionController(**PC_PARAMS), 4, pc_outputs,
         lambda m, i: m.step(kernel_launch=bool(i[0]), dram_busy=bool(i[1]), read_reqs=i[2])),
    )
    for block, params, make, n_inputs, outputs, apply in runs:
        path = os.path.join(args.work, f"cpp_{block}.vec")
        subprocess.run([args.rtl_vectors, block, *params, "--cycles", "50000", "--seed", "7", "--out", path],
                       check=True)
        err = replay_in_python(path, make(), n_inputs, outputs, apply)
        check(err is None, f"python vs C++ ({block}): {err}")
        if err is None:
            print(f"PASS python = C++ on {path}")


# --- A plain-Python testbench --------------------------------------------------------------------------------
def lb_python_vectors(npol, rng, cycles, params=LB_PARAMS):
    """Constrained-random link traffic: per window, busy counts planned below, on, or above the threshold
    and placed exactly (selection sampling); the quiescing lane drains at once, after 1-8 cycles or after up
    to two windows; spurious drained pulses; launches, resets."""
    m = npol.LinkBalancer(**params)
    s, thr = params["sample_cycles"], m.saturation_threshold
    lines, target, drain_wait = [], (0, 0), None
    for _ in range(cycles):
        out = m.outputs()
        pos = m.window_cycle
        if pos == 0:
            pick = lambda: rng.choice([rng.randint(0, thr - 1), thr - 1, thr, rng.randint(thr, s), s])
            target = (pick(), pick())
        left = s - pos
        busy_a = m.busy_a_count < target[0] and rng.randrange(left) < target[0] - m.busy_a_count
        busy_b = m.busy_b_count < target[1] and rng.randrange(left) < target[1] - m.busy_b_count
        if out.lane_quiesce:
            if drain_wait is None:  # at once, soon, or after up to two windows (windows end during turns)
                drain_wait = rng.choice([0, rng.randint(1, 8), rng.randint(9, 2 * s)])
            drained, drain_wait = drain_wait == 0, max(drain_wait - 1, 0)
        else:
            drain_wait, drained = None, rng.random() < 0.05
        launch = rng.randrange(40 * s) == 0
        reset = rng.randrange(400 * s) == 0
        ins = [int(not reset), int(launch), int(busy_a), int(busy_b), int(drained)]
        lines.append(" ".join(f"{x:x}" for x in ins + lb_outputs(out)))
        if reset:
            m.reset()
        else:
            m.step(kernel_launch=launch, busy_a=busy_a, busy_b=busy_b, drained=drained)
    header = ["// numagpu vectors link_balancer (python_bindings_test.py)",
              " ".join(str(params[k]) for k in ("lanes", "sample_cycles", "switch_cycles", "sat_num", "sat_den"))]
    return header + lines, m.coverage


def pc_python_vectors(npol, rng, cycles):
    """Constrained-random socket traffic: per window, DRAM busy cycles and read requests planned around
    their thresholds and placed exactly; launches, resets."""
    m = npol.PartitionController(**PC_PARAMS)
    s, max_reqs = PC_PARAMS["sample_cycles"], (1 << PC_REQ_W) - 1
    dthr, lthr = min(m.dram_threshold, s), min(m.link_threshold, s * max_reqs)
    lines, dram_target, req_target = [], 0, 0
    for _ in range(cycles):
        out = m.outputs()
        pos = m.window_cycle
        if pos == 0:
            dram_target = rng.choice([rng.randint(0, dthr - 1), dthr - 1, dthr, rng.randint(dthr, s)])
            req_target = rng.choice([rng.randint(0, lthr - 1), lthr - 1, lthr, rng.randint(lthr, s * max_reqs)])
        left = s - pos
        dram = m.dram_busy_count < dram_target and rng.randrange(left) < dram_target - m.dram_busy_count
        need = max(req_target - m.read_req_count, 0)
        hi = min(max_reqs, need)
        lo = min(hi, max(need - max_reqs * (left - 1), 0))
        reqs = rng.randint(lo, hi)
        launch = rng.randrange(40 * s) == 0
        reset = rng.randrange(400 * s) == 0
        ins = [int(not reset), int(launch), int(dram), reqs]
        lines.append(" ".join(f"{x:x}" for x in ins + pc_outputs(out)))
        if reset:
            m.reset()
        else:
            m.step(kernel_launch=launch, dram_busy=dram, read_reqs=reqs)
    header = ["// numagpu vectors cache_partition_ctrl (python_bindings_test.py)",
              " ".join(str(PC_PARAMS[k]) for k in ("ways", "sample_cycles", "sat_num", "sat_den", "resp_bytes",
                                                   "ingress_bytes_per_cycle")) + f" {PC_REQ_W}"]
    return header + lines, m.coverage


def lockstep_in_python(rtl, lines, n_inputs, outputs, apply):
    """Drives the Verilated RTL with the inputs of vector `lines` and compares its outputs every cycle."""
    for n, line in enumerate(lines[2:]):
        fields = [int(x, 16) for x in line.split()]
        if outputs(rtl.outputs()) != fields[n_inputs:]:
            return f"cycle {n}: rtl {outputs(rtl.outputs())} != python reference {fields[n_inputs:]}"
        if fields[0] == 0:
            rtl.reset()
        else:
            apply(rtl, fields[1:n_inputs])
    return None


def python_testbench(npol, args):
    rng = random.Random(28)
    cycles = 100000
    icarus = shutil.which("iverilog") and shutil.which("vvp")
    if not icarus and os.environ.get("CI") == "true":
        check(False, "iverilog not found, and CI=true requires it (run scripts/setup.sh)")
    # The RTL classes are Verilated at the parameters given at construction (the testbench's), and say so.
    lb_rtl = lambda: npol.LinkBalancerRtl(**LB_PARAMS)
    pc_rtl = lambda: npol.PartitionControllerRtl(**PC_PARAMS)
    check(lb_rtl().params == LB_PARAMS, f"LinkBalancerRtl.params {lb_rtl().params}")
    check(pc_rtl().params == PC_PARAMS, f"PartitionControllerRtl.params {pc_rtl().params}")
    # A parameter out of range is the reference's ValueError, raised before Verilator runs.
    try:
        npol.LinkBalancerRtl(lanes=1)
        check(False, "LinkBalancerRtl(lanes=1) was accepted")
    except ValueError as e:
        check("lanes" in str(e), f"LinkBalancerRtl(lanes=1): {e}")
        print(f"PASS LinkBalancerRtl(lanes=1) refused: {e}")
    lb_apply = lambda m, i: m.step(kernel_launch=bool(i[0]), busy_a=bool(i[1]), busy_b=bool(i[2]),
                                   drained=bool(i[3]))
    pc_apply = lambda m, i: m.step(kernel_launch=bool(i[0]), dram_busy=bool(i[1]), read_reqs=i[2])
    for block, gen, rtl, n_inputs, outputs, apply, sv_bin, params in (
            ("link_balancer", lb_python_vectors, lb_rtl, 5, lb_outputs, lb_apply,
             args.sv_vectors_lb, ["Lanes=4", "SampleCycles=64", "SwitchCycles=5"]),
            ("cache_partition_ctrl", pc_python_vectors, pc_rtl, 4, pc_outputs, pc_apply,
             args.sv_vectors_pc, ["Ways=5", "SampleCycles=40", "SatNum=3", "SatDen=4"])):
        lines, coverage = gen(npol, rng, cycles)
        # Every decision code must occur, or the run would not exercise the RTL's decision paths.
        check(all(c > 0 for c in coverage), f"python stimulus ({block}) misses a decision: {coverage}")
        err = lockstep_in_python(rtl(), lines, n_inputs, outputs, apply)
        check(err is None, f"Verilated RTL in Python vs python reference ({block}): {err}")
        if err is None:
            print(f"PASS {block} RTL = python reference in lockstep ({cycles} cycles)")
        if block == "link_balancer":
            # The comparison can fail: a reference whose lanes switch for 6 cycles instead of the RTL's 5 must
            # be caught (at the end of the first completed turn).
            wrong, _ = lb_python_vectors(npol, random.Random(1), 20000, dict(LB_PARAMS, switch_cycles=6))
            err = lockstep_in_python(rtl(), wrong, n_inputs, outputs, apply)
            check(err is not None, "a reference with switch_cycles=6 matched the RTL (built with 5)")
            if err is not None:
                print(f"CAUGHT switch_cycles=6 reference vs the RTL: {err}")
            # Any other parameter set is one construction away: lb_l8's (8 lanes, S = 100, switch 10, 9/10),
            # neither of the two above, in lockstep with the reference at the same parameters.
            l8 = dict(lanes=8, sample_cycles=100, switch_cycles=10, sat_num=9, sat_den=10)
            l8_lines, l8_coverage = lb_python_vectors(npol, random.Random(3), 15000, l8)
            err = lockstep_in_python(npol.LinkBalancerRtl(**l8), l8_lines, n_inputs, outputs, apply)
            check(err is None and all(c > 0 for c in l8_coverage), f"LinkBalancerRtl(**{l8}): {err} {l8_coverage}")
            if err is None:
                print(f"PASS LinkBalancerRtl(**{l8}) = python reference in lockstep (15000 cycles)")
        path = os.path.join(args.work, f"python_{block}.vec")
        with open(path + ".tmp", "w") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(path + ".tmp", path)
        r = subprocess.run([sv_bin, f"+vectors={path}"], capture_output=True, text=True)
        ok = r.returncode == 0 and f"{cycles} cycles of {path} match" in r.stdout
        check(ok, f"Verilated RTL vs python ({block}): {r.stdout[-400:]}{r.stderr[-400:]}")
        if ok:
            print(f"PASS Verilated RTL = python on {path} ({cycles} cycles, decisions {coverage})")
        if icarus:
            top = f"{block}_vectors_tb"
            vvp = os.path.join(args.work, f"{block}.vvp")
            prims = sorted(glob.glob(f"{args.repo}/rtl/prim/*.sv"))
            subprocess.run(["iverilog", "-g2012", f"-I{args.repo}/rtl", *[f"-P{top}.{p}" for p in params], "-s", top,
                            "-o", vvp, *prims, f"{args.repo}/rtl/{block}.sv", f"{args.repo}/tb/sv/{top}.sv"],
                           check=True, capture_output=True)
            r = subprocess.run(["vvp", "-n", vvp, f"+vectors={path}"], capture_output=True, text=True)
            ok = r.returncode == 0 and f"{cycles} cycles of {path} match" in r.stdout
            check(ok, f"Icarus RTL vs python ({block}): {r.stdout[-400:]}")
            if ok:
                print(f"PASS Icarus RTL = python on {path}")


def main():
    ap = argparse.ArgumentParser()
    for a in ("--module-dir", "--rtl-vectors", "--sv-vectors-lb", "--sv-vectors-pc", "--repo", "--work"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    sys.path.insert(0, args.module_dir)
    import numagpu_policy as npol  # noqa: E402  (the module is in the build tree)

    os.makedirs(args.work, exist_ok=True)
    directed(npol)
    against_cpp(npol, args)
    python_testbench(npol, args)
    if FAILURES:
        print(f"python_bindings_test: {len(FAILURES)} failure(s)")
        return 1
    print("python_bindings_test: the bindings match the C++ reference and the RTL")
    return 0


if __name__ == "__main__":
    sys.exit(main())
