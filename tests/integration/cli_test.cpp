// The numagpu commands as a user meets them: bad input gives one exact line and exit status 2 and writes
// nothing; a good run writes a valid stats.json that embeds the resolved configuration and its hash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/python_script.hpp"
#include "cli/run.hpp"
#include "stats/document.hpp"
#include "system/fresh_kernel.hpp"

namespace numagpu {
namespace {

namespace fs = std::filesystem;

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("numagpu_cli_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    options.out_dir = (dir / "out").string();
    options.quiet = true;
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
  }
  int run() { return run_command(options, out, err); }
  // The run's stats.json.
  nlohmann::json stats_document() const {
    std::ifstream in(fs::path(options.out_dir) / "stats.json");
    return nlohmann::json::parse(in);
  }
  // Runs and expects exit status 2, the exact one-line message, and no output directory.
  void expect_rejected(const std::string& message) {
    EXPECT_EQ(run(), kExitBadInput);
    EXPECT_EQ(err.str(), "numagpu: error: " + message + "\n");
    EXPECT_FALSE(fs::exists(options.out_dir)) << "bad input must write nothing";
  }

  fs::path dir;
  RunOptions options;
  std::ostringstream out, err;
};

TEST_F(CliTest, UnknownKeySuggestsTheNearestKey) {
  options.config_file = write("c.yaml", "l2:\n  sise_bytes: 4096\n");
  expect_rejected(*options.config_file +
                  ":2:3: l2.sise_bytes: unknown key 'sise_bytes' (did you mean 'size_bytes'?)");
}

TEST_F(CliTest, WrongTypeNamesWhatWasExpected) {
  options.config_file = write("c.yaml", "sm:\n  max_warps: lots\n");
  expect_rejected(*options.config_file + ":2:14: sm.max_warps: expected an integer, got 'lots'");
}

TEST_F(CliTest, ZeroSocketsIsOutOfRange) {
  options.config_file = write("c.yaml", "system:\n  sockets: 0\n");
  expect_rejected(*options.config_file + ":2:12: system.sockets: 0 is out of range [1, 64]");
}

TEST_F(CliTest, MoreThanEightSocketsNeedACustomTopology) {
  options.config_file = write("c.yaml", "system:\n  sockets: 9\n");
  expect_rejected(
      *options.config_file +
      ":2:12: system.sockets: 9 sockets on the paper's switch; it has 8 ports (use a custom topology)");
}

TEST_F(CliTest, FewerThanTwoLanesIsOutOfRange) {
  options.config_file = write("c.yaml", "link:\n  lanes: 1\n");
  expect_rejected(*options.config_file + ":2:10: link.lanes: 1 is out of range [2, 256]");
}

TEST_F(CliTest, OddLaneCountIsInconsistent) {
  options.config_file = write("c.yaml", "link:\n  lanes: 15\n");
  expect_rejected(*options.config_file +
                  ":2:10: link.lanes: 15 is odd; a link starts symmetric, half its lanes each way");
}

TEST_F(CliTest, CacheSizeMustBeSetsTimesWaysTimesLine) {
  // 131000 B is not a multiple of 4 ways x 128 B = 512 B.
  options.config_file = write("c.yaml", "l1:\n  size_bytes: 131000\n");
  expect_rejected(
      *options.config_file +
      ":2:15: l1.size_bytes: 131000 is not sets x ways x line_bytes with a power-of-two number of sets "
      "(4 ways x 128 B lines)");
}

TEST_F(CliTest, ChoiceListsTheAllowedValues) {
  options.config_file = write("c.yaml", "l2:\n  write_policy: write_around\n");
  expect_rejected(*options.config_file +
                  ":2:17: l2.write_policy: expected one of write_back, write_through; got 'write_around'");
}

TEST_F(CliTest, SetOverrideErrorsNameTheOverride) {
  options.sets = {"l2.ways=abc"};
  expect_rejected("--set l2.ways=abc: l2.ways: expected an integer, got 'abc'");
}

TEST_F(CliTest, InconsistencyIntroducedBySetPointsAtTheOverride) {
  options.sets = {"l2.line_bytes=64"};
  expect_rejected(
      "--set l2.line_bytes=64: l2.line_bytes: 64 differs from l1.line_bytes (128); both levels must use "
      "one line size");
}

TEST_F(CliTest, MissingFileIsOneLine) {
  options.config_file = (dir / "absent.yaml").string();
  expect_rejected(*options.config_file + ": cannot read configuration file (No such file or directory)");
}

TEST_F(CliTest, WorkloadErrorsPointIntoTheWorkloadFile) {
  options.workload_file = write("w.yaml",
                                "workload:\n"
                                "  kernels:\n"
                                "    - name: k\n"
                                "      ctas: 4\n"
                                "      warps_per_cta: 65\n");
  expect_rejected(*options.workload_file +
                  ":5:22: workload.kernels.0.warps_per_cta: 65 is out of range [1, 64]");
}

// sm.max_warps is checked against every kernel's real CTA size. tests/data/replay/kernel-1-barrier.traceg has
// a block of 96 threads: 3 warps per CTA (the schema's default warps_per_cta, 4, plays no part for a trace).
std::string barrier_trace() {
  return std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernel-1-barrier.traceg";
}

TEST_F(CliTest, TraceCtaLargerThanMaxWarpsIsRefusedAtItsKey) {
  options.workload_file =
      write("w.yaml", "workload:\n  kernels:\n    - name: b\n      trace: " + barrier_trace() + "\n");
  options.sets = {"sm.max_warps=2"};
  // The value of `trace:` starts in column 6 + len("trace: ") + 1 = 14 of line 4.
  expect_rejected(*options.workload_file + ":4:14: workload.kernels.0.trace: " + barrier_trace() +
                  ": a CTA of 3 warps exceeds sm.max_warps (2): it would never fit on an SM");
}

TEST_F(CliTest, TraceCtaThatFitsRunsWhateverWarpsPerCtaSays) {
  options.workload_file =
      write("w.yaml", "workload:\n  kernels:\n    - name: b\n      trace: " + barrier_trace() + "\n");
  options.sets = {"sm.max_warps=3", "system.sockets=1", "sm.per_socket=1"};
  ASSERT_EQ(run(), kExitOk) << err.str();
}

TEST_F(CliTest, TraceListKernelLargerThanMaxWarpsIsRefusedAtTheList) {
  const std::string list = std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernelslist.g";
  options.sets = {"workload.trace_list=" + list, "sm.max_warps=1"};
  expect_rejected("--set workload.trace_list=" + list + ": workload.trace_list: " + barrier_trace() +
                  ": a CTA of 3 warps exceeds sm.max_warps (1): it would never fit on an SM");
}

TEST_F(CliTest, SyntheticCtaLargerThanMaxWarpsIsRefusedAtItsKey) {
  options.workload_file = write("w.yaml",
                                "workload:\n"
                                "  kernels:\n"
                                "    - name: k\n"
                                "      ctas: 4\n"
                                "      warps_per_cta: 8\n");
  options.sets = {"sm.max_warps=4"};
  expect_rejected(
      *options.workload_file +
      ":5:22: workload.kernels.0.warps_per_cta: 8 exceeds sm.max_warps (4): a CTA would never fit "
      "on an SM");
}

// ---- bad input writes nothing (issue 23, item 5) ---------------------------------------------------

// A trace with one bad instruction line (line 11): `opcode` is what the tracer would have written.
std::string trace_with_opcode(const std::string& opcode) {
  return "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 80\n-nregs = 8\n"
         "-accelsim tracer version = 5\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
         "0000 ffffffff 0 " +
         opcode + " 0 0 0\n#END_TB\n";
}

// The system (and so every trace) is built before the output directory is made.
TEST_F(CliTest, TraceContentErrorWritesNothing) {
  const std::string trace = write("k.traceg", trace_with_opcode("1NOP"));
  options.sets = {"workload.kernels=[{name: k, trace: " + trace + "}]"};
  expect_rejected(trace + ":12: expected opcode, found '1NOP'");
}

// Bytes quoted from a trace are escaped: the message stays one line and sends no control byte to a terminal.
TEST_F(CliTest, TraceErrorsEscapeControlBytes) {
  const std::string trace = write("k.traceg", trace_with_opcode("\x1b]0;owned\x07\xff"));
  options.sets = {"workload.kernels=[{name: k, trace: " + trace + "}]"};
  expect_rejected(trace + ":12: expected opcode, found '\\x1b]0;owned\\x07\\xff'");
}

TEST_F(CliTest, TraceThatCannotBeOpenedNamesTheKey) {
  options.sets = {"workload.kernels.0.trace=x"};
  expect_rejected(
      "--set workload.kernels.0.trace=x: workload.kernels.0.trace: x: cannot open (No such file or "
      "directory)");
  options.sets = {"workload.kernels.0.trace=" + dir.string()};
  err.str("");
  expect_rejected("--set workload.kernels.0.trace=" + dir.string() +
                  ": workload.kernels.0.trace: " + dir.string() + ": cannot open (Is a directory)");
}

// Rejected at load with file:line:col by every command, not as a JSON exception after the run.
TEST_F(CliTest, InvalidUtf8IsRejectedByEveryCommand) {
  options.workload_file = write("w.yaml", "workload:\n  name: \"a\xff\"\n");
  const std::string expected = "numagpu: error: " + *options.workload_file +
                               ":2:9: workload.name: the value is not valid UTF-8 (byte 0xff at offset 1); a "
                               "configuration is UTF-8 text\n";
  expect_rejected(expected.substr(16, expected.size() - 17));
  std::ostringstream dump, dump_err;
  EXPECT_EQ(config_dump_command(options, dump, dump_err), kExitBadInput);
  EXPECT_EQ(dump_err.str(), expected);
  std::ostringstream traces, traces_err;
  EXPECT_EQ(workload_dump_command(options, traces, traces_err), kExitBadInput);
  EXPECT_EQ(traces_err.str(), expected);
  EXPECT_FALSE(fs::exists(options.out_dir));
}

TEST_F(CliTest, L2SizeErrorReportsTheConfiguredTotalAndTheBanks) {
  options.sets = {"l2.size_bytes=256"};
  expect_rejected(
      "--set l2.size_bytes=256: l2.size_bytes: 256 over 16 banks is 16 B per bank, which is not sets x ways "
      "x "
      "line_bytes with a power-of-two number of sets (16 ways x 128 B lines)");
}

// A tiny but complete run: 2 sockets x 2 SMs, one kernel of 4 CTAs x 2 warps x 4 loads = 32 loads.
TEST_F(CliTest, RunWritesAValidStatsDocumentWithTheResolvedConfiguration) {
  options.sets = {"system.sockets=2", "sm.per_socket=2", "l2.banks=2", "checks.protocol=true",
                  "workload.kernels=[{name: tiny, ctas: 4, warps_per_cta: 2, accesses_per_warp: 4}]"};
  ASSERT_EQ(run(), kExitOk) << err.str();
  for (const char* f : {"stats.json", "stats.txt", "config.yaml", "activity.json", "power.json"}) {
    EXPECT_TRUE(fs::exists(fs::path(options.out_dir) / f)) << f;
  }
  std::ifstream in(fs::path(options.out_dir) / "stats.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_TRUE(stats::validate_document(doc).empty());
  EXPECT_EQ(doc["config"]["system"]["sockets"], 2);
  EXPECT_EQ(doc["config"]["l1"]["size_bytes"], 131072);  // a default, filled in
  EXPECT_EQ(doc["config_hash"].get<std::string>().size(), 16u);
  EXPECT_EQ(doc["run"]["kernels_done"], 1);
  EXPECT_EQ(doc["run"]["checks"]["protocol_violations"], 0);
  EXPECT_EQ(doc["run"]["transactions"], 32);
  std::uint64_t loads = 0;
  for (int s = 0; s < 2; ++s) {
    for (int m = 0; m < 2; ++m)
      loads += doc["stats"]["system"]["socket" + std::to_string(s)]["sm" + std::to_string(m)]["loads"]
                   .get<std::uint64_t>();
  }
  EXPECT_EQ(loads, 32u);

  // The written config.yaml is itself a valid configuration with the same hash.
  RunOptions again;
  again.config_file = (fs::path(options.out_dir) / "config.yaml").string();
  std::ostringstream dump, dump_err;
  ASSERT_EQ(config_dump_command(again, dump, dump_err), kExitOk) << dump_err.str();
  EXPECT_NE(dump.str().find("hash " + doc["config_hash"].get<std::string>()), std::string::npos);
}

// configs/gpus/qv100.yaml (one sectored Quadro GV100) runs rodinia/hotspot on a 64 x 64 grid (36 CTAs of
// 16 x 16 threads, pyramid 2), on a cold machine. Its loads read temp_src and power, each 64 x 64 x 4 B =
// 16 KB = 512 sectors of 32 B, every cell at least once (the CTAs' inner 12 x 12 regions tile the grid; halos
// overlap). The 6 MB L2 keeps all 32 KB (no eviction) and an MSHR never asks for a sector it has asked for
// already, so DRAM reads each sector once: 2 x 512 = 1,024 sectors (32 KB). A sector counts as an L2 read
// miss once, when it is first missed; a later read finds it asked for (a hit), as the hardware's lookup
// counters count: 1,024 read sector misses, as many as DRAM reads (the GV100's hotspot row shows the same
// equality, docs/memory-system.md "Sectors").
// Its stores write temp_dst, 512 sectors, each cell once: the write-back L2 allocates them without fetching,
// so the first write of each sector misses (512 write sector misses) and DRAM writes nothing during the run.
TEST_F(CliTest, Qv100HotspotReadsEachInputSectorFromDramOnce) {
  options.config_file = std::string(NUMAGPU_SOURCE_DIR) + "/configs/gpus/qv100.yaml";
  options.workload_file = write("w.yaml",
                                "workload:\n  kernels:\n    - name: hotspot\n      kernel: rodinia/hotspot\n"
                                "      args: \"rows=64 cols=64\"\n");
  ASSERT_EQ(run(), kExitOk) << err.str();
  std::ifstream in(fs::path(options.out_dir) / "stats.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["config"]["l2"]["sector_bytes"], 32);
  const nlohmann::json& socket = doc["stats"]["system"]["socket0"];
  EXPECT_EQ(socket["dram"]["read_sectors"].get<std::uint64_t>(), 1024u);
  EXPECT_EQ(socket["dram"]["read_bytes"].get<std::uint64_t>(), 1024u * 32);
  EXPECT_EQ(socket["dram"]["write_sectors"].get<std::uint64_t>(), 0u);
  std::uint64_t l2_write_misses = 0, l2_read_misses = 0;
  for (int b = 0; b < 64; ++b) {
    l2_write_misses += socket["l2_" + std::to_string(b)]["write_sector_misses"].get<std::uint64_t>();
    l2_read_misses += socket["l2_" + std::to_string(b)]["read_sector_misses"].get<std::uint64_t>();
  }
  EXPECT_EQ(l2_write_misses, 512u);
  EXPECT_EQ(l2_read_misses, 1024u);
}

// configs/gpus/qv100.yaml carves shared memory out of the unified L1 per kernel (sm.shared_carveouts 0, 8,
// 16, 32, 64, 96 KiB): each kernel gets the smallest carveout holding as many CTAs as the largest does.
// - cudaTensorCoreGemm: 64 KiB per CTA (8 warps); 96 KiB holds one CTA as 64 KiB does: 64 KiB. With one
//   carveout of 32 KiB (the file before) it was refused.
// - hotspot: 8 warps, 3 KiB; 8 CTAs by warps (64 / 8) and registers: 24 KiB: 32 KiB.
// - srad_v1: no shared memory: 0 (the L1 keeps all 128 KiB).
TEST_F(CliTest, Qv100GivesEachKernelItsCarveout) {
  options.config_file = std::string(NUMAGPU_SOURCE_DIR) + "/configs/gpus/qv100.yaml";
  options.workload_file = write("w.yaml",
                                "workload:\n  kernels:\n"
                                "    - name: gemm\n      kernel: cuda-samples/cudaTensorCoreGemm\n"
                                "      args: \"m_tiles=8 n_tiles=8 k_tiles=4 sms=4\"\n"
                                "    - name: hotspot\n      kernel: rodinia/hotspot\n"
                                "      args: \"rows=64 cols=64\"\n"
                                "    - name: srad\n      kernel: rodinia/srad_v1_srad\n"
                                "      args: \"rows=64 cols=64\"\n");
  ASSERT_EQ(run(), kExitOk) << err.str();
  const nlohmann::json doc = stats_document();
  const nlohmann::json& runtime = doc["stats"]["system"]["runtime"];
  EXPECT_EQ(runtime["kernel0"]["shared_carveout_bytes"].get<double>(), 65536.0);
  EXPECT_EQ(runtime["kernel1"]["shared_carveout_bytes"].get<double>(), 32768.0);
  EXPECT_EQ(runtime["kernel2"]["shared_carveout_bytes"].get<double>(), 0.0);
}

// The carveout takes ways from the L1 for the kernel's run. One SM, a 32 KiB L1 of 4 ways (64 sets of 128 B
// lines, unsectored), one warp streaming twice over 32 KiB (256 lines, 4 per set, in order). With all 4
// ways the second pass hits every line: 256 hits, 256 misses. With sm.shared_carveouts "8" the kernel (no
// shared memory) gets the only carveout, 8 KiB = one way of 64 x 128 B: 3 ways left, and a cyclic sweep of 4
// lines a set through 3 LRU ways misses every time: 0 hits, 512 misses.
class CarveoutL1Test : public CliTest {
 protected:
  void run_stream(bool carveout) {
    options.sets = {"system.sockets=1",
                    "sm.per_socket=1",
                    "l1.size_bytes=32768",
                    "l1.ways=4",
                    "l1.sector_bytes=128",
                    "l2.sector_bytes=128",
                    "workload.kernels=[{name: s, pattern: stream, ctas: 1, warps_per_cta: 1, "
                    "accesses_per_warp: 512, footprint_bytes: 32768}]"};
    if (carveout) options.sets.push_back("sm.shared_carveouts=8");
    ASSERT_EQ(run(), kExitOk) << err.str();
    const nlohmann::json doc = stats_document();
    const nlohmann::json& l1 = doc["stats"]["system"]["socket0"]["l1_0"];
    hits = l1["read_hits"]["local_local"].get<std::uint64_t>();
    misses = l1["read_misses"]["local_local"].get<std::uint64_t>();
  }
  std::uint64_t hits = 0, misses = 0;
};
TEST_F(CarveoutL1Test, AllWaysHoldTheSweep) {
  run_stream(false);
  EXPECT_EQ(hits, 256u);
  EXPECT_EQ(misses, 256u);
}
TEST_F(CarveoutL1Test, AWayGivenToSharedMemoryLosesIt) {
  run_stream(true);
  EXPECT_EQ(hits, 0u);
  EXPECT_EQ(misses, 512u);
}

// The SM's constant cache serves sm.constant_cache_ports distinct addresses a cycle, shared by its warps.
// dct8x8's CUDAkernel1DCT on a 64 x 64 image, all on one SM of the GV100: 64 CTAs of 2 warps. Each warp
// reads the DCT matrix 16 times: 8 times at [i * 8 + ty] (a warp spans ty 0..3: 4 distinct addresses) and 8
// times at [i * 8 + tx] (tx 0..7: 8), 8 x 4 + 8 x 8 = 96 passes; 128 warps x 96 = 12,288 passes. With one
// port the kernel cannot end before cycle 12,288. Without a port limit each warp's passes are only its own
// time, and the SM's 64 resident warps overlap them: the kernel ends well before. (Without the GV100's
// kernel start and end, runtime.kernel_overhead_cycles: the kernel's cycles are then the SM's alone.)
class ConstantCacheTest : public CliTest {
 protected:
  std::uint64_t kernel_cycles(unsigned ports) {
    options.config_file = std::string(NUMAGPU_SOURCE_DIR) + "/configs/gpus/qv100.yaml";
    options.sets = {"sm.per_socket=1", "runtime.kernel_overhead_cycles=0",
                    "sm.constant_cache_ports=" + std::to_string(ports),
                    "workload.kernels=[{name: dct, kernel: cuda-samples/dct8x8_CUDAkernel1DCT, "
                    "args: \"width=64 height=64\"}]"};
    EXPECT_EQ(run(), kExitOk) << err.str();
    return stats_document()["stats"]["system"]["runtime"]["kernel0"]["cycles"].get<std::uint64_t>();
  }
  static constexpr std::uint64_t kPasses = 64 * 2 * (8 * 4 + 8 * 8);
};

TEST_F(ConstantCacheTest, OnePortServesOnePassACycle) {
  EXPECT_GE(kernel_cycles(1), kPasses);
}
TEST_F(ConstantCacheTest, UnlimitedPortsLeaveOnlyTheWarpsOwnPasses) {
  EXPECT_LT(kernel_cycles(0), kPasses);
}

// A traced kernel's header states its shared memory and registers (-shmem, -nregs), and they set its
// carveout and occupancy as a C++ kernel's do. tests/data/replay/kernel-2-compute.traceg: CTAs of 64 threads
// (2 warps), 16 registers a thread (512 a warp: 64 CTAs by registers), so 32 CTAs by sm.max_ctas.
// - -shmem 0: the smallest carveout, 0.
// - -shmem 20000: 20,224 B allocated (256 B granules); 96 KiB holds 98,304 / 20,224 = 4 CTAs, 64 KiB 3:
//   96 KiB.
TEST_F(CliTest, Qv100GivesATracedKernelTheCarveoutItsHeaderAsks) {
  options.config_file = std::string(NUMAGPU_SOURCE_DIR) + "/configs/gpus/qv100.yaml";
  std::ifstream in(std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernel-2-compute.traceg");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto with_shmem = [&](const std::string& name, const std::string& bytes) {
    std::string t = text;
    const std::string key = "-shmem = 0\n";
    t.replace(t.find(key), key.size(), "-shmem = " + bytes + "\n");
    return write(name, t);
  };
  const std::string none = with_shmem("none.traceg", "0"), some = with_shmem("some.traceg", "20000");
  options.workload_file = write("w.yaml", "workload:\n  kernels:\n    - name: a\n      trace: " + none +
                                              "\n    - name: b\n      trace: " + some + "\n");
  ASSERT_EQ(run(), kExitOk) << err.str();
  const nlohmann::json doc = stats_document();
  const nlohmann::json& runtime = doc["stats"]["system"]["runtime"];
  EXPECT_EQ(runtime["kernel0"]["shared_carveout_bytes"].get<double>(), 0.0);
  EXPECT_EQ(runtime["kernel1"]["shared_carveout_bytes"].get<double>(), 98304.0);
}

// The same trace asking -shmem 200000: more than the largest carveout (96 KiB), refused with one line naming
// the trace (a test of its own: SystemC elaborates one system per process).
TEST_F(CliTest, Qv100RefusesATracedKernelNoCarveoutHolds) {
  options.config_file = std::string(NUMAGPU_SOURCE_DIR) + "/configs/gpus/qv100.yaml";
  std::ifstream in(std::string(NUMAGPU_SOURCE_DIR) + "/tests/data/replay/kernel-2-compute.traceg");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string key = "-shmem = 0\n";
  text.replace(text.find(key), key.size(), "-shmem = 200000\n");
  const std::string big = write("big.traceg", text);
  options.workload_file =
      write("w2.yaml", "workload:\n  kernels:\n    - name: c\n      trace: " + big + "\n");
  EXPECT_EQ(run(), kExitBadInput);
  EXPECT_FALSE(fs::exists(options.out_dir)) << "bad input must write nothing";
  EXPECT_NE(err.str().find(big + ": a CTA of 2 warps, 16 registers per thread and 200000 B of shared memory"),
            std::string::npos)
      << err.str();
}

// A key the item's kind does not read is refused at the key, not ignored (issue 44, item 7). Each workload
// differs from a valid one by that key alone; the column is that of the key's value (6 + len(key) + 3).
TEST_F(CliTest, KeysAnItemsKindDoesNotReadAreRefusedAtTheKey) {
  struct Case {
    std::string item, key, kind, why;
  };
  const std::vector<Case> cases = {
      {"kernel: example/saxpy\n      ctas: 64", "ctas", "a library kernel item (kernel:)",
       "its grid, block and arrays come from the kernel's `args`"},
      {"kernel: example/saxpy\n      input: w.yaml", "input", "a library kernel item (kernel:)",
       "its grid, block and arrays come from the kernel's `args`"},
      {"ctas: 4\n      args: n=1000", "args", "a synthetic item (pattern:)",
       "a pattern has no arguments and reads no file"},
      {"ctas: 4\n      stride_x: 4", "stride_x", "a synthetic item (pattern:)",
       "a pattern has no arguments and reads no file"},
      {"app: rodinia/nw\n      warps_per_cta: 8", "warps_per_cta", "an application item (app:)",
       "its host program sets its launches from `args` and `input`"},
  };
  for (const Case& c : cases) {
    err.str("");
    options.workload_file = write("w.yaml", "workload:\n  kernels:\n    - name: k\n      " + c.item + "\n");
    const std::size_t column = 6 + c.key.size() + 3;
    expect_rejected(*options.workload_file + ":5:" + std::to_string(column) + ": workload.kernels.0." +
                    c.key + ": has no meaning for " + c.kind + ": " + c.why + "; remove it");
  }
}

// A resolved configuration writes every key at its default: a library kernel's config.yaml runs again.
TEST_F(CliTest, ALibraryKernelsResolvedConfigurationRunsAgain) {
  options.workload_file =
      write("w.yaml", "workload:\n  kernels:\n    - name: k\n      kernel: example/saxpy\n");
  options.sets = {"system.sockets=1", "sm.per_socket=2"};
  ASSERT_EQ(run(), kExitOk) << err.str();
  FreshSystemCKernel kernel;  // SystemC elaborates once per kernel
  RunOptions again;
  again.quiet = true;
  again.config_file = (fs::path(options.out_dir) / "config.yaml").string();
  again.out_dir = (dir / "again").string();
  std::ostringstream again_out, again_err;
  EXPECT_EQ(run_command(again, again_out, again_err), kExitOk) << again_err.str();
}

// The plot commands' script runner (issue 44, item 7: every plot failure said "needs python3-matplotlib").
// The arguments reach the script as argv, untouched by any shell; a failure is reported with the script's
// own last line, and a missing matplotlib is named only when that is what failed.
TEST(PythonScript, ArgumentsArriveVerbatimAndFailuresQuoteTheScript) {
  const ScriptResult ok = run_python_script("import sys\nsys.stderr.write(repr(sys.argv[1:]) + '\\n')\n",
                                            {"a b", "$(echo x)", "it's", ""});
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_EQ(ok.error_text, "['a b', '$(echo x)', \"it's\", '']\n");
  const std::string python = python_interpreter();

  // Line 3 of the script, in function f.
  const ScriptResult raised =
      run_python_script("def f():\n    x = 1\n    raise ValueError('column x is empty')\nf()\n", {});
  EXPECT_EQ(raised.exit_code, 1);
  EXPECT_EQ(script_failure(raised, "plot_x.py"),
            "ValueError: column x is empty (scripts/plot_x.py:3 in f) (" + python + ", exit 1)");

  const ScriptResult no_mpl =
      run_python_script("raise ModuleNotFoundError(\"No module named 'matplotlib'\")\n", {});
  EXPECT_EQ(script_failure(no_mpl, "plot_x.py"),
            "matplotlib is missing: it needs python3-matplotlib (scripts/setup.sh installs it) (" + python +
                ", exit 1)");
  // Another missing module is not matplotlib.
  const ScriptResult other = run_python_script("import numagpu_no_such_module\n", {});
  EXPECT_EQ(
      script_failure(other, "plot_x.py"),
      "ModuleNotFoundError: No module named 'numagpu_no_such_module' (scripts/plot_x.py:1 in <module>) (" +
          python + ", exit 1)");

  const ScriptResult killed =
      run_python_script("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", {});
  EXPECT_EQ(killed.exit_code, 128 + 9);
  EXPECT_EQ(script_failure(killed, "plot_x.py"), "no error message (" + python + ", ended by signal 9)");
}

// configs/examples/two_sockets.yaml includes the paper system and overrides two values: the result has those
// two changed and everything else from the base (and the base's defaults).
TEST_F(CliTest, IncludedBaseWithOverrides) {
  options.config_file = std::string(NUMAGPU_SOURCE_DIR) + "/configs/examples/two_sockets.yaml";
  std::ostringstream dump, dump_err;
  ASSERT_EQ(config_dump_command(options, dump, dump_err), kExitOk) << dump_err.str();
  const std::string y = dump.str();
  EXPECT_NE(y.find("sockets: 2"), std::string::npos);
  EXPECT_NE(y.find("lanes: 32"), std::string::npos);
  EXPECT_NE(y.find("size_bytes: 4194304"), std::string::npos);  // the base's L2
  EXPECT_EQ(y.find("sockets: 4"), std::string::npos);
}

TEST_F(CliTest, DefaultConfigurationIsThePapersTable1) {
  std::ostringstream dump, dump_err;
  ASSERT_EQ(config_dump_command(options, dump, dump_err), kExitOk) << dump_err.str();
  const std::string y = dump.str();
  // Table 1: 4 sockets, 64 SMs, 1 GHz, 64 warps, L1 128 KB 4-way 128 B lines, L2 4 MB 16-way write-back,
  // 8 lanes x 8 B per direction with 128-cycle latency, DRAM 768 GB/s and 100 ns.
  for (const char* line :
       {"sockets: 4", "clock_mhz: 1000", "per_socket: 64", "max_warps: 64", "size_bytes: 131072",
        "size_bytes: 4194304", "ways: 16", "write_policy: write_back", "lanes: 16", "lane_bytes: 8",
        "latency_cycles: 128", "bandwidth_gbps: 768", "latency_ns: 100"}) {
    EXPECT_NE(y.find(line), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
