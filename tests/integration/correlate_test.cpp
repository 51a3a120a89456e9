// numagpu correlate: reading the hardware table, the statistics it derives from a run, and the summary
// figures, each against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "cli/correlate_counters.hpp"
#include "cli/study_kernels.hpp"
#include "config/error.hpp"

namespace numagpu {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("numagpu-correlate-" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

TEST(Correlate, PearsonAndMeanAbsoluteErrorByHand) {
  // sim = 2 hw: perfectly correlated (r = 1), each 100 % off.
  EXPECT_NEAR(pearson({1, 2, 3}, {2, 4, 6}), 1.0, 1e-12);
  EXPECT_NEAR(mean_abs_percent_error({1, 2, 3}, {2, 4, 6}), 100.0, 1e-9);
  // hw 1, 2, 3 against 3, 2, 1: r = -1; errors 200 %, 0 %, 66.67 %: mean 88.89 %.
  EXPECT_NEAR(pearson({1, 2, 3}, {3, 2, 1}), -1.0, 1e-12);
  EXPECT_NEAR(mean_abs_percent_error({1, 2, 3}, {3, 2, 1}), (200.0 + 0.0 + 200.0 / 3) / 3, 1e-9);
  // A hardware zero has no percentage: left out of the mean.
  EXPECT_NEAR(mean_abs_percent_error({0, 4}, {5, 5}), 25.0, 1e-9);
  EXPECT_TRUE(std::isnan(pearson({1}, {1})));
}

TEST(Correlate, ReadsTheTableAndRefusesMalformedLines) {
  const fs::path d = scratch("csv");
  write(d / "ok.csv", "Benchmark,Kernel,DRAM_Rd,Elapsed_Cycles\nb1,\"k,1\",10,2.5\nb2,k2,,7\n");
  const std::vector<HwRow> rows = read_hw_csv((d / "ok.csv").string());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].kernel, "k,1");  // a quoted comma stays in its field
  EXPECT_EQ(rows[0].counters.at("DRAM_Rd"), 10.0);
  EXPECT_EQ(rows[0].counters.at("Elapsed_Cycles"), 2.5);
  EXPECT_EQ(rows[1].counters.count("DRAM_Rd"), 0u);  // empty: no value
  write(d / "short.csv", "Benchmark,Kernel,DRAM_Rd\nb1,k1\n");
  try {
    read_hw_csv((d / "short.csv").string());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              (d / "short.csv").string() + ":2:1: row: 2 fields, expected 3 as the header has");
  }
  write(d / "nan.csv", "Benchmark,Kernel,DRAM_Rd\nb1,k1,lots\n");
  EXPECT_THROW(read_hw_csv((d / "nan.csv").string()), std::runtime_error);
  write(d / "nohead.csv", "a,b\n");
  EXPECT_THROW(read_hw_csv((d / "nohead.csv").string()), std::runtime_error);
}

TEST(Correlate, StudyKernelsAreFoundByTheirFunctionName) {
  // Nsight's mangled name: _Z, the length 14, then the name.
  const auto k = study_kernel("hotspot-rodinia-3.1", "_Z14calculate_tempiPfS_S_iiiiffffff");
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->library_name, "rodinia/hotspot");
  EXPECT_FALSE(study_kernel("hotspot-rodinia-3.1", "_Z9otherKernelv").has_value());
  EXPECT_FALSE(study_kernel("other-suite", "_Z14calculate_tempiPfS_S_iiiiffffff").has_value());
  // A template's arguments follow the name (mergeSortSharedKernel<1u>); a name in namespaces ends at its last
  // component (_ZN7cutlass4gemm11gemm_kernel...: gemm_kernel, which is not mapped).
  const auto m = study_kernel("mergeSort", "_Z21mergeSortSharedKernelILj1EEvPjS0_S0_S0_j");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->library_name, "cuda-samples/mergeSort_mergeSortShared");
  EXPECT_FALSE(study_kernel("cutlass", "_ZN7cutlass4gemm11gemm_kernelINS0_4GemmEEEvNT_6ParamsE").has_value());
  // The blind set matches any benchmark by the function alone.
  EXPECT_EQ(study_kernel("any", "_Z12compute_gemmPK6__halfS1_PKfPfff")->library_name,
            "cuda-samples/cudaTensorCoreGemm");
}

