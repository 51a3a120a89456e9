// A third-party-style initiator for the TLM edge tests: plain tlm_generic_payloads (no numagpu extension,
// its own memory manager for the non-blocking ones), sent blocking (b_transport) or non-blocking (the four
// phases, waiting for the response), and debug accesses. Knows nothing of numagpu but the TLM-2.0 API.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

namespace numagpu::testing {

// Payloads with a data buffer of their own, recycled when their last reference is released.
class PlainPayloads : public tlm::tlm_mm_interface {
 public:
  tlm::tlm_generic_payload& get(unsigned bytes) {
    Entry* e;
    if (free_.empty()) {
      entries_.push_back(std::make_unique<Entry>());
      e = entries_.back().get();
      e->gp.set_mm(this);
    } else {
      e = free_.back();
      free_.pop_back();
    }
    e->data.assign(bytes, 0);
    e->gp.set_data_ptr(e->data.data());
    e->gp.set_data_length(bytes);
    e->gp.set_streaming_width(bytes);
    e->gp.set_byte_enable_ptr(nullptr);
    e->gp.set_byte_enable_length(0);
    e->gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    e->gp.acquire();
    return e->gp;
  }
  void free(tlm::tlm_generic_payload* gp) override {
    gp->reset();  // drops extensions a target added (auto extensions)
    for (auto& e : entries_) {
      if (&e->gp == gp) free_.push_back(e.get());
    }
  }
  std::size_t live() const { return entries_.size() - free_.size(); }

 private:
  struct Entry {
    tlm::tlm_generic_payload gp;
    std::vector<unsigned char> data;
  };
  std::vector<std::unique_ptr<Entry>> entries_;
  std::vector<Entry*> free_;
};

struct HostCore : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<HostCore> socket{"socket"};
  PlainPayloads payloads;

  explicit HostCore(const sc_core::sc_module_name& n) : sc_module(n) {
    socket.register_nb_transport_bw(this, &HostCore::bw);
  }

  // Blocking: a payload on the stack, no memory manager. Returns the response status.
  tlm::tlm_response_status blocking(tlm::tlm_command cmd, std::uint64_t address, unsigned char* data,
                                    unsigned length, sc_core::sc_time* delay_out = nullptr) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(address);
    gp.set_data_ptr(data);
    gp.set_data_length(length);
    gp.set_streaming_width(length);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, delay);
    if (delay_out) *delay_out = delay;
    sc_core::wait(delay);
    return gp.get_response_status();
  }

  // Non-blocking: BEGIN_REQ, then waits for the response (BEGIN_RESP, completed on the spot).
  tlm::tlm_response_status non_blocking(tlm::tlm_generic_payload& gp) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    responded_ = nullptr;
    const tlm::tlm_sync_enum status = socket->nb_transport_fw(gp, phase, delay);
    if (status == tlm::TLM_COMPLETED) {
      sc_core::wait(delay);
      return gp.get_response_status();
    }
    while (responded_ != &gp)
      sc_core::wait(response_event_);
    return gp.get_response_status();
  }

  tlm::tlm_response_status non_blocking(tlm::tlm_command cmd, std::uint64_t address, unsigned char* data,
                                        unsigned length) {
    tlm::tlm_generic_payload& gp = payloads.get(length);
    gp.set_command(cmd);
    gp.set_address(address);
    if (cmd == tlm::TLM_WRITE_COMMAND) std::memcpy(gp.get_data_ptr(), data, length);
    const tlm::tlm_response_status status = non_blocking(gp);
    if (cmd == tlm::TLM_READ_COMMAND) std::memcpy(data, gp.get_data_ptr(), length);
    gp.release();
    return status;
  }

  unsigned debug(tlm::tlm_command cmd, std::uint64_t address, unsigned char* data, unsigned length) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(address);
    gp.set_data_ptr(data);
    gp.set_data_length(length);
    return socket->transport_dbg(gp);
  }

  std::uint64_t end_reqs = 0;

 private:
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::END_REQ) {
      ++end_reqs;
      return tlm::TLM_ACCEPTED;
    }
    responded_ = &gp;
    response_event_.notify(delay);
    return tlm::TLM_COMPLETED;  // BEGIN_RESP: taken at once
  }
  tlm::tlm_generic_payload* responded_ = nullptr;
  sc_core::sc_event response_event_;
};

}  // namespace numagpu::testing
