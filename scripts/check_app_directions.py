#!/usr/bin/env python3
"""Asserts the paper's directions on small applications (tests/studies/apps_directions.yaml).

Usage: check_app_directions.py RESULTS.json. The expectations, reasoned from the applications' algorithms:

- locality: the locality-optimized runtime (contiguous CTAs, first-touch pages) beats the traditional one (CTAs
  and pages interleaved) on both stencils by LOCALITY_MARGIN. Parboil's stencil marches along z inside each
  CTA of a 2-D grid over (x, y), hotspot's CTAs tile its 2-D grid: contiguous CTA ranges are bands of rows,
  whose pages the band's socket touches first, so only the halo rows at band edges are remote; interleaving
  makes 3 of 4 pages remote for every CTA. It must also move fewer bytes over the links.
- numa_l2: the NUMA-aware L2 is not slower than the static half-and-half partition beyond NUMA_L2_LIMIT. The
  partition controller starts at the static split and moves a way only toward whichever of DRAM and the
  links is saturated while the other is not; on these mostly-local stencils the remote half of a static L2
  is mostly idle, so giving ways to local lines cannot cost more than the sampling's lag.
- sockets: 4 sockets beat 1 by SOCKET_MARGIN: four times the SMs and DRAM bandwidth, with only the halo rows
  crossing links under the locality-optimized runtime.
Exit status 1 when a check fails, 2 on unusable input.
"""
import json
import sys

LOCALITY_MARGIN = 1.10  # locality-optimized at least 10 % faster than traditional
NUMA_L2_LIMIT = 1.02  # NUMA-aware at most 2 % slower than static
SOCKET_MARGIN = 1.5  # 4 sockets at least 1.5x faster than 1


def main():
    if len(sys.argv) != 2:
        print("usage: check_app_directions.py RESULTS.json", file=sys.stderr)
        return 2
    results = json.load(open(sys.argv[1]))
    cycles = {}
    for p in results["points"]:
        if p["status"] == "ok":
            cycles[(p["workload"], p["labels"]["config"])] = p["stats"]["cycles"]
    failed = 0
    for w in ("stencil", "hotspot"):
        def c(label):
            v = cycles.get((w, label))
            if v is None:
                print(f"check_app_directions.py: {w}.{label} did not finish", file=sys.stderr)
                sys.exit(2)
            return v
        checks = [
            (c("traditional") >= LOCALITY_MARGIN * c("locality"),
             f"{w}: locality {c('locality')} cycles, traditional {c('traditional')} (>= {LOCALITY_MARGIN}x)"),
            (c("numa_l2") <= NUMA_L2_LIMIT * c("static_l2"),
             f"{w}: NUMA-aware L2 {c('numa_l2')} cycles, static {c('static_l2')} (<= {NUMA_L2_LIMIT}x)"),
            (c("sockets1") >= SOCKET_MARGIN * c("locality"),
             f"{w}: 4 sockets {c('locality')} cycles, 1 socket {c('sockets1')} (>= {SOCKET_MARGIN}x)"),
        ]
        for ok, text in checks:
            print(("ok    " if ok else "FAIL  ") + text)
            failed += not ok
    links = {p["id"]: p["stats"]["link_bytes"] for p in results["points"] if p["status"] == "ok"}
    for w in ("stencil", "hotspot"):
        ok = links[f"{w}.locality"] < links[f"{w}.traditional"]
        print(("ok    " if ok else "FAIL  ") + f"{w}: link bytes locality {links[f'{w}.locality']}, "
              f"traditional {links[f'{w}.traditional']}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