// The map is data (configs/correlate/gv100_kernels.yaml), read as a configuration: a mistake is one line
// FILE:LINE:COLUMN: key: what, and a kernel the library does not have is refused where it is named.
TEST(StudyKernelMap, MistakesAreReportedWhereTheyAreWritten) {
  const StudyKernelMap map =
      StudyKernelMap::load({"map.yaml",
                            "counters:\n  - {function: f, kernel: rodinia/hotspot, launches: 2}\n"
                            "  - {function: g, kernel: rodinia/hotspot, args: \"pyramid=1\"}\n"
                            "power:\n  - {app: a, index: 3, kernel: rodinia/hotspot, args: \"x=1\"}\n"});
  EXPECT_EQ(map.counter_row("any", "_Z1fv")->launches, 2u);
  EXPECT_EQ(map.counter_row("any", "_Z1fv")->args, "");
  EXPECT_EQ(map.counter_row("any", "_Z1gv")->args, "pyramid=1");
  EXPECT_EQ(map.power_row("a_k3")->args, "x=1");
  EXPECT_FALSE(map.power_row("a_k1"));
  // "  - {function: f, kernel: " is 26 bytes: the name starts at column 27.
  try {
    StudyKernelMap::load({"map.yaml", "counters:\n  - {function: f, kernel: rodinia/no_such}\n"});
    ADD_FAILURE() << "an unknown library kernel was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "map.yaml:2:27: counters.0.kernel: 'rodinia/no_such' is not a library kernel (numagpu kernels "
              "lists them)");
  }
  try {
    StudyKernelMap::load({"map.yaml", "power:\n  - {app: a, index: 0, kernel: rodinia/hotspot}\n"});
    ADD_FAILURE() << "index 0 was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("map.yaml:2:21: power.0.index: ", 0), 0u) << e.what();
  }
}

// A map entry's CUDA version: its arguments are the library kernel's, by name (its defaults unless the entry
// sets them), its kernel the function unless named; a {name} the kernel lacks, or cuda fields without a
// program, are refused where they are written.
TEST(StudyKernelMap, CudaVersionsTranslateTheLibraryArguments) {
  const StudyKernelMap map =
      StudyKernelMap::load({"map.yaml",
                            "counters:\n"
                            "  - {function: calculate_temp, kernel: rodinia/hotspot, cuda: {program: "
                            "hotspot, args: \"{rows} {cols} x{pyramid}\"}}\n"
                            "  - {function: g, kernel: rodinia/backprop_layerforward, cuda: {program: "
                            "backprop, args: \"{in}\", kernel: bpnn_layerforward}}\n"
                            "  - {function: h, kernel: rodinia/hotspot}\n"});
  const auto hotspot = map.counter_row("any", "_Z14calculate_tempiPfS_S_iiiiffffff");
  ASSERT_TRUE(hotspot && hotspot->cuda);
  EXPECT_EQ(hotspot->cuda->program, "hotspot");
  EXPECT_EQ(hotspot->cuda->kernel, "calculate_temp");  // the function's name
  // rodinia/hotspot's defaults: rows=1024 cols=1024 pyramid=2.
  EXPECT_EQ(cuda_program_args(*hotspot), (std::vector<std::string>{"1024", "1024", "x2"}));
  const auto backprop = map.counter_row("any", "_Z1gv");
  ASSERT_TRUE(backprop && backprop->cuda);
  EXPECT_EQ(backprop->cuda->kernel, "bpnn_layerforward");
  EXPECT_EQ(cuda_program_args(*backprop), std::vector<std::string>{"65536"});
  EXPECT_FALSE(map.counter_row("any", "_Z1hv")->cuda);
  // The built-in map: all 10 training kernels have a CUDA version (dct8x8.cu's third argument picks the
  // kernel), the blind set's none.
  EXPECT_TRUE(study_kernel("srad_v1-rodinia-3.1", "_Z4sradfiilPiS_S_S_PfS0_S0_S0_fS0_S0_")->cuda);
  const auto range = study_kernel("b+tree-rodinia-3.1", "findRangeK");
  ASSERT_TRUE(range && range->cuda);
  EXPECT_EQ(cuda_program_args(*range), (std::vector<std::string>{"1000000", "6000", "6000"}));
  const auto dct2 = study_kernel("dct8x8", "_Z14CUDAkernel2DCTPfS_i");
  ASSERT_TRUE(dct2 && dct2->cuda);
  EXPECT_EQ(cuda_program_args(*dct2), (std::vector<std::string>{"512", "512", "2"}));
  EXPECT_FALSE(study_kernel("any", "_Z14dynproc_kerneliPiS_S_iiiii")->cuda);
  // The study's binaries where the library's defaults differ (docs/kernels.md, "kmeans and dct8x8 against
  // their SASS"): kmeans' loop as its sm_70 SASS, dct 1DCT's source a filtered cudaArray; the CUDA
  // versions' command lines do not take these arguments.
  const auto kmeans = study_kernel("kmeans-rodinia-3.1", "_Z11kmeansPointPfiiiPiS_S_S0_");
  ASSERT_TRUE(kmeans && kmeans->cuda);
  EXPECT_EQ(kmeans->args, "unroll=4");
  EXPECT_EQ(cuda_program_args(*kmeans), (std::vector<std::string>{"819200", "34", "5"}));
  EXPECT_EQ(study_kernel("dct8x8", "_Z14CUDAkernel1DCTPfiiiy")->args, "block_linear=1 linear_filter=1");
  EXPECT_EQ(dct2->args, "");
  try {
    StudyKernelMap::load(
        {"map.yaml",
         "counters:\n  - {function: f, kernel: rodinia/hotspot, cuda: {program: p, args: \"{rowz}\"}}\n"});
    ADD_FAILURE() << "an unknown argument was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("map.yaml:2:", 0), 0u) << e.what();
    EXPECT_NE(
        std::string(e.what()).find("counters.0.cuda.args: '{rowz}' is not an argument of rodinia/hotspot "
                                   "(its arguments: cols, pyramid, rows)"),
        std::string::npos)
        << e.what();
  }
  try {
    StudyKernelMap::load(
        {"map.yaml", "counters:\n  - {function: f, kernel: rodinia/hotspot, cuda: {args: \"1\"}}\n"});
    ADD_FAILURE() << "cuda args without a program were accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("counters.0.cuda.program: required with cuda.args or cuda.kernel"),
              std::string::npos)
        << e.what();
  }
}

