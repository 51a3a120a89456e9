#!/usr/bin/env python3
"""The microbenchmarks' checks (issue 46; docs/microbenchmarks.md): runs `numagpu bench-sm` on
configs/gpus/qv100.yaml for one set of benchmarks and checks each model value against its published value
(configs/published/volta_microbenchmarks.yaml, which bench_sm.csv carries beside the model's) within the
tolerance stated here.

Usage: bench_sm_checks.py NUMAGPU CONFIG OUTDIR SET, SET one of:
  checked   the benchmarks the model reproduces today (the README's test command runs these);
  pending   the ones it misses today, each with its gap (registered only with -DNUMAGPU_UBENCH_PENDING=ON,
            label ubench_pending): a mechanism of issue 46 point 3 that closes a gap moves its check up.

Tolerance: issue 46's target, every microbenchmark within 10 % of its published value, unless a row says
otherwise. The published values are never adjusted here: where the model misses, the check is pending, not
loosened. Each entry says where its published value comes from and why the model is expected to give it.
"""
import csv
import subprocess
import sys

TARGET = 10.0  # percent: issue 46, "Targets"

# benchmark -> (tolerance %, derivation of the expected value)
CHECKED = {
    # Dependent chains by one warp: 1,024 steps between the two lengths, so the launch and the kernel's end
    # cancel and each step costs the class's dependent latency (docs/kernels.md, "Timing").
    "ffma_latency": (TARGET, "Volta Tuning Guide 4.1.1: core FMA math, 4 cycles dependent issue"),
    "fadd_latency": (TARGET, "as FFMA: FADD is a core FMA-pipe operation, 4 cycles"),
    "fmul_latency": (TARGET, "as FFMA, 4 cycles"),
    "dfma_latency": (TARGET, "Jia et al. ch. 4: DFMA 8 cycles on V100"),
    "iadd3_latency": (TARGET, "Jia et al. ch. 4: IADD3 4 cycles"),
    "l1_hit_latency": (TARGET, "Jia et al. Figure 3.2 (p. 20): L1 hit 28 cycles by p-chase"),
    "l2_hit_latency": (TARGET, "Jia et al. Figure 3.2 (p. 20): L2 hit 193 cycles by p-chase"),
    "dram_latency": (TARGET, "Jia et al. Figure 3.2 (p. 20): L2 miss with a TLB hit, 375 cycles by p-chase"),
    "shared_latency_1way": (TARGET, "Jia et al. Table 3.1 (p. 19): shared memory, no conflict, 19 cycles"),
    # Full occupancy (64 warps an SM, 4 independent chains a thread): warp instructions a clock per SM is the
    # CUDA C Programming Guide's operations per clock per SM (compute capability 7.0) / 32 lanes.
    "ffma_throughput": (TARGET, "Guide: fp32 FMA 64 a clock per SM = 2 warp instructions"),
    "fadd_throughput": (TARGET, "Guide: fp32 add 64 = 2"),
    "fmul_throughput": (TARGET, "Guide: fp32 multiply 64 = 2"),
    "dfma_throughput": (TARGET, "Guide: fp64 FMA 32 on 7.0 = 1"),
    "imad_throughput": (TARGET, "Guide: 32-bit integer multiply-add 64 on 7.x = 2"),
    "iadd3_throughput": (TARGET, "Guide: 32-bit integer add 64 = 2"),
    "lop3_throughput": (TARGET, "Guide: 32-bit bitwise operations 64 = 2"),
    "shf_throughput": (TARGET, "Guide: 32-bit shifts 64 = 2"),
    "mufu_throughput": (TARGET, "Guide: rcp, rsqrt, log2, exp2, sin, cos 16 = 0.5"),
    "i2f_f2i_throughput": (TARGET, "Guide: other type conversions 16 = 0.5"),
    "f2f_throughput": (TARGET, "Guide: conversions to and from 64-bit types 16 on 7.0 = 0.5"),
    "hmma_throughput": (TARGET, "whitepaper: 8 Tensor Cores x 64 FMA = 512 FMA a clock = 2 HMMA steps of 256"),
    # FFMA and IADD3 chains interleaved: two pipes of 2 a clock each, so the four processing blocks' one
    # dispatch a clock each (whitepaper) is the limit: 4.
    "ffma_iadd3_throughput": (TARGET, "whitepaper: 4 schedulers x 1 warp instruction a clock"),
    # NVIDIA's serialization rules as ratios of two throughputs at full occupancy: an n-way bank conflict, and a
    # constant read of n distinct addresses, are n requests, dividing throughput by n (Programming Guide).
    "shared_conflict32_slowdown": (TARGET, "Guide: a 32-way conflict is 32 requests, 1/32 of the throughput"),
    "constant_divergent32_slowdown": (TARGET, "Guide: 32 distinct constant addresses are 32 requests, 1/32"),
    # Shared loads at full occupancy: Jia et al.'s measured rate of the banks, 12,080 of 13,800 GiB/s (Table
    # 3.1) = 112 of the 128 B a clock per SM (sm.shared_bandwidth_fraction 0.875), and an n-way conflict is n
    # serialized passes (the Guide): 112 / n.
    "shared_bandwidth_1way": (TARGET, "Jia Table 3.1: 12,080 of 13,800 GiB/s = 112 B/clk/SM"),
    "shared_bandwidth_2way": (TARGET, "112 / 2 (the Guide's serialization)"),
    "shared_bandwidth_4way": (TARGET, "112 / 4"),
    "shared_bandwidth_8way": (TARGET, "112 / 8"),
    "shared_bandwidth_16way": (TARGET, "112 / 16"),
    "shared_bandwidth_32way": (TARGET, "112 / 32"),
    # Wide and broadcast loads (sm.shared_access_phases): the shared pipe returns 128 B a clock, one register
    # for 32 lanes (NVIDIA's forum answer, thread 77228), so LDS.64 and LDS.128 without paired lanes deliver
    # the 1-way rate, 112; a load whose lanes pair up (a broadcast) packs two lanes' registers: an LDS.64 or
    # LDS.128 broadcast twice that, 224 (the answer's LDS.128: 4 requests become 2). A 32-bit broadcast is one
    # pass, 112 (the Guide).
    "shared_lds64_bandwidth": (TARGET, "forum 77228: LDS.64 two registers, one a clock: 112"),
    "shared_lds128_bandwidth": (TARGET, "forum 77228: LDS.128 4 requests: 112"),
    "shared_lds32_broadcast_bandwidth": (TARGET, "Guide: a broadcast word, one pass: 112"),
    "shared_lds64_broadcast_bandwidth": (TARGET, "forum 77228: paired lanes pack the return: 2 x 112"),
    "shared_lds128_broadcast_bandwidth": (TARGET, "forum 77228: LDS.128 4 requests become 2: 2 x 112"),
    # The L1's peak return bandwidth, 128 B a clock per SM (NVIDIA's forum answer): 64 warps each reading a
    # 128 B line of 32 KiB held in the L1.
    "l1_bandwidth": (TARGET, "NVIDIA forum: L1 return bandwidth 128 B a cycle (a peak)"),
    # Accel-Sim's configuration values (not measurements): the model's latencies are these keys, so the
    # checks hold the benchmarks to the keys' effect, one step of a chain each.
    "mufu_latency": (TARGET, "Accel-Sim trace.config: SFU latency 20"),
    "hmma_latency": (TARGET, "Accel-Sim: tensor latency 64"),
    "idiv_latency": (TARGET, "Accel-Sim: PTX div.s32 145"),
    "fdiv_latency": (TARGET, "Accel-Sim: PTX div.f32 39"),
    "ddiv_latency": (TARGET, "Accel-Sim: PTX div.f64 330"),
    "shfl_latency": (TARGET, "Accel-Sim: -ptx_opcode_latency_int's SHFL field, 21"),
    # A shuffle takes a pass of the SM-wide shared pipe (Nsight's LSU pipe issues shuffles to L1TEX): 32 lanes,
    # one warp a clock, the Guide's 32 shuffles a clock per SM.
    "shfl_throughput": (TARGET, "Guide: warp shuffle 32 a clock per SM = 1 warp instruction"),
    # The texture path: the p-chase through tex1Dfetch. A hit is the texture pipeline (sm.texture_latency, 58)
    # and the L1's 28; a cold fetch the pipeline and the 375 of a global load from DRAM (dram_latency above).
    "texture_latency": (TARGET, "Arafa et al. 2019: Volta texture-cache hit 86 cycles = 58 + 28"),
    "texture_miss_latency": (TARGET, "Arafa et al. 2019: Volta texture fetch from memory 436 cycles; 58 + 375 = 433"),
    # An empty kernel's elapsed cycles are runtime.kernel_overhead_cycles (AMALI's 2,119) and nothing else.
    "launch_overhead": (TARGET, "AMALI: empty-kernel intercept 2,119 cycles (the configured key)"),
}

