// A host platform with numagpu inside: the host's own sc_main builds its top module, which has a
// free-running clock of its own and a 2-socket numagpu System as a child. The host owns sc_start: it
// advances time in steps until the System says it is done, keeps going a little (its clock does not stop),
// then checks the results and exits non-zero when one is wrong.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include <systemc>

#include "numagpu/numagpu.hpp"

namespace {

// Two sockets of 4 SMs, otherwise the paper's defaults (first-touch pages of 4 KiB, contiguous CTA blocks,
// 128 B lines), running one streaming kernel: 16 CTAs of 4 warps, each warp loading 32 lines.
const char* const kSystem = R"(
system: {sockets: 2}
sm: {per_socket: 4}
workload:
  name: host_stream
  kernels:
    - {name: stream, pattern: stream, ctas: 16, warps_per_cta: 4, accesses_per_warp: 32}
)";

class Host : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Host);
  Host(const sc_core::sc_module_name& name, const numagpu::Configuration& config)
      : sc_module(name), clock("clock", 10, sc_core::SC_NS), gpu("gpu", config, stats) {
    SC_METHOD(tick);
    sensitive << clock.posedge_event();
    dont_initialize();
    SC_THREAD(watch);
  }

  sc_core::sc_clock clock;         // the host's own, free-running: the simulation never runs out of events
  numagpu::stats::Registry stats;  // before the System, which registers its statistics here
  numagpu::System gpu;
  std::uint64_t ticks = 0;
  bool finished_seen = false;
  sc_core::sc_time finished_at;

 private:
  void tick() { ++ticks; }
  void watch() {
    wait(gpu.finished());
    finished_seen = true;
    finished_at = sc_core::sc_time_stamp();
  }
};

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::cout << (ok ? "ok:   " : "FAIL: ") << what << "\n";
  if (!ok) ++failures;
}

}  // namespace

int run() {
  const numagpu::Configuration config = numagpu::Configuration::from_yaml(kSystem);
  Host host("host", config);

  const sc_core::sc_time step(1, sc_core::SC_US);
  int steps = 0;
  while (!host.gpu.done() && steps < 10000) {
    sc_core::sc_start(step);
    ++steps;
  }
  const std::uint64_t completed_at_done = host.gpu.requests_completed();
  const std::uint64_t ticks_at_done = host.ticks;
  sc_core::sc_start(step);  // the host's time goes on; the System has nothing left to do
  std::cout << "numagpu " << numagpu::version() << " in a host platform: done after " << steps
            << " steps of 1 us, at " << host.finished_at << "\n";

  const numagpu::RunFacts& facts = host.gpu.summary();
  expect(host.gpu.done(), "the System is done");
  expect(host.gpu.healthy(), "no protocol, audit or watchdog report");
  expect(host.finished_seen, "the host's process woke on System::finished()");
  // finished() is notified when the last transaction ends, in the drained cycle (1 ns each at 1 GHz; a
  // transaction may end between two cycles: the DRAM serializes a line in fractions of a cycle).
  expect(static_cast<std::uint64_t>(host.finished_at / sc_core::sc_time(1, sc_core::SC_NS)) ==
             host.gpu.drained_cycle(),
         "finished() at the drained cycle (" + std::to_string(host.gpu.drained_cycle()) + ")");
  expect(facts.kernels_done == 1 && facts.kernels_total == 1, "1 of 1 kernels done");
  // 16 CTAs x 4 warps x 32 accesses, one 128 B line each: 2048 loads.
  expect(facts.loads == 2048, "2048 loads (" + std::to_string(facts.loads) + ")");
  // Contiguous CTAs: CTAs 0-7 (warps 0-31) on socket 0, 8-15 (warps 32-63) on socket 1. Access k of warp g
  // is line 64 k + g, in page (64 k + g) / 32 = 2 k + (g >= 32 ? 1 : 0): every page is touched by one
  // socket only, so first touch homes it there and no request leaves its socket.
  expect(facts.sockets.size() == 2 && facts.sockets[0].remote_requests == 0 &&
             facts.sockets[1].remote_requests == 0,
         "no remote requests");
  expect(host.gpu.requests_completed() == completed_at_done, "nothing ran in the System after done()");
  // The clock ran on: 1 us more of a 10 ns clock is 100 more rising edges.
  expect(host.ticks - ticks_at_done == 100,
         "the host's clock kept running (" + std::to_string(host.ticks - ticks_at_done) + " edges in 1 us)");
  host.gpu.write_stats("host_platform-out");
  std::cout << (failures ? "host_platform: FAILED\n" : "host_platform: all checks passed\n");
  return failures ? 1 : 0;
}

int sc_main(int, char*[]) {
  try {
    return run();
  } catch (const std::exception& e) {  // a configuration error is one line: file:line:column: key: why
    std::cerr << "host_platform: error: " << e.what() << "\n";
    return 2;
  }
}