// An unsectored run: 128 B lines are 4 sectors of 32 B. Two L1s with 3 + 2 read hits (20 sectors) and 1 + 1
// misses (8); one L2 bank with 4 hits (16 sectors); 6,400 DRAM bytes read = 200 sectors, 320 written = 10.
// Two SMs' constant-cache passes, 96 + 32, are CC_ACC 128 in a run with dependent latencies (the SMs count
// passes only then); such a run with no passes compares 0, a run without latencies has no CC_ACC. The SMs'
// shared-memory instructions, 10 + 5, are SHRD_ACC 15.
TEST(Correlate, CountersFromAnUnsectoredRun) {
  const fs::path d = scratch("stats");
  write(d / "stats.json",
        R"({"config": {"l1": {"line_bytes": 128}, "sm": {"fp32_latency": 4}},
    "stats": {"summary": {"sim_cycles": 1234},
    "system": {"socket0": {
      "sm0": {"constant_cache_passes": 96, "instructions_shared": 10},
      "sm1": {"constant_cache_passes": 32, "instructions_shared": 5},
      "l1_0": {"read_hits": {"local_local": 3}, "read_misses": {"local_local": 1}},
      "l1_1": {"read_hits": {"local_remote": 2}, "read_misses": {"remote_local": 1}},
      "l2_0": {"read_hits": {"local_local": 4}, "read_misses": {"local_local": 0}},
      "dram": {"read_bytes": 6400, "write_bytes": 320, "utilization": {"values": [1, 2]}}}}}})");
  const SimulatedCounters c = simulated_counters((d / "stats.json").string());
  EXPECT_FALSE(c.sectored);
  EXPECT_EQ(c.values.at("L1_RH"), 20.0);
  EXPECT_EQ(c.values.at("L1_RM"), 8.0);
  EXPECT_EQ(c.values.at("L2_RH"), 16.0);
  EXPECT_EQ(c.values.at("L2_RM"), 0.0);
  EXPECT_EQ(c.values.at("DRAM_Rd"), 200.0);
  EXPECT_EQ(c.values.at("DRAM_Wr"), 10.0);
  EXPECT_EQ(c.values.at("Elapsed_Cycles"), 1234.0);
  EXPECT_EQ(c.values.count("L1_WH"), 0u);  // an unsectored model does not split writes
  EXPECT_EQ(c.values.at("CC_ACC"), 128.0);
  EXPECT_EQ(c.values.at("SHRD_ACC"), 15.0);
  write(d / "zero.json", R"({"config": {"l1": {"line_bytes": 128}, "sm": {"int_latency": 4}},
    "stats": {"system": {"socket0": {"sm0": {"constant_cache_passes": 0}}}}})");
  EXPECT_EQ(simulated_counters((d / "zero.json").string()).values.at("CC_ACC"), 0.0);
  write(d / "none.json", R"({"config": {"l1": {"line_bytes": 128}, "sm": {"int_latency": 0}},
    "stats": {"system": {"socket0": {"sm0": {"constant_cache_passes": 0}}}}})");
  EXPECT_EQ(simulated_counters((d / "none.json").string()).values.count("CC_ACC"), 0u);
}

