#!/usr/bin/env python3
"""The link balancer's detector on a link-saturating microbenchmark (issue 49, point 5): the trigger fires in
the window the hand derivation says, and the balancer turns lanes toward the saturated direction, one per
window, on the paper system (configs/workloads/bench/link_one_way.yaml; about 1 s a run), and the RTL
balancer (policy.impl=rtl, when built) counts the same decisions.

The workload: sockets 1-3 store 49,152 lines (144 B write packets) into memory homed at socket 0; acks of
16 B return. Link 0 (link_gpu0_switch0) carries them all into socket 0 (direction to_gpu0, the balancer's B),
and its other direction (to_switch0, A) carries one ack per packet: 16/144 = 1/9 of the ingress bytes.

Hand derivation, with the paper's balancer (SampleTime 5000, SwitchTime 100, 99 %; policy/link_balancer.hpp):
- The kernel launches at cycle 0 (runtime.launch_cycles 0), which restarts the balancer; window w is then
  cycles 5000 w + 1 .. 5000 (w + 1), decided in its last cycle, and a turn it starts shows from the next
  cycle: 5000 (w + 1) + 1. A direction is saturated when busy in at least ceil(0.99 x 5000) = 4950 cycles.
- Window 0 cannot trigger: no packet reaches link 0's ingress before it has crossed its sender's link (64
  cycles, half the 128-cycle socket-to-socket latency), so to_gpu0 is busy at most 5000 - 64 = 4936 < 4950
  cycles of it.
- Windows 1-6 trigger a turn toward to_gpu0: the three senders can offer 3 x 64 = 192 B/cycle, more than
  the 64-112 B/cycle of 8-14 ingress lanes, so the path, full within a few hundred cycles of the launch,
  keeps to_gpu0 busy in every cycle; to_switch0, with k ingress lanes carrying 8k B/cycle of packets, carries
  8k/9 B/cycle of acks on 16 - k lanes of 8 B, busy k / (9 (16 - k)) of the time: 11 % at k = 8, 78 % at
  k = 14, never saturated. So the first trigger is window 1 (turn from cycle 10001), and the turns begin at
  cycles 10001, 15001, ..., 35001. A turn quiesces the lane until the packet on it has left and then switches
  for 100 cycles: to_gpu0 has 8 + n lanes from cycle 5000 (n + 1) + 1 + d + 100, where d >= 1 (the drain is
  seen at the earliest in the cycle after the turn starts) and d <= 3 (the lane comes from to_switch0, whose
  packets are 16 B acks; even a 144 B packet would leave 7 lanes of 8 B within 144 / 56 < 3 cycles).
- Window 7 (14 ingress lanes) triggers once more (78 % < 99 %): at least 7 windows turned toward to_gpu0.
- Links 1-3 never turn toward their socket: their ingress carries only acks, at most 1/9 of the 64 B/cycle
  their egress can carry, 11 % of a direction.
- Every window that ends before the run does is decided: the run's cycles 1 .. sim_cycles - 1 are stepped,
  (sim_cycles - 1) // 5000 whole windows.
- Time: to_gpu0 must carry 49,152 x 144 = 7,077,888 B. By cycle 35102 it can have carried at most
  64 x 10102 + 5000 x (72 + 80 + 88 + 96 + 104) = 2,846,528 B (lanes as early as the derivation allows), and
  after that at most 15 lanes (120 B/cycle; one lane always stays with acks): the run cannot end before
  35102 + 4,231,360 / 120 = 70,364.7 cycles. Static links cannot end before 7,077,888 / 64 = 110,592 cycles
  (the floor tests/integration/fabric_test.cpp derives); with at least 9 ingress lanes from cycle 10105 on
  (to_gpu0 loses a lane only to an egress saturated alone, which acks at 1/9 of the ingress cannot do while
  it holds 7 lanes), the dynamic run must end sooner.

Usage: link_detector_test.py NUMAGPU SOURCE_DIR WORKDIR"""
import json
import os
import shutil
import subprocess
import sys


def vcd_changes(path, scope):
    """[(cycle, {signal name: value})] of one link's scope in lanes.vcd, every timestamp its values change."""
    ids, names, in_scope = {}, {}, False
    changes, cycle = [], None
    period_ps = 1000  # the paper system's 1 GHz clock
    with open(path) as f:
        for line in f:
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "$scope":
                in_scope = tok[2] == scope
            elif tok[0] == "$upscope":
                in_scope = False
            elif tok[0] == "$var" and in_scope:
                ids[tok[3]] = tok[4]
            elif tok[0].startswith("#"):
                cycle = int(tok[0][1:]) // period_ps
            elif tok[0].startswith("b") and len(tok) == 2 and tok[1] in ids:
                changes.append((cycle, ids[tok[1]], int(tok[0][1:], 2)))
            elif tok[0][0] in "01" and tok[0][1:] in ids:
                changes.append((cycle, ids[tok[0][1:]], int(tok[0][0])))
    # Group by cycle, keeping each signal's last value at that cycle.
    state, out = {}, []
    for c, name, v in changes:
        state[name] = v
        if out and out[-1][0] == c:
            out[-1] = (c, dict(state))
        else:
            out.append((c, dict(state)))
    return out


