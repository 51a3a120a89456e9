"""cocotb testbench of rtl/link_balancer.sv: constrained-random traffic, the C++ reference (numagpu_policy.
LinkBalancer, at the DUT's own parameters) as scoreboard on every output in every cycle, and functional
coverage with cocotb-coverage, whose goal (every bin of every cover point) the test asserts. Runs on Icarus and
on Verilator (tb/cocotb/Makefile); docs/rtl.md, "cocotb testbenches".

Stimulus, per window: the busy cycles of each direction are planned below, one below, on or above the
saturation threshold and placed exactly (selection sampling against the reference's position in the window);
a quiescing lane drains at once, after 1-8 cycles or after up to two windows, and `drained_i` pulses at random
while nothing quiesces (it must be ignored); launches and resets now and then, more often during a turn, so
that a turn is cut short by both. Where randomness alone closes slowly the stimulus is coverage-driven:
it reads the coverage database and aims at bins not hit yet (docs/rtl.md, "cocotb testbenches").
"""

import random

import cocotb
from cocotb_coverage.coverage import CoverPoint

from numagpu_cocotb import (Scoreboard, assert_coverage_goal, count_in_class, count_planner, coverage_report,
                            cycles_to_run, empty_bins, event_coverage, numagpu_policy, parameter,
                            reference_fault, start, window_class, window_classes, window_coverage)

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
# both below it in any combination, idle, or unconstrained. Each maps to the plans of (A, B).
PHASES = {"a_saturated": ("above", "below"), "b_saturated": ("below", "above"),
          "both_saturated": ("above", "above"), "straddle": ("straddle", "straddle"), "below": ("below", "below"),
          "idle": None, "free": ("free", "free")}

# The phase that leads to each decision (docs/policies.md): a saturated direction takes lanes from the other until
# it is at its floor (then blocked), both saturated rebalance or are balanced, a window during a turn is busy.
PHASE_FOR_DECISION = {"none": "below", "turn_to_a": "a_saturated", "turn_to_b": "b_saturated",
                      "rebalance_to_a": "both_saturated", "rebalance_to_b": "both_saturated",
                      "balanced": "both_saturated", "blocked_to_a": "a_saturated", "blocked_to_b": "b_saturated",
                      "busy_turning": "a_saturated"}


def define_coverage(lanes, threshold, window):
    """The cover points, with bins for these parameters (a class that cannot occur is not a bin: with the
    threshold equal to the window, no count lies above it). Returns the sampling functions and the names."""
    @CoverPoint("link_balancer.decision", xf=lambda o: DECISIONS[o.decision] if o.decision_valid else None,
                bins=list(DECISIONS))
    @CoverPoint("link_balancer.lanes_a", xf=lambda o: o.lanes_a, bins=list(range(1, lanes)))
    def sample_cycle(outputs):
        pass

    classes = window_classes(threshold, window)
    sample_window, window_names = window_coverage("link_balancer.window.busy_a", classes,
                                                  "link_balancer.window.busy_b", classes)
    sample_event = event_coverage("link_balancer.event", EVENTS)
    names = ["link_balancer.decision", "link_balancer.lanes_a", *window_names, "link_balancer.event"]
    return sample_cycle, sample_window, sample_event, names


