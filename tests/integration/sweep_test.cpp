// numagpu sweep: a spec expands into the points it describes, every point runs as its own process into its
// own directory, the results table holds what the spec asks for, finished points are skipped, a failed point
// is isolated, and bad specs give one line at the place that is wrong.
//
// The points are single-SM systems running one warp that streams over N distinct lines: with cold caches
// every access misses the L1 and the L2 and reads one line from DRAM, so socket0's DRAM serves exactly N
// reads of 128 bytes (N x 128 read bytes). Those numbers are what the tests expect, not the program's output.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/run.hpp"
#include "cli/sweep.hpp"
#include "cli/sweep_results.hpp"
#include "cli/sweep_runner.hpp"
#include "cli/sweep_spec.hpp"
#include "config/config.hpp"

namespace numagpu {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

class SweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("numagpu_sweep_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "tiny.yaml") << "workload:\n"
                                        "  name: tiny\n"
                                        "  kernels:\n"
                                        "    - {name: k, pattern: stream, ctas: 1, warps_per_cta: 1, "
                                        "accesses_per_warp: 4}\n";
    options.executable = NUMAGPU_BIN;
    options.out_dir = (dir / "out").string();
    options.jobs = 2;
    options.quiet = true;
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string write_spec(const std::string& text) {
    const fs::path p = dir / "spec.yaml";
    std::ofstream(p) << text;
    options.spec_file = p.string();
    return p.string();
  }
  int sweep() {
    out.str("");
    err.str("");
    return sweep_command(options, out, err);
  }
  json results() const {
    std::ifstream in(fs::path(options.out_dir) / "results.json");
    return json::parse(in);
  }
  static const json& point(const json& r, const std::string& id) {
    for (const json& p : r["points"])
      if (p["id"] == id) return p;
    throw std::runtime_error("no point " + id);
  }

  fs::path dir;
  SweepOptions options;
  std::ostringstream out, err;
};

// One socket, one SM, page interleaving (explicit: the tests must not depend on the defaults); the access
// count is the axis.
const char* const kTinySpec =
    "name: tiny\n"
    "study: none\n"
    "set:\n"
    "  - {key: system.sockets, value: 1}\n"
    "  - {key: sm.per_socket, value: 1}\n"
    "  - {key: memory.placement, value: page_interleave}\n"
    "workloads:\n"
    "  - {name: w, file: tiny.yaml}\n"
    "axes:\n"
    "  - name: accesses\n"
    "    values:\n"
    "      - {label: a4, set: [{key: workload.kernels.0.accesses_per_warp, value: 4}]}\n"
    "      - {label: a8, set: [{key: workload.kernels.0.accesses_per_warp, value: 8}]}\n"
    "stats:\n"
    "  - {name: dram_reads, path: 'system.socket*.dram.reads', reduce: sum}\n"
    "  - {name: dram_read_bytes, path: system.socket0.dram.read_bytes}\n"
    "  - {name: kernels, path: run.kernels_done}\n"
    "  - {name: placement, path: config.memory.placement}\n";

TEST_F(SweepTest, GridExpandsEveryCombinationLastAxisFastestWithOverridesInOrder) {
  write_spec(
      "name: grid\n"
      "set: [{key: system.sockets, value: 2}]\n"
      "workloads:\n"
      "  - {name: u, file: tiny.yaml}\n"
      "  - {name: v, file: tiny.yaml, set: [{key: l2.ways, value: 8}]}\n"
      "axes:\n"
      "  - name: x\n"
      "    values:\n"
      "      - {label: x1, set: [{key: link.mode, value: static}]}\n"
      "      - {label: x2, set: [{key: link.mode, value: dynamic}]}\n"
      "  - name: y\n"
      "    values:\n"
      "      - {label: y1}\n"
      "      - {label: y2, set: [{key: l2.ways, value: 4}]}\n"
      "stats: [{name: c, path: summary.sim_cycles}]\n");
  const SweepSpec spec = load_sweep_spec(options.spec_file, {"l1.ways=2"});
  ASSERT_EQ(spec.points.size(), 8u);  // 2 workloads x 2 x 2
  const std::vector<std::string> ids{"u.x1.y1", "u.x1.y2", "u.x2.y1", "u.x2.y2",
                                     "v.x1.y1", "v.x1.y2", "v.x2.y1", "v.x2.y2"};
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(spec.points[i].id, ids[i]);
    EXPECT_EQ(spec.points[i].index, i);
  }
  // The sweep's overrides, the workload's, each axis value's in axis order, the command line's last.
  EXPECT_EQ(spec.points[7].overrides,
            (std::vector<std::string>{"system.sockets=2", "l2.ways=8", "link.mode=dynamic", "l2.ways=4",
                                      "l1.ways=2"}));
  // Points that resolve to the same configuration share a hash; different ones do not.
  EXPECT_NE(spec.points[0].config_hash, spec.points[2].config_hash);
  EXPECT_NE(spec.points[0].config_hash, spec.points[4].config_hash);
  EXPECT_EQ(spec.points[5].config_hash, spec.points[1].config_hash)
      << "v's l2.ways=8 is overridden by y2's l2.ways=4, so v.x1.y2 and u.x1.y2 are the same system";
}

