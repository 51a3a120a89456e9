// The same machine at every SystemC time resolution (docs/embedding.md, "Time resolution"): the same cycles,
// the same statistics, and simulated times that are those cycles at the clock's period, whether the host
// runs at 1 fs, 1 ps or 1 ns. SystemC sets the resolution once per kernel: each run below is built in a
// FreshSystemCKernel of its own, whose resolution is set before anything else; and each TEST runs in a
// process of its own (gtest_discover_tests), so the process's first kernel is never the one under test.
#include <gtest/gtest.h>

#include <cmath>
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

// `b`, run at a resolution of `tick_ns`, is `a` (run at 1 ps or finer): the same cycles and statistics, and
// finished() at a's time rounded up to b's tick (the System ends at the exact instant of the last
// transaction; the host's event can only fire at the first tick not before it).
void expect_same(const Outcome& a, const Outcome& b, const char* what, double tick_ns = 1e-6) {
  EXPECT_TRUE(b.healthy) << what << "\n" << b.diagnostics;
  EXPECT_EQ(a.finish, b.finish) << what;
  EXPECT_EQ(a.drained, b.drained) << what;
  EXPECT_DOUBLE_EQ(std::ceil(a.finished_at_ns / tick_ns - 1e-6) * tick_ns, b.finished_at_ns) << what;
  EXPECT_TRUE(a.stats == b.stats) << what << ": the statistics differ";
}

// The run's own times agree with its cycles: finished() is notified when the last transaction ends, in the
// drained cycle (at 1 GHz a run of N cycles ends in [N, N + 1) ns, not at N x 1000 ns as when sc_time was
// built from picoseconds whatever the resolution), at the first tick not before that instant.
void expect_times_are_cycles(const Outcome& o, double period_ns, const char* what, double tick_ns = 1e-6) {
  EXPECT_TRUE(o.healthy) << what << "\n" << o.diagnostics;
  EXPECT_GT(o.drained, 100u) << what;  // it ran
  EXPECT_GE(o.finished_at_ns, double(o.drained) * period_ns) << what;
  EXPECT_LT(o.finished_at_ns, double(o.drained + 1) * period_ns + tick_ns - 1e-6) << what;
  EXPECT_LT(o.end_ns, double(o.drained) * period_ns + 1000.0 + 1e-6) << what;  // stopped within the 1 us step
}

// A clock whose period is not a whole picosecond runs at the nearest one: 1400 MHz is 714.29 ps, run as
// 714 ps. The run's times are its cycles at 714 ps: at 714.29 ps its end would lie 0.29 ps x cycles later,
// past the window [N, N + 1) x 714 ps once N exceeds 714 / 0.29 = 2,462 cycles: the two-socket streams
// with four times the accesses a warp (16) run longer than that.
TEST(TimeResolution, AClockWithoutAWholePicosecondPeriodRunsAtTheNearest) {
  SystemSpec spec = two_sockets();
  spec.kernels = {stream_kernel("first", 16, 2, 16), stream_kernel("again", 16, 2, 16)};
  spec.clock_mhz = 1400;
  const Outcome o = run_at(spec, 1, sc_core::SC_PS);
  expect_times_are_cycles(o, 0.714, "1400 MHz at 1 ps");
  EXPECT_GT(o.drained, 2462u);  // long enough for the window above to tell 714 ps from 714.29 ps
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
  expect_times_are_cycles(ns, 1.0, "1 ns", 1.0);
  expect_same(ps, ns, "1 ns", 1.0);
  expect_same(ps, run_at(spec, 100, sc_core::SC_PS), "100 ps", 0.1);
}

// At 1 ns a machine whose transfers take fractions of a nanosecond (2.25 ns a 144 B packet on the link,
// 1.33 ns a line on a DRAM channel) runs exactly as at 1 ps: the model keeps its times in picoseconds and
// SystemC only waits until the tick each instant falls in (docs/embedding.md, "Time resolution"). Only the
// host sees ticks: finished() at the first nanosecond not before the last transaction's instant.
TEST(TimeResolution, OneNanosecondGivesTheSameRunWithFractionsOfANanosecond) {
  const SystemSpec spec = two_sockets();
  const Outcome ps = run_at(spec, 1, sc_core::SC_PS);
  // The run ends inside a nanosecond, or the rounding below would not be tested.
  EXPECT_NE(ps.finished_at_ns, std::floor(ps.finished_at_ns)) << ps.finished_at_ns;
  const Outcome ns = run_at(spec, 1, sc_core::SC_NS);
  expect_times_are_cycles(ns, 1.0, "1 ns", 1.0);
  expect_same(ps, ns, "1 ns", 1.0);
  expect_same(ps, run_at(spec, 100, sc_core::SC_PS), "100 ps", 0.1);
  expect_same(ps, run_at(spec, 10, sc_core::SC_PS), "10 ps", 0.01);
  expect_same(ps, run_at(spec, 1, sc_core::SC_FS), "1 fs");
}

// The same through protocol checkers on every hop (checks.protocol): the hops then go through sockets, whose
// annotated delays are whole ticks; the exact time rides beside them in the payload (common/ports.cpp) and
// the checkers see non-decreasing, well-formed timings at 1 ns too (a healthy run has no protocol report).
TEST(TimeResolution, OneNanosecondThroughProtocolCheckersGivesTheSameRun) {
  SystemSpec spec = two_sockets();
  spec.protocol_checks = true;
  const Outcome ps = run_at(spec, 1, sc_core::SC_PS);
  expect_times_are_cycles(ps, 1.0, "1 ps");
  EXPECT_EQ(ps.drained, run_at(two_sockets(), 1, sc_core::SC_PS).drained);  // the checkers time nothing
  expect_same(ps, run_at(spec, 1, sc_core::SC_NS), "1 ns", 1.0);
}

// 500 MHz (2 ns a cycle) at 1 ns: every cycle is two ticks; the times are twice the cycles.
TEST(TimeResolution, ASlowerClockAtOneNanosecond) {
  SystemSpec spec = two_sockets_whole_cycles();
  spec.clock_mhz = 500;
  const Outcome ps = run_at(spec, 1, sc_core::SC_PS);
  expect_times_are_cycles(ps, 2.0, "1 ps");
  const Outcome ns = run_at(spec, 1, sc_core::SC_NS);
  expect_times_are_cycles(ns, 2.0, "1 ns", 1.0);
  expect_same(ps, ns, "1 ns", 1.0);
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
