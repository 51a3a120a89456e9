#include "common/tlm_edge.hpp"

#include <algorithm>
#include <cstring>

namespace numagpu {

namespace {
bool enabled(const unsigned char* enables, unsigned enable_length, unsigned i) {
  return !enables || enables[i % enable_length] != TLM_BYTE_DISABLED;
}
}  // namespace

unsigned char* FunctionalMemory::locate(std::uint64_t a, unsigned length, unsigned& chunk,
                                        bool allocate) const {
  for (const Span& r : regions_) {
    if (a < r.start || a > r.end) continue;
    chunk = static_cast<unsigned>(std::min<std::uint64_t>(length, r.end - a + 1));
    return r.bytes + (a - r.start);
  }
  const std::uint64_t offset = a % kPageBytes;
  chunk = static_cast<unsigned>(std::min<std::uint64_t>(length, kPageBytes - offset));
  for (const Span& r : regions_) {  // a page's bytes stop where a mapped region starts
    if (r.start > a && r.start - a < chunk) chunk = static_cast<unsigned>(r.start - a);
  }
  if (!allocate) {
    const auto it = pages_.find(a / kPageBytes);
    return it == pages_.end() ? nullptr : it->second.get() + offset;
  }
  auto& page = pages_[a / kPageBytes];
  if (!page) {
    page.reset(new unsigned char[kPageBytes]);
    std::memset(page.get(), 0, kPageBytes);
  }
  return page.get() + offset;
}

void FunctionalMemory::read(std::uint64_t address, unsigned char* dst, unsigned length,
                            const unsigned char* enables, unsigned enable_length) const {
  for (unsigned done = 0; done < length;) {
    unsigned chunk = 0;
    const unsigned char* from = locate(address + done, length - done, chunk, false);
    for (unsigned i = 0; i < chunk; ++i) {
      if (enabled(enables, enable_length, done + i)) dst[done + i] = from ? from[i] : 0;
    }
    done += chunk;
  }
}

void FunctionalMemory::write(std::uint64_t address, const unsigned char* src, unsigned length,
                             const unsigned char* enables, unsigned enable_length) {
  for (unsigned done = 0; done < length;) {
    unsigned chunk = 0;
    unsigned char* to = locate(address + done, length - done, chunk, true);
    for (unsigned i = 0; i < chunk; ++i) {
      if (enabled(enables, enable_length, done + i)) to[i] = src[done + i];
    }
    done += chunk;
  }
}

FunctionalMemory::Span FunctionalMemory::span(std::uint64_t address) {
  for (const Span& r : regions_) {
    if (address >= r.start && address <= r.end) return r;
  }
  unsigned chunk = 0;
  unsigned char* bytes = locate(address, kPageBytes, chunk, true);
  return {bytes, address, address + chunk - 1};  // up to the page's end, or a mapped region's start
}

void FunctionalMemory::map(std::uint64_t start, std::uint64_t end, unsigned char* bytes) {
  unmap(start, end);
  regions_.push_back({bytes, start, end});
}

void FunctionalMemory::unmap(std::uint64_t start, std::uint64_t end) {
  regions_.erase(std::remove_if(regions_.begin(), regions_.end(),
                                [&](const Span& r) { return r.start <= end && start <= r.end; }),
                 regions_.end());
}

namespace {
bool outside(std::uint64_t address, std::uint64_t length, unsigned address_bits) {
  if (address_bits >= 64) return address + length < address;  // wraps around
  const std::uint64_t limit = std::uint64_t(1) << address_bits;
  return address >= limit || length > limit - address;
}
}  // namespace

tlm::tlm_response_status check_foreign(const tlm::tlm_generic_payload& gp, const EdgeFacts& facts) {
  const tlm::tlm_command cmd = gp.get_command();
  if (cmd == tlm::TLM_IGNORE_COMMAND) return tlm::TLM_OK_RESPONSE;
  if (cmd != tlm::TLM_READ_COMMAND && cmd != tlm::TLM_WRITE_COMMAND) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  const std::uint64_t address = gp.get_address();
  const unsigned length = gp.get_data_length();
  if (outside(address, length, facts.address_bits)) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (!gp.get_data_ptr()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  if (length == 0 || length > facts.line_bytes) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (address % facts.line_bytes + length > facts.line_bytes) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (gp.get_streaming_width() < length) return tlm::TLM_BURST_ERROR_RESPONSE;  // streaming: not honoured
  if (gp.get_byte_enable_ptr() && gp.get_byte_enable_length() == 0)
    return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

void apply_data(tlm::tlm_generic_payload& gp, const EdgeFacts& facts) {
  if (!facts.memory) return;
  const unsigned char* enables = gp.get_byte_enable_ptr();
  const unsigned enable_length = enables ? gp.get_byte_enable_length() : 0;
  if (gp.is_read()) {
    facts.memory->read(gp.get_address(), gp.get_data_ptr(), gp.get_data_length(), enables, enable_length);
  } else if (gp.is_write()) {
    facts.memory->write(gp.get_address(), gp.get_data_ptr(), gp.get_data_length(), enables, enable_length);
  }
}

unsigned debug_access(tlm::tlm_generic_payload& gp, const EdgeFacts& facts) {
  if (!facts.memory || !gp.get_data_ptr()) return 0;
  if (!gp.is_read() && !gp.is_write()) return 0;
  const unsigned length = gp.get_data_length();
  if (outside(gp.get_address(), length, facts.address_bits)) return 0;
  // Debug accesses have no byte enables and may cross lines: the whole range moves.
  if (gp.is_read()) {
    facts.memory->read(gp.get_address(), gp.get_data_ptr(), length);
  } else {
    facts.memory->write(gp.get_address(), gp.get_data_ptr(), length);
  }
  return length;
}

NumaAttr& foreign_attr(tlm::tlm_generic_payload& gp) {
  if (NumaAttr* a = gp.get_extension<NumaAttr>()) return *a;
  auto* a = new NumaAttr;
  a->op = foreign_op(gp);
  if (gp.has_mm()) {
    gp.set_auto_extension(a);  // freed when the host's memory manager resets the payload
  } else {
    gp.set_extension(a);  // freed with the payload
  }
  return *a;
}

tlm::tlm_generic_payload& open_stand_in(TxnPool& pool, tlm::tlm_generic_payload& foreign,
                                        const EdgeFacts& facts) {
  tlm::tlm_generic_payload& stand_in =
      pool.allocate(foreign_op(foreign), line_of(foreign.get_address(), facts.line_bytes), facts.line_bytes);
  NumaAttr& own = attr(stand_in);
  NumaAttr& theirs = foreign_attr(foreign);
  theirs.op = own.op;
  own.kernel_id = theirs.kernel_id;
  if (facts.sectored) {
    const unsigned first = static_cast<unsigned>(foreign.get_address() % facts.line_bytes) / 32;
    const unsigned last =
        static_cast<unsigned>((foreign.get_address() + foreign.get_data_length() - 1) % facts.line_bytes) /
        32;
    std::uint8_t mask = 0;
    for (unsigned s = first; s <= last; ++s)
      mask = static_cast<std::uint8_t>(mask | (1u << s));
    own.sectors = mask == (1u << (facts.line_bytes / 32)) - 1 ? 0 : mask;
  }
  own.counterpart = &foreign;
  theirs.counterpart = &stand_in;
  return stand_in;
}

tlm::tlm_generic_payload& answer_foreign(const tlm::tlm_generic_payload& stand_in, const EdgeFacts& facts) {
  tlm::tlm_generic_payload& foreign = *attr(stand_in).counterpart;
  foreign.set_response_status(stand_in.get_response_status());
  if (foreign.is_response_ok()) apply_data(foreign, facts);
  return foreign;
}

tlm::tlm_generic_payload& close_stand_in(tlm::tlm_generic_payload& stand_in) {
  tlm::tlm_generic_payload& foreign = *attr(stand_in).counterpart;
  if (NumaAttr* theirs = foreign.get_extension<NumaAttr>()) theirs->counterpart = nullptr;
  attr(stand_in).counterpart = nullptr;
  stand_in.release();
  return foreign;
}

}  // namespace numagpu