TEST_F(SweepTest, WorkloadWhenOverridesApplyOnlyToPointsWithThatLabelAndWorkloadsFilter) {
  write_spec(
      "name: when\n"
      "workloads:\n"
      "  - {name: u, file: tiny.yaml}\n"
      "  - name: v\n"
      "    file: tiny.yaml\n"
      "    when: [{label: x2, set: [{key: runtime.cta_schedule, value: batch}]}]\n"
      "axes:\n"
      "  - name: x\n"
      "    values:\n"
      "      - {label: x1}\n"
      "      - {label: x2, set: [{key: runtime.cta_schedule, value: contiguous}]}\n"
      "stats: [{name: c, path: summary.sim_cycles}]\n");
  const SweepSpec spec = load_sweep_spec(options.spec_file);
  ASSERT_EQ(spec.points.size(), 4u);
  EXPECT_EQ(spec.find("u.x2")->overrides, (std::vector<std::string>{"runtime.cta_schedule=contiguous"}));
  EXPECT_EQ(spec.find("v.x1")->overrides, (std::vector<std::string>{}));
  EXPECT_EQ(spec.find("v.x2")->overrides,
            (std::vector<std::string>{"runtime.cta_schedule=contiguous", "runtime.cta_schedule=batch"}));

  options.list = true;
  options.workloads = {"v"};
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_EQ(out.str().find("u."), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("0\tv.x1\t"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("1\tv.x2\t"), std::string::npos) << out.str();
  options.workloads = {"nope"};
  EXPECT_EQ(sweep(), kExitBadInput);
  EXPECT_EQ(err.str(), "numagpu: error: --workloads: " + options.spec_file + " has no workload 'nope'\n");

  write_spec(
      "name: when\n"
      "workloads: [{name: v, file: tiny.yaml, when: [{label: x3, set: []}]}]\n"
      "axes: [{name: x, values: [{label: x1}]}]\n"
      "stats: [{name: c, path: summary.sim_cycles}]\n");
  EXPECT_THROW(load_sweep_spec(options.spec_file), config::ConfigError);
}

TEST_F(SweepTest, OverrideTheSystemRejectsIsReportedWhereTheSpecWroteIt) {
  const std::string file = write_spec(
      "name: bad\n"
      "workloads: [{name: w, file: tiny.yaml}]\n"
      "axes:\n"
      "  - name: x\n"
      "    values:\n"
      "      - {label: ok}\n"
      "      - {label: odd, set: [{key: link.lanes, value: 15}]}\n"
      "stats: [{name: c, path: summary.sim_cycles}]\n");
  EXPECT_EQ(sweep(), kExitBadInput);
  // Line 7; the value 15 starts at column 53 (1-based) of "      - {label: odd, set: [{key: link.lanes,
  // value: 15}]}".
  EXPECT_EQ(err.str(),
            "numagpu: error: " + file +
                ":7:53: axes.0.values.1.set.0: point 'w.odd': link.lanes: 15 is odd; a link starts "
                "symmetric, half its lanes each way\n");
  EXPECT_FALSE(fs::exists(options.out_dir)) << "a bad spec runs nothing and writes nothing";
}

TEST_F(SweepTest, SpecErrorsAreOneLineWithThePlace) {
  const std::string file = write_spec(
      "name: has space\n"
      "workloads: [{name: w, file: tiny.yaml}]\n"
      "stats: [{name: c, path: summary.sim_cycles}]\n");
  EXPECT_EQ(sweep(), kExitBadInput);
  EXPECT_EQ(err.str(), "numagpu: error: " + file +
                           ":1:7: name: 'has space' must be letters, digits, '_' and '-' only\n");
  write_spec(
      "name: s\n"
      "workloads: [{name: w, file: missing.yaml}]\n"
      "stats: [{name: c, path: summary.sim_cycles}]\n");
  EXPECT_EQ(sweep(), kExitBadInput);
  EXPECT_NE(err.str().find(":2:29: workloads.0.file: cannot read"), std::string::npos) << err.str();
}

TEST_F(SweepTest, SlurmSectionHasDefaultsAndTakesOnlySlurmValues) {
  const std::string head =
      "name: s\n"
      "workloads: [{name: w, file: tiny.yaml}]\n"
      "stats: [{name: c, path: summary.sim_cycles}]\n";
  write_spec(head);
  SweepSpec spec = load_sweep_spec(options.spec_file);
  EXPECT_EQ(spec.slurm.partition, "");
  EXPECT_EQ(spec.slurm.account, "");
  EXPECT_EQ(spec.slurm.time, "1:00:00");
  EXPECT_EQ(spec.slurm.memory, "2G");
  write_spec(head + "slurm: {partition: gpu-a, account: proj_1, time: 2-12:30, memory: 500M}\n");
  spec = load_sweep_spec(options.spec_file);
  EXPECT_EQ(spec.slurm.partition, "gpu-a");
  EXPECT_EQ(spec.slurm.account, "proj_1");
  EXPECT_EQ(spec.slurm.time, "2-12:30");
  EXPECT_EQ(spec.slurm.memory, "500M");
  for (const char* good : {"30", "30:00", "4:00:00", "1-0", "1-00:00:00"}) {
    write_spec(head + "slurm: {time: '" + good + "'}\n");
    EXPECT_NO_THROW(load_sweep_spec(options.spec_file)) << good;
  }
  for (const std::string bad :
       {"slurm: {time: '0'}", "slurm: {time: '1:2:3:4'}", "slurm: {time: 1h}", "slurm: {time: '-1'}",
        "slurm: {memory: 2GB}", "slurm: {memory: '0'}", "slurm: {memory: ''}", "slurm: {partition: 'a b'}",
        "slurm: {account: 'x;rm'}", "slurm: {nodes: 2}"}) {
    write_spec(head + bad + "\n");
    EXPECT_EQ(sweep(), kExitBadInput) << bad;
    EXPECT_NE(err.str().find(":4:"), std::string::npos) << bad << ": " << err.str();
  }
}

TEST_F(SweepTest, RunsEveryPointCollectsTheTableAndSkipsFinishedPoints) {
  write_spec(kTinySpec);
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  json r = results();
  EXPECT_EQ(r["format"], "numagpu-sweep-results");
  EXPECT_EQ(r["study"], "none");
  ASSERT_EQ(r["points"].size(), 2u);
  const json& a4 = point(r, "w.a4");
  const json& a8 = point(r, "w.a8");
  EXPECT_EQ(a4["status"], "ok");
  EXPECT_EQ(a4["labels"]["accesses"], "a4");
  EXPECT_EQ(a4["stats"]["dram_reads"], 4);  // one warp, 4 distinct lines, cold caches (file comment)
  EXPECT_EQ(a4["stats"]["dram_read_bytes"], 4 * 128);
  EXPECT_EQ(a8["stats"]["dram_reads"], 8);
  EXPECT_EQ(a8["stats"]["dram_read_bytes"], 8 * 128);
  EXPECT_EQ(a8["stats"]["kernels"], 1);
  EXPECT_EQ(a8["stats"]["placement"], "page_interleave") << "config.* reads the resolved configuration";
  const SweepSpec spec = load_sweep_spec(options.spec_file);
  EXPECT_EQ(a8["config_hash"], spec.find("w.a8")->config_hash);
  // Each point's CPU time, as the kernel reported it when the point was reaped: a run is one thread (SystemC
  // runs its processes as coroutines of one thread), so it cannot exceed the point's wall time.
  for (const json* p : {&a4, &a8}) {
    ASSERT_TRUE((*p)["cpu_seconds"].is_number()) << p->dump();
    EXPECT_GE((*p)["cpu_seconds"].get<double>(), 0.0);
    EXPECT_LE((*p)["cpu_seconds"].get<double>(), (*p)["wall_seconds"].get<double>() + 0.01);
  }

  // Each point's outputs in its own directory, no temporary left behind.
  for (const char* id : {"w.a4", "w.a8"}) {
    const fs::path p = fs::path(options.out_dir) / "points" / id;
    for (const char* f : {"stats.json", "config.yaml", "point.json", "run.log"})
      EXPECT_TRUE(fs::exists(p / f)) << p / f;
  }
  for (const auto& e : fs::directory_iterator(fs::path(options.out_dir) / "points"))
    EXPECT_NE(e.path().filename().string().rfind(".tmp.", 0), 0u) << e.path();

  // The CSV: fixed columns, the axis, the statistics; one row per point.
  std::ifstream csv(fs::path(options.out_dir) / "results.csv");
  std::string header, row;
  std::getline(csv, header);
  EXPECT_EQ(header,
            "point,workload,accesses,status,config_hash,overrides,wall_seconds,cpu_seconds,dram_reads,"
            "dram_read_bytes,kernels,placement");
  std::getline(csv, row);
  EXPECT_EQ(row.rfind("w.a4,w,a4,ok," + a4["config_hash"].get<std::string>() +
                          ",system.sockets=1 sm.per_socket=1 memory.placement=page_interleave "
                          "workload.kernels.0.accesses_per_warp=4,",
                      0),
            0u)
      << row;
  EXPECT_EQ(row.substr(row.size() - std::string(",4,512,1,page_interleave").size()),
            ",4,512,1,page_interleave");

  // Resumed: both points are finished, nothing runs, the point directories are untouched.
  const auto stamp = fs::last_write_time(fs::path(options.out_dir) / "points" / "w.a4" / "point.json");
  options.quiet = false;
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points, 2 finished before; running 0"), std::string::npos) << out.str();
  EXPECT_EQ(fs::last_write_time(fs::path(options.out_dir) / "points" / "w.a4" / "point.json"), stamp);

  // A changed configuration is a different point: it runs again and the table follows.
  options.sets = {"memory.placement=first_touch"};
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points; running 2"), std::string::npos) << out.str();
  r = results();
  EXPECT_EQ(point(r, "w.a8")["stats"]["placement"], "first_touch");
  EXPECT_EQ(point(r, "w.a8")["stats"]["dram_reads"], 8);
}

// --reuse: a point whose configuration another sweep has run is linked in, not simulated; the others run.
TEST_F(SweepTest, ReuseLinksAnotherSweepsPointOfTheSameConfigurationAndRunsTheRest) {
  write_spec(kTinySpec);
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  const std::string first = options.out_dir;
  // Another study: the same a4 configuration under another axis and label, and one new configuration.
  write_spec(std::string(kTinySpec).replace(
      std::string(kTinySpec).find("  - name: accesses"), std::string::npos,
      "  - name: n\n"
      "    values:\n"
      "      - {label: four, set: [{key: workload.kernels.0.accesses_per_warp, value: 4}]}\n"
      "      - {label: two, set: [{key: workload.kernels.0.accesses_per_warp, value: 2}]}\n"
      "stats:\n"
      "  - {name: dram_reads, path: 'system.socket*.dram.reads', reduce: sum}\n"));
  options.out_dir = (dir / "second").string();
  options.reuse = {first};
  options.quiet = false;
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points, 1 finished before (1 of them reused from --reuse); running 1"),
            std::string::npos)
      << out.str();
  const fs::path four = fs::path(options.out_dir) / "points" / "w.four";
  std::ifstream in(four / "point.json");
  const json record = json::parse(in);
  EXPECT_EQ(record["id"], "w.four");
  EXPECT_EQ(record["labels"]["n"], "four");
  EXPECT_EQ(record["reused_from"],
            fs::absolute(fs::path(first) / "points" / "w.a4").lexically_normal().string());
  // The same run's statistics: the file is the first sweep's (a hard link on one file system).
  EXPECT_TRUE(fs::equivalent(four / "stats.json", fs::path(first) / "points" / "w.a4" / "stats.json"));
  const json r = results();
  EXPECT_EQ(point(r, "w.four")["stats"]["dram_reads"], 4);  // one warp, 4 distinct lines (kTinySpec)
  EXPECT_EQ(point(r, "w.two")["stats"]["dram_reads"], 2);   // simulated here: 2 lines
  EXPECT_FALSE(fs::exists(fs::path(first) / "points" / "w.two"));

  // Not a sweep's directory: one line, nothing runs.
  options.reuse = {(dir / "nowhere").string()};
  EXPECT_EQ(sweep(), kExitBadInput);
  EXPECT_NE(err.str().find("--reuse: " + (dir / "nowhere").string() + ": not a sweep's output directory"),
            std::string::npos)
      << err.str();
}

