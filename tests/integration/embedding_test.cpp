// numagpu inside a host's simulation (docs/embedding.md): the host owns sc_start and its own clock, the
// System starts by itself, says when it is done and writes its statistics on request; two Systems share a
// kernel; a user's KernelProgram replaces the configuration's kernels; a configuration comes from a YAML
// text with one-line errors. The expected numbers are the hand-derived ones of system_test.cpp and
// fresh_kernel_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "numagpu/numagpu.hpp"  // the installed name, as an embedder writes it
#include "small_system.hpp"
#include "stats/document.hpp"

namespace numagpu {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;
using testing::small_spec;
using testing::stream_kernel;

std::uint64_t value(const stats::Registry& r, const std::string& path) {
  const auto* c = r.find_counter(path);
  if (!c) ADD_FAILURE() << "no counter " << path;
  return c ? c->value() : 0;
}

// The 4-socket system of FreshKernel.DifferentSystemsRunOneAfterAnotherInOneProcess: two streaming kernels of
// 16 CTAs x 2 warps x 4 accesses; every socket sends 48 requests to its link and reads 32 lines from DRAM.
SystemSpec four_sockets() {
  SystemSpec spec = small_spec(4);
  spec.kernels = {stream_kernel("first", 16, 2, 4), stream_kernel("again", 16, 2, 4)};
  return spec;
}

void expect_four_socket_traffic(const stats::Registry& reg, const std::string& system) {
  for (int s = 0; s < 4; ++s) {
    const std::string sock = system + ".socket" + std::to_string(s);
    EXPECT_EQ(value(reg, sock + ".xbar.requests_to_link"), 48u) << sock;
    EXPECT_EQ(value(reg, sock + ".dram.reads"), 32u) << sock;
  }
}

// A host: a free-running 10 ns clock of its own, and the Systems it is given as children.
class Host : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Host);
  // `build` makes the host's Systems (add()) while the host is being constructed: they are its children.
  Host(const sc_core::sc_module_name& name, const std::function<void(Host&)>& build)
      : sc_module(name), clock("clock", 10, SC_NS) {
    SC_METHOD(tick);
    sensitive << clock.posedge_event();
    dont_initialize();
    build(*this);
  }
  // A System built inside the host's hierarchy (a child: "host.<name>").
  System& add(const char* name, const Configuration& config, stats::Registry& reg,
              std::vector<std::unique_ptr<KernelProgram>> programs = {}) {
    systems.push_back(std::make_unique<System>(name, config, reg, std::move(programs), diag));
    return *systems.back();
  }
  bool all_done() const {
    for (const auto& s : systems)
      if (!s->done()) return false;
    return true;
  }
  // The host's loop: sc_start in steps of 1 us until every System is done (at most `max_steps`).
  int step_until_done(int max_steps = 1000) {
    int steps = 0;
    while (!all_done() && steps < max_steps) {
      sc_core::sc_start(1, SC_US);
      ++steps;
    }
    return steps;
  }

  sc_core::sc_clock clock;
  std::ostringstream diag;
  std::vector<std::unique_ptr<System>> systems;
  std::uint64_t ticks = 0;

 private:
  void tick() { ++ticks; }
};

// A host process that waits for a System's finished() event.
class Watcher : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Watcher);
  Watcher(const sc_core::sc_module_name& name, const System& system) : sc_module(name), system_(system) {
    SC_THREAD(watch);
  }
  bool woke = false;
  sc_time at;

 private:
  void watch() {
    wait(system_.finished());
    woke = true;
    at = sc_core::sc_time_stamp();
  }
  const System& system_;
};

// What a plain run() of the same spec finishes at (in a kernel of its own).
Cycles finish_cycle_of_run(const SystemSpec& spec) {
  FreshSystemCKernel kernel;
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  EXPECT_TRUE(run.ok) << run.diagnostics;
  return run.system->finish_cycle();
}

// The host owns sc_start and a clock that never stops: without embedding support run() would never return
// and sc_start() would never run out of events. The System starts at the start of simulation, is done when
// its last transaction has ended, notifies finished() then, and does nothing afterwards.
TEST(Embedding, HostOwnsSimulationAndItsClockRunsOn) {
  const Cycles solo = finish_cycle_of_run(four_sockets());
  stats::Registry reg;
  Host host("host", [&](Host& h) { h.add("gpu", Configuration(four_sockets()), reg); });
  System& gpu = *host.systems[0];
  EXPECT_STREQ(gpu.name(), "host.gpu");
  Watcher watcher("watcher", gpu);

  const int steps = host.step_until_done();
  ASSERT_TRUE(gpu.done()) << "not done after " << steps << " steps of 1 us; " << host.diag.str();
  EXPECT_TRUE(gpu.healthy()) << host.diag.str();
  EXPECT_TRUE(watcher.woke);
  // In the drained cycle: the small system's clock is 1 GHz, cycle n is [n ns, n + 1 ns) (a transaction may
  // end between two cycle edges: the DRAM serializes a line in fractions of a cycle).
  EXPECT_EQ(static_cast<Cycles>(watcher.at / sc_time(1, SC_NS)), gpu.drained_cycle());
  EXPECT_GE(gpu.drained_cycle(), gpu.finish_cycle());
  EXPECT_EQ(gpu.finish_cycle(), solo) << "the host's events moved the System's results";
  EXPECT_EQ(gpu.dispatcher().kernels_done(), 2u);
  expect_four_socket_traffic(reg, "host.gpu");

  const std::uint64_t completed = gpu.requests_completed();
  const std::uint64_t ticks = host.ticks;
  sc_core::sc_start(1, SC_US);
  EXPECT_EQ(host.ticks - ticks, 100u);  // 1 us of a 10 ns clock
  EXPECT_EQ(gpu.requests_completed(), completed);
  EXPECT_EQ(gpu.summary().kernels_done, 2u);
  EXPECT_EQ(gpu.summary().sockets.size(), 4u);
}