// A sectored run: the sector counters are summed over the caches of a level. Two L1s read 5 + 3 sectors that
// hit and 2 + 0 that missed, and wrote 4 + 4 sectors none of which was present (L1_WM 8). Two L2 banks took
// 6 + 1 write sectors that were present and 10 + 3 that were not. A write-back L2 that allocates every
// write (remote_insert: twice, whatever the sockets; or once with one socket and no host initiator)
// allocated those 13 without a fetch, which the hardware's counter calls hits: L2_WH = 7 + 13 = 20, L2_WM =
// 0. With remote_insert: once and two sockets, or a host initiator, or a write-through L2, some writes
// passed through: the model's own split stays, L2_WH 7, L2_WM 13.
TEST(Correlate, CountersFromASectoredRunCountL2WriteAllocationsAsHits) {
  const fs::path d = scratch("sectored");
  const auto run = [&](const std::string& name, int sockets, const std::string& policy,
                       const std::string& insert = "twice", const std::string& external = "[]") {
    write(d / name, R"({"config": {"l1": {"line_bytes": 128}, "system": {"sockets": )" +
                        std::to_string(sockets) + R"(}, "external": )" + external +
                        R"(, "l2": {"write_policy": ")" + policy + R"(", "remote_insert": ")" + insert +
                        R"("}},
      "stats": {"system": {"socket0": {
        "l1_0": {"read_sector_hits": 5, "read_sector_misses": 2, "write_sector_hits": 0, "write_sector_misses": 4},
        "l1_1": {"read_sector_hits": 3, "read_sector_misses": 0, "write_sector_hits": 0, "write_sector_misses": 4},
        "l2_0": {"write_sector_hits": 6, "write_sector_misses": 10},
        "l2_1": {"write_sector_hits": 1, "write_sector_misses": 3}}}}})");
    return simulated_counters((d / name).string());
  };
  const SimulatedCounters one = run("one.json", 1, "write_back");
  EXPECT_TRUE(one.sectored);
  EXPECT_EQ(one.values.at("L1_RH"), 8.0);
  EXPECT_EQ(one.values.at("L1_RM"), 2.0);
  EXPECT_EQ(one.values.at("L1_WH"), 0.0);
  EXPECT_EQ(one.values.at("L1_WM"), 8.0);
  EXPECT_EQ(one.values.at("L2_WH"), 20.0);
  EXPECT_EQ(one.values.at("L2_WM"), 0.0);
  for (const auto& all :
       {run("two_twice.json", 2, "write_back"), run("one_once.json", 1, "write_back", "once")}) {
    EXPECT_EQ(all.values.at("L2_WH"), 20.0);
    EXPECT_EQ(all.values.at("L2_WM"), 0.0);
  }
  const std::string host = R"([{"kind": "switch_initiator"}])";
  for (const auto& other :
       {run("two_once.json", 2, "write_back", "once"), run("host_once.json", 1, "write_back", "once", host),
        run("through.json", 1, "write_through")}) {
    EXPECT_EQ(other.values.at("L2_WH"), 7.0);
    EXPECT_EQ(other.values.at("L2_WM"), 13.0);
  }
}