// power.* statistics come from each point's power.json (docs/power.md).
TEST_F(SweepTest, PowerColumnsComeFromEachPointsPowerJson) {
  write_spec(std::string(kTinySpec) +
             "  - {name: dram_dynamic_j, path: power.total.components.dram.dynamic_j}\n"
             "  - {name: dram_static_j, path: power.total.components.dram.static_j}\n"
             "  - {name: cycles, path: power.duration_cycles}\n"
             "  - {name: total_w, path: power.total.power_w}\n"
             "  - {name: sm_energy_j, path: power.total.components.sm.energy_j}\n"
             "  - {name: socket_w, path: 'power.sockets.*.power_w', reduce: sum}\n"
             "  - {name: communication_w, path: power.communication.power_w}\n"
             "  - {name: nothing, path: power.total.no_such_figure}\n");
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  const json r = results();
  for (const char* id : {"w.a4", "w.a8"}) {
    const json& stats = point(r, id)["stats"];
    const double lines = id == std::string("w.a4") ? 4 : 8;
    // By hand: the DRAM reads `lines` lines of 128 B (the test above) at the default 3.9 pJ/bit, and writes
    // nothing: lines x 1024 bit x 3.9 pJ (4 lines: 15974.4 pJ). Its static energy is the default 4 W over the
    // run's duration at 1 GHz.
    EXPECT_NEAR(stats["dram_dynamic_j"].get<double>(), lines * 1024 * 3.9e-12, 1e-20) << id;
    EXPECT_NEAR(stats["dram_static_j"].get<double>(), 4.0 * stats["cycles"].get<double>() * 1e-9, 1e-15)
        << id;
    // The others as the point's power.json has them.
    std::ifstream in(fs::path(options.out_dir) / "points" / id / "power.json");
    const json power = json::parse(in);
    EXPECT_EQ(stats["total_w"], power["total"]["power_w"]) << id;
    EXPECT_EQ(stats["sm_energy_j"], power["total"]["components"]["sm"]["energy_j"]) << id;
    EXPECT_EQ(stats["socket_w"], power["sockets"][0]["power_w"])
        << id << ": one socket, so the sum is its figure";
    EXPECT_EQ(stats["communication_w"], 0.0) << id << ": one socket sends nothing into a fabric";
    EXPECT_TRUE(stats["nothing"].is_null()) << id;
  }
  EXPECT_NE(err.str().find("stat 'nothing': 'power.total.no_such_figure' matches nothing"), std::string::npos)
      << err.str();
}

