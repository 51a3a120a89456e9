// A host CPU model driving a numagpu GPU (docs/embedding.md, "Host control").
//
// The platform: a 1 GHz clock and an active-low reset of its own (the GPU follows both), a loosely-timed CPU
// (a tlm_quantumkeeper, 1 us quantum) and a bus that sends the CPU's addresses to the GPU's memory (its
// crossbar plug point "cpu") or, in a window at kMmio, to the GPU's control registers. The GPU: one socket of
// 8 SMs whose memory holds data (memory.functional), no kernel of its own.
//
// The CPU waits for the reset to end, writes x through DMI (a direct pointer into the GPU's memory) and y
// through the bus (b_transport, posted under the quantum), writes a kernel descriptor (example/saxpy on its
// x and y, n = 4096) into the registers, rings the doorbell, sleeps until the interrupt, reads the completion
// status, clears it, reads y back and checks y = 2 x + y for every element. Exit status 0 when every result
// is right and the GPU's run was clean.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <systemc>
#include <tlm>

#include <numagpu/numagpu.hpp>

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr std::uint64_t kMmio = std::uint64_t(1) << 46;  // the registers' window on the bus
constexpr std::uint64_t kX = 0x10000000, kY = 0x10100000;
constexpr unsigned kN = 4096;        // floats: 16 KiB per array
constexpr std::uint32_t kSaxpy = 0;  // its index in the GPU's kernel table

// Address decoding: the register window, else memory. DMI is passed on for memory (the same addresses).
struct Bus : sc_core::sc_module {
  tlm_utils::simple_target_socket<Bus> cpu{"cpu"};
  tlm_utils::simple_initiator_socket<Bus> memory{"memory"};
  tlm_utils::simple_initiator_socket<Bus> registers{"registers"};
  explicit Bus(const sc_core::sc_module_name& name) : sc_module(name) {
    cpu.register_b_transport(this, &Bus::b_transport);
    cpu.register_get_direct_mem_ptr(this, &Bus::get_direct_mem_ptr);
    cpu.register_transport_dbg(this, &Bus::transport_dbg);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
    const std::uint64_t address = gp.get_address();
    if (address >= kMmio) {
      gp.set_address(address - kMmio);
      registers->b_transport(gp, delay);
      gp.set_address(address);
    } else {
      memory->b_transport(gp, delay);
    }
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    return gp.get_address() < kMmio && memory->get_direct_mem_ptr(gp, dmi);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    return gp.get_address() < kMmio ? memory->transport_dbg(gp) : 0;
  }
};

struct Cpu : sc_core::sc_module {
  SC_HAS_PROCESS(Cpu);
  tlm_utils::simple_initiator_socket<Cpu> bus{"bus"};
  sc_core::sc_in<bool> irq{"irq"};
  sc_core::sc_in<bool> rst_n{"rst_n"};
  explicit Cpu(const sc_core::sc_module_name& name) : sc_module(name) { SC_THREAD(run); }

  bool passed = false;
  unsigned syncs = 0;

