// The same machine at every SystemC time resolution (docs/embedding.md, "Time resolution"): the same cycles,
// the same statistics, and simulated times that are those cycles at the clock's period, whether the host
// runs at 1 fs, 1 ps or 1 ns. SystemC sets the resolution once per kernel: each run below is built in a
// FreshSystemCKernel of its own, whose resolution is set before anything else; and each TEST runs in a
// process of its own (gtest_discover_tests), so the process's first kernel is never the one under test.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <string>

#include "numagpu/numagpu.hpp"
#include "small_system.hpp"

namespace numagpu {
namespace {

using sc_core::sc_time;
using sc_core::sc_time_unit;
using testing::small_spec;
using testing::stream_kernel;

struct Outcome {
  Cycles finish = 0, drained = 0;
  double finished_at_ns = 0;  // when finished() was notified, by the host's clock
  double end_ns = 0;          // sc_time_stamp() when the host stopped
  std::string stats;          // every statistic (Registry::text)
  std::string diagnostics;
  bool healthy = false;
};

// A host that notes when the System says it finished.
struct Watcher : sc_core::sc_module {
  SC_HAS_PROCESS(Watcher);
  Watcher(const sc_core::sc_module_name& name, System& gpu) : sc_module(name), gpu_(gpu) { SC_THREAD(watch); }
  void watch() {
    wait(gpu_.finished());
    finished_at = sc_core::sc_time_stamp();
  }
  System& gpu_;
  sc_time finished_at;
};

// `spec` built and run in a kernel of its own at the resolution `value` `unit`; the host steps sc_start
// 1 us at a time until the System is done, as docs/embedding.md's example does.
Outcome run_at(const SystemSpec& spec, double value, sc_time_unit unit) {
  FreshSystemCKernel kernel;
  sc_core::sc_set_time_resolution(value, unit);
  Outcome o;
  stats::Registry reg;
  std::ostringstream diag;
  System gpu("system", spec, reg, diag);
  Watcher host("host", gpu);
  while (!gpu.done() && sc_core::sc_time_stamp() < sc_time(1, sc_core::SC_MS))
    sc_core::sc_start(1, sc_core::SC_US);
  o.finish = gpu.finish_cycle();
  o.drained = gpu.drained_cycle();
  o.finished_at_ns = host.finished_at.to_seconds() * 1e9;
  o.end_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  o.stats = reg.text();
  o.diagnostics = diag.str();
  o.healthy = gpu.healthy() && gpu.done();
  return o;
}

// Two sockets of small_spec (docs: tests/integration/small_system.hpp), two streaming kernels: remote traffic
// over the link, DRAM, both caches. Its bandwidths make fractions of a cycle (a 144 B packet at 64 B/cycle
// is 2.25 cycles, a line at 96 B/cycle per DRAM channel 1.33 cycles), in whole picoseconds.
SystemSpec two_sockets() {
  SystemSpec spec = small_spec(2);
  spec.kernels = {stream_kernel("first", 16, 2, 4), stream_kernel("again", 16, 2, 4)};
  return spec;
}

// The same machine with rates that make every transfer a whole number of cycles: 16 B/cycle crossbar ports
// (a 16 B request 1 cycle, a 144 B response 9), 1024 B/cycle of DRAM over 8 channels (a line 1 cycle), 1 B
// per lane per cycle on the link's 16 lanes each way (16 B/cycle). At 1 GHz every time in it is a whole
// nanosecond.
SystemSpec two_sockets_whole_cycles() {
  SystemSpec spec = two_sockets();
  spec.crossbar.port_bytes_per_cycle = 16;
  spec.dram.bandwidth_bytes_num = 1024;
  spec.link.lane_rate_num = 1;
  return spec;
}

void expect_same(const Outcome& a, const Outcome& b, const char* what) {
  EXPECT_TRUE(b.healthy) << what << "\n" << b.diagnostics;
  EXPECT_EQ(a.finish, b.finish) << what;
  EXPECT_EQ(a.drained, b.drained) << what;
  EXPECT_DOUBLE_EQ(a.finished_at_ns, b.finished_at_ns) << what;
  EXPECT_TRUE(a.stats == b.stats) << what << ": the statistics differ";
}

// The run's own times agree with its cycles: finished() is notified when the last transaction ends, in the
// drained cycle (at 1 GHz a run of N cycles ends in [N, N + 1) ns, not at N x 1000 ns as when sc_time was
// built from picoseconds whatever the resolution).
void expect_times_are_cycles(const Outcome& o, double period_ns, const char* what) {
  EXPECT_TRUE(o.healthy) << what << "\n" << o.diagnostics;
  EXPECT_GT(o.drained, 100u) << what;  // it ran
  EXPECT_GE(o.finished_at_ns, double(o.drained) * period_ns) << what;
  EXPECT_LT(o.finished_at_ns, double(o.drained + 1) * period_ns) << what;
  EXPECT_LT(o.end_ns, double(o.drained) * period_ns + 1000.0 + 1e-6) << what;  // stopped within the 1 us step
}

// At 1 ps and finer the model's picoseconds are whole ticks: the same run, statistic for statistic.
TEST(TimeResolution, OnePicosecondAndFinerGiveTheSameRun) {
  const SystemSpec spec = two_sockets();
  const Outcome ps = run_at(spec, 1, sc_core::SC_PS);
  expect_times_are_cycles(ps, 1.0, "1 ps");
  expect_same(ps, run_at(spec, 1, sc_core::SC_FS), "1 fs");
  expect_same(ps, run_at(spec, 10, sc_core::SC_FS), "10 fs");
  expect_same(ps, run_at(spec, 100, sc_core::SC_FS), "100 fs");
}

// At 1 ns a machine whose times are whole nanoseconds runs exactly as at 1 ps and 1 fs.
TEST(TimeResolution, OneNanosecondGivesTheSameRunWhenEveryTimeIsWholeNanoseconds) {
  const SystemSpec spec = two_sockets_whole_cycles();
  const Outcome ps = run_at(spec, 1, sc_core::SC_PS);
  expect_times_are_cycles(ps, 1.0, "1 ps");
  expect_same(ps, run_at(spec, 1, sc_core::SC_FS), "1 fs");
  const Outcome ns = run_at(spec, 1, sc_core::SC_NS);
  expect_times_are_cycles(ns, 1.0, "1 ns");
  expect_same(ps, ns, "1 ns");
  expect_same(ps, run_at(spec, 100, sc_core::SC_PS), "100 ps");
}

// At 1 ns a fraction of a nanosecond becomes the next nanosecond (never earlier than the model says): the
// run is consistent in itself (its times are its cycles), moves the same traffic, and ends no earlier than
// at 1 ps and within a few percent of it (the fractions only delay: 2.25 -> 3 cycles per crossbar packet).
TEST(TimeResolution, OneNanosecondRoundsFractionsUpAndStaysConsistent) {
  const SystemSpec spec = two_sockets();
  const Outcome ps = run_at(spec, 1, sc_core::SC_PS);
  const Outcome ns = run_at(spec, 1, sc_core::SC_NS);
  expect_times_are_cycles(ns, 1.0, "1 ns");
  std::cout << "drained: " << ps.drained << " cycles at 1 ps, " << ns.drained << " at 1 ns\n";
  EXPECT_GE(ns.drained, ps.drained);
  EXPECT_LT(double(ns.drained), 1.5 * double(ps.drained));
}

// 500 MHz (2 ns a cycle) at 1 ns: every cycle is two ticks; the times are twice the cycles.
TEST(TimeResolution, ASlowerClockAtOneNanosecond) {
  SystemSpec spec = two_sockets_whole_cycles();
  spec.clock_mhz = 500;
  const Outcome ps = run_at(spec, 1, sc_core::SC_PS);
  expect_times_are_cycles(ps, 2.0, "1 ps");
  const Outcome ns = run_at(spec, 1, sc_core::SC_NS);
  expect_times_are_cycles(ns, 2.0, "1 ns");
  expect_same(ps, ns, "1 ns");
}

// A clock whose period is not a whole number of ticks is refused while the System is built, by its key:
// 1250 MHz is 800 ps, not a whole number of nanoseconds.
TEST(TimeResolution, APeriodThatIsNotWholeTicksIsRefusedByItsKey) {
  FreshSystemCKernel kernel;
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
  SystemSpec spec = two_sockets();
  spec.clock_mhz = 1250;
  stats::Registry reg;
  std::ostringstream diag;
  try {
    System gpu("system", spec, reg, diag);
    FAIL() << "built";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("numagpu/config"), std::string::npos) << what;
    EXPECT_NE(
        what.find("system.clock_mhz: 1250 MHz has a period of 800 ps, not a whole number of ticks of the "
                  "SystemC time resolution (1 ns)"),
        std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace numagpu

// SystemC wants an sc_main; the tests run from gtest's main (each in its own process, tests/CMakeLists.txt).
extern "C" int sc_main(int, char*[]) {
  return 0;
}