TEST_F(SweepTest, FailedPointIsReportedAndTheOthersFinish) {
  write_spec(std::string(kTinySpec) +
             "grids:\n"
             "  - name: broken\n"
             "    axes:\n"
             "      - name: accesses\n"
             "        values:\n"
             "          - label: stuck\n"
             "            set:\n"
             "              - {key: debug.inject_fault, value: stuck_dram}\n"
             "              - {key: checks.watchdog_cycles, value: 2000}\n");
  EXPECT_EQ(sweep(), kExitRunFailed);
  EXPECT_NE(err.str().find("point w.stuck failed (exit 1: "), std::string::npos) << err.str();
  const json r = results();
  ASSERT_EQ(r["points"].size(), 3u);
  EXPECT_EQ(point(r, "w.a4")["status"], "ok");
  EXPECT_EQ(point(r, "w.a8")["status"], "ok");
  EXPECT_EQ(point(r, "w.stuck")["status"], "failed");
  EXPECT_EQ(point(r, "w.stuck")["exit_code"], kExitRunFailed);
  EXPECT_FALSE(fs::exists(fs::path(options.out_dir) / "points" / "w.stuck"));
  EXPECT_TRUE(fs::exists(fs::path(options.out_dir) / "failed" / "w.stuck" / "run.log"));

  // The next sweep retries only the failed point.
  options.quiet = false;
  EXPECT_EQ(sweep(), kExitRunFailed);
  EXPECT_NE(out.str().find("3 points, 2 finished before; running 1"), std::string::npos) << out.str();
}

TEST_F(SweepTest, OnePointAsASlurmTaskDoesAndCollectReports) {
  write_spec(kTinySpec);
  options.point = "w.a8";
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_TRUE(fs::exists(fs::path(options.out_dir) / "points" / "w.a8" / "stats.json"));
  EXPECT_FALSE(fs::exists(fs::path(options.out_dir) / "points" / "w.a4"));
  options.point = "w.nope";
  EXPECT_EQ(sweep(), kExitBadInput);
  options.point.clear();
  options.collect_only = true;
  options.quiet = false;
  EXPECT_EQ(sweep(), kExitRunFailed) << "a missing point makes the table incomplete";
  EXPECT_NE(out.str().find("1 ok, 0 failed, 1 missing"), std::string::npos) << out.str();
  EXPECT_EQ(point(results(), "w.a4")["status"], "missing");
}