# The model misses these today (docs/microbenchmarks.md, "Gaps"); the gap as measured on 2026-11-29.
PENDING = {
    "dram_bandwidth_fraction": (TARGET, "Jia Table 3.1: 750 of 900 GiB/s, 83.3 %; the model streams at ~100 %"),
}


def main(numagpu, config, out_dir, which):
    checks = {"checked": CHECKED, "pending": PENDING}[which]
    only = "^(" + "|".join(sorted(checks)) + ")$"
    subprocess.run([numagpu, "bench-sm", "-q", "-c", config, "--only", only, "-o", out_dir], check=True)
    with open(out_dir + "/bench_sm.csv") as f:
        rows = {r["benchmark"]: r for r in csv.DictReader(line for line in f if not line.startswith("#"))}
    failures = []
    for name, (tolerance, why) in sorted(checks.items()):
        r = rows.get(name)
        if r is None or not r["published"] or not r["model"]:
            failures.append(f"{name}: no model or published value in bench_sm.csv")
            continue
        model, published = float(r["model"]), float(r["published"])
        error = 100.0 * (model - published) / published
        status = "ok" if abs(error) <= tolerance else "MISS"
        print(f"{status:4} {name}: model {model:g}, published {published:g} ({why}), error {error:+.1f} % "
              f"(tolerance {tolerance:g} %)")
        if status != "ok":
            failures.append(name)
    if failures:
        sys.exit("outside tolerance: " + ", ".join(failures))


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[4] not in ("checked", "pending"):
        sys.exit("usage: bench_sm_checks.py NUMAGPU CONFIG OUTDIR checked|pending")
    main(*sys.argv[1:])