// Two Systems in one kernel, side by side under one host: nothing of one is shared with the other (each
// has its SimContext, scheduler, pool and registry), so each gets the results it gets alone: the 4-socket
// system its traffic and finish cycle, the 1-socket system at 500 MHz its isolated load of 173 cycles
// (FreshKernel: issued at cycle 1, finished at cycle 174).
TEST(Embedding, TwoSystemsInOneKernelEachGetTheirOwnResults) {
  const Cycles solo = finish_cycle_of_run(four_sockets());
  SystemSpec one = small_spec(1);
  one.clock_mhz = 500;
  one.kernels = {stream_kernel("one", 1, 1, 1)};

  stats::Registry reg0, reg1;
  Host host("host", [&](Host& h) {
    h.add("gpu0", Configuration(four_sockets()), reg0);
    h.add("gpu1", Configuration(one), reg1);
  });
  System& gpu0 = *host.systems[0];
  System& gpu1 = *host.systems[1];
  host.step_until_done();
  ASSERT_TRUE(gpu0.done() && gpu1.done()) << host.diag.str();
  EXPECT_TRUE(gpu0.healthy() && gpu1.healthy()) << host.diag.str();
  EXPECT_EQ(gpu0.finish_cycle(), solo);
  expect_four_socket_traffic(reg0, "host.gpu0");
  EXPECT_EQ(gpu1.finish_cycle(), 174u);
  const auto* lat = reg1.find_average("host.gpu1.socket0.sm0.load_latency");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->mean(), 173.0);
  EXPECT_EQ(reg0.find_average("host.gpu1.socket0.sm0.load_latency"), nullptr);  // registries stay apart
}

// A System that gets stuck (RequestNetworks.SharedQueuesDeadlockAGpuSideL2: a GPU-side L2 with one request
// network per bank deadlocks across two sockets) under a host: its watchdog reports and the System is done
// and unhealthy, but the host's simulation is not stopped (no sc_stop): its clock runs on.
TEST(Embedding, AStuckSystemEndsAloneAndTheHostRunsOn) {
  const SystemSpec spec = testing::deadlocking_spec();
  stats::Registry reg;
  Host host("host", [&](Host& h) { h.add("gpu", Configuration(spec), reg); });
  System& gpu = *host.systems[0];
  host.step_until_done();
  ASSERT_TRUE(gpu.done());
  EXPECT_FALSE(gpu.healthy());
  EXPECT_NE(host.diag.str().find("watchdog: no request completed"), std::string::npos) << host.diag.str();
  EXPECT_FALSE(gpu.dispatcher().finished());
  EXPECT_EQ(sc_core::sc_get_status(), sc_core::SC_PAUSED);  // paused by the host's sc_start, not stopped
  const std::uint64_t ticks = host.ticks;
  sc_core::sc_start(1, SC_US);
  EXPECT_EQ(host.ticks - ticks, 100u);
}

// A user's program: `ctas` CTAs of one warp, each loading `lines` consecutive lines of its own (no pattern,
// no trace).
class OwnLines : public KernelProgram {
 public:
  OwnLines(std::uint32_t ctas, std::uint32_t lines, std::uint32_t warps = 1)
      : ctas_(ctas), lines_(lines), warps_(warps) {}
  const std::string& name() const override { return name_; }
  std::uint32_t ctas() const override { return ctas_; }
  std::uint32_t warps_per_cta() const override { return warps_; }
  bool step(std::uint32_t cta, std::uint32_t, std::uint32_t index, Step& out) const override {
    if (index >= lines_) return false;
    out = Step{};
    out.kind = Step::Kind::kLoad;
    out.line_count = 1;
    out.lines[0] = (std::uint64_t(cta) * lines_ + index) * 128;
    return true;
  }

 private:
  std::string name_ = "own_lines";
  std::uint32_t ctas_, lines_, warps_;
};