// bfs.yaml in `dir`: rodinia/bfs on g.graph beside it, written as the path 1-2-3 (METIS: n m, then each
// vertex's neighbours). Returns the graph's path.
fs::path write_bfs_on_a_path(const fs::path& dir) {
  const fs::path graph = dir / "g.graph";
  std::ofstream(graph) << "3 2\n2\n1 3\n2\n";
  std::ofstream(dir / "bfs.yaml")
      << "workload:\n"
         "  name: bfs\n"
         "  kernels: [{name: b, app: rodinia/bfs, args: 'layers=1', input: g.graph}]\n";
  return graph;
}

// A point's identity covers the contents of the files it reads (issue 44): a changed graph is a different
// point, so a rerun simulates it again instead of keeping the stale result. rodinia/bfs from vertex 0 runs
// one Kernel and one Kernel2 per level until a level reaches nothing new (models/apps/rodinia/bfs.cpp): on
// the path 1-2-3 that is levels {2}, {3}, {} = 3 rounds, 6 kernels; on the triangle {2, 3}, {} = 2 rounds, 4.
TEST_F(SweepTest, ChangedInputFileMakesThePointRunAgain) {
  const fs::path graph = write_bfs_on_a_path(dir);
  write_spec(
      "name: graph\n"
      "set:\n"
      "  - {key: system.sockets, value: 1}\n"
      "  - {key: sm.per_socket, value: 1}\n"
      "workloads: [{name: b, file: bfs.yaml}]\n"
      "stats: [{name: kernels, path: run.kernels_done}]\n");
  const SweepSpec before = load_sweep_spec(options.spec_file);
  ASSERT_EQ(before.points.size(), 1u);
  EXPECT_EQ(before.points[0].input_files, std::vector<std::string>{graph.string()});
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_EQ(point(results(), "b")["stats"]["kernels"], 6);  // 3 rounds on the path (comment above)
  options.quiet = false;
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("1 points, 1 finished before; running 0"), std::string::npos) << out.str();

  std::ofstream(graph) << "3 3\n2 3\n1 3\n1 2\n";  // the triangle: same path, same configuration hash
  const SweepSpec after = load_sweep_spec(options.spec_file);
  EXPECT_EQ(after.points[0].config_hash, before.points[0].config_hash);
  EXPECT_NE(after.points[0].inputs_hash, before.points[0].inputs_hash);
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("1 points; running 1"), std::string::npos) << out.str();
  EXPECT_EQ(point(results(), "b")["stats"]["kernels"], 4);  // 2 rounds on the triangle

  // --reuse of the first sweep's result (the path) for the changed graph (the triangle): not the same point.
  const std::string first = options.out_dir;
  std::ofstream(graph) << "3 2\n2\n1 3\n2\n";  // the path again, in another study reusing the triangle's run
  options.out_dir = (dir / "second").string();
  options.reuse = {first};
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("1 points; running 1"), std::string::npos) << out.str();
  EXPECT_EQ(point(results(), "b")["stats"]["kernels"], 6);

  // A FIFO as an input cannot be hashed (nor read twice): refused at the key that names it.
  fs::remove(graph);
  ASSERT_EQ(::mkfifo(graph.c_str(), 0600), 0);
  options.reuse.clear();
  EXPECT_EQ(sweep(), kExitBadInput);
  EXPECT_NE(err.str().find("workload.kernels.0.input: " + graph.string() + ": not a regular file"),
            std::string::npos)
      << err.str();
}

// An input changed after the sweep read it (while earlier points ran, say): the run read the new file, the
// point's identity names the old one, so the point is not recorded as finished; it fails, saying why.
TEST_F(SweepTest, InputChangedAfterTheSweepReadItFailsThePoint) {
  const fs::path graph = write_bfs_on_a_path(dir);
  write_spec(
      "name: graph\n"
      "set: [{key: system.sockets, value: 1}, {key: sm.per_socket, value: 1}]\n"
      "workloads: [{name: b, file: bfs.yaml}]\n"
      "stats: [{name: kernels, path: run.kernels_done}]\n");
  const SweepSpec spec = load_sweep_spec(options.spec_file);
  std::ofstream(graph) << "3 3\n2 3\n1 3\n1 2\n";
  RunnerOptions ro;
  ro.executable = NUMAGPU_BIN;
  ro.out_dir = options.out_dir;
  ro.quiet = true;
  ro.total = 1;
  const RunnerSummary s = run_points({&spec.points.at(0)}, ro, out, err);
  EXPECT_EQ(s.failed, 1u);
  EXPECT_NE(err.str().find("point b failed (exit 0, but an input file changed since the sweep read it (" +
                           graph.string() + "); the point runs again)"),
            std::string::npos)
      << err.str();
  EXPECT_FALSE(fs::exists(fs::path(options.out_dir) / "points" / "b"));
}

