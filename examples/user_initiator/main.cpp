// A third-party initiator inside a numagpu system (docs/tlm-edges.md, example (b)).
//
// A 2-socket numagpu system whose memory holds data (memory.functional) has one plug point: a host initiator
// at socket 0's crossbar ("cpu"). This program's own core, which knows nothing of numagpu but the TLM-2.0
// API, sends plain tlm_generic_payloads there (no numagpu extension), blocking and non-blocking (several in
// flight, the four phases), while numagpu's SMs stream a kernel through the same memory. Protocol checkers
// sit on every hop inside numagpu (checks.protocol) and on the core's own binding. It writes 128 lines (half
// of them homed at socket 1, across the link), reads them back, overwrites single words, reads again, and
// compares every byte with what it wrote. Exit status 0 when everything matches and the run was clean.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "common/protocol_checker.hpp"
#include "stats/registry.hpp"
#include "system/derive_spec.hpp"
#include "system/system.hpp"

namespace {

constexpr unsigned kLine = 128;
constexpr std::uint64_t kBase = 0x40000000;  // 1 GiB: away from the SMs' stream (lines 0..4095)
constexpr unsigned kLines = 128;

// The core's payloads: a memory manager of its own (nb_transport needs one), recycled.
class Payloads : public tlm::tlm_mm_interface {
 public:
  tlm::tlm_generic_payload& get(tlm::tlm_command cmd, std::uint64_t address, unsigned length) {
    if (free_.empty()) {
      all_.push_back(std::make_unique<Item>());
      all_.back()->gp.set_mm(this);
      free_.push_back(all_.back().get());
    }
    Item* item = free_.back();
    free_.pop_back();
    item->gp.set_command(cmd);
    item->gp.set_address(address);
    item->gp.set_data_ptr(item->data);
    item->gp.set_data_length(length);
    item->gp.set_streaming_width(length);
    item->gp.set_byte_enable_ptr(nullptr);
    item->gp.set_byte_enable_length(0);
    item->gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    item->gp.acquire();
    return item->gp;
  }
  void free(tlm::tlm_generic_payload* gp) override {
    gp->reset();  // drops what the target attached
    for (auto& item : all_) {
      if (&item->gp == gp) free_.push_back(item.get());
    }
  }

 private:
  struct Item {
    tlm::tlm_generic_payload gp;
    unsigned char data[kLine];
  };
  std::vector<std::unique_ptr<Item>> all_;
  std::vector<Item*> free_;
};

struct Core : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Core> socket{"socket"};
  Payloads payloads;
  std::map<std::uint64_t, unsigned char> expected;  // every byte written, by address
  unsigned mismatches = 0;
  unsigned errors = 0;
  unsigned blocking_calls = 0, non_blocking_calls = 0;
  bool finished = false;

  explicit Core(const sc_core::sc_module_name& n) : sc_module(n) {
    socket.register_nb_transport_bw(this, &Core::nb_transport_bw);
    SC_HAS_PROCESS(Core);
    SC_THREAD(run);
  }

  static unsigned char value(std::uint64_t address, unsigned round) {
    return static_cast<unsigned char>((address * 31 + round * 101 + 7) & 0xff);
  }

  // Blocking: a payload on the stack (no memory manager needed).
  void blocking(tlm::tlm_command cmd, std::uint64_t address, unsigned length, unsigned round) {
    unsigned char data[kLine];
    if (cmd == tlm::TLM_WRITE_COMMAND) fill(address, data, length, round);
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(address);
    gp.set_data_ptr(data);
    gp.set_data_length(length);
    gp.set_streaming_width(length);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    ++blocking_calls;
    socket->b_transport(gp, delay);
    sc_core::wait(delay);
    if (!gp.is_response_ok()) ++errors;
    if (cmd == tlm::TLM_READ_COMMAND) check(address, data, length);
  }

  // Non-blocking: up to `window` requests in flight; END_REQ before the next BEGIN_REQ.
  void non_blocking(const std::vector<std::uint64_t>& addresses, tlm::tlm_command cmd, unsigned length,
                    unsigned round, unsigned window) {
    for (std::uint64_t address : addresses) {
      while (in_flight_ >= window)
        sc_core::wait(response_event_);
      tlm::tlm_generic_payload& gp = payloads.get(cmd, address, length);
      if (cmd == tlm::TLM_WRITE_COMMAND) fill(address, gp.get_data_ptr(), length, round);
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      ++in_flight_;
      ++non_blocking_calls;
      request_open_ = &gp;
      const tlm::tlm_sync_enum status = socket->nb_transport_fw(gp, phase, delay);
      if (status == tlm::TLM_COMPLETED) {
        request_open_ = nullptr;
        respond(gp);
      } else if (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
        request_open_ = nullptr;
      }
      while (request_open_)
        sc_core::wait(end_req_event_);
    }
    while (in_flight_ > 0)
      sc_core::wait(response_event_);
  }

