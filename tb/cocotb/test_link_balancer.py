"""cocotb testbench of rtl/link_balancer.sv: constrained-random traffic, the C++ reference (numagpu_policy.
LinkBalancer, at the DUT's own parameters) as scoreboard on every output in every cycle, and functional
coverage with cocotb-coverage, whose goal (every bin of every cover point) the test asserts. Runs on Icarus and
on Verilator (tb/cocotb/Makefile); docs/rtl.md, "cocotb testbenches".

Stimulus, per window: the busy cycles of each direction are planned below, one below, on or above the
saturation threshold and placed exactly (selection sampling against the reference's position in the window);
a quiescing lane drains at once, after 1-8 cycles or after up to two windows, and `drained_i` pulses at random
while nothing quiesces (it must be ignored); launches and resets now and then, more often during a turn, so
that a turn is cut short by both.
"""

import random

import cocotb
from cocotb_coverage.coverage import CoverCross, CoverPoint, coverage_db

from numagpu_cocotb import (Scoreboard, coverage_goal, coverage_report, cycles_to_run, falling_edge,
                            numagpu_policy, parameter, reference_fault, start)

INPUTS = ("kernel_launch_i", "busy_a_i", "busy_b_i", "drained_i")
OUTPUTS = (("lanes_a", "lanes_a_o"), ("lanes_b", "lanes_b_o"), ("lane_dir", "lane_dir_o"),
           ("lane_quiesce", "lane_quiesce_o"), ("lane_switch", "lane_switch_o"),
           ("decision_valid", "decision_valid_o"), ("decision", "decision_o"))
DECISIONS = ("none", "turn_to_a", "turn_to_b", "rebalance_to_a", "rebalance_to_b", "balanced", "blocked_to_a",
             "blocked_to_b", "busy_turning")
EVENTS = ("drained_while_quiescing", "drained_ignored", "launch_while_quiescing", "launch_while_switching",
          "reset_while_turning")


# Traffic phases of several windows each, as the SystemVerilog and lockstep benches have them: one direction
# saturated long enough to walk the other to its floor (and be blocked there), both, the threshold straddled,
# both below it in any combination, idle, or unconstrained.
PHASES = ("a_saturated", "b_saturated", "both_saturated", "straddle", "below", "idle", "free")


def plan_window(phase, rng, threshold, window):
    """Busy cycles (A, B) to place in the next window."""
    below = lambda: rng.choice([rng.randint(0, max(threshold - 2, 0)), threshold - 1])
    above = lambda: rng.choice([threshold, rng.randint(threshold, window), window])
    straddle = lambda: rng.choice([threshold - 1, threshold])
    free = lambda: rng.choice([below(), straddle(), above()])
    return {"a_saturated": (above(), below()), "b_saturated": (below(), above()),
            "both_saturated": (above(), above()), "straddle": (straddle(), straddle()),
            "below": (below(), below()), "idle": (0, 0),
            "free": (free(), free())}[phase]


def window_class(count, threshold, window):
    """Where a window's busy count lies against the saturation threshold."""
    if count == threshold:
        return "on"
    if count == threshold - 1:
        return "one_below"
    return "below" if count < threshold else "above"


def define_coverage(lanes, threshold, window):
    """The cover points, with bins for these parameters (a class that cannot occur is not a bin: with the
    threshold equal to the window, no count lies above it)."""
    classes = ["below", "one_below", "on"] + (["above"] if threshold < window else [])

    @CoverPoint("link_balancer.decision", xf=lambda o, *_: DECISIONS[o.decision] if o.decision_valid else None,
                bins=list(DECISIONS))
    @CoverPoint("link_balancer.lanes_a", xf=lambda o, *_: o.lanes_a, bins=list(range(1, lanes)))
    def sample_cycle(outputs):
        pass

    @CoverPoint("link_balancer.window.busy_a", xf=lambda a, b: a, bins=classes)
    @CoverPoint("link_balancer.window.busy_b", xf=lambda a, b: b, bins=classes)
    @CoverCross("link_balancer.window.busy_a_x_busy_b",
                items=["link_balancer.window.busy_a", "link_balancer.window.busy_b"])
    def sample_window(busy_a_class, busy_b_class):
        pass

    @CoverPoint("link_balancer.event", xf=lambda e: e, bins=list(EVENTS))
    def sample_event(event):
        pass

    return sample_cycle, sample_window, sample_event