// The traces of a kernel list, and the list itself, are inputs of the points that replay them.
TEST_F(SweepTest, TraceListAndItsTracesArePartOfAPointsIdentity) {
  const fs::path traces = dir / "traces";
  fs::copy(fs::path(NUMAGPU_SOURCE_DIR) / "tests" / "data" / "trace", traces, fs::copy_options::recursive);
  write_spec(
      "name: traces\n"
      "set: [{key: workload.trace_list, value: '" +
      (traces / "kernelslist.g").string() +
      "'}]\n"
      "workloads: [{name: t}]\n"
      "stats: [{name: c, path: summary.sim_cycles}]\n");
  const SweepPoint p = load_sweep_spec(options.spec_file).points.at(0);
  ASSERT_GE(p.input_files.size(), 2u);
  EXPECT_EQ(p.input_files[0], (traces / "kernelslist.g").string());
  const std::string trace = p.input_files[1];
  std::ofstream(trace, std::ios::app) << "\n";  // one more (empty) line in the first trace
  const SweepPoint q = load_sweep_spec(options.spec_file).points.at(0);
  EXPECT_EQ(q.config_hash, p.config_hash);
  EXPECT_NE(q.inputs_hash, p.inputs_hash);
  std::ofstream(traces / "kernelslist.g", std::ios::app) << "\n";
  EXPECT_NE(load_sweep_spec(options.spec_file).points.at(0).inputs_hash, q.inputs_hash);
}

// A file the configuration `include:`s is merged into the resolved configuration, so its contents are in
// the configuration hash already (it is no input file of the run).
TEST_F(SweepTest, IncludedFileIsPartOfTheConfigurationHash) {
  std::ofstream(dir / "inc.yaml") << "l2:\n  ways: 8\n";
  std::ofstream(dir / "sys.yaml") << "include: inc.yaml\nsystem:\n  sockets: 2\n";
  write_spec(
      "name: inc\n"
      "config: sys.yaml\n"
      "workloads: [{name: w, file: tiny.yaml}]\n"
      "stats: [{name: c, path: summary.sim_cycles}]\n");
  const SweepPoint before = load_sweep_spec(options.spec_file).points.at(0);
  EXPECT_TRUE(before.input_files.empty());
  std::ofstream(dir / "inc.yaml") << "l2:\n  ways: 4\n";
  EXPECT_NE(load_sweep_spec(options.spec_file).points.at(0).config_hash, before.config_hash);
}

// --reuse A --reuse B with the same point and different results: refused in one line naming the point and
// both sources, before anything is written; sources that agree are fine.
TEST_F(SweepTest, ReuseRefusesTwoSourcesWhoseResultsDiffer) {
  write_spec(kTinySpec);
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  const fs::path first = options.out_dir, same = dir / "same", other = dir / "other";
  fs::copy(first, same, fs::copy_options::recursive);
  fs::copy(first, other, fs::copy_options::recursive);
  // `other` ran w.a4 with one DRAM read more (its stats.json rewritten, and its recorded size with it).
  const fs::path a4 = other / "points" / "w.a4";
  json stats = json::parse(std::ifstream(a4 / "stats.json"));
  stats["stats"]["system"]["socket0"]["dram"]["reads"] = 5;
  std::ofstream(a4 / "stats.json", std::ios::trunc) << stats.dump(1) << "\n";
  json record = json::parse(std::ifstream(a4 / "point.json"));
  record["outputs"]["stats.json"] = fs::file_size(a4 / "stats.json");
  std::ofstream(a4 / "point.json", std::ios::trunc) << record.dump(1) << "\n";

  options.out_dir = (dir / "third").string();
  options.reuse = {first.string(), other.string()};
  EXPECT_EQ(sweep(), kExitBadInput);
  const std::string a4_first = fs::absolute(first / "points" / "w.a4").lexically_normal().string();
  const std::string a4_other = fs::absolute(a4).lexically_normal().string();
  EXPECT_EQ(err.str(), "numagpu: error: --reuse: point w.a4: " + a4_first + " and " + a4_other +
                           " hold runs of its configuration (hash " +
                           load_sweep_spec(options.spec_file).find("w.a4")->config_hash +
                           ") with different results (first at /stats.json/stats/system/socket0/dram/reads); "
                           "give only the --reuse whose result is right\n");
  EXPECT_FALSE(fs::exists(options.out_dir)) << "nothing written";

  options.reuse = {first.string(), same.string()};  // copies of one run agree
  options.quiet = false;
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points, 2 finished before (2 of them reused from --reuse); running 0"),
            std::string::npos)
      << out.str();
}

// --reuse RESULTS.json: a sweep resumed on a machine that has only the earlier part's results table (the
// point directories stayed where they ran). Every row of the table that holds the spec's statistics is a
// finished point; nothing is simulated, and the table's values come through unchanged.
TEST_F(SweepTest, ReuseOfAResultsTableTakesItsRowsAsFinishedPoints) {
  write_spec(kTinySpec);
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  const fs::path table = dir / "earlier.json";
  fs::copy_file(fs::path(options.out_dir) / "results.json", table);
  fs::remove_all(options.out_dir);  // the machine that ran it is gone; its table is all there is

  options.out_dir = (dir / "resumed").string();
  options.reuse = {table.string()};
  options.quiet = false;
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points, 2 finished before (2 of them reused from --reuse); running 0"),
            std::string::npos)
      << out.str();
  const fs::path a8 = fs::path(options.out_dir) / "points" / "w.a8";
  EXPECT_FALSE(fs::exists(a8 / "stats.json")) << "a tabled point has no run outputs";
  json r = results();
  // One warp over 8 distinct lines, cold caches: 8 DRAM reads of 128 B (kTinySpec), as the table says.
  EXPECT_EQ(point(r, "w.a8")["stats"]["dram_reads"], 8);
  EXPECT_EQ(point(r, "w.a8")["stats"]["dram_read_bytes"], 8 * 128);
  EXPECT_EQ(point(r, "w.a4")["stats"]["dram_reads"], 4);
  EXPECT_EQ(point(r, "w.a8")["status"], "ok");
  EXPECT_EQ(point(r, "w.a8")["reused_from"], fs::absolute(table).lexically_normal().string());

  // A later sweep of the same directory, without --reuse, keeps them: they are finished.
  options.reuse.clear();
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points, 2 finished before; running 0"), std::string::npos) << out.str();

  // A statistic the table does not hold cannot come from it: the tabled points are not finished, so a Slurm
  // array task runs its point, a local sweep the rest, and the table cannot serve again.
  write_spec(std::string(kTinySpec) + "  - {name: socket0_reads, path: system.socket0.dram.reads}\n");
  options.point = "w.a8";
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_EQ(out.str().find("already finished"), std::string::npos) << out.str();
  EXPECT_TRUE(fs::exists(a8 / "stats.json"));
  options.point.clear();
  options.reuse = {table.string()};
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points, 1 finished before; running 1"), std::string::npos) << out.str();
  EXPECT_NE(err.str().find("numagpu sweep: --reuse " + table.string() +
                           ": not used: it has no statistic 'socket0_reads'"),
            std::string::npos)
      << err.str();
  r = results();
  EXPECT_EQ(point(r, "w.a8")["stats"]["dram_reads"], 8);
  EXPECT_EQ(point(r, "w.a8")["stats"]["socket0_reads"], 8);  // one socket: all 8 reads are socket0's
  EXPECT_TRUE(fs::exists(a8 / "stats.json"));
  EXPECT_FALSE(point(r, "w.a8").contains("reused_from"));
}