// AccelWattch's per-sub-partition counters, from two SMs of 4 processing blocks (issue_width 4) over 1,000
// cycles: sm0's blocks held warps 4,000 block-cycles (all four, throughout), sm1's 1,000 (one block):
// Num_Idle_SMs = 2 x (1 - 5,000 / (4 x 2 x 1,000)) = 0.75. Pipes of 64 fp32 and int lanes are 16 a block,
// so a warp instruction keeps its pipe 2 cycles; fp64's 32 lanes are 8 a block, 4 cycles, and its
// instructions keep the shared pipe (fp64, fp16 and tensor share one dispatch port on the GV100) as long.
// sm0: 100 fp32 x 2 + 50 int x 2 + (10 fp64 + 5 second passes) x 4 x 2 + 2 tensor x 2 x 2 = 200 + 100 +
// 120 + 8 = 428 pipe-cycles; Pipeline_Duty = 428 / (2 x 1,000 SM cycles) / 5 pipes = 0.0428. Without pipe
// lanes there is no duty figure, and the idle count stays; without tensor lanes but no tensor instruction
// either, the duty is the rest's: (428 - 8) / 2,000 / 5 = 0.042.
TEST(Correlate, SubPartitionCountersFromARun) {
  const fs::path d = scratch("blocks");
  const std::string stats = R"("stats": {"summary": {"sim_cycles": 1000},
    "system": {"socket0": {
      "sm0": {"block_active_cycles": 4000, "instructions_fp32": 100, "instructions_int": 50,
              "instructions_fp64": 10, "fp64_second_passes": 5, "instructions_tensor": 2,
              "stall_cycles": {"memory": 7}},
      "sm1": {"block_active_cycles": 1000}}}}})";
  write(d / "lanes.json", R"({"config": {"l1": {"line_bytes": 128}, "sm": {"issue_width": 4,
    "fp32_lanes": 64, "int_lanes": 64, "fp64_lanes": 32, "tensor_lanes": 64}}, )" +
                              stats);
  const SimulatedCounters c = simulated_counters((d / "lanes.json").string());
  EXPECT_NEAR(c.values.at("Num_Idle_SMs"), 0.75, 1e-12);
  EXPECT_EQ(c.blocks, 4.0);
  EXPECT_EQ(c.sms, 2.0);
  EXPECT_NEAR(c.values.at("Pipeline_Duty"), 0.0428, 1e-12);
  write(d / "nolanes.json", R"({"config": {"l1": {"line_bytes": 128}, "sm": {"issue_width": 4}}, )" + stats);
  const SimulatedCounters n = simulated_counters((d / "nolanes.json").string());
  EXPECT_NEAR(n.values.at("Num_Idle_SMs"), 0.75, 1e-12);
  EXPECT_EQ(n.values.count("Pipeline_Duty"), 0u);
  std::string no_tensor = stats;
  no_tensor.replace(no_tensor.find(R"("instructions_tensor": 2)"), 24, R"("instructions_tensor": 0)");
  write(d / "notensor.json", R"({"config": {"l1": {"line_bytes": 128}, "sm": {"issue_width": 4,
    "fp32_lanes": 64, "int_lanes": 64, "fp64_lanes": 32}}, )" +
                                 no_tensor);
  EXPECT_NEAR(simulated_counters((d / "notensor.json").string()).values.at("Pipeline_Duty"), 0.042, 1e-12);
}