// The user's programs replace the configuration's kernels: one socket, 4 CTAs x 8 distinct lines = 32
// loads, each line missing in L1 and L2 once: 32 DRAM reads. The spec's own (two streaming) kernels do
// not run.
TEST(Embedding, UserProgramsReplaceTheConfiguredKernels) {
  SystemSpec spec = small_spec(1);
  spec.kernels = {stream_kernel("unused", 16, 2, 4), stream_kernel("unused_too", 16, 2, 4)};
  std::vector<std::unique_ptr<KernelProgram>> programs;
  programs.push_back(std::make_unique<OwnLines>(4, 8));
  stats::Registry reg;
  Host host("host", [&](Host& h) { h.add("gpu", Configuration(spec), reg, std::move(programs)); });
  System& gpu = *host.systems[0];
  host.step_until_done();
  ASSERT_TRUE(gpu.done()) << host.diag.str();
  EXPECT_TRUE(gpu.healthy()) << host.diag.str();
  EXPECT_EQ(gpu.summary().kernels_total, 1u);
  EXPECT_EQ(gpu.summary().loads, 32u);
  EXPECT_EQ(value(reg, "host.gpu.socket0.dram.reads"), 32u);
}

// A user's CTA larger than an SM holds (small_spec: 16 warps) is refused when the System is built.
TEST(Embedding, AUserProgramThatCannotFitIsRefused) {
  std::vector<std::unique_ptr<KernelProgram>> programs;
  programs.push_back(std::make_unique<OwnLines>(1, 1, 17));
  stats::Registry reg;
  try {
    System gpu("gpu", Configuration(small_spec(1)), reg, std::move(programs));
    FAIL() << "built";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(
        e.what(),
        "kernel 'own_lines': a CTA of 17 warps exceeds sm.max_warps (16): it would never fit on an SM");
  }
}

// A configuration from a YAML text goes through the program's layers and checks: the built-in default
// workload below it, `sets` on top, and an error is one line at "<yaml>:line:column".
TEST(Embedding, ConfigurationFromYamlAndItsErrors) {
  const Configuration c =
      Configuration::from_yaml("system: {sockets: 2}\nsm: {per_socket: 4}\n", {"workload.kernels.0.ctas=32"});
  EXPECT_EQ(c.spec().sockets, 2u);
  EXPECT_EQ(c.spec().sms_per_socket, 4u);
  ASSERT_EQ(c.spec().kernels.size(), 4u);  // configs/workloads/default.yaml: 4 kernels
  EXPECT_EQ(c.spec().kernels[0].ctas, 32u);
  EXPECT_TRUE(c.loaded());
  EXPECT_EQ(c.hash().size(), 16u);
  EXPECT_EQ(c.resolved()["system"]["sockets"], 2);
  try {
    Configuration::from_yaml("system:\n  sockets: 99\n");
    FAIL() << "loaded";
  } catch (const config::ConfigError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("<yaml>:2:", 0), 0u) << what;
    EXPECT_NE(what.find("system.sockets"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_THROW(Configuration::from_file("/nonexistent/system.yaml"), config::ConfigError);
  // The built-in defaults are the program's: the paper's 4 sockets of 64 SMs.
  const Configuration paper = Configuration::builtin();
  EXPECT_EQ(paper.spec().sockets, 4u);
  EXPECT_EQ(paper.spec().sms_per_socket, 64u);
}

// write_stats: before done, an incomplete document; once done, complete, with the run summary and the
// resolved configuration it was loaded from.
TEST(Embedding, WriteStatsOnRequest) {
  const Configuration c = Configuration::from_yaml(
      "system: {sockets: 1}\nsm: {per_socket: 2}\n"
      "workload: {kernels: [{name: s, pattern: stream, ctas: 4, warps_per_cta: 1, accesses_per_warp: 4}]}\n");
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "numagpu_embedding_stats";
  std::filesystem::remove_all(dir);
  stats::Registry reg;
  Host host("host", [&](Host& h) { h.add("gpu", c, reg); });
  System& gpu = *host.systems[0];
  gpu.write_stats((dir / "before").string());  // during elaboration: nothing simulated yet
  host.step_until_done();
  ASSERT_TRUE(gpu.done());
  gpu.write_stats((dir / "after").string());
  const auto read = [](const std::filesystem::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
  };
  const nlohmann::json before = read(dir / "before" / "stats.json");
  const nlohmann::json after = read(dir / "after" / "stats.json");
  EXPECT_FALSE(before["complete"].get<bool>());
  EXPECT_TRUE(after["complete"].get<bool>());
  EXPECT_EQ(after["config_hash"], c.hash());
  EXPECT_EQ(after["run"]["kernels_done"], 1);
  EXPECT_EQ(after["run"]["drained_cycles"], gpu.drained_cycle());
  EXPECT_EQ(after["config"]["sm"]["per_socket"], 2);
  EXPECT_FALSE(before["run"].contains("kernels_done"));  // no summary before the end
  // 4 CTAs x 1 warp x 4 accesses: 16 loads, in the summary statistics stats.txt lists.
  EXPECT_EQ(gpu.summary().loads, 16u);
  std::ifstream txt(dir / "after" / "stats.txt");
  const std::string text((std::istreambuf_iterator<char>(txt)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("summary."), std::string::npos);
  EXPECT_EQ(stats::validate_document(after), std::vector<std::string>{});
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
