#!/bin/sh
# numagpu correlate --cuda on a two-row table (docs/correlation.md, "The CUDA versions"): srad_v1's srad runs
# as examples/cuda/srad.cu (built by numagpu-cc, `srad 502 458 1`: the library kernel's defaults rows=502
# cols=458 translated by the map, srad alone), and pathfinder's dynproc_kernel (of the blind set), which has no
# CUDA version, is listed as such and not run. srad.cu issues the library kernel's global memory requests (same_requests.py), so its DRAM
# sectors read are the library run's 28,982 (docs/correlation.md's table: the compulsory sectors of srad's
# arrays on the GV100 configuration). The hardware numbers here are made up: only the simulated side is checked.
# Then a numagpu with no numagpu-cc beside it: one error line, status 2, nothing written.
# Usage: correlate_cuda.sh NUMAGPU REPO WORKDIR
set -u
numagpu=$1 repo=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
cat >hw.csv <<'CSV'
Benchmark,Kernel,L1_RH,L1_RM,L1_WH,L1_WM,CC_ACC,SHRD_ACC,DRAM_Rd,DRAM_Wr,L2_RH,L2_RM,L2_WH,L2_WM,NOC,Pipeline_Duty,Num_Idle_SMs,Elapsed_Cycles,Chip Voltage
srad_v1-rodinia-3.1,_Z4sradfiilPiS_S_S_PfS0_S0_S0_fS0_S0_,1,1,1,1,0,0,30000,1,1,1,1,0,0,0.5,1,10000,1.0
pathfinder,_Z14dynproc_kerneliPiS_S_iiiii,1,1,1,1,0,0,32768,0,1,1,1,0,0,0.5,0,100,1.0
CSV
"$numagpu" correlate --cuda -q --hw hw.csv -c "$repo/configs/gpus/qv100.yaml" -o out >log 2>&1
status=$?
fail=0
[ $status -eq 0 ] || { echo "correlate --cuda: exit status $status"; cat log; fail=1; }
run=out/runs/srad_v1_rodinia_3_1__srad
grep -q 'srad: PASS' $run/stdout.txt || { echo "srad.cu did not pass"; cat $run/stdout.txt; fail=1; }
grep -q '^NUMAGPU_SIMULATE=srad .* -- 502 458 1$' $run/cuda.txt || { echo "unexpected run:"; cat $run/cuda.txt; fail=1; }
grep -qx 'srad_v1-rodinia-3.1,_Z4sradfiilPiS_S_S_PfS0_S0_S0_fS0_S0_,DRAM_Rd,30000,28982' out/correlation.csv ||
  { echo "srad's DRAM sectors read are not the library kernel's 28,982:"; grep DRAM_Rd out/correlation.csv; fail=1; }
grep -A2 '^## Not run (no CUDA version)' out/correlation.md | grep -q '^- pathfinder _Z14dynproc_kerneliPiS_S_iiiii$' ||
  { echo "dynproc_kernel is not listed as without a CUDA version"; cat out/correlation.md; fail=1; }
! grep -q dynproc_kernel out/correlation.csv || { echo "dynproc_kernel was compared"; fail=1; }
# A numagpu without numagpu-cc beside it: one line, status 2, nothing written.
mkdir -p lone && cp "$numagpu" lone/numagpu || exit 1
lone/numagpu correlate --cuda -q --hw hw.csv -o lone_out >lone.log 2>&1
status=$?
[ $status -eq 2 ] || { echo "without numagpu-cc: exit status $status, expected 2"; fail=1; }
[ "$(wc -l <lone.log)" -eq 1 ] && grep -q "^numagpu: error: correlate: --cuda: .*numagpu-cc" lone.log ||
  { echo "without numagpu-cc: not one error line naming numagpu-cc:"; cat lone.log; fail=1; }
[ ! -e lone_out ] || { echo "without numagpu-cc: lone_out was written"; fail=1; }
[ $fail -eq 0 ] && echo "correlate --cuda: PASS"
exit $fail
