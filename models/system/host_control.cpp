#include "system/host_control.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <utility>

#include "common/time.hpp"

namespace numagpu {

HostControl::HostControl(const sc_core::sc_module_name& name, Launcher launcher, sc_core::sc_time access)
    : sc_module(name),
      socket("socket"),
      interrupt("interrupt", false),
      launcher_(std::move(launcher)),
      access_(access) {
  socket.bind(*this);
  SC_HAS_PROCESS(HostControl);
  SC_METHOD(ring);
  sensitive << ring_event_;
  dont_initialize();
  SC_METHOD(update_irq);
  sensitive << irq_event_;
  dont_initialize();
}

tlm::tlm_response_status HostControl::check(const tlm::tlm_generic_payload& gp) const {
  if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) return tlm::TLM_OK_RESPONSE;
  const sc_dt::uint64 offset = gp.get_address();
  const unsigned bytes = gp.get_data_length();
  if (offset >= kEnd || (offset > kLast && offset < kArgs) || offset % 4 != 0)
    return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (!gp.get_data_ptr()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  if (gp.get_byte_enable_ptr()) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  const bool whole_arg = offset >= kArgs && bytes == 8 && offset % 8 == 0;
  if ((bytes != 4 && !whole_arg) || gp.get_streaming_width() < bytes) return tlm::TLM_BURST_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

std::uint32_t HostControl::read_register(std::uint32_t offset) const {
  if (offset >= kArgs && offset < kEnd) {
    const std::uint64_t arg = args_[(offset - kArgs) / 8];
    return static_cast<std::uint32_t>(offset % 8 == 0 ? arg : arg >> 32);
  }
  switch (offset) {
    case kId:
      return kIdValue;
    case kControl:
      return control_;
    case kStatus:
      return (running_ > 0 || !doorbells_.empty() ? 1u : 0u) | (held_ ? 2u : 0u);
    case kIrqStatus:
      return irq_status_;
    case kKernel:
      return kernel_;
    case kSubmitted:
      return submitted_;
    case kCompleted:
      return completed_;
    case kLast:
      return last_;
    default:
      return 0;  // DOORBELL reads as zero
  }
}

void HostControl::write_register(std::uint32_t offset, std::uint64_t value, unsigned bytes,
                                 const sc_core::sc_time& at) {
  if (offset >= kArgs) {
    std::uint64_t& arg = args_[(offset - kArgs) / 8];
    if (bytes == 8) {
      arg = value;
    } else if (offset % 8 == 0) {
      arg = (arg & ~std::uint64_t(0xffffffff)) | (value & 0xffffffff);
    } else {
      arg = (arg & 0xffffffff) | (value << 32);
    }
    return;
  }
  const auto v = static_cast<std::uint32_t>(value);
  switch (offset) {
    case kControl:
      control_ = v & 1u;
      irq_event_.notify(sc_core::SC_ZERO_TIME);
      break;
    case kIrqStatus:
      irq_status_ &= ~v;
      irq_event_.notify(sc_core::SC_ZERO_TIME);
      break;
    case kKernel:
      kernel_ = v;
      break;
    case kDoorbell: {
      // Taken at the caller's local time: a loosely-timed host rings at the time it means, not at the end of
      // its quantum. The descriptor is copied now: the host may rewrite it for the next launch at once.
      const Doorbell d{at, kernel_, args_};
      const auto pos =
          std::upper_bound(doorbells_.begin(), doorbells_.end(), at,
                           [](const sc_core::sc_time& t, const Doorbell& e) { return t < e.at; });
      doorbells_.insert(pos, d);
      ring_event_.notify(doorbells_.front().at - sc_core::sc_time_stamp());
      break;
    }
    default:
      break;  // read-only registers ignore writes
  }
}

void HostControl::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const tlm::tlm_response_status status = check(gp);
  gp.set_response_status(status);
  if (status != tlm::TLM_OK_RESPONSE || gp.get_command() == tlm::TLM_IGNORE_COMMAND) return;
  const auto offset = static_cast<std::uint32_t>(gp.get_address());
  const unsigned bytes = gp.get_data_length();
  unsigned char* data = gp.get_data_ptr();
  delay += access_;
  if (gp.is_read()) {
    std::uint64_t value = read_register(offset);
    if (bytes == 8) value |= std::uint64_t(read_register(offset + 4)) << 32;
    std::memcpy(data, &value, bytes);  // little endian, as the host's bytes are
  } else {
    std::uint64_t value = 0;
    std::memcpy(&value, data, bytes);
    write_register(offset, value, bytes, sc_core::sc_time_stamp() + delay);
  }
}

tlm::tlm_sync_enum HostControl::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;  // END_RESP: nothing to do
  b_transport(gp, delay);  // a register answers at once: the whole transaction in one call
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

unsigned HostControl::transport_dbg(tlm::tlm_generic_payload& gp) {
  // Reads only, without side effects; a debug write would ring no doorbell.
  if (!gp.is_read() || !gp.get_data_ptr()) return 0;
  const auto offset = static_cast<std::uint32_t>(gp.get_address());
  const unsigned bytes = gp.get_data_length();
  unsigned done = 0;
  for (; done + 4 <= bytes && offset + done < kEnd; done += 4) {
    const std::uint32_t value = read_register(offset + done);
    std::memcpy(gp.get_data_ptr() + done, &value, 4);
  }
  return done;
}

void HostControl::ring() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (!doorbells_.empty() && doorbells_.front().at <= now) {
    const Doorbell d = doorbells_.front();
    doorbells_.erase(doorbells_.begin());
    ++submitted_;
    const auto factory = kernels_.find(d.kernel);
    std::unique_ptr<KernelProgram> program;
    if (!held_ && factory != kernels_.end()) {
      try {
        program = factory->second(d.args);
      } catch (const std::exception&) {
        program.reset();
      }
    }
    const std::uint64_t generation = generation_;
    auto ended = [this, generation](bool aborted) {
      if (generation == generation_) command_ended(aborted);
    };
    if (program && launcher_(std::move(program), ended)) {
      ++running_;
    } else {
      ++completed_;
      last_ = kRefused;
      raise(2u);
    }
  }
  if (!doorbells_.empty()) ring_event_.notify(doorbells_.front().at - now);
}

