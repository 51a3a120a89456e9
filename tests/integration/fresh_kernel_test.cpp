// Several Systems in one process, one after another, each in a fresh SystemC kernel
// (system/fresh_kernel.hpp). The expected numbers are the hand-derived ones of system_test.cpp.
#include "system/fresh_kernel.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "small_system.hpp"
#include "system/system.hpp"

namespace numagpu {
namespace {

using sc_core::SC_PS;
using sc_core::sc_time;
using testing::small_spec;
using testing::stream_kernel;

std::uint64_t value(const stats::Registry& r, const std::string& path) {
  const auto* c = r.find_counter(path);
  if (!c) ADD_FAILURE() << "no counter " << path;
  return c ? c->value() : 0;
}

// SystemTest.FourSocketsRemoteTrafficCrossesLinksAndSwitch: 4 sockets, two streaming kernels; every socket
// sends 48 requests to its link, reads 32 lines from its DRAM and moves 7680 B each way over its link.
// Returns the cycle the workload finished.
Cycles run_four_sockets() {
  SystemSpec spec = small_spec(4);
  spec.kernels = {stream_kernel("first", 16, 2, 4), stream_kernel("again", 16, 2, 4)};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  EXPECT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(run.system->dispatcher().kernels_done(), 2u);
  for (int s = 0; s < 4; ++s) {
    const std::string sock = "system.socket" + std::to_string(s);
    EXPECT_EQ(value(reg, sock + ".xbar.requests_to_link"), 48u) << sock;
    EXPECT_EQ(value(reg, sock + ".dram.reads"), 32u) << sock;
    EXPECT_EQ(run.system->fabric_bytes_out(s), 7680u);
    EXPECT_EQ(run.system->fabric_bytes_in(s), 7680u);
  }
  EXPECT_EQ(value(reg, "system.switch0.requests"), 4u * 48u);
  return run.system->finish_cycle();
}

// SystemTest.IsolatedLoadSeesTheSumOfHopLatencies, with the clock at 500 MHz (2000 ps per cycle): the hops
// are the same in cycles, only the DRAM channel's 4/3 cycle rounds up to the picosecond differently
// (2666.67 -> 2667 ps). The load issues at cycle 1 and reaches DRAM at cycle 61 = 122000 ps; + 2667 + 100
// cycles (200000 ps) = 324667 ps; + 2.25 + 10 cycles back through the crossbar (24500 ps) = 349167 ps,
// i.e. cycle 174.58: 173 cycles of latency, and nothing happens after it.
void run_isolated_load_at_500_mhz() {
  SystemSpec spec = small_spec(1);
  spec.clock_mhz = 500;
  spec.kernels = {stream_kernel("one", 1, 1, 1)};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(run.system->context().clock.period_ps(), 2000u);
  const auto* lat = reg.find_average("system.socket0.sm0.load_latency");
  ASSERT_NE(lat, nullptr);
  EXPECT_EQ(lat->count(), 1u);
  EXPECT_DOUBLE_EQ(lat->mean(), 173.0);
  // Time started at zero in this kernel, whatever ran before.
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(349167, SC_PS));
  EXPECT_EQ(run.system->finish_cycle(), 174u);
}

// Two different systems and then the first again, each built, run and destroyed in a kernel of its own:
// each gets its own hand-derived results, and the repeat finishes at the very cycle of the first run.
TEST(FreshKernel, DifferentSystemsRunOneAfterAnotherInOneProcess) {
  Cycles first = 0, again = 0;
  {
    FreshSystemCKernel kernel;
    first = run_four_sockets();
  }
  {
    FreshSystemCKernel kernel;
    run_isolated_load_at_500_mhz();
  }
  {
    FreshSystemCKernel kernel;
    again = run_four_sockets();
  }
  EXPECT_GT(first, 0u);
  EXPECT_EQ(again, first);
}

// The kernel the process started with may run a system too (as every other test does); a fresh kernel
// afterwards starts from time zero, and the old kernel is current again once the fresh one is gone.
TEST(FreshKernel, FollowsARunInTheProcessKernelAndRestoresIt) {
  sc_core::sc_simcontext* const process_kernel = sc_core::sc_get_curr_simcontext();
  const Cycles first = run_four_sockets();
  const sc_time first_end = sc_core::sc_time_stamp();
  {
    FreshSystemCKernel kernel;
    EXPECT_NE(sc_core::sc_get_curr_simcontext(), process_kernel);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
    run_isolated_load_at_500_mhz();
  }
  EXPECT_EQ(sc_core::sc_get_curr_simcontext(), process_kernel);
  EXPECT_EQ(sc_core::sc_time_stamp(), first_end);
  EXPECT_GT(first, 0u);
}

// Swapping kernels from inside a simulation is refused.
struct SwapsFromAProcess : sc_core::sc_module {
  explicit SwapsFromAProcess(const sc_core::sc_module_name& n) : sc_module(n) {
    SC_HAS_PROCESS(SwapsFromAProcess);
    SC_METHOD(swap);
  }
  void swap() {
    try {
      FreshSystemCKernel kernel;
    } catch (const std::logic_error&) {
      refused = true;
    }
  }
  bool refused = false;
};

TEST(FreshKernel, RefusesToStartInsideASimulation) {
  FreshSystemCKernel kernel;
  SwapsFromAProcess m("m");
  sc_core::sc_start();
  EXPECT_TRUE(m.refused);
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