  void run() {
    std::vector<std::uint64_t> first_half, second_half, all;
    for (unsigned l = 0; l < kLines; ++l) {
      (l < kLines / 2 ? first_half : second_half).push_back(kBase + l * kLine);
      all.push_back(kBase + l * kLine);
    }
    // Round 0: the first half written blocking, the second non-blocking (4 in flight).
    for (std::uint64_t a : first_half)
      blocking(tlm::TLM_WRITE_COMMAND, a, kLine, 0);
    non_blocking(second_half, tlm::TLM_WRITE_COMMAND, kLine, 0, 4);
    // Read everything back, the other way round.
    non_blocking(first_half, tlm::TLM_READ_COMMAND, kLine, 0, 8);
    for (std::uint64_t a : second_half)
      blocking(tlm::TLM_READ_COMMAND, a, kLine, 0);
    // Round 1: one 4-byte word in every line overwritten (non-blocking), then whole lines read (blocking).
    std::vector<std::uint64_t> words;
    for (unsigned l = 0; l < kLines; ++l)
      words.push_back(kBase + l * kLine + 4 * (l % 32));
    non_blocking(words, tlm::TLM_WRITE_COMMAND, 4, 1, 4);
    for (std::uint64_t a : all)
      blocking(tlm::TLM_READ_COMMAND, a, kLine, 0);
    finished = true;
  }

 private:
  void fill(std::uint64_t address, unsigned char* data, unsigned length, unsigned round) {
    for (unsigned i = 0; i < length; ++i) {
      data[i] = value(address + i, round);
      expected[address + i] = data[i];
    }
  }
  void check(std::uint64_t address, const unsigned char* data, unsigned length) {
    for (unsigned i = 0; i < length; ++i) {
      const auto it = expected.find(address + i);
      if (it == expected.end() || it->second != data[i]) ++mismatches;
    }
  }
  void respond(tlm::tlm_generic_payload& gp) {
    if (!gp.is_response_ok()) ++errors;
    if (gp.is_read()) check(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
    --in_flight_;
    gp.release();
    response_event_.notify(sc_core::SC_ZERO_TIME);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::END_REQ || (phase == tlm::BEGIN_RESP && request_open_ == &gp)) {
      request_open_ = nullptr;
      end_req_event_.notify(sc_core::SC_ZERO_TIME);
    }
    if (phase == tlm::BEGIN_RESP) {
      respond(gp);
      return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
  }
  unsigned in_flight_ = 0;
  tlm::tlm_generic_payload* request_open_ = nullptr;
  sc_core::sc_event response_event_, end_req_event_;
};

}  // namespace

int sc_main(int, char*[]) {
  using namespace numagpu;
  // The configuration, as a numagpu YAML file would give it (the same keys: docs/configuration.md).
  SystemParams params;
  params.sockets = 2;
  params.sms_per_socket = 8;
  params.memory.placement = "page_interleave";  // 4 KiB pages alternate between the sockets
  params.memory.functional = true;              // memory.functional: the memory holds data
  params.protocol_checks = true;                // checks.protocol
  ExternalPortParams cpu;
  cpu.attach = ExternalAttach::kXbar;  // external: [{attach: xbar, socket: 0, name: cpu}]
  cpu.socket = 0;
  cpu.name = "cpu";
  params.external.push_back(cpu);
  KernelSpec stream;
  stream.name = "stream";
  stream.pattern = "stream";
  stream.ctas = 32;
  stream.warps_per_cta = 8;
  stream.accesses_per_warp = 16;  // 4,096 lines read by the SMs
  params.workload.kernels.push_back(stream);

  stats::Registry stats;
  System system("system", derive_system_spec(params), stats, std::cerr);
  Core core("core");
  ProtocolChecker check("core_check", system.context().health);  // on the core's own binding too
  core.socket.bind(check.target);
  check.initiator.bind(system.external_initiator("cpu"));
  system.run();

  const bool clean = system.context().health.ok() && system.dispatcher().finished();
  std::printf(
      "user_initiator: %u blocking and %u non-blocking requests, %u error responses, %u bytes wrong; "
      "SMs' kernel %s, %llu protocol phases checked on the core's binding, run %s\n",
      core.blocking_calls, core.non_blocking_calls, core.errors, core.mismatches,
      system.dispatcher().finished() ? "done" : "NOT done",
      static_cast<unsigned long long>(check.phases_checked()), clean ? "clean" : "NOT clean");
  // Expected: 64 + 64 + 128 blocking calls (first-half writes, second-half reads, final reads), and
  // 64 + 64 + 128 non-blocking ones (second-half writes, first-half reads, word writes).
  const bool counts = core.blocking_calls == 256 && core.non_blocking_calls == 256;
  return core.finished && clean && counts && core.errors == 0 && core.mismatches == 0 ? 0 : 1;
}