// The time-independent split behind the two ratios. Hardware: 1,000 elapsed cycles, 8 of the script's 80
// SMs idle -> 8 / 80 x 1,000 = 100 cycles with no warp, 900 with one; duty 0.4 -> 0.4 x 5 / 4 x 1,000 = 500
// pipe cycles per sub-partition. Model: 2 SMs, 800 cycles, 0.5 SM idle -> 0.5 / 2 x 800 = 200 and 600;
// duty 0.5 -> 0.5 x 5 / 4 x 800 = 500, ratio 1. The model's sub-partitions are its blocks: with 2 a block
// does 0.5 x 5 / 2 x 800 = 1,000, ratio 2. A side without one of the counters gives no row.
TEST(Correlate, TimeSplitRowByHand) {
  HwRow hw{"bench", "_Z6kernelv", {{"Elapsed_Cycles", 1000}, {"Num_Idle_SMs", 8}, {"Pipeline_Duty", 0.4}}};
  SimulatedCounters sim;
  sim.sms = 2;
  sim.blocks = 4;
  sim.values = {{"Elapsed_Cycles", 800}, {"Num_Idle_SMs", 0.5}, {"Pipeline_Duty", 0.5}};
  EXPECT_EQ(time_split_row(hw, sim),
            "| bench | kernel | 1000 / 800 | 100 / 200 | 900 / 600 | 500 / 500 / 1 |\n");
  sim.blocks = 2;
  EXPECT_EQ(time_split_row(hw, sim),
            "| bench | kernel | 1000 / 800 | 100 / 200 | 900 / 600 | 500 / 1000 / 2 |\n");
  // The idle-time attribution's gap needs no duty: hardware 100 cycles with no warp, model 200: -100.
  sim.values.erase("Pipeline_Duty");
  EXPECT_EQ(time_split_row(hw, sim), "");
  ASSERT_TRUE(idle_gap_cycles(hw, sim).has_value());
  EXPECT_DOUBLE_EQ(*idle_gap_cycles(hw, sim), -100.0);
  sim.values.erase("Num_Idle_SMs");
  EXPECT_FALSE(idle_gap_cycles(hw, sim).has_value());
}

TEST(CorrelatePower, ReadsTheMeasuredPowerTableAndRefusesMalformedLines) {
  const fs::path d = scratch("power-csv");
  // The shape of shared/data/qv100/hw_power_train.csv: an unnamed first column holds the row names.
  write(d / "ok.csv",
        ",mean HW_power,st_dev,var,#samples\nbackprop_k1,219.7978,0.27,0.07,5\nbtree_k2,157,3.6,13.1,5\n");
  const std::vector<HwPowerRow> rows = read_hw_power_csv((d / "ok.csv").string());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "backprop_k1");
  EXPECT_DOUBLE_EQ(rows[0].watts, 219.7978);
  EXPECT_DOUBLE_EQ(rows[1].watts, 157.0);
  write(d / "neg.csv", ",mean HW_power\nk_k1,-3\n");
  try {
    read_hw_power_csv((d / "neg.csv").string());
    FAIL();
  } catch (const std::runtime_error& e) {
    // "k_k1," is 5 bytes: the watts start at column 6.
    EXPECT_EQ(std::string(e.what()),
              (d / "neg.csv").string() +
                  ":2:6: mean HW_power: expected a positive decimal number of watts, not '-3'");
  }
  write(d / "nocol.csv", ",watts\nk_k1,3\n");
  EXPECT_THROW(read_hw_power_csv((d / "nocol.csv").string()), std::runtime_error);
  write(d / "short.csv", ",mean HW_power,st_dev\nk_k1,3\n");
  EXPECT_THROW(read_hw_power_csv((d / "short.csv").string()), std::runtime_error);
  EXPECT_THROW(read_hw_power_csv((d / "missing.csv").string()), std::runtime_error);
}

// The error a table gives, or "" when it is accepted.
std::string hw_error(const fs::path& dir, const std::string& text, bool power = false) {
  write(dir / "t.csv", text);
  try {
    if (power) {
      read_hw_power_csv((dir / "t.csv").string());
    } else {
      read_hw_csv((dir / "t.csv").string());
    }
  } catch (const HwCsvError& e) {
    const std::string what = e.what(), prefix = (dir / "t.csv").string() + ":";
    return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : "(names another file) " + what;
  }
  return "";
}

