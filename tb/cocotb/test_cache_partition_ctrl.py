"""cocotb testbench of rtl/cache_partition_ctrl.sv: constrained-random traffic, the C++ reference
(numagpu_policy.PartitionController, at the DUT's own parameters) as scoreboard on every output in every cycle,
and functional coverage with cocotb-coverage, whose goal (every bin of every cover point) the test asserts.
Runs on Icarus and on Verilator (tb/cocotb/Makefile); docs/rtl.md, "cocotb testbenches".

Stimulus: traffic phases of several windows (the link or DRAM saturated, both, the thresholds straddled, ...);
per window the DRAM busy cycles and the read requests are planned below, one below, on or above their
thresholds and placed exactly (selection sampling, at most 2^ReqW - 1 requests a cycle); launches and resets
now and then, some in a window's last cycle. Where randomness alone closes slowly the stimulus is coverage-driven:
it reads the coverage database and aims at bins not hit yet (docs/rtl.md, "cocotb testbenches").
"""

import random

import cocotb
from cocotb_coverage.coverage import CoverPoint

from numagpu_cocotb import (Scoreboard, assert_coverage_goal, count_in_class, count_planner, coverage_report,
                            cycles_to_run, empty_bins, event_coverage, numagpu_policy, parameter,
                            reference_fault, start, window_class, window_classes, window_coverage)

INPUTS = ("kernel_launch_i", "dram_busy_i", "read_reqs_i")
OUTPUTS = (("remote_ways", "remote_ways_o"), ("local_ways", "local_ways_o"), ("remote_mask", "remote_mask_o"),
           ("decision_valid", "decision_valid_o"), ("decision", "decision_o"))
DECISIONS = ("none", "to_remote", "to_local", "equalize_to_remote", "equalize_to_local", "balanced",
             "blocked_to_remote", "blocked_to_local")
EVENTS = ("launch_mid_window", "launch_at_window_end", "reset_mid_window", "max_requests")

# Traffic phases of several windows each: the link saturated long enough to walk the split to one floor (and be
# blocked there), DRAM saturated for the other, both, the thresholds straddled, both below, idle, unconstrained.
# Each maps to the plans of (DRAM busy cycles, read requests).
PHASES = {"link_saturated": ("below", "above"), "dram_saturated": ("above", "below"),
          "both_saturated": ("above", "above"), "straddle": ("straddle", "straddle"), "below": ("below", "below"),
          "idle": None, "free": ("free", "free")}


def define_coverage(ways, dram_classes, req_classes):
    """The cover points (bins for these parameters); returns the sampling functions and the names."""
    @CoverPoint("cache_partition_ctrl.decision",
                xf=lambda o: DECISIONS[o.decision] if o.decision_valid else None, bins=list(DECISIONS))
    @CoverPoint("cache_partition_ctrl.remote_ways", xf=lambda o: o.remote_ways, bins=list(range(1, ways)))
    def sample_cycle(outputs):
        pass

    sample_window, window_names = window_coverage("cache_partition_ctrl.window.dram", dram_classes,
                                                  "cache_partition_ctrl.window.reqs", req_classes)
    sample_event = event_coverage("cache_partition_ctrl.event", EVENTS)
    names = ["cache_partition_ctrl.decision", "cache_partition_ctrl.remote_ways", *window_names,
             "cache_partition_ctrl.event"]
    return sample_cycle, sample_window, sample_event, names


@cocotb.test()
async def random_traffic_against_reference(dut):
    params = dict(ways=parameter(dut, "Ways"), sample_cycles=parameter(dut, "SampleCycles"),
                  sat_num=parameter(dut, "SatNum"), sat_den=parameter(dut, "SatDen"),
                  resp_bytes=parameter(dut, "RespBytes"),
                  ingress_bytes_per_cycle=parameter(dut, "IngressBytesPerCycle"))
    req_w = parameter(dut, "ReqW")
    ref = numagpu_policy.PartitionController(**dict(params, **reference_fault()))
    board = Scoreboard(dut, ref, OUTPUTS)
    window, max_reqs = params["sample_cycles"], (1 << req_w) - 1
    # A threshold above what a window can hold is never reached: its classes "on" and "above" are no bins then.
    dthr, lthr = ref.dram_threshold, ref.link_threshold
    sample_cycle, sample_window, sample_event, names = define_coverage(
        params["ways"], window_classes(dthr, window), window_classes(lthr, window * max_reqs))
    rng = random.Random(int(cocotb.RANDOM_SEED))
    plans = (count_planner(rng, dthr, window), count_planner(rng, lthr, window * max_reqs))
    cycles = cycles_to_run(12000)
    dut._log.info("cache_partition_ctrl %s ReqW %d, thresholds %d/%d, %d cycles, seed %d", params, req_w, dthr,
                  lthr, cycles, cocotb.RANDOM_SEED)

    await start(dut, INPUTS)
    dram_target = req_target = 0
    seen = [0, 0]
    phase, phase_left = "free", 0
    for _ in range(cycles):
        out = await board.next_cycle()
        sample_cycle(out)
        pos = ref.window_cycle
        if pos == 0:
            if phase_left == 0:
                # Both saturated after the split was walked away from the equal one, often: that is when the
                # controller equalizes (otherwise the rarest decisions).
                apart = out.remote_ways != params["ways"] // 2 and (rng.random() < 0.5 or {
                    "equalize_to_remote", "equalize_to_local"} & set(empty_bins("cache_partition_ctrl.decision")))
                phase = "both_saturated" if apart else rng.choice(list(PHASES))
                phase_left = rng.randint(1, params["ways"] + 4)
            phase_left -= 1
            kinds = PHASES[phase]
            dram_target, req_target = (plans[0][kinds[0]](), plans[1][kinds[1]]()) if kinds else (0, 0)
            # Coverage-driven: now and then a window aims at a class pair of the cross not seen yet.
            aim = empty_bins("cache_partition_ctrl.window.dram_x_reqs")
            if aim and phase in ("free", "below", "straddle") and rng.random() < 0.5:
                dram_class, req_class = rng.choice(aim)
                dram_target = count_in_class(rng, dram_class, dthr, window)
                req_target = count_in_class(rng, req_class, lthr, window * max_reqs)
            seen = [0, 0]
        left = window - pos
        dram = seen[0] < dram_target and rng.randrange(left) < dram_target - seen[0]
        need = max(req_target - seen[1], 0)
        hi = min(max_reqs, need)
        lo = min(hi, max(need - max_reqs * (left - 1), 0))
        reqs = rng.randint(lo, hi)
        at_end = pos == window - 1
        launch = rng.random() < (0.05 if at_end else 1 / (10 * window))
        reset = rng.random() < 1 / (40 * window)

        if reset:
            if pos != 0:
                sample_event("reset_mid_window")
        else:
            if launch:
                sample_event("launch_at_window_end" if at_end else "launch_mid_window")
            if reqs == max_reqs:
                sample_event("max_requests")
            seen[0] += dram
            seen[1] += reqs
            if at_end and not launch:
                sample_window(window_class(seen[0], dthr), window_class(seen[1], lthr))
        dut.rst_ni.value = int(not reset)
        dut.kernel_launch_i.value = int(launch and not reset)
        dut.dram_busy_i.value = int(dram)
        dut.read_reqs_i.value = reqs
        board.step(reset=reset, kernel_launch=launch, dram_busy=dram, read_reqs=reqs)

    coverage_report("cache_partition_ctrl")
    assert_coverage_goal(dut, names)
    dut._log.info("cache_partition_ctrl: %d cycles, 0 mismatches, decisions %s", cycles, list(ref.coverage))
