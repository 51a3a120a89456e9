// A platform that runs at a 1 ns SystemC time resolution, as many do, with two numagpu Systems as children
// of its top module: gpu0 at 1 GHz (one tick a cycle) and gpu1 at 500 MHz (two ticks a cycle), sharing the
// platform's statistics registry. Its own report handler counts numagpu's reports (message types
// numagpu/...) and passes every report on to SystemC's default handler. It checks that each System's
// simulated time is its cycles at its clock, that each run summary is under its System's name, and that a
// plug-point name the System does not have is a report of type numagpu/port; it exits non-zero when one is
// wrong.
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>

#include <systemc>

#include "numagpu/numagpu.hpp"

namespace {

// One socket of 4 SMs; a streaming kernel of 16 CTAs x 4 warps x 8 loads = 512 loads.
const char* const kGpu = R"(
system: {sockets: 1}
sm: {per_socket: 4}
workload:
  kernels: [{name: stream, pattern: stream, ctas: 16, warps_per_cta: 4, accesses_per_warp: 8}]
)";

int numagpu_reports = 0;

// The platform's handler: counts numagpu's reports, then does what SystemC would have done.
void platform_handler(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (std::strncmp(report.get_msg_type(), "numagpu/", 8) == 0) ++numagpu_reports;
  sc_core::sc_report_handler::default_handler(report, actions);
}

struct Platform : sc_core::sc_module {
  SC_HAS_PROCESS(Platform);
  Platform(const sc_core::sc_module_name& name)
      : sc_module(name),
        clock("clock", 4, sc_core::SC_NS),
        gpu0("gpu0", numagpu::Configuration::from_yaml(kGpu), stats),
        gpu1("gpu1", numagpu::Configuration::from_yaml(kGpu, {"system.clock_mhz=500"}), stats) {
    SC_THREAD(watch0);
    SC_THREAD(watch1);
  }
  void watch0() {
    wait(gpu0.finished());
    finished0 = sc_core::sc_time_stamp();
  }
  void watch1() {
    wait(gpu1.finished());
    finished1 = sc_core::sc_time_stamp();
  }
  sc_core::sc_clock clock;
  numagpu::stats::Registry stats;  // before the Systems that register into it
  numagpu::System gpu0, gpu1;
  sc_core::sc_time finished0, finished1;
};

int failures = 0;
void expect(bool ok, const std::string& what) {
  std::cout << (ok ? "ok:   " : "FAIL: ") << what << "\n";
  if (!ok) ++failures;
}

// The System finished in its drained cycle. Its last transaction ends at an exact time within that cycle,
// cycles x period <= t < (cycles + 1) x period; the host sees it at the first 1 ns tick not before t
// (docs/embedding.md, "Time resolution"), which can be the next cycle's start, (cycles + 1) x period, itself.
bool time_is_cycles(const sc_core::sc_time& at, std::uint64_t cycles, double period_ns) {
  // sc_time comparisons, in whole ticks: seconds as a double would put 1524 ns a rounding error past itself.
  return at >= sc_core::sc_time(double(cycles) * period_ns, sc_core::SC_NS) &&
         at <= sc_core::sc_time(double(cycles + 1) * period_ns, sc_core::SC_NS);
}

}  // namespace

int sc_main(int, char*[]) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);  // before anything else of SystemC
  sc_core::sc_report_handler::set_handler(platform_handler);
  try {
    Platform platform("platform");
    // A plug point the System does not have: a report (numagpu/port) that says what there is.
    try {
      platform.gpu0.external_initiator("cpu");
      expect(false, "external_initiator(\"cpu\") is refused");
    } catch (const sc_core::sc_report& r) {
      expect(std::string(r.get_msg_type()) == "numagpu/port" &&
                 std::string(r.get_msg()).find("it has none") != std::string::npos,
             std::string("external_initiator(\"cpu\"): ") + r.get_msg());
    }
    while (!(platform.gpu0.done() && platform.gpu1.done()))
      sc_core::sc_start(10, sc_core::SC_US);
    const numagpu::RunFacts& f0 = platform.gpu0.summary();
    const numagpu::RunFacts& f1 = platform.gpu1.summary();
    std::cout << "gpu0: " << f0.drained_cycles << " cycles, finished at " << platform.finished0 << "\n"
              << "gpu1: " << f1.drained_cycles << " cycles, finished at " << platform.finished1 << "\n";
    expect(platform.gpu0.healthy() && platform.gpu1.healthy(), "both Systems healthy");
    expect(f0.loads == 512 && f1.loads == 512, "512 loads each");
    expect(time_is_cycles(platform.finished0, f0.drained_cycles, 1.0),
           "gpu0: its time is its cycles at 1 ns");
    expect(time_is_cycles(platform.finished1, f1.drained_cycles, 2.0),
           "gpu1: its time is its cycles at 2 ns");
    const auto* c0 = platform.stats.find_scalar("platform.gpu0.summary.sim_cycles");
    const auto* c1 = platform.stats.find_scalar("platform.gpu1.summary.sim_cycles");
    expect(c0 && c1 && c0->value() == double(f0.sim_cycles) && c1->value() == double(f1.sim_cycles),
           "each summary under its System's name in the shared registry");
    expect(numagpu_reports == 1, "the platform's handler saw numagpu's one report");
  } catch (const std::exception& e) {
    std::cerr << "platform_at_1ns: " << e.what() << "\n";
    return 2;
  }
  std::cout << (failures ? "platform_at_1ns: checks failed\n" : "platform_at_1ns: all checks passed\n");
  return failures ? 1 : 0;
}
