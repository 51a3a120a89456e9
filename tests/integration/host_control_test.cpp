// Host control of a System (docs/embedding.md, "Host control", "Clock and reset"): a command queue that
// takes kernels at run time and reports their ends; a kernel computing on what the host wrote through TLM
// (memory.functional), the host reading its results back; the memory-mapped registers (doorbell, descriptor,
// completion status, interrupt); reset; a host clock followed, and the errors when it cannot be.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "host_core.hpp"
#include "numagpu/numagpu.hpp"
#include "small_system.hpp"

namespace numagpu {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;
using testing::small_spec;
using testing::stream_kernel;

constexpr std::uint64_t kX = 0x100000, kY = 0x200000;  // where the host puts saxpy's two arrays
constexpr unsigned kN = 1024;                          // floats each: 4 KiB, 32 lines of 128 B

std::uint64_t sum_over_sms(const stats::Registry& reg, const std::string& socket, unsigned sms,
                           const char* what) {
  std::uint64_t total = 0;
  for (unsigned i = 0; i < sms; ++i) {
    const auto* c = reg.find_counter(socket + ".sm" + std::to_string(i) + "." + what);
    total += c ? c->value() : 0;
  }
  return total;
}

std::unique_ptr<KernelProgram> synthetic(const char* name, std::uint32_t ctas, std::uint32_t warps,
                                         std::uint32_t accesses) {
  return std::make_unique<SyntheticProgram>(stream_kernel(name, ctas, warps, accesses), 128);
}

// One socket, functional memory, the host's CPU at its crossbar ("cpu").
SystemSpec functional_spec() {
  SystemSpec s = small_spec(1);
  s.functional_memory = true;
  s.external = {{ExternalPortSpec::Kind::kXbarInitiator, 0, "cpu", ""}};
  return s;
}

// The host: a CPU core (plain payloads into the System's crossbar), a bus master for the registers, the
// interrupt line and a reset line of its own, and a script its thread runs.
struct Platform : sc_core::sc_module {
  SC_HAS_PROCESS(Platform);
  Platform(const sc_core::sc_module_name& name, const SystemSpec& spec)
      : sc_module(name),
        core("core"),
        rst_n("rst_n", true),
        gpu("gpu", Configuration(spec), stats, std::vector<std::unique_ptr<KernelProgram>>{}, diag) {
    if (!spec.external.empty()) core.socket.bind(gpu.external_initiator("cpu"));
    bus.bind(gpu.control().socket);
    irq.bind(gpu.control().interrupt);
    gpu.reset_n.bind(rst_n);
    SC_THREAD(main);
  }
  void main() {
    if (script) script(*this);
    finished = true;
  }

  // 32-bit register accesses; 8 bytes for an ARG.
  tlm::tlm_response_status reg(tlm::tlm_command cmd, std::uint32_t offset, std::uint64_t& value,
                               unsigned bytes = 4) {
    tlm::tlm_generic_payload gp;
    unsigned char data[8] = {};
    if (cmd == tlm::TLM_WRITE_COMMAND) std::memcpy(data, &value, bytes);
    gp.set_command(cmd);
    gp.set_address(offset);
    gp.set_data_ptr(data);
    gp.set_data_length(bytes);
    gp.set_streaming_width(bytes);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = sc_core::SC_ZERO_TIME;
    bus->b_transport(gp, delay);
    wait(delay);
    if (cmd == tlm::TLM_READ_COMMAND) {
      value = 0;
      std::memcpy(&value, data, bytes);
    }
    return gp.get_response_status();
  }
  std::uint64_t read(std::uint32_t offset) {
    std::uint64_t v = 0;
    EXPECT_EQ(reg(tlm::TLM_READ_COMMAND, offset, v), tlm::TLM_OK_RESPONSE) << offset;
    return v;
  }
  void write(std::uint32_t offset, std::uint64_t v, unsigned bytes = 4) {
    EXPECT_EQ(reg(tlm::TLM_WRITE_COMMAND, offset, v, bytes), tlm::TLM_OK_RESPONSE) << offset;
  }

  // x[i] = i, y[i] = 1000 + i, written through the crossbar a line (32 floats) at a time.
  void write_inputs() {
    for (std::uint64_t array : {kX, kY}) {
      for (unsigned line = 0; line < kN / 32; ++line) {
        float values[32];
        for (unsigned j = 0; j < 32; ++j)
          values[j] = float((array == kY ? 1000 : 0) + line * 32 + j);
        ASSERT_EQ(core.blocking(tlm::TLM_WRITE_COMMAND, array + line * 128,
                                reinterpret_cast<unsigned char*>(values), 128),
                  tlm::TLM_OK_RESPONSE);
      }
    }
  }
  // y = 2 x + y: y[i] = 2 i + 1000 + i = 3 i + 1000 (exact in float below 2^24). Returns the mismatches.
  unsigned check_results() {
    unsigned wrong = 0;
    for (unsigned line = 0; line < kN / 32; ++line) {
      float values[32];
      EXPECT_EQ(core.blocking(tlm::TLM_READ_COMMAND, kY + line * 128,
                              reinterpret_cast<unsigned char*>(values), 128),
                tlm::TLM_OK_RESPONSE);
      for (unsigned j = 0; j < 32; ++j) {
        const unsigned i = line * 32 + j;
        if (values[j] != float(3 * i + 1000)) ++wrong;
      }
    }
    return wrong;
  }

