// The System's memory-mapped control registers (docs/embedding.md, "Host control"): a host CPU model writes
// a kernel descriptor (which of the kernels the host registered, and eight 64-bit arguments), rings the
// doorbell, and is told of the kernel's completion by the completion status, an interrupt signal (when
// enabled) and an sc_event. The kernel is built by the host's factory from the descriptor and launched
// through the System's command queue (System::launch). Registers are 32 bits, little endian:
//
//   0x00 ID          read only   0x4e475055 ("NGPU")
//   0x04 CONTROL     read/write  bit 0: interrupt enable
//   0x08 STATUS      read only   bit 0: busy (a command queued or running), bit 1: held in reset
//   0x0c IRQ_STATUS  read, write 1 to clear   bit 0: a command completed, bit 1: a doorbell was refused
//   0x10 DOORBELL    write only  any value: launch the descriptor below
//   0x14 KERNEL      read/write  the kernel's index in the host's table (register_kernel)
//   0x18 SUBMITTED   read only   doorbells accepted
//   0x1c COMPLETED   read only   of those, ended (completed or refused)
//   0x20 LAST        read only   how the last one ended: 0 none yet, 1 completed,
//                                3 refused (no such kernel, its factory threw, or the System is in reset)
//   0x40 + 8 i       read/write  ARG i (i = 0..7), 64 bits (two 32-bit halves, or one 8-byte access)
//
// An access is 4 bytes aligned (8 for an ARG); anything else is answered TLM_ADDRESS_ERROR_RESPONSE (an
// offset with no register), TLM_BURST_ERROR_RESPONSE (size or alignment) or TLM_BYTE_ENABLE_ERROR_RESPONSE.
// A write takes effect at the caller's time plus its annotated delay (a loosely-timed host ahead of
// simulated time rings the doorbell at its own local time), so a quantum does not move the launch.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/tlm_edge.hpp"
#include "workload/program.hpp"

namespace numagpu {

class HostControl : public sc_core::sc_module, private tlm::tlm_fw_transport_if<> {
 public:
  using TargetSocket =
      tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
  using Args = std::array<std::uint64_t, 8>;
  // Builds the kernel a descriptor names, from its arguments (throwing refuses the doorbell: LAST = 3).
  using KernelFactory = std::function<std::unique_ptr<KernelProgram>(const Args&)>;
  // What launching goes through: the System's command queue. Returns false when the System refuses (reset).
  // `done(aborted)` is called when the command ends.
  using Launcher =
      std::function<bool(std::unique_ptr<KernelProgram>, std::function<void(bool aborted)> done)>;

  enum Register : std::uint32_t {
    kId = 0x00,
    kControl = 0x04,
    kStatus = 0x08,
    kIrqStatus = 0x0c,
    kDoorbell = 0x10,
    kKernel = 0x14,
    kSubmitted = 0x18,
    kCompleted = 0x1c,
    kLast = 0x20,
    kArgs = 0x40,  // ARG i at kArgs + 8 i
    kEnd = 0x80,
  };
  static constexpr std::uint32_t kIdValue = 0x4e475055;
  // kAborted is not seen through the registers: a reset, the one thing that aborts a kernel, clears them.
  enum Last : std::uint32_t { kNone = 0, kDone = 1, kAborted = 2, kRefused = 3 };

  // `access`: the time one register access takes (annotated on the caller's delay).
  HostControl(const sc_core::sc_module_name& name, Launcher launcher, sc_core::sc_time access);

  TargetSocket socket;                 // the host's initiator (its bus) binds here
  sc_core::sc_signal<bool> interrupt;  // high while IRQ_STATUS has a bit set and interrupts are enabled

  void register_kernel(std::uint32_t index, KernelFactory factory) { kernels_[index] = std::move(factory); }
  // Notified when a doorbell's command ends (completed or aborted), at that time.
  const sc_core::sc_event& completed() const { return completed_event_; }
  // Reset (System::reset_n low): registers to their initial values, the interrupt low, pending doorbells
  // dropped; `held` refuses doorbells until it is released.
  void reset(bool held);
  std::uint32_t read_register(std::uint32_t offset) const;

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override {
    return false;
  }  // side effects
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) override;
  // The access's status (TLM_OK_RESPONSE when it may be done).
  tlm::tlm_response_status check(const tlm::tlm_generic_payload& gp) const;
  void write_register(std::uint32_t offset, std::uint64_t value, unsigned bytes, const sc_core::sc_time& at);
  void ring();        // the doorbells whose time has come
  void update_irq();  // the interrupt signal's one writer
  void command_ended(bool aborted);
  void raise(std::uint32_t bits);

  Launcher launcher_;
  sc_core::sc_time access_;
  std::map<std::uint32_t, KernelFactory> kernels_;
  std::uint32_t control_ = 0, irq_status_ = 0, kernel_ = 0, submitted_ = 0, completed_ = 0, last_ = kNone;
  unsigned running_ = 0;
  bool held_ = false;
  std::uint64_t generation_ = 0;  // a reset's: the commands of an earlier one no longer count
  Args args_{};
  struct Doorbell {
    sc_core::sc_time at;
    std::uint32_t kernel;
    Args args;
  };
  std::vector<Doorbell> doorbells_;  // in time order (one initiator's annotated times do not go back)
  sc_core::sc_event ring_event_;
  sc_core::sc_event irq_event_;
  sc_core::sc_event completed_event_;
};

// The functional store (memory.functional) as a kernel's data sees it (KernelProgram::load_data): reads and
// writes of any length, moved a page at a time.
class FunctionalStoreView : public DataStore {
 public:
  explicit FunctionalStoreView(FunctionalMemory& memory) : memory_(memory) {}
  void read(std::uint64_t address, void* dst, std::uint64_t bytes) const override;
  void write(std::uint64_t address, const void* src, std::uint64_t bytes) override;

 private:
  FunctionalMemory& memory_;
};

}  // namespace numagpu
