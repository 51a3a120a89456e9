"""Shared pieces of the cocotb testbenches of the policy blocks (test_link_balancer.py,
test_cache_partition_ctrl.py): the clock and the first reset, and the scoreboard that runs the C++ reference
model (the numagpu_policy package) in lockstep with the DUT. docs/rtl.md, "cocotb testbenches".

Timing (the RTL's, docs/policies.md): every output is registered. In each cycle the scoreboard compares all
outputs at the falling edge of clk_i (half a cycle after the rising edge that produced them), then the stimulus
picks the inputs from the reference's state, drives them, and the reference takes the same rising edge
(step() with these inputs, or reset() when rst_ni is low) right away: its outputs are those of the next cycle.
"""

import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge
from cocotb_coverage.coverage import CoverCross, CoverPoint, coverage_db

import numagpu_policy


def parameter(dut, name):
    """An RTL parameter of the DUT, read through the simulator (VPI), as an int."""
    return int(getattr(dut, name).value)


def cycles_to_run(default):
    """The cycle count: $NUMAGPU_COCOTB_CYCLES, else the test's default."""
    return int(os.environ.get("NUMAGPU_COCOTB_CYCLES", default))


def coverage_goal():
    """The coverage goal in percent: every bin (100), unless $NUMAGPU_COCOTB_COVERAGE_GOAL lowers it for a short
    smoke run (0: report only)."""
    return int(os.environ.get("NUMAGPU_COCOTB_COVERAGE_GOAL", 100))


def reference_fault():
    """Keyword overrides for the reference model from $NUMAGPU_COCOTB_REF_FAULT ("switch_cycles=6"): a
    deliberately wrong scoreboard, which the test must catch (the self-test of the scoreboard)."""
    fault = os.environ.get("NUMAGPU_COCOTB_REF_FAULT", "")
    return {k: int(v) for k, v in (kv.split("=") for kv in fault.split())}


class Scoreboard:
    """The reference model stepped with the DUT; `check()` compares every output of the current cycle."""

    def __init__(self, dut, reference, ports):
        self.dut = dut
        self.ref = reference
        self.ports = ports  # (reference field, DUT output port)
        self.cycle = 0

    def check(self):
        expected = self.ref.outputs()
        diffs = []
        for field, port in self.ports:
            handle = getattr(self.dut, port)
            if not handle.value.is_resolvable:
                diffs.append(f"{port}: rtl={handle.value.binstr} ref={int(getattr(expected, field))}")
                continue
            rtl, ref = int(handle.value), int(getattr(expected, field))
            if rtl != ref:
                diffs.append(f"{port}: rtl={rtl} ref={ref}")
        if diffs:
            raise AssertionError(f"scoreboard mismatch at cycle {self.cycle}: " + ", ".join(diffs))

    async def next_cycle(self):
        """Waits for the falling edge of the next cycle, checks its outputs, and returns the reference's."""
        await FallingEdge(self.dut.clk_i)
        self.check()
        return self.ref.outputs()

    def step(self, reset=False, **inputs):
        """The reference takes the rising edge the DUT is about to take with the inputs just driven."""
        if reset:
            self.ref.reset()
        else:
            self.ref.step(**inputs)
        self.cycle += 1


async def start(dut, inputs):
    """Starts a 10 ns clock and gives the DUT its first rising edge with rst_ni low (all `inputs` 0): the
    registers are defined from then on, like the reference's freshly constructed state."""
    dut.rst_ni.value = 0
    for port in inputs:
        getattr(dut, port).value = 0
    cocotb.start_soon(Clock(dut.clk_i, 10, units="ns").start())
    await RisingEdge(dut.clk_i)


def coverage_report(name):
    """Writes the cocotb-coverage database to $NUMAGPU_COCOTB_COVERAGE_DIR/<name>.yml (when set)."""
    out = os.environ.get("NUMAGPU_COCOTB_COVERAGE_DIR")
    if out:
        os.makedirs(out, exist_ok=True)
        coverage_db.export_to_yaml(filename=os.path.join(out, f"{name}.yml"))


# --- Windows planned around a threshold, and their coverage ------------------------------------------------------
def count_planner(rng, threshold, most):
    """Counts of events to place in a window with the given threshold (at most `most`): below it, on it or one
    below (straddling), at or above it, or any of these."""
    below = lambda: rng.choice([rng.randint(0, max(threshold - 2, 0)), threshold - 1])
    above = lambda: rng.choice([threshold, rng.randint(threshold, most), most])
    straddle = lambda: rng.choice([threshold - 1, threshold])
    return {"below": below, "above": above, "straddle": straddle,
            "free": lambda: rng.choice([below(), straddle(), above()])}


def window_class(count, threshold):
    """Where a window's count lies against its threshold: below, one_below, on, above."""
    if count == threshold:
        return "on"
    if count == threshold - 1:
        return "one_below"
    return "below" if count < threshold else "above"


def count_in_class(rng, cls, threshold, most):
    """A count of the given class (window_class) for a window of at most `most` events."""
    return {"below": lambda: rng.randint(0, max(threshold - 2, 0)), "one_below": lambda: threshold - 1,
            "on": lambda: threshold, "above": lambda: rng.randint(threshold + 1, most)}[cls]()


def empty_bins(name):
    """The bins of a cover point (or cross) not hit yet: what a coverage-driven stimulus aims at next."""
    return [b for b, hits in coverage_db[name].detailed_coverage.items() if hits == 0]


def window_classes(threshold, most):
    """The classes a window of at most `most` events can reach (the bins of its cover point)."""
    return (["below", "one_below"] if threshold - 1 <= most else ["below"]) + \
        (["on"] if threshold <= most else []) + (["above"] if threshold < most else [])


def window_coverage(first, first_bins, second, second_bins):
    """Cover points of the classes of two counts per window, and their cross; returns the sampling function
    (called with both classes at a window's end) and the points' names."""
    cross = f"{first}_x_{second.rsplit('.', 1)[-1]}"

    @CoverPoint(first, xf=lambda a, b: a, bins=first_bins)
    @CoverPoint(second, xf=lambda a, b: b, bins=second_bins)
    @CoverCross(cross, items=[first, second])
    def sample(first_class, second_class):
        pass

    return sample, [first, second, cross]


def event_coverage(name, events):
    """A cover point with one bin per named event; returns the sampling function (called with an event)."""
    @CoverPoint(name, xf=lambda e: e, bins=list(events))
    def sample(event):
        pass

    return sample


def assert_coverage_goal(dut, names):
    """Logs every point's bins and fails the test when one is below the goal (coverage_goal())."""
    missed = {}
    for name in names:
        point = coverage_db[name]
        dut._log.info("coverage %-44s %3d/%3d bins", name, point.coverage, point.size)
        if point.coverage * 100 < coverage_goal() * point.size:
            missed[name] = [b for b, hits in point.detailed_coverage.items() if hits == 0]
    assert not missed, f"coverage goal ({coverage_goal()} % of the bins of every point) not reached: {missed}"