def main():
    numagpu, src, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "run")
    workload = os.path.join(src, "configs/workloads/bench/link_one_way.yaml")
    subprocess.run([numagpu, "run", "-q", "-c", os.path.join(src, "configs/paper_4socket.yaml"), "-w", workload,
                    "--set", "link.mode=dynamic", "--set", "link.sample_cycles=5000",
                    "--set", "link.switch_cycles=100", "--set", "runtime.launch_cycles=0", "-o", out], check=True)
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    doc = json.load(open(os.path.join(out, "stats.json")))
    stats, cycles = doc["stats"], doc["run"]["sim_cycles"]

    def counter(path):
        node = stats
        for part in path.split("."):
            node = node[part]
        return node

    # Lane timeline of link 0: to_gpu0 (B, ingress) and to_switch0 (A, egress).
    timeline = vcd_changes(os.path.join(out, "lanes.vcd"), "link_gpu0_switch0")
    turn_starts = [c for (c, s), (_, before) in zip(timeline[1:], timeline) if s["quiescing"] and
                   not before["quiescing"]]
    check(timeline[0][0] == 0 and timeline[0][1]["lanes_to_gpu0"] == 8 and timeline[0][1]["lanes_to_switch0"] == 8,
          f"link 0 starts 8/8: {timeline[0]}")
    check(turn_starts[:6] == [10001, 15001, 20001, 25001, 30001, 35001],
          f"the first six turns start at the ends of windows 1-6: {turn_starts[:8]}")
    first = next((s for c, s in timeline if c == 10001), None)
    check(first is not None and first["lanes_to_switch0"] == 7 and first["lanes_to_gpu0"] == 8,
          f"the first turn takes a lane from to_switch0 (toward to_gpu0): {first}")
    for n in range(1, 7):
        start = 5000 * (n + 1) + 1
        reached = next((c for c, s in timeline if s["lanes_to_gpu0"] == 8 + n), None)
        check(reached is not None and start + 101 <= reached <= start + 103,
              f"to_gpu0 reaches {8 + n} lanes at cycle {reached}, expected {start + 101}..{start + 103}")
    check(all(s["lanes_to_gpu0"] >= 9 for c, s in timeline if c >= 10105),
          "to_gpu0 keeps at least 9 lanes after the first turn")

    link0 = "system.link_gpu0_switch0.decisions"
    check(counter(link0 + ".turn_to_gpu0") >= 7, f"at least 7 triggers toward to_gpu0: "
          f"{counter(link0 + '.turn_to_gpu0')}")
    check(counter("system.link_gpu0_switch0.turnarounds") >= 7, "at least 7 lanes turned on link 0")
    for s in (1, 2, 3):
        d = f"system.link_gpu{s}_switch0.decisions"
        toward = sum(counter(f"{d}.{kind}_to_gpu{s}") for kind in ("turn", "blocked", "rebalance"))
        check(toward == 0, f"link {s} never decides toward its socket: {toward}")
    # Every turn is a decision's: one kernel launch, so no turn is abandoned, and each turn or rebalance
    # decision starts exactly one lane turning.
    for s in range(4):
        d, node = f"system.link_gpu{s}_switch0", f"gpu{s}"
        started = sum(counter(f"{d}.decisions.{kind}_to_{n}") for kind in ("turn", "rebalance")
                      for n in (node, "switch0"))
        check(started == counter(d + ".turnarounds"), f"link {s}: {started} turning decisions, "
              f"{counter(d + '.turnarounds')} lanes turned")
        check(counter(d + ".decisions.windows") == (cycles - 1) // 5000,
              f"link {s}: {counter(d + '.decisions.windows')} windows decided in {cycles} cycles")
    check(70365 <= cycles < 110592, f"the run ends between the bounds, 70365 <= {cycles} < 110592")

    # The RTL balancer (policy.impl=rtl, when this build has the Verilated blocks) shows the same decision
    # pulses: every decision count is the reference model's.
    rtl_out = os.path.join(work, "rtl")
    rtl = subprocess.run([numagpu, "run", "-q", "-c", os.path.join(src, "configs/paper_4socket.yaml"), "-w",
                          workload, "--set", "link.mode=dynamic", "--set", "link.sample_cycles=5000",
                          "--set", "link.switch_cycles=100", "--set", "runtime.launch_cycles=0",
                          "--set", "policy.impl=rtl", "-o", rtl_out], capture_output=True, text=True)
    if rtl.returncode == 0:
        rtl_stats = json.load(open(os.path.join(rtl_out, "stats.json")))["stats"]["system"]
        for s in range(4):
            link = f"link_gpu{s}_switch0"
            check(rtl_stats[link]["decisions"] == stats["system"][link]["decisions"],
                  f"{link}: the RTL balancer's decisions {rtl_stats[link]['decisions']} differ from the model's")
    else:
        print("policy.impl=rtl not available in this build: the RTL's decision counts are not compared")

    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print(f"link detector: first trigger in window 1 (turn from cycle 10001), turns {turn_starts[:7]}, "
          f"{counter(link0 + '.turn_to_gpu0')} triggers toward to_gpu0, {cycles} cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