  testing::HostCore core;
  tlm_utils::simple_initiator_socket<Platform> bus{"bus"};
  sc_core::sc_in<bool> irq{"irq"};
  sc_core::sc_signal<bool> rst_n;
  std::ostringstream diag;
  stats::Registry stats;
  System gpu;
  std::function<void(Platform&)> script;
  bool finished = false;
};

// Kernels launched at run time run in order, each reporting its end once; an idle System that gets a new
// kernel starts again. Loads: a stream kernel issues ctas x warps x accesses line requests.
TEST(HostControl, CommandQueueRunsKernelsLaunchedAtRunTimeInOrder) {
  FreshSystemCKernel kernel;
  Platform p("host", functional_spec());  // no configured kernels: passive until the first launch
  std::vector<System::LaunchRecord> ended;
  p.script = [&](Platform& h) {
    wait(100, SC_NS);
    auto note = [&](const System::LaunchRecord& r) { ended.push_back(r); };
    EXPECT_EQ(h.gpu.launch(synthetic("first", 8, 2, 4), note), 1u);   // 64 loads
    EXPECT_EQ(h.gpu.launch(synthetic("second", 4, 1, 2), note), 2u);  // 8 loads
    EXPECT_EQ(h.gpu.launches_pending(), 2u);
    while (ended.size() < 2)
      wait(h.gpu.launch_ended());
    EXPECT_EQ(sum_over_sms(h.stats, "host.gpu.socket0", 4, "loads"), 72u);
    while (!h.gpu.done())
      wait(h.gpu.finished());
    wait(1, SC_US);                                                  // idle: nothing of the System runs
    EXPECT_EQ(h.gpu.launch(synthetic("third", 4, 1, 4), note), 3u);  // 16 loads
    EXPECT_FALSE(h.gpu.done());
    while (ended.size() < 3)
      wait(h.gpu.launch_ended());
  };
  sc_core::sc_start(1000, SC_US);
  ASSERT_TRUE(p.finished) << p.diag.str();
  ASSERT_EQ(ended.size(), 3u);
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(ended[i].id, i + 1);
    EXPECT_FALSE(ended[i].aborted);
    EXPECT_GT(ended[i].ended, ended[i].submitted);
  }
  EXPECT_EQ(ended[0].kernel, "first");
  EXPECT_EQ(ended[0].submitted, 100u);  // 100 ns at 1 GHz
  EXPECT_LE(ended[0].ended, ended[1].ended);
  EXPECT_GE(ended[2].submitted, ended[1].ended + 1000);
  EXPECT_EQ(sum_over_sms(p.stats, "host.gpu.socket0", 4, "loads"), 88u);
  EXPECT_EQ(p.gpu.dispatcher().kernels_done(), 3u);
  EXPECT_TRUE(p.gpu.healthy()) << p.diag.str();
}

// The host writes saxpy's x and y through the crossbar, launches example/saxpy on its addresses and reads y
// back: y = 2 x + y computed by the kernel's CTAs on the bytes the host wrote. saxpy over 1024 floats: 4
// CTAs of 8 warps; each warp loads a line of x and one of y and stores one of y: 64 loads, 32 stores.
TEST(HostControl, KernelComputesWhatTheHostWroteAndTheHostReadsItBack) {
  FreshSystemCKernel kernel;
  Platform p("host", functional_spec());
  bool ended = false;
  p.script = [&](Platform& h) {
    h.write_inputs();
    h.gpu.launch(h.gpu.library_kernel("example/saxpy", "n=1024", {{"x", kX}, {"y", kY}}),
                 [&](const System::LaunchRecord& r) { ended = !r.aborted; });
    wait(h.gpu.launch_ended());
    EXPECT_EQ(h.check_results(), 0u);
  };
  sc_core::sc_start(1000, SC_US);
  ASSERT_TRUE(p.finished) << p.diag.str();
  EXPECT_TRUE(ended);
  EXPECT_EQ(sum_over_sms(p.stats, "host.gpu.socket0", 4, "loads"), 64u);
  EXPECT_EQ(sum_over_sms(p.stats, "host.gpu.socket0", 4, "stores"), 32u);
  EXPECT_TRUE(p.gpu.healthy()) << p.diag.str();
}

// An array the kernel does not have, or a kernel the library does not have, is refused by name
// (kernels::KernelError, a std::invalid_argument).
TEST(HostControl, NamingAnArrayTheKernelDoesNotHaveIsAnError) {
  FreshSystemCKernel kernel;
  Platform p("host", functional_spec());
  EXPECT_THROW(p.gpu.library_kernel("example/saxpy", "n=64", {{"z", kX}}), std::invalid_argument);
  EXPECT_THROW(p.gpu.library_kernel("example/nonesuch", "", {}), std::invalid_argument);
}

