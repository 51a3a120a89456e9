// What a platform sees of a System's statistics and problems (docs/embedding.md, "Statistics" and "Errors and
// warnings"): two Systems sharing one stats::Registry each with its summary under its name; errors and
// warnings through SystemC's report handler with numagpu's message types; every unbound plug point in one
// error; a wrong plug-point name answered with the valid ones. Each TEST runs in a process of its own
// (gtest_discover_tests), so the report handler and actions a test sets stay in it.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "numagpu/numagpu.hpp"
#include "small_system.hpp"

namespace numagpu {
namespace {

using sc_core::SC_US;
using testing::small_spec;
using testing::stream_kernel;

// What the report handler was given, in order.
struct Seen {
  sc_core::sc_severity severity;
  std::string type;
  std::string message;
};
std::vector<Seen> seen;

// A platform's handler: notes every report and does nothing else (it never throws).
void noting_handler(const sc_core::sc_report& r, const sc_core::sc_actions&) {
  seen.push_back({r.get_severity(), r.get_msg_type(), r.get_msg()});
}

// Two Systems, children of one host module, sharing the host's registry.
struct TwoGpus : sc_core::sc_module {
  TwoGpus(const sc_core::sc_module_name& name, const SystemSpec& a, const SystemSpec& b)
      : sc_module(name), gpu0("gpu0", Configuration(a), stats), gpu1("gpu1", Configuration(b), stats) {}
  stats::Registry stats;  // before the Systems that register into it
  System gpu0, gpu1;
};

// gpu0 runs one streaming kernel of 4 CTAs x 2 warps x 4 loads (32 loads), gpu1 two kernels of 8 CTAs x 2
// warps x 4 loads (2 x 64 = 128 loads): both summaries work, each under its System's name, and count its own.
TEST(SharedRegistry, TwoSystemsEachGetTheirSummaryUnderTheirName) {
  SystemSpec a = small_spec(1), b = small_spec(1);
  a.kernels = {stream_kernel("one", 4, 2, 4)};
  b.kernels = {stream_kernel("first", 8, 2, 4), stream_kernel("second", 8, 2, 4)};
  TwoGpus host("host", a, b);
  while (!(host.gpu0.done() && host.gpu1.done()) &&
         sc_core::sc_time_stamp() < sc_core::sc_time(1, sc_core::SC_MS))
    sc_core::sc_start(1, SC_US);
  ASSERT_TRUE(host.gpu0.healthy() && host.gpu1.healthy());
  const RunFacts& f0 = host.gpu0.summary();
  const RunFacts& f1 = host.gpu1.summary();
  EXPECT_EQ(f0.loads, 32u);
  EXPECT_EQ(f1.loads, 128u);
  EXPECT_EQ(host.stats.owners(), 2u);
  const stats::Scalar* c0 = host.stats.find_scalar("host.gpu0.summary.sim_cycles");
  const stats::Scalar* c1 = host.stats.find_scalar("host.gpu1.summary.sim_cycles");
  ASSERT_NE(c0, nullptr);
  ASSERT_NE(c1, nullptr);
  EXPECT_EQ(c0->value(), double(f0.sim_cycles));
  EXPECT_EQ(c1->value(), double(f1.sim_cycles));
  EXPECT_NE(host.stats.find_scalar("host.gpu1.summary.socket0.dram_gbps"), nullptr);
  EXPECT_FALSE(host.stats.contains("summary.sim_cycles"));  // nothing at the top, where they would collide
  // The components' own statistics were under their Systems' names already.
  EXPECT_EQ(host.stats.find_counter("host.gpu0.socket0.sm0.loads")->value() +
                host.stats.find_counter("host.gpu0.socket0.sm1.loads")->value() +
                host.stats.find_counter("host.gpu0.socket0.sm2.loads")->value() +
                host.stats.find_counter("host.gpu0.socket0.sm3.loads")->value(),
            32u);
  // The same summary again, and statistics written from either: no second registration.
  EXPECT_EQ(&host.gpu0.summary(), &f0);
  EXPECT_NO_THROW(host.gpu1.write_stats(::testing::TempDir() + "/shared_registry_gpu1"));
}

// A System alone in its registry keeps the names the numagpu program writes (summary.sim_cycles).
TEST(SharedRegistry, ASystemAloneKeepsTheProgramsNames) {
  SystemSpec spec = small_spec(1);
  spec.kernels = {stream_kernel("one", 4, 2, 4)};
  stats::Registry reg;
  System gpu("gpu", Configuration(spec), reg);
  while (!gpu.done() && sc_core::sc_time_stamp() < sc_core::sc_time(1, sc_core::SC_MS))
    sc_core::sc_start(1, SC_US);
  const RunFacts& f = gpu.summary();
  ASSERT_NE(reg.find_scalar("summary.sim_cycles"), nullptr);
  EXPECT_EQ(reg.find_scalar("summary.sim_cycles")->value(), double(f.sim_cycles));
}

// Two machines of one name cannot share a registry (their statistics would be one): the second is refused
// when it is built, as an error of type numagpu/stats. Each is built in a kernel of its own (one kernel
// cannot hold two modules of one name).
TEST(SharedRegistry, TwoSystemsOfOneNameAreRefused) {
  stats::Registry reg;
  SystemSpec spec = small_spec(1);
  spec.kernels = {stream_kernel("one", 4, 2, 4)};
  {
    FreshSystemCKernel kernel;
    System first("gpu", Configuration(spec), reg);
  }
  FreshSystemCKernel kernel;
  try {
    System second("gpu", Configuration(spec), reg);
    FAIL() << "built";
  } catch (const sc_core::sc_report& r) {
    EXPECT_STREQ(r.get_msg_type(), "numagpu/stats");
    EXPECT_NE(std::string(r.get_msg()).find("two machines named 'gpu' share it"), std::string::npos)
        << r.get_msg();
  }
}

// A host spec with plug points: two initiators at socket 0's crossbar and the DRAM target of socket 1.
SystemSpec with_plug_points() {
  SystemSpec s = small_spec(2);
  s.kernels = {stream_kernel("stream", 4, 2, 4)};
  s.external = {{ExternalPortSpec::Kind::kXbarInitiator, 0, "cpu", "external.0"},
                {ExternalPortSpec::Kind::kXbarInitiator, 0, "nic", "external.1"},
                {ExternalPortSpec::Kind::kDramTarget, 1, "host_dram", "external.2"}};
  return s;
}

// Unbound plug points are one SystemC error (not a C++ exception of numagpu's own), of type numagpu/port,
// listing every one with its configuration key; with SystemC's default actions sc_start throws it as an
// sc_report.
TEST(PortReports, UnboundPlugPointsAreOneReportListingEach) {
  stats::Registry reg;
  System gpu("gpu", Configuration(with_plug_points()), reg);
  try {
    sc_core::sc_start(1, SC_US);
    FAIL() << "elaborated";
  } catch (const sc_core::sc_report& r) {
    EXPECT_EQ(r.get_severity(), sc_core::SC_ERROR);
    EXPECT_STREQ(r.get_msg_type(), "numagpu/port");
    const std::string msg = r.get_msg();
    EXPECT_NE(msg.find("3 external ports are not bound"), std::string::npos) << msg;
    EXPECT_NE(msg.find("external.0: gpu.socket0.cpu is not bound"), std::string::npos) << msg;
    EXPECT_NE(msg.find("external.1: gpu.socket0.nic is not bound"), std::string::npos) << msg;
    EXPECT_NE(msg.find("external.2: gpu.socket1.host_dram is not bound"), std::string::npos) << msg;
  }
}

// The platform's own handler sees the error (and may decide what it does: this one only notes it); the
// System cannot go on, so the same message then ends sc_start as std::runtime_error.
TEST(PortReports, APlatformsHandlerSeesTheError) {
  sc_core::sc_report_handler::set_handler(noting_handler);
  stats::Registry reg;
  System gpu("gpu", Configuration(with_plug_points()), reg);
  EXPECT_THROW(sc_core::sc_start(1, SC_US), std::runtime_error);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].severity, sc_core::SC_ERROR);
  EXPECT_EQ(seen[0].type, "numagpu/port");
  EXPECT_NE(seen[0].message.find("gpu.socket1.host_dram"), std::string::npos) << seen[0].message;
}