// Counters are non-negative decimal numbers (docs/correlation.md, "The hardware tables"). Columns by hand: in
// "b,k,X" the third field starts at byte 5; in "b,k,1,X" the fourth at 7.
TEST(HwCsv, CountersAreNonNegativeDecimals) {
  const fs::path d = scratch("hw-values");
  const std::string head = "Benchmark,Kernel,DRAM_Rd\nb,k,";
  const std::string nonneg = "2:5: DRAM_Rd: expected a non-negative decimal number";
  EXPECT_EQ(hw_error(d, head + "-5\n"), nonneg + ", not '-5'");
  EXPECT_EQ(hw_error(d, head + "0x1A\n"), nonneg + ", not '0x1A'");
  EXPECT_EQ(hw_error(d, head + "+5\n"), nonneg + ", not '+5'");
  EXPECT_EQ(hw_error(d, head + "inf\n"), nonneg + ", not 'inf'");
  EXPECT_EQ(hw_error(d, head + "nan\n"), nonneg + ", not 'nan'");
  EXPECT_EQ(hw_error(d, head + " 5\n"), nonneg + ", not ' 5'");
  EXPECT_EQ(hw_error(d, head + "1e\n"), nonneg + ", not '1e'");
  EXPECT_EQ(hw_error(d, head + ".\n"), nonneg + ", not '.'");
  EXPECT_EQ(hw_error(d, head + "5\x1b\n"), nonneg + ", not '5\\x1b'");  // a control byte shown escaped
  // Beyond the limits: above 1e18 (no kernel counts that many), a non-zero value under 1e-12 (its percentage
  // error would overflow), one too small for a double at all.
  const std::string range = nonneg + " from 1e-12 to 1e+18, not ";
  EXPECT_EQ(hw_error(d, head + "1e19\n"), range + "'1e19'");
  EXPECT_EQ(hw_error(d, head + "1e-13\n"), range + "'1e-13'");
  EXPECT_EQ(hw_error(d, head + "1e-400\n"), range + "'1e-400'");
  EXPECT_EQ(hw_error(d, head + "1e999\n"), range + "'1e999'");
  // Accepted: integers, fractions, exponents, zero, the limits themselves, and an empty field (no value).
  for (const char* ok : {"0", "0.0", "12", "12.", ".5", "2.5e3", "1E+2", "1e18", "1e-12", ""})
    EXPECT_EQ(hw_error(d, head + ok + "\n"), "") << ok;
  write(d / "ok.csv", head + "2.5e3\n");
  EXPECT_EQ(read_hw_csv((d / "ok.csv").string())[0].counters.at("DRAM_Rd"), 2500.0);
  // Zero time is meaningless (a kernel lasts a cycle); the script's 80 SMs bound the idle ones.
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,Elapsed_Cycles\nb,k,0\n"),
            "2:5: Elapsed_Cycles: expected at least 1 cycle, not 0");
  EXPECT_EQ(
      hw_error(d, "Benchmark,Kernel,Elapsed_Cycles\nb,k,0.5\n"),
      "2:5: Elapsed_Cycles: expected a decimal number of cycles (a kernel lasts one at least) from 1 to "
      "1e+18, not '0.5'");
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,Num_Idle_SMs\nb,k,80.5\n"),
            "2:5: Num_Idle_SMs: expected a non-negative decimal number of SMs from 1e-12 to 80, not '80.5'");
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,Num_Idle_SMs\nb,k,80\n"), "");
  // The error names the column of the field: the fourth here.
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,DRAM_Rd,DRAM_Wr\nb,k,1,-2\n"),
            "2:7: DRAM_Wr: expected a non-negative decimal number, not '-2'");
}

// A kernel's row appears once: rows are means over launches without their counts, which cannot be merged.
TEST(HwCsv, DuplicateKernelRowsAreRefused) {
  const fs::path d = scratch("hw-dup");
  // Line 4 repeats line 2 (line 3 is another benchmark's kernel of the same name); its Kernel field starts
  // at 3.
  EXPECT_EQ(
      hw_error(d, "Benchmark,Kernel,DRAM_Rd\nb,k,1\nc,k,1\nb,k,2\n"),
      "4:3: Kernel: a second row of kernel 'k' of benchmark 'b' (first on line 2): each kernel has one row, "
      "a mean over its launches, and rows without launch counts cannot be merged");
  // A blank line still counts: the repeated row is on line 4.
  EXPECT_EQ(hw_error(d, ",mean HW_power\nhotspot_k1,200\n\nhotspot_k1,200\n", true),
            "4:1: name: a second row of 'hotspot_k1' (first on line 2): each kernel has one row, a mean over "
            "its runs, and rows without their sample counts cannot be merged");
  // Power values: positive decimals from 1 mW to 1 MW; "a_k1," is 5 bytes.
  EXPECT_EQ(hw_error(d, ",mean HW_power\na_k1,0x10\n", true),
            "2:6: mean HW_power: expected a positive decimal number of watts, not '0x10'");
  EXPECT_EQ(hw_error(d, ",mean HW_power\na_k1,0\n", true),
            "2:6: mean HW_power: expected a positive number of watts, not 0");
  EXPECT_EQ(
      hw_error(d, ",mean HW_power\na_k1,1e-300\n", true),
      "2:6: mean HW_power: expected a positive decimal number of watts from 0.001 to 1e+06, not '1e-300'");
  EXPECT_EQ(hw_error(d, ",mean HW_power\na_k1,\n", true),
            "2:6: mean HW_power: expected a positive decimal number of watts, not ''");
}