// A table's rows are taken only for their identity, only when ok, and two tables that disagree are refused;
// a file that is not a results table is one line.
TEST_F(SweepTest, ReuseOfResultsTablesChecksIdentityStatusAndAgreement) {
  write_spec(kTinySpec);
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  json table = json::parse(std::ifstream(fs::path(options.out_dir) / "results.json"));
  fs::remove_all(options.out_dir);
  for (json& row : table["points"]) {
    if (row["id"] == "w.a4") row["status"] = "failed";        // not a result
    if (row["id"] == "w.a8") row["stats"]["dram_reads"] = 7;  // edited: shows it is the table's
  }
  const fs::path edited = dir / "edited.json", other = dir / "other.json", bad = dir / "bad.json";
  std::ofstream(edited) << table.dump(1);
  for (json& row : table["points"])
    if (row["id"] == "w.a8") row["stats"]["dram_reads"] = 6;
  std::ofstream(other) << table.dump(1);
  std::ofstream(bad) << "{\"format\": \"something else\"}";

  options.out_dir = (dir / "second").string();
  options.reuse = {edited.string(), other.string()};
  EXPECT_EQ(sweep(), kExitBadInput);
  EXPECT_NE(err.str().find("numagpu: error: --reuse: point w.a8: "), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("with different values of 'dram_reads'"), std::string::npos) << err.str();
  EXPECT_FALSE(fs::exists(options.out_dir)) << "nothing written";

  options.reuse = {bad.string()};
  EXPECT_EQ(sweep(), kExitBadInput);
  EXPECT_EQ(err.str(), "numagpu: error: --reuse: " + bad.string() +
                           ": not a sweep's results table (results.json: format numagpu-sweep-results, with "
                           "points and stats)\n");

  options.reuse = {edited.string()};
  options.quiet = false;
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points, 1 finished before (1 of them reused from --reuse); running 1"),
            std::string::npos)
      << out.str();
  const json r = results();
  EXPECT_EQ(point(r, "w.a8")["stats"]["dram_reads"], 7);  // the table's (edited) value, not a run's
  EXPECT_EQ(point(r, "w.a4")["stats"]["dram_reads"], 4);  // simulated here: the failed row is not a result

  // Another configuration (a changed setting) does not match the table's rows: both run.
  options.out_dir = (dir / "third").string();
  options.sets = {"memory.placement=first_touch"};
  options.reuse = {edited.string()};
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points; running 2"), std::string::npos) << out.str();
  EXPECT_EQ(point(results(), "w.a8")["stats"]["dram_reads"], 8);
}

// A source point without one of the outputs every run writes, or with one cut short, is not reused: the
// point runs here, and says why.
TEST_F(SweepTest, ReuseSkipsAnIncompleteSourceAndRunsThePoint) {
  write_spec(kTinySpec);
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  const fs::path first = options.out_dir;
  fs::remove(first / "points" / "w.a4" / "power.json");
  fs::resize_file(first / "points" / "w.a8" / "activity.json",
                  fs::file_size(first / "points" / "w.a8" / "activity.json") - 1);
  options.out_dir = (dir / "second").string();
  options.reuse = {first.string()};
  options.quiet = false;
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points; running 2"), std::string::npos) << out.str();
  EXPECT_NE(err.str().find("point w.a4: not reused from " +
                           fs::absolute(first / "points" / "w.a4").lexically_normal().string() +
                           " (incomplete: power.json is missing)"),
            std::string::npos)
      << err.str();
  EXPECT_NE(err.str().find("(incomplete: activity.json has "), std::string::npos) << err.str();
  const fs::path a4 = fs::path(options.out_dir) / "points" / "w.a4";
  EXPECT_TRUE(fs::exists(a4 / "power.json"));
  EXPECT_FALSE(json::parse(std::ifstream(a4 / "point.json")).contains("reused_from"));
  EXPECT_EQ(point(results(), "w.a4")["stats"]["dram_reads"], 4);  // one warp, 4 distinct lines (kTinySpec)
}