 private:
  // One access at the CPU's local time; the quantum keeper syncs only when the quantum is used up.
  bool access(tlm::tlm_command cmd, std::uint64_t address, void* data, unsigned length) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(address);
    gp.set_data_ptr(static_cast<unsigned char*>(data));
    gp.set_data_length(length);
    gp.set_streaming_width(length);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = qk_.get_local_time();
    bus->b_transport(gp, delay);
    qk_.set(delay + sc_time(2, SC_NS));  // the CPU's own work between accesses
    if (qk_.need_sync()) {
      qk_.sync();
      ++syncs;
    }
    if (!gp.is_response_ok())
      std::cerr << "host_control: " << gp.get_response_string() << " at " << address << "\n";
    return gp.is_response_ok();
  }
  bool write_register(std::uint32_t offset, std::uint64_t value, unsigned bytes = 4) {
    return access(tlm::TLM_WRITE_COMMAND, kMmio + offset, &value, bytes);
  }
  std::uint32_t read_register(std::uint32_t offset) {
    std::uint32_t value = 0;
    access(tlm::TLM_READ_COMMAND, kMmio + offset, &value, 4);
    return value;
  }

  void run() {
    using numagpu::HostControl;
    while (!rst_n.read())
      wait(rst_n.posedge_event());
    qk_.reset();
    bool ok = read_register(HostControl::kId) == HostControl::kIdValue;

    // x[i] = i / 2 through DMI, a page (4 KiB) at a time: no transaction, no simulated time.
    for (std::uint64_t address = kX; address < kX + kN * 4;) {
      tlm::tlm_generic_payload gp;
      gp.set_address(address);
      tlm::tlm_dmi dmi;
      if (!bus->get_direct_mem_ptr(gp, dmi) || !dmi.is_write_allowed()) {
        std::cerr << "host_control: no DMI at " << address << "\n";
        return;
      }
      const std::uint64_t end = std::min<std::uint64_t>(dmi.get_end_address() + 1, kX + kN * 4);
      for (std::uint64_t a = address; a < end; a += 4) {
        const float x = float((a - kX) / 4) / 2;
        std::memcpy(dmi.get_dmi_ptr() + (a - dmi.get_start_address()), &x, 4);
      }
      address = end;
    }
    // y[i] = 1 + i through the bus, a 128-byte line per transaction.
    for (unsigned i = 0; i < kN; i += 32) {
      float line[32];
      for (unsigned j = 0; j < 32; ++j)
        line[j] = float(1 + i + j);
      ok = access(tlm::TLM_WRITE_COMMAND, kY + i * 4, line, sizeof line) && ok;
    }

    // The descriptor, then the doorbell; interrupts on.
    ok = write_register(HostControl::kArgs + 0, kX, 8) && write_register(HostControl::kArgs + 8, kY, 8) &&
         write_register(HostControl::kArgs + 16, kN, 8) && write_register(HostControl::kKernel, kSaxpy) &&
         write_register(HostControl::kControl, 1) && write_register(HostControl::kDoorbell, 1) && ok;
    qk_.sync();  // the GPU runs in simulated time: the CPU catches up, then sleeps
    ++syncs;
    const sc_time rang = sc_core::sc_time_stamp();
    while (!irq.read())
      wait(irq.posedge_event());
    const sc_time woke = sc_core::sc_time_stamp();
    qk_.reset();
    const std::uint32_t status = read_register(HostControl::kIrqStatus);
    const std::uint32_t last = read_register(HostControl::kLast);
    ok = write_register(HostControl::kIrqStatus, status) && ok;  // write 1 to clear: the line drops
    ok = status == 1 && last == HostControl::kDone && ok;

    // y = 2 x + y = i + 1 + i = 2 i + 1, exact in float.
    unsigned wrong = 0;
    for (unsigned i = 0; i < kN; i += 32) {
      float line[32];
      ok = access(tlm::TLM_READ_COMMAND, kY + i * 4, line, sizeof line) && ok;
      for (unsigned j = 0; j < 32; ++j)
        wrong += line[j] != float(2 * (i + j) + 1);
    }
    qk_.sync();
    std::cout << "host_control: doorbell at " << rang << ", interrupt at " << woke << "; " << kN - wrong
              << " of " << kN << " results right; the CPU synced " << syncs << " times\n";
    passed = ok && wrong == 0;
  }

  tlm_utils::tlm_quantumkeeper qk_;
};

struct Platform : sc_core::sc_module {
  SC_HAS_PROCESS(Platform);
  Platform(const sc_core::sc_module_name& name, const numagpu::Configuration& config)
      : sc_module(name),
        clock("clock", 1, SC_NS),
        rst_n("rst_n", false),
        cpu("cpu"),
        bus("bus"),
        gpu("gpu", config, stats) {
    cpu.bus.bind(bus.cpu);
    cpu.irq.bind(gpu.control().interrupt);
    cpu.rst_n.bind(rst_n);
    bus.memory.bind(gpu.external_initiator("cpu"));
    bus.registers.bind(gpu.control().socket);
    gpu.clock_in.bind(clock);
    gpu.reset_n.bind(rst_n);
    gpu.control().register_kernel(kSaxpy, [this](const numagpu::HostControl::Args& a) {
      return gpu.library_kernel("example/saxpy", "n=" + std::to_string(a[2]), {{"x", a[0]}, {"y", a[1]}});
    });
    SC_THREAD(release_reset);
  }
  void release_reset() {
    wait(20, SC_NS);
    rst_n.write(true);
  }

  sc_core::sc_clock clock;
  sc_core::sc_signal<bool> rst_n;
  Cpu cpu;
  Bus bus;
  numagpu::stats::Registry stats;
  numagpu::System gpu;
};

}  // namespace

int sc_main(int, char*[]) {
  try {
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_time(1, SC_US));
    auto config = numagpu::Configuration::from_yaml(R"(
system: {sockets: 1}
sm: {per_socket: 8}
memory: {functional: true}
external: [{attach: xbar, socket: 0, name: cpu}]
)",
                                                    {numagpu::System::clock_setting(sc_time(1, SC_NS))});
    config.spec().kernels.clear();  // not the default workload's: the host launches every kernel
    Platform platform("platform", config);
    sc_core::sc_start(1000, SC_US);
    const bool healthy = platform.gpu.healthy();
    std::cout << "host_control: " << (platform.cpu.passed && healthy ? "passed" : "FAILED") << "\n";
    return platform.cpu.passed && healthy ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "host_control: " << e.what() << "\n";
    return 2;
  }
}