// The registers: the host writes the descriptor, enables the interrupt, rings the doorbell, sleeps until the
// interrupt rises, reads the completion status, clears it (the line drops) and reads the results.
TEST(HostControl, RegistersLaunchThroughTheDoorbellAndRaiseTheInterrupt) {
  FreshSystemCKernel kernel;
  Platform p("host", functional_spec());
  p.gpu.control().register_kernel(7, [&p](const HostControl::Args& a) {
    return p.gpu.library_kernel("example/saxpy", "n=" + std::to_string(a[2]), {{"x", a[0]}, {"y", a[1]}});
  });
  std::vector<std::uint64_t> seen;
  p.script = [&](Platform& h) {
    EXPECT_EQ(h.read(HostControl::kId), 0x4e475055u);
    h.write_inputs();
    h.write(HostControl::kArgs + 0, kX, 8);            // one 8-byte access
    h.write(HostControl::kArgs + 8, kY & 0xffffffff);  // two halves
    h.write(HostControl::kArgs + 12, kY >> 32);
    h.write(HostControl::kArgs + 16, kN, 8);
    EXPECT_EQ(h.read(HostControl::kArgs + 8), kY);
    h.write(HostControl::kKernel, 7);
    h.write(HostControl::kControl, 1);  // interrupt enable
    h.write(HostControl::kDoorbell, 1);
    wait(1, SC_NS);
    seen.push_back(h.read(HostControl::kStatus));  // busy
    wait(h.irq.posedge_event());
    seen.push_back(h.read(HostControl::kIrqStatus));
    seen.push_back(h.read(HostControl::kSubmitted));
    seen.push_back(h.read(HostControl::kCompleted));
    seen.push_back(h.read(HostControl::kLast));
    seen.push_back(h.read(HostControl::kStatus));
    h.write(HostControl::kIrqStatus, 1);  // write 1 to clear
    wait(1, SC_NS);
    seen.push_back(h.irq.read());
    EXPECT_EQ(h.check_results(), 0u);
    // A doorbell for a kernel nobody registered is refused: LAST = 3, IRQ_STATUS bit 1, the line up again.
    h.write(HostControl::kKernel, 9);
    h.write(HostControl::kDoorbell, 1);
    wait(h.irq.posedge_event());
    seen.push_back(h.read(HostControl::kLast));
    seen.push_back(h.read(HostControl::kIrqStatus));
    // Malformed accesses: an offset with no register, a 2-byte access, an 8-byte one outside the ARGs.
    std::uint64_t v = 0;
    EXPECT_EQ(h.reg(tlm::TLM_READ_COMMAND, 0x24, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(h.reg(tlm::TLM_READ_COMMAND, 0x80, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(h.reg(tlm::TLM_READ_COMMAND, HostControl::kStatus, v, 2), tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(h.reg(tlm::TLM_READ_COMMAND, HostControl::kId, v, 8), tlm::TLM_BURST_ERROR_RESPONSE);
  };
  sc_core::sc_start(1000, SC_US);
  ASSERT_TRUE(p.finished) << p.diag.str();
  const std::vector<std::uint64_t> expected = {1, 1, 1, 1, HostControl::kDone, 0, 0, HostControl::kRefused,
                                               2};
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(sum_over_sms(p.stats, "host.gpu.socket0", 4, "loads"), 64u);
  EXPECT_TRUE(p.gpu.healthy()) << p.diag.str();
}

// With interrupts disabled a completion sets IRQ_STATUS and control().completed() fires, but the line stays
// low; enabling them then raises it (the line is a level: IRQ_STATUS and the enable). nb_transport works too:
// a register answers on the forward call (TLM_COMPLETED, one cycle of delay at 1 GHz).
TEST(HostControl, TheInterruptLineIsTheStatusAndTheEnable) {
  FreshSystemCKernel kernel;
  Platform p("host", functional_spec());
  p.gpu.control().register_kernel(1, [](const HostControl::Args&) { return synthetic("k", 4, 1, 2); });
  std::vector<std::uint64_t> seen;
  p.script = [&](Platform& h) {
    h.write(HostControl::kKernel, 1);
    h.write(HostControl::kDoorbell, 1);
    wait(h.gpu.control().completed());
    wait(1, SC_NS);
    seen.push_back(h.read(HostControl::kIrqStatus));
    seen.push_back(h.irq.read());
    h.write(HostControl::kControl, 1);
    wait(1, SC_NS);
    seen.push_back(h.irq.read());
    tlm::tlm_generic_payload gp;
    std::uint32_t value = 0;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(HostControl::kCompleted);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(h.bus->nb_transport_fw(gp, phase, delay), tlm::TLM_COMPLETED);
    EXPECT_EQ(delay, sc_time(1, SC_NS));
    seen.push_back(value);
  };
  sc_core::sc_start(1000, SC_US);
  ASSERT_TRUE(p.finished) << p.diag.str();
  const std::vector<std::uint64_t> expected = {1, 0, 1, 1};
  EXPECT_EQ(seen, expected);
}

// Reset low in the middle of a long kernel with a second queued: no more CTAs are handed out, both end
// aborted, launches are refused while it is held; released, the System runs a new kernel to its end. The
// long kernel would issue 64 x 4 x 32 = 8192 loads; 4 SMs of 16 warps hold 16 of its 64 CTAs at a time,
// and a CTA's warps issue 32 dependent loads each of at least 100 cycles (the DRAM's latency), so by cycle
// 2000 the first 16 CTAs cannot have ended: at most 16 x 4 x 32 = 2048 loads are issued before the abort.
TEST(HostControl, ResetAbortsWorkAndTheSystemTakesNewKernelsAfterIt) {
  FreshSystemCKernel kernel;
  Platform p("host", functional_spec());
  std::vector<System::LaunchRecord> ended;
  std::uint64_t loads_at_reset = 0;
  p.script = [&](Platform& h) {
    auto note = [&](const System::LaunchRecord& r) { ended.push_back(r); };
    h.gpu.launch(synthetic("long", 64, 4, 32), note);
    h.gpu.launch(synthetic("queued", 4, 1, 2), note);
    wait(2, SC_US);
    h.rst_n.write(false);
    wait(1, SC_NS);
    EXPECT_TRUE(h.gpu.in_reset());
    EXPECT_THROW(h.gpu.launch(synthetic("refused", 1, 1, 1), note), std::logic_error);
    EXPECT_EQ(h.read(HostControl::kStatus), 2u);  // held in reset, nothing queued through the registers
    h.write(HostControl::kDoorbell, 1);
    wait(1, SC_NS);
    EXPECT_EQ(h.read(HostControl::kLast), HostControl::kRefused);
    while (ended.size() < 2)
      wait(h.gpu.launch_ended());
    while (!h.gpu.done())
      wait(h.gpu.finished());
    loads_at_reset = sum_over_sms(h.stats, "host.gpu.socket0", 4, "loads");
    h.rst_n.write(true);
    wait(1, SC_NS);
    EXPECT_EQ(h.read(HostControl::kStatus), 0u);
    EXPECT_EQ(h.read(HostControl::kLast), HostControl::kNone);  // cleared again as the reset ends
    h.gpu.launch(synthetic("after", 4, 1, 2), note);            // 8 loads
    while (ended.size() < 3)
      wait(h.gpu.launch_ended());
  };
  sc_core::sc_start(1000, SC_US);
  ASSERT_TRUE(p.finished) << p.diag.str();
  ASSERT_EQ(ended.size(), 3u);
  EXPECT_TRUE(ended[0].aborted);
  EXPECT_TRUE(ended[1].aborted);
  EXPECT_FALSE(ended[2].aborted);
  EXPECT_GT(loads_at_reset, 0u);
  EXPECT_LE(loads_at_reset, 2048u);
  EXPECT_EQ(sum_over_sms(p.stats, "host.gpu.socket0", 4, "loads"), loads_at_reset + 8);
  EXPECT_TRUE(p.gpu.healthy()) << p.diag.str();
}

// --- Clock ---

// The host's clock and a System that follows it: the same cycles as on its own clock.
struct ClockedHost : sc_core::sc_module {
  ClockedHost(const sc_core::sc_module_name& name, const Configuration& config, sc_time period,
              sc_time start = sc_core::SC_ZERO_TIME)
      : sc_module(name),
        clock("clock", period, 0.5, start),
        gpu("gpu", config, stats, std::vector<std::unique_ptr<KernelProgram>>{}, diag) {
    gpu.clock_in.bind(clock);
  }
  sc_core::sc_clock clock;
  std::ostringstream diag;
  stats::Registry stats;
  System gpu;
};

const char* kStream = R"(
system: {sockets: 1}
sm: {per_socket: 4}
workload:
  kernels: [{name: stream, pattern: stream, ctas: 8, warps_per_cta: 2, accesses_per_warp: 4}]
)";

Cycles finish_alone(const std::string& clock_setting) {
  FreshSystemCKernel kernel;
  stats::Registry reg;
  System gpu("gpu", Configuration::from_yaml(kStream, {clock_setting}), reg);
  gpu.run();
  return gpu.finish_cycle();
}

TEST(HostClock, ClockSettingIsTheMhzOfAPeriod) {
  EXPECT_EQ(System::clock_setting(sc_time(2, SC_NS)), "system.clock_mhz=500");
  EXPECT_EQ(System::clock_setting(sc_time(800, sc_core::SC_PS)), "system.clock_mhz=1250");
  EXPECT_THROW(System::clock_setting(sc_time(3, SC_NS)), std::invalid_argument);  // 333.3 MHz
  // 1e6 / 714 = 1400.56: 1401 MHz, the nearest, whose period rounds to 714 ps (common/cycles.hpp).
  EXPECT_EQ(System::clock_setting(sc_time(714, sc_core::SC_PS)), "system.clock_mhz=1401");
}

// A 2 ns sc_clock: the System at 500 MHz follows it and finishes at the cycle it reaches on its own clock,
// at that cycle's time (2 ns a cycle).
TEST(HostClock, ASystemFollowingAnScClockRunsAsOnItsOwn) {
  const std::string setting = System::clock_setting(sc_time(2, SC_NS));
  const Cycles alone = finish_alone(setting);
  FreshSystemCKernel kernel;
  ClockedHost host("host", Configuration::from_yaml(kStream, {setting}), sc_time(2, SC_NS));
  sc_core::sc_start(100, SC_US);
  ASSERT_TRUE(host.gpu.done()) << host.diag.str();
  EXPECT_EQ(host.gpu.finish_cycle(), alone);
  EXPECT_TRUE(host.gpu.healthy()) << host.diag.str();
}

// A run-time clock change (docs/embedding.md, "Changing the clock during the run"). The System idles 1000 ns
// at 1 GHz (cycle 1000), goes to 500 MHz at that boundary, idles 2000 ns more: 1000 cycles, cycle 2000 at
// 3000 ns. A stream kernel launched then (8 CTAs x 2 warps x 4 accesses: 64 loads) ends at cycle e, which
// is 3000 ns + (e - 2000) x 2 ns into the run (the end may come between two edges: within one 2 ns cycle).
TEST(HostClock, AClockChangeMidRunCountsEachSpanInItsOwnPeriod) {
  FreshSystemCKernel kernel;
  Platform p("host", functional_spec());
  System::LaunchRecord record;
  sc_time end_time;
  p.script = [&](Platform& h) {
    const GpuClock& clock = h.gpu.context().clock;
    wait(1000, SC_NS);
    EXPECT_EQ(clock.now(), 1000u);
    EXPECT_EQ(h.gpu.set_clock_mhz(500), 1000u);  // on a boundary: from now
    EXPECT_EQ(clock.cycles(1), sc_time(2, SC_NS));
    wait(2000, SC_NS);
    EXPECT_EQ(clock.now(), 2000u);
    bool ended = false;
    h.gpu.launch(synthetic("stream", 8, 2, 4), [&](const System::LaunchRecord& r) {
      record = r;
      ended = true;
    });
    while (!ended)
      wait(h.gpu.launch_ended());
    end_time = sc_core::sc_time_stamp();
  };
  sc_core::sc_start(1000, SC_US);
  ASSERT_TRUE(p.finished) << p.diag.str();
  EXPECT_EQ(record.submitted, 2000u);
  ASSERT_GT(record.ended, record.submitted);
  const sc_time edge = sc_time(3000, SC_NS) + sc_time(2.0 * double(record.ended - 2000), SC_NS);
  EXPECT_GE(end_time, edge);
  EXPECT_LT(end_time, edge + sc_time(2, SC_NS));
  EXPECT_EQ(sum_over_sms(p.stats, "host.gpu.socket0", 4, "loads"), 64u);
  EXPECT_TRUE(p.gpu.healthy()) << p.diag.str();
}

// A change asked between two edges applies from the next one: at 1.5 ns (cycle 1 at 1 GHz) a change to
// 250 MHz starts at cycle 2, 2 ns; cycle 3 then starts at 2 + 4 = 6 ns.
TEST(HostClock, AClockChangeBetweenEdgesAppliesFromTheNextEdge) {
  FreshSystemCKernel kernel;
  Platform p("host", functional_spec());
  p.script = [&](Platform& h) {
    const GpuClock& clock = h.gpu.context().clock;
    wait(1500, sc_core::SC_PS);
    EXPECT_EQ(h.gpu.set_clock_mhz(250), 2u);
    EXPECT_EQ(clock.now(), 1u);  // still the last 1 ns cycle
    wait(500, sc_core::SC_PS);
    EXPECT_EQ(clock.now(), 2u);
    wait(3999, sc_core::SC_PS);
    EXPECT_EQ(clock.now(), 2u);
    wait(1, sc_core::SC_PS);
    EXPECT_EQ(clock.now(), 3u);
    EXPECT_EQ(clock.cycle_start_ps(3), 6000u);
    // Cycles before the change keep their own period (the policy blocks' busy views and power ask them):
    // cycle 1 is [1000, 2000) ps, cycle 2 [2000, 6000).
    EXPECT_EQ(clock.cycle_start_ps(1), 1000u);
    EXPECT_EQ(clock.cycle_length_ps(1), 1000u);
    EXPECT_EQ(clock.cycle_length_ps(2), 4000u);
    EXPECT_EQ(clock.first_cycle_from_ps(1500), 2u);
    EXPECT_EQ(clock.first_cycle_from_ps(2500), 3u);
    ASSERT_EQ(clock.steps().size(), 2u);
    EXPECT_EQ(clock.steps()[1].cycle, 2u);
    EXPECT_EQ(clock.steps()[1].start_ps, 2000u);
    EXPECT_THROW(h.gpu.set_clock_mhz(0), std::invalid_argument);  // no period
    // 3 MHz (333,333.3 ps) runs at 333,333 ps, the nearest whole picosecond (common/cycles.hpp): no error.
  };
  sc_core::sc_start(1, SC_US);
  EXPECT_TRUE(p.finished) << p.diag.str();
}

std::string error_of_start() {
  try {
    sc_core::sc_start(100, SC_US);
  } catch (const sc_core::sc_report& r) {
    return r.get_msg();
  }
  return "";
}

// The host's own clock port (an sc_in<bool> of its top module, bound to its clock) bound to the System's:
// the System reads the sc_clock behind it, and a 2 ns clock against a 1 GHz System is refused the same way.
struct PortedHost : sc_core::sc_module {
  PortedHost(const sc_core::sc_module_name& name, const Configuration& config)
      : sc_module(name), gpu("gpu", config, stats, std::vector<std::unique_ptr<KernelProgram>>{}, diag) {
    gpu.clock_in.bind(clk);
  }
  sc_core::sc_in<bool> clk{"clk"};
  std::ostringstream diag;
  stats::Registry stats;
  System gpu;
};

TEST(HostClock, AClockThroughTheHostsOwnPortIsFollowed) {
  const std::string setting = System::clock_setting(sc_time(2, SC_NS));
  const Cycles alone = finish_alone(setting);
  {
    FreshSystemCKernel kernel;
    sc_core::sc_clock clock("clock", sc_time(2, SC_NS));
    PortedHost host("host", Configuration::from_yaml(kStream, {setting}));
    host.clk.bind(clock);
    sc_core::sc_start(100, SC_US);
    ASSERT_TRUE(host.gpu.done()) << host.diag.str();
    EXPECT_EQ(host.gpu.finish_cycle(), alone);
  }
  {
    FreshSystemCKernel kernel;
    sc_core::sc_clock clock("clock", sc_time(4, SC_NS));
    PortedHost host("host", Configuration::from_yaml(kStream, {setting}));
    host.clk.bind(clock);
    const std::string message = error_of_start();
    EXPECT_NE(message.find("4 ns"), std::string::npos) << message;
  }
}

TEST(HostClock, AClockOfAnotherPeriodIsAnErrorNamingBoth) {
  FreshSystemCKernel kernel;
  ClockedHost host("host", Configuration::from_yaml(kStream), sc_time(2, SC_NS));  // the System: 1 GHz
  const std::string message = error_of_start();
  EXPECT_NE(message.find("host.gpu.clock_in"), std::string::npos) << message;
  EXPECT_NE(message.find("2 ns"), std::string::npos) << message;
  EXPECT_NE(message.find("clock_setting"), std::string::npos) << message;
}

TEST(HostClock, AClockWhoseEdgesAreOffTheCycleGridIsAnError) {
  FreshSystemCKernel kernel;
  ClockedHost host("host", Configuration::from_yaml(kStream), sc_time(1, SC_NS),
                   sc_time(500, sc_core::SC_PS));
  const std::string message = error_of_start();
  EXPECT_NE(message.find("cycle boundaries"), std::string::npos) << message;
}

// A clock signal that is not an sc_clock (a host's own generator): measured over its first two rising
// edges. Rising at 1, 3, 5 ns: a 2 ns period off the System's 2 ns grid (0, 2, 4 ns).
struct Toggler : sc_core::sc_module {
  SC_HAS_PROCESS(Toggler);
  Toggler(const sc_core::sc_module_name& name, sc_time first_rise)
      : sc_module(name), first_rise_(first_rise) {
    SC_THREAD(run);
  }
  void run() {
    wait(first_rise_);
    for (;;) {
      line.write(true);
      wait(1, SC_NS);
      line.write(false);
      wait(1, SC_NS);
    }
  }
  sc_core::sc_signal<bool> line{"line"};
  sc_time first_rise_;
};

// A host generator whose first `periods` periods are `first` long (rising at 0, first, ...), the rest `then`.
struct ChangingToggler : sc_core::sc_module {
  SC_HAS_PROCESS(ChangingToggler);
  ChangingToggler(const sc_core::sc_module_name& name, sc_time first, unsigned rises, sc_time then)
      : sc_module(name), first_(first), then_(then), rises_(rises) {
    SC_THREAD(run);
  }
  void run() {
    for (unsigned k = 0;; ++k) {
      const sc_time period = k < rises_ ? first_ : then_;
      line.write(true);
      wait(period / 2);
      line.write(false);
      wait(period / 2);
    }
  }
  sc_core::sc_signal<bool> line{"line"};
  sc_time first_, then_;
  unsigned rises_;
};

// The System at 500 MHz on a host clock signal whose period changes (docs/embedding.md, "Clock and reset").
// Ten periods of 2 ns (rises at 0, 2, ..., 20 ns), then 4 ns: the rise at 24 ns shows the change (it learns
// of it one edge late: it counted [20, 22) and [22, 24) as cycles 10 and 11), on its 2 ns grid, so cycle 12
// starts there; cycles of 4 ns from then: at 43 ns, cycle 12 + (43 - 24) / 4 = 16, and cycle 10 was 2 ns.
// The other way, 2 ns then 1 ns: the rise at 21 ns shows it, off the 2 ns grid: it ends cycle 10 ([20, 21),
// cut short to 1 ns) and cycle 11 starts at 21 ns; at 25.5 ns, cycle 11 + 4 = 15.
TEST(HostClock, AClockSignalWhosePeriodChangesIsFollowed) {
  const std::string setting = System::clock_setting(sc_time(2, SC_NS));
  struct Case {
    sc_time then;
    Cycles changed_at;
    std::uint64_t changed_ps;
    std::uint64_t mhz;
    sc_time probe;
    Cycles cycle_at_probe;
  };
  for (const Case& c : {Case{sc_time(4, SC_NS), 12, 24000, 250, sc_time(43, SC_NS), 16},
                        Case{sc_time(1, SC_NS), 11, 21000, 1000, sc_time(25500, sc_core::SC_PS), 15}}) {
    FreshSystemCKernel kernel;
    ChangingToggler toggler("toggler", sc_time(2, SC_NS), 10, c.then);
    stats::Registry reg;
    System gpu("gpu", Configuration::from_yaml(kStream, {setting}), reg);
    gpu.clock_in.bind(toggler.line);
    sc_core::sc_start(c.probe);
    const GpuClock& clock = gpu.context().clock;
    ASSERT_EQ(clock.steps().size(), 2u) << c.then;
    EXPECT_EQ(clock.steps()[1].cycle, c.changed_at) << c.then;
    EXPECT_EQ(clock.steps()[1].start_ps, c.changed_ps) << c.then;
    EXPECT_EQ(clock.steps()[1].mhz, c.mhz) << c.then;
    EXPECT_EQ(clock.now(), c.cycle_at_probe) << c.then;
    EXPECT_EQ(clock.cycle_length_ps(10), c.mhz == 1000 ? 1000u : 2000u) << c.then;  // cut short, or not
  }
}

// A change to a spacing the System cannot count in (3 ns: 333.3 MHz, no whole-MHz clock) is an error naming
// the port and the new period.
TEST(HostClock, AClockSignalChangingToAPeriodItCannotFollowIsAnError) {
  FreshSystemCKernel kernel;
  ChangingToggler toggler("toggler", sc_time(2, SC_NS), 10, sc_time(3, SC_NS));
  stats::Registry reg;
  System gpu("gpu", Configuration::from_yaml(kStream, {System::clock_setting(sc_time(2, SC_NS))}), reg);
  gpu.clock_in.bind(toggler.line);
  const std::string message = error_of_start();
  EXPECT_NE(message.find("gpu.clock_in: its period changed to 3 ns"), std::string::npos) << message;
}

TEST(HostClock, AClockSignalIsMeasuredOverTwoEdges) {
  const std::string setting = System::clock_setting(sc_time(2, SC_NS));
  {
    FreshSystemCKernel kernel;
    Toggler toggler("aligned", sc_time(2, SC_NS));
    stats::Registry reg;
    System gpu("gpu", Configuration::from_yaml(kStream, {setting}), reg);
    gpu.clock_in.bind(toggler.line);
    EXPECT_EQ(error_of_start(), "");
    EXPECT_TRUE(gpu.done() && gpu.healthy());
  }
  {
    FreshSystemCKernel kernel;
    Toggler toggler("shifted", sc_time(1, SC_NS));
    stats::Registry reg;
    System gpu("gpu", Configuration::from_yaml(kStream, {setting}), reg);
    gpu.clock_in.bind(toggler.line);
    const std::string message = error_of_start();
    EXPECT_NE(message.find("cycle boundaries"), std::string::npos) << message;
  }
}

// --- Loosely timed ---

// One access of a loosely-timed core: b_transport at its local time, the quantum keeper deciding when it
// syncs. Returns the response status; counts the syncs that waited (the host's context switches).
template <class Socket>
tlm::tlm_response_status lt_access(Socket& socket, tlm_utils::tlm_quantumkeeper& qk, tlm::tlm_command cmd,
                                   std::uint64_t address, void* data, unsigned length, unsigned& syncs) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(address);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(length);
  gp.set_streaming_width(length);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = qk.get_local_time();
  socket->b_transport(gp, delay);
  qk.set(delay);
  qk.inc(sc_time(10, SC_NS));  // the core's own work between two accesses
  if (qk.need_sync()) {
    qk.sync();
    ++syncs;
  }
  return gp.get_response_status();
}

struct LtRun {
  std::string stats;     // every statistic of the System, as text
  unsigned wrong = 0;    // results that are not 3 i + 1000
  unsigned syncs = 0;    // the core's waits
  Cycles end_cycle = 0;  // when the core has read the last result
  sc_time before_sync;   // the simulation's time when the core has rung the doorbell
};

// The saxpy session of the register test, by a loosely-timed core under a global quantum: inputs written
// through the crossbar plug point, the descriptor and doorbell through the registers, all at the core's
// local time; then it syncs, sleeps until the interrupt and reads the results.
LtRun run_loosely_timed(sc_time quantum) {
  FreshSystemCKernel kernel;
  tlm_utils::tlm_quantumkeeper::set_global_quantum(quantum);
  LtRun out;
  {
    Platform p("host", functional_spec());
    p.gpu.control().register_kernel(0, [&p](const HostControl::Args& a) {
      return p.gpu.library_kernel("example/saxpy", "n=" + std::to_string(a[2]), {{"x", a[0]}, {"y", a[1]}});
    });
    p.script = [&](Platform& h) {
      tlm_utils::tlm_quantumkeeper qk;
      qk.reset();
      for (std::uint64_t array : {kX, kY}) {
        for (unsigned line = 0; line < kN / 32; ++line) {
          float values[32];
          for (unsigned j = 0; j < 32; ++j)
            values[j] = float((array == kY ? 1000 : 0) + line * 32 + j);
          EXPECT_EQ(lt_access(h.core.socket, qk, tlm::TLM_WRITE_COMMAND, array + line * 128, values, 128,
                              out.syncs),
                    tlm::TLM_OK_RESPONSE);
        }
      }
      const std::uint64_t regs[][2] = {{HostControl::kArgs, kX},      {HostControl::kArgs + 8, kY},
                                       {HostControl::kArgs + 16, kN}, {HostControl::kKernel, 0},
                                       {HostControl::kControl, 1},    {HostControl::kDoorbell, 1}};
      for (const auto& r : regs) {
        std::uint64_t v = r[1];
        EXPECT_EQ(lt_access(h.bus, qk, tlm::TLM_WRITE_COMMAND, r[0], &v, r[0] >= HostControl::kArgs ? 8 : 4,
                            out.syncs),
                  tlm::TLM_OK_RESPONSE);
      }
      out.before_sync = sc_core::sc_time_stamp();  // no call waited under a large quantum: still 0
      qk.sync();
      ++out.syncs;
      while (!h.irq.read())
        wait(h.irq.posedge_event());
      qk.reset();
      for (unsigned line = 0; line < kN / 32; ++line) {
        float values[32];
        EXPECT_EQ(
            lt_access(h.core.socket, qk, tlm::TLM_READ_COMMAND, kY + line * 128, values, 128, out.syncs),
            tlm::TLM_OK_RESPONSE);
        for (unsigned j = 0; j < 32; ++j)
          out.wrong += values[j] != float(3 * (line * 32 + j) + 1000);
      }
      qk.sync();
      out.end_cycle = h.gpu.context().clock.to_cycles(sc_core::sc_time_stamp());
    };
    sc_core::sc_start(1000, SC_US);
    EXPECT_TRUE(p.finished) << p.diag.str();
    EXPECT_TRUE(p.gpu.healthy()) << p.diag.str();
    out.stats = p.stats.text();
  }
  tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_core::SC_ZERO_TIME);
  return out;
}

// The same session under a 1 ns quantum (the core syncs at every access: 64 writes, 6 registers, 32 reads)
// and a 100 us one (it syncs only where it must: before sleeping on the interrupt; its last sync, at the
// end, is not counted): the
// requests enter the GPU at the same simulated times, so every statistic is the same and so are the results;
// only the host's waits differ.
TEST(LooselyTimed, AQuantumChangesHostWaitsNotResults) {
  const LtRun fine = run_loosely_timed(sc_time(1, SC_NS));
  const LtRun coarse = run_loosely_timed(sc_time(100, SC_US));
  EXPECT_EQ(fine.wrong, 0u);
  EXPECT_EQ(coarse.wrong, 0u);
  EXPECT_GE(fine.syncs, 64u + 6u + 32u);
  EXPECT_EQ(coarse.syncs, 1u);
  EXPECT_EQ(coarse.before_sync, sc_core::SC_ZERO_TIME);  // 70 calls, none of which waited
  EXPECT_GT(fine.before_sync, sc_time(700, SC_NS));      // 70 accesses of 10 ns each, synced as they went
  EXPECT_EQ(fine.stats, coarse.stats);
  EXPECT_EQ(fine.end_cycle, coarse.end_cycle);
  EXPECT_NE(fine.stats.find("host.gpu.socket0.cpu.requests"), std::string::npos);
}

// DMI into the functional store: a page's bytes, read and write, which the timed path and the kernels see.
// Without memory.functional there is nothing to point at: refused.
TEST(LooselyTimed, DmiGivesThePagesOfTheFunctionalStore) {
  FreshSystemCKernel kernel;
  Platform p("host", functional_spec());
  p.script = [&](Platform& h) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(kX + 100);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(h.core.socket->get_direct_mem_ptr(gp, dmi));
    EXPECT_TRUE(dmi.is_read_write_allowed());
    EXPECT_EQ(dmi.get_start_address(), kX + 100);
    EXPECT_EQ(dmi.get_end_address(), kX + 4095);  // to the end of its 4 KiB page
    const std::uint32_t word = 0xc0ffee;
    std::memcpy(dmi.get_dmi_ptr() + 28, &word, 4);  // at kX + 128
    std::uint32_t back = 0;
    ASSERT_EQ(h.core.blocking(tlm::TLM_READ_COMMAND, kX + 128, reinterpret_cast<unsigned char*>(&back), 4),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(back, word);
    gp.set_address(std::uint64_t(1) << 48);  // outside memory.address_bits
    EXPECT_FALSE(h.core.socket->get_direct_mem_ptr(gp, dmi));
  };
  sc_core::sc_start(1000, SC_US);
  EXPECT_TRUE(p.finished);
  EXPECT_EQ(p.stats.find_counter("host.gpu.socket0.cpu.requests")->value(), 1u);  // the DMI write is not one
}

TEST(LooselyTimed, NoDmiWithoutAFunctionalStore) {
  FreshSystemCKernel kernel;
  SystemSpec timing_only = functional_spec();
  timing_only.functional_memory = false;
  Platform q("host", timing_only);
  tlm::tlm_generic_payload gp;
  gp.set_address(kX);
  tlm::tlm_dmi dmi;
  EXPECT_FALSE(q.core.socket->get_direct_mem_ptr(gp, dmi));
}

// A host's DRAM target that grants DMI over its own 1 MiB: numagpu's store keeps those bytes there, so the
// host's memory holds what the host's core wrote through numagpu's crossbar, and numagpu reads what the
// host's memory holds.
struct DmiDram : sc_core::sc_module {
  tlm_utils::simple_target_socket<DmiDram> socket{"socket"};
  std::vector<unsigned char> bytes = std::vector<unsigned char>(1 << 20, 0);
  explicit DmiDram(const sc_core::sc_module_name& n) : sc_module(n) {
    socket.register_b_transport(this, &DmiDram::b_transport);
    socket.register_get_direct_mem_ptr(this, &DmiDram::dmi);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
    delay += sc_time(50, SC_NS);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);  // timing only: the data is numagpu's store's (mapped)
  }
  bool dmi(tlm::tlm_generic_payload&, tlm::tlm_dmi& d) {
    d.set_dmi_ptr(bytes.data());
    d.set_start_address(0);
    d.set_end_address(bytes.size() - 1);
    d.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
    return true;
  }
};

TEST(LooselyTimed, AHostTargetGrantingDmiHoldsTheStoreBytes) {
  FreshSystemCKernel kernel;
  SystemSpec spec = functional_spec();
  spec.external.push_back({ExternalPortSpec::Kind::kDramTarget, 0, "mydram", ""});
  DmiDram dram("dram");
  dram.bytes[0x4000] = 42;  // the host's memory had this before the run
  Platform p("host", spec);
  p.gpu.external_target("mydram").bind(dram.socket);
  unsigned char read_back = 0;
  p.script = [&](Platform& h) {
    unsigned char seven = 7;
    ASSERT_EQ(h.core.blocking(tlm::TLM_WRITE_COMMAND, 0x2000, &seven, 1), tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(h.core.blocking(tlm::TLM_READ_COMMAND, 0x4000, &read_back, 1), tlm::TLM_OK_RESPONSE);
  };
  sc_core::sc_start(1000, SC_US);
  ASSERT_TRUE(p.finished) << p.diag.str();
  EXPECT_EQ(dram.bytes[0x2000], 7);
  EXPECT_EQ(read_back, 42);
  EXPECT_EQ(p.gpu.functional_memory()->pages(), 0u);  // nothing of it in numagpu's own pages
}

}  // namespace
}  // namespace numagpu