// A wrong plug-point name is an error (numagpu/port) that lists the names there are, of that kind.
TEST(PortReports, AWrongPlugPointNameListsTheValidOnes) {
  stats::Registry reg;
  System gpu("gpu", Configuration(with_plug_points()), reg);
  try {
    gpu.external_initiator("cpux");
    FAIL() << "found";
  } catch (const sc_core::sc_report& r) {
    EXPECT_STREQ(r.get_msg_type(), "numagpu/port");
    EXPECT_STREQ(r.get_msg(),
                 "no external initiator port named 'cpux' in gpu (its initiator ports: cpu, nic)");
  }
  try {
    gpu.external_target("dram");
    FAIL() << "found";
  } catch (const sc_core::sc_report& r) {
    EXPECT_STREQ(r.get_msg(), "no external target port named 'dram' in gpu (its target ports: host_dram)");
  }
}

// What a run finds wrong reaches the handler as a warning of its kind, and the run goes on: a System that
// deadlocks (Embedding.AStuckSystemEndsAloneAndTheHostRunsOn) reports numagpu/watchdog.
TEST(RunReports, TheWatchdogIsAWarningTheHandlerSees) {
  sc_core::sc_report_handler::set_handler(noting_handler);
  const SystemSpec spec = testing::deadlocking_spec();
  stats::Registry reg;
  std::ostringstream diag;
  System gpu("gpu", spec, reg, diag);
  while (!gpu.done() && sc_core::sc_time_stamp() < sc_core::sc_time(1, sc_core::SC_MS))
    sc_core::sc_start(1, SC_US);
  ASSERT_TRUE(gpu.done());
  EXPECT_FALSE(gpu.healthy());
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen[0].severity, sc_core::SC_WARNING);
  EXPECT_EQ(seen[0].type, "numagpu/watchdog");
  EXPECT_NE(seen[0].message.find("no request completed"), std::string::npos) << seen[0].message;
}

}  // namespace
}  // namespace numagpu

// SystemC wants an sc_main; the tests run from gtest's main (each in its own process, tests/CMakeLists.txt).
extern "C" int sc_main(int, char*[]) {
  return 0;
}