// A point whose stats.json is empty or not JSON is not finished: collect names it, --slurm puts it in the
// array (and writes the submit.sh collect suggests), and a local sweep runs it again.
TEST_F(SweepTest, EmptyOrCorruptOutputsMakeThePointRunAgain) {
  write_spec(kTinySpec);
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  const fs::path points = fs::path(options.out_dir) / "points";
  fs::resize_file(points / "w.a4" / "stats.json", 0);
  {
    std::fstream f(points / "w.a8" / "stats.json", std::ios::in | std::ios::out | std::ios::binary);
    f.put('x');  // same size, not JSON any more
  }
  options.collect_only = true;
  EXPECT_EQ(sweep(), kExitRunFailed);
  EXPECT_NE(err.str().find((points / "w.a4").string() + ": incomplete (stats.json is empty)"),
            std::string::npos)
      << err.str();
  EXPECT_NE(
      err.str().find((points / "w.a8").string() + ": incomplete (stats.json is not a statistics document)"),
      std::string::npos)
      << err.str();
  const std::string submit =
      (fs::absolute(options.out_dir).lexically_normal() / "slurm" / "submit.sh").string();
  EXPECT_NE(err.str().find("--slurm && bash '" + submit + "'"), std::string::npos) << err.str();

  options.collect_only = false;
  options.slurm = true;
  options.quiet = false;
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_TRUE(fs::exists(submit)) << "collect's suggestion names a file that --slurm writes";
  std::ifstream array(fs::path(options.out_dir) / "slurm" / "array.sbatch");
  EXPECT_NE(std::string(std::istreambuf_iterator<char>(array), {}).find("\n#SBATCH --array=0-1\n"),
            std::string::npos);

  options.slurm = false;
  ASSERT_EQ(sweep(), kExitOk) << err.str();
  EXPECT_NE(out.str().find("2 points; running 2"), std::string::npos) << out.str();
  EXPECT_EQ(point(results(), "w.a4")["stats"]["dram_reads"], 4);  // kTinySpec: 4 and 8 distinct lines
  EXPECT_EQ(point(results(), "w.a8")["stats"]["dram_reads"], 8);
}

TEST(ExtractStat, WildcardsReductionsAndMisses) {
  const json doc = json::parse(R"({"stats": {"s": {"gpu0": {"n": 3, "u": {"values": [1, 2]}},
                                                   "gpu1": {"n": 5, "u": {"values": [3]}},
                                                   "gpu10": {"n": 0.5}}},
                                  "run": {"sim_cycles": 7}})");
  std::string problem;
  EXPECT_EQ(extract_stat(doc, {"x", "s.gpu*.n", StatReduce::kSum}, &problem), 8.5);
  EXPECT_EQ(extract_stat(doc, {"x", "s.gpu?.n", StatReduce::kSum}, &problem), 8);  // integers stay exact
  EXPECT_TRUE(extract_stat(doc, {"x", "s.gpu?.n", StatReduce::kSum}, &problem).is_number_integer());
  EXPECT_EQ(extract_stat(doc, {"x", "s.gpu?.n", StatReduce::kMean}, &problem), 4.0);
  EXPECT_EQ(extract_stat(doc, {"x", "s.gpu*.n", StatReduce::kMax}, &problem), 5);
  EXPECT_EQ(extract_stat(doc, {"x", "s.gpu*.n", StatReduce::kMin}, &problem), 0.5);
  // No reduction: every match by path, in natural order (gpu1 before gpu10).
  const json all = extract_stat(doc, {"x", "s.gpu*.n", StatReduce::kNone}, &problem);
  ASSERT_TRUE(all.is_object());
  EXPECT_EQ(all.size(), 3u);
  EXPECT_EQ(all["s.gpu1.n"], 5);
  EXPECT_EQ(extract_stat(doc, {"x", "s.gpu1.u", StatReduce::kNone}, &problem)["values"], json({3}));
  EXPECT_EQ(extract_stat(doc, {"x", "run.sim_cycles", StatReduce::kNone}, &problem), 7);
  EXPECT_TRUE(problem.empty());
  EXPECT_TRUE(extract_stat(doc, {"x", "s.gpu*.u", StatReduce::kSum}, &problem).is_null());
  EXPECT_EQ(problem, "'s.gpu0.u' is not a number, so it cannot be reduced");
  EXPECT_TRUE(extract_stat(doc, {"x", "s.nothing", StatReduce::kNone}, &problem).is_null());
  EXPECT_EQ(problem, "'s.nothing' matches nothing");
}

TEST(ResultsCsv, SeriesAndWildcardMatchesGetTheirOwnCells) {
  const json r = json::parse(R"({"axes": ["a"], "stats": [{"name": "u", "path": "x.*.u", "reduce": "none"},
                                                          {"name": "t", "path": "x.t", "reduce": "none"}],
    "points": [{"id": "p", "workload": "w", "labels": {"a": "l"}, "status": "ok", "config_hash": "h",
                "overrides": ["k=v, w"], "wall_seconds": 1.5,
                "stats": {"u": {"x.g2.u": 1, "x.g10.u": 2}, "t": {"values": [1, 2.5, null]}}}]})");
  // A point recorded before numagpu kept CPU times has no cpu_seconds: its cell stays empty.
  EXPECT_EQ(results_csv(r),
            "point,workload,a,status,config_hash,overrides,wall_seconds,cpu_seconds,u[x.g2.u],u[x.g10.u],t\n"
            "p,w,l,ok,h,\"k=v, w\",1.5,,1,2,1;2.5;\n");
}

}  // namespace
}  // namespace numagpu

// libsystemc wants an sc_main; these tests never elaborate a model in this process (points run as children).
extern "C" int sc_main(int, char*[]) {
  return 0;
}