void HostControl::command_ended(bool aborted) {
  if (running_ > 0) --running_;
  ++completed_;
  last_ = aborted ? kAborted : kDone;
  raise(aborted ? 2u : 1u);
  completed_event_.notify(sc_core::SC_ZERO_TIME);
}

void HostControl::raise(std::uint32_t bits) {
  irq_status_ |= bits;
  irq_event_.notify(sc_core::SC_ZERO_TIME);
}

void HostControl::update_irq() {
  const bool level = (control_ & 1u) && irq_status_ != 0;
  if (interrupt.read() != level) interrupt.write(level);
}

void HostControl::reset(bool held) {
  held_ = held;
  ++generation_;
  control_ = irq_status_ = kernel_ = submitted_ = completed_ = 0;
  last_ = kNone;
  running_ = 0;
  args_ = {};
  doorbells_.clear();
  ring_event_.cancel();
  irq_event_.notify(sc_core::SC_ZERO_TIME);
}

namespace {
// Bytes from `address` up to its page's end, at most `left`: what one call of the store moves.
unsigned page_chunk(std::uint64_t address, std::uint64_t left) {
  const std::uint64_t page_left = FunctionalMemory::kPageBytes - address % FunctionalMemory::kPageBytes;
  return static_cast<unsigned>(std::min(left, page_left));
}
}  // namespace

void FunctionalStoreView::read(std::uint64_t address, void* dst, std::uint64_t bytes) const {
  auto* out = static_cast<unsigned char*>(dst);
  for (std::uint64_t done = 0; done < bytes;) {
    const unsigned n = page_chunk(address + done, bytes - done);
    memory_.read(address + done, out + done, n);
    done += n;
  }
}

void FunctionalStoreView::write(std::uint64_t address, const void* src, std::uint64_t bytes) {
  const auto* in = static_cast<const unsigned char*>(src);
  for (std::uint64_t done = 0; done < bytes;) {
    const unsigned n = page_chunk(address + done, bytes - done);
    memory_.write(address + done, in + done, n);
    done += n;
  }
}

}  // namespace numagpu