TEST(HwCsv, StructureAndNames) {
  const fs::path d = scratch("hw-structure");
  EXPECT_EQ(hw_error(d, ""), "1:1: header: an empty file, expected a header line");
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,DRAM_Rd,DRAM_Rd\n"),
            "1:26: DRAM_Rd: the column appears twice (first at column 18)");
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,,X\n"), "1:18: header: a column without a name");
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,X\n\"b,k,1\n"),
            "2:1: field: a quoted field without its closing quote (a field cannot span lines)");
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,X\n\"b\"x,k,1\n"),
            "2:4: field: expected a comma after the closing quote, not 'x'");
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,X\nb\"x,k,1\n"),
            "2:2: field: a quote inside an unquoted field (quote the whole field, doubling the quote)");
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,X\nb,,1\n"),
            "2:3: Kernel: an empty name, expected the kernel's name");
  EXPECT_EQ(hw_error(d, "Benchmark,Kernel,X\nb,k\tx,1\n"), "2:3: Kernel: a control byte (0x09) in the name");
  // Quoted fields keep commas and doubled quotes; CRLF line ends are fine.
  write(d / "q.csv", "Benchmark,Kernel,X\r\n\"b,1\",\"k \"\"2\"\"\",3\r\n");
  const std::vector<HwRow> rows = read_hw_csv((d / "q.csv").string());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].benchmark, "b,1");
  EXPECT_EQ(rows[0].kernel, "k \"2\"");
  // Not a regular file: a directory (which reads as nothing) or a FIFO (which would block) is refused.
  try {
    read_hw_csv(d.string());
    FAIL();
  } catch (const HwCsvError& e) {
    EXPECT_EQ(std::string(e.what()), d.string() + ": not a regular file");
  }
}

TEST(CorrelatePower, RowNamesMapToTheApplicationsKernelsInLaunchOrder) {
  // b+tree's command.txt runs `j` (findRangeK) before `k` (findK).
  EXPECT_EQ(power_study_kernel("btree_k1")->library_name, "rodinia/btree_findRangeK");
  EXPECT_EQ(power_study_kernel("btree_k2")->library_name, "rodinia/btree_findK");
  EXPECT_EQ(power_study_kernel("backprop_k1")->library_name, "rodinia/backprop_layerforward");
  EXPECT_EQ(power_study_kernel("parboil_sgemm_k1")->library_name, "parboil/sgemm_mysgemmNT");
  EXPECT_EQ(power_study_kernel("dct8x8_k2")->library_name, "cuda-samples/dct8x8_CUDAkernel2DCT");
  // CUTLASS's three binaries are one kernel at three sizes: the arguments tell them apart.
  EXPECT_EQ(power_study_kernel("cutlass_k2")->args, "m=4096 n=128 k=4096");
  EXPECT_FALSE(power_study_kernel("btree_k3"));     // b+tree has two kernels
  EXPECT_FALSE(power_study_kernel("unknown_k1"));   // not an application of the study
  EXPECT_FALSE(power_study_kernel("backprop"));     // no _k<N>
  EXPECT_FALSE(power_study_kernel("backprop_kx"));  // N is not a number
  EXPECT_EQ(power_study_kernel("sobolQRNG_k1")->library_name, "cuda-samples/SobolQRNG");  // the blind set
}

}  // namespace
}  // namespace numagpu

// libsystemc (linked through the program's library) needs an sc_main; gtest_main provides main().
extern "C" int sc_main(int, char*[]) {
  return 0;
}