@cocotb.test()
async def random_traffic_against_reference(dut):
    params = dict(lanes=parameter(dut, "Lanes"), sample_cycles=parameter(dut, "SampleCycles"),
                  switch_cycles=parameter(dut, "SwitchCycles"), sat_num=parameter(dut, "SatNum"),
                  sat_den=parameter(dut, "SatDen"))
    ref = numagpu_policy.LinkBalancer(**dict(params, **reference_fault()))
    board = Scoreboard(dut, ref, OUTPUTS)
    window, threshold = params["sample_cycles"], ref.saturation_threshold
    sample_cycle, sample_window, sample_event = define_coverage(params["lanes"], threshold, window)
    rng = random.Random(int(cocotb.RANDOM_SEED))
    cycles = cycles_to_run(12000)
    dut._log.info("link_balancer %s, threshold %d, %d cycles, seed %d", params, threshold, cycles, cocotb.RANDOM_SEED)

    await start(dut, INPUTS)
    target, seen, drain_wait = (0, 0), [0, 0], None
    phase, phase_left = "free", 0
    for _ in range(cycles):
        await falling_edge(dut)
        board.check()
        out = ref.outputs()
        sample_cycle(out)
        pos = ref.window_cycle
        if pos == 0:
            if phase_left == 0:
                phase, phase_left = rng.choice(PHASES), rng.randint(1, 3 * params["lanes"] + 4)
            phase_left -= 1
            target, seen = plan_window(phase, rng, threshold, window), [0, 0]
        left = window - pos
        busy_a = seen[0] < target[0] and rng.randrange(left) < target[0] - seen[0]
        busy_b = seen[1] < target[1] and rng.randrange(left) < target[1] - seen[1]
        turning = bool(out.lane_quiesce or out.lane_switch)
        if out.lane_quiesce:
            if drain_wait is None:  # at once, soon, or after up to two windows (windows end during turns)
                drain_wait = rng.choice([0, rng.randint(1, 8), rng.randint(9, 2 * window)])
            drained, drain_wait = drain_wait == 0, max(drain_wait - 1, 0)
        else:
            drain_wait, drained = None, rng.random() < 0.05
        # A switch lasts SwitchCycles: launches are likelier then, so that some land in it; rarer while a lane
        # quiesces (a quiesce can span windows, and a window ending during a turn is its own decision).
        launch = rng.random() < (0.03 if out.lane_switch else 0.003 if out.lane_quiesce else 1 / (8 * window))
        reset = rng.random() < (0.002 if turning else 1 / (60 * window))

        if reset:
            if turning:
                sample_event("reset_while_turning")
        else:
            if not launch and drained:
                sample_event("drained_while_quiescing" if out.lane_quiesce else "drained_ignored")
            if launch and out.lane_quiesce:
                sample_event("launch_while_quiescing")
            if launch and out.lane_switch:
                sample_event("launch_while_switching")
            seen[0] += busy_a
            seen[1] += busy_b
            if pos == window - 1 and not launch:
                sample_window(window_class(seen[0], threshold, window), window_class(seen[1], threshold, window))
        dut.rst_ni.value = int(not reset)
        dut.kernel_launch_i.value = int(launch and not reset)
        dut.busy_a_i.value = int(busy_a)
        dut.busy_b_i.value = int(busy_b)
        dut.drained_i.value = int(drained)
        if reset or launch:
            target, seen = (0, 0), [0, 0]  # the window restarts; the next one plans anew
        board.step(reset=reset, kernel_launch=launch, busy_a=busy_a, busy_b=busy_b, drained=drained)

    coverage_report("link_balancer")
    missed = {}
    for name in ("link_balancer.decision", "link_balancer.lanes_a", "link_balancer.window.busy_a",
                 "link_balancer.window.busy_b", "link_balancer.window.busy_a_x_busy_b", "link_balancer.event"):
        point = coverage_db[name]
        dut._log.info("coverage %-40s %3d/%3d bins", name, point.coverage, point.size)
        if point.coverage * 100 < coverage_goal() * point.size:
            missed[name] = [b for b, hits in point.detailed_coverage.items() if hits == 0]
    assert not missed, f"coverage goal ({coverage_goal()} % of the bins of every point) not reached: {missed}"
    dut._log.info("link_balancer: %d cycles, 0 mismatches, decisions %s", cycles, list(ref.coverage))