@cocotb.test()
async def random_traffic_against_reference(dut):
    params = dict(lanes=parameter(dut, "Lanes"), sample_cycles=parameter(dut, "SampleCycles"),
                  switch_cycles=parameter(dut, "SwitchCycles"), sat_num=parameter(dut, "SatNum"),
                  sat_den=parameter(dut, "SatDen"))
    ref = numagpu_policy.LinkBalancer(**dict(params, **reference_fault()))
    rng = random.Random(int(cocotb.RANDOM_SEED))
    board = Scoreboard(dut, ref, OUTPUTS)
    window, threshold = params["sample_cycles"], ref.saturation_threshold
    sample_cycle, sample_window, sample_event, names = define_coverage(params["lanes"], threshold, window)
    plan = count_planner(rng, threshold, window)
    cycles = cycles_to_run(12000)
    dut._log.info("link_balancer %s, threshold %d, %d cycles, seed %d", params, threshold, cycles, cocotb.RANDOM_SEED)

    await start(dut, INPUTS)
    target, seen, drain_wait = (0, 0), [0, 0], None
    phase, phase_left = "free", 0
    for _ in range(cycles):
        out = await board.next_cycle()
        sample_cycle(out)
        pos = ref.window_cycle
        if pos == 0:
            if phase_left == 0:
                # Both directions saturated after the lanes were walked apart, often: that is when the
                # balancer rebalances (otherwise the rarest decisions).
                # Coverage-driven otherwise: half the time, a phase that leads to a decision not taken yet, for
                # as long as a phase lasts at most (walking a direction to its floor and blocking there).
                missing = empty_bins("link_balancer.decision")
                unequal = out.lanes_a != out.lanes_b and (rng.random() < 0.5 or
                                                          {"rebalance_to_a", "rebalance_to_b"} & set(missing))
                phase_left = rng.randint(1, params["lanes"] + 4)
                if unequal:
                    phase = "both_saturated"
                elif missing and rng.random() < 0.5:
                    phase, phase_left = PHASE_FOR_DECISION[rng.choice(missing)], params["lanes"] + 4
                else:
                    phase = rng.choice(list(PHASES))
            phase_left -= 1
            target = tuple(plan[k]() for k in PHASES[phase]) if PHASES[phase] else (0, 0)
            # Coverage-driven: now and then a window aims at a class pair of the cross not seen yet.
            aim = empty_bins("link_balancer.window.busy_a_x_busy_b")
            if aim and phase in ("free", "below", "straddle") and rng.random() < 0.5:
                target = tuple(count_in_class(rng, c, threshold, window) for c in rng.choice(aim))
            seen = [0, 0]
        left = window - pos
        busy_a = seen[0] < target[0] and rng.randrange(left) < target[0] - seen[0]
        busy_b = seen[1] < target[1] and rng.randrange(left) < target[1] - seen[1]
        turning = bool(out.lane_quiesce or out.lane_switch)
        if out.lane_quiesce:
            if drain_wait is None:  # at once, soon, or after up to two windows (windows end during turns)
                drain_wait = rng.choice([0, rng.randint(1, 8), rng.randint(9, 2 * window)])
                if "busy_turning" in empty_bins("link_balancer.decision"):
                    drain_wait = rng.randint(window, 2 * window)  # a window must end during this turn
            drained, drain_wait = drain_wait == 0, max(drain_wait - 1, 0)
        else:
            drain_wait, drained = None, rng.random() < 0.05
        # A switch lasts SwitchCycles: launches are likelier then, so that some land in it; rarer while a lane
        # quiesces (a quiesce can span windows, and a window ending during a turn is its own decision).
        # Coverage-driven: an event not seen yet is made likelier while its condition holds.
        missing = empty_bins("link_balancer.event")
        boost = lambda event, p: 0.05 if event in missing else p
        launch = rng.random() < (boost("launch_while_switching", 0.06) if out.lane_switch else
                                 boost("launch_while_quiescing", 0.006) if out.lane_quiesce else 1 / (8 * window))
        reset = rng.random() < (boost("reset_while_turning", 0.004) if turning else 1 / (60 * window))

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
                sample_window(window_class(seen[0], threshold), window_class(seen[1], threshold))
        dut.rst_ni.value = int(not reset)
        dut.kernel_launch_i.value = int(launch and not reset)
        dut.busy_a_i.value = int(busy_a)
        dut.busy_b_i.value = int(busy_b)
        dut.drained_i.value = int(drained)
        if reset or launch:
            target, seen = (0, 0), [0, 0]  # the window restarts; the next one plans anew
        board.step(reset=reset, kernel_launch=launch, busy_a=busy_a, busy_b=busy_b, drained=drained)

    coverage_report("link_balancer")
    assert_coverage_goal(dut, names)
    dut._log.info("link_balancer: %d cycles, 0 mismatches, decisions %s", cycles, list(ref.coverage))
