#include "common/txn.hpp"

#include <stdexcept>

#include "common/health.hpp"

namespace numagpu {

const char* to_string(MemOp op) {
  switch (op) {
    case MemOp::kRead:
      return "read";
    case MemOp::kWrite:
      return "write";
    case MemOp::kAtomic:
      return "atomic";
  }
  return "?";
}

const char* to_string(TrafficClass c) {
  switch (c) {
    case TrafficClass::kLocalLocal:
      return "local_local";
    case TrafficClass::kLocalRemote:
      return "local_remote";
    case TrafficClass::kRemoteLocal:
      return "remote_local";
  }
  return "?";
}

void NumaAttr::route_stack_broken(const char* what) {
  throw std::logic_error(std::string("NumaAttr: return-port stack ") + what);
}

std::string NumaAttr::trail_text(const ComponentNames& names) const {
  std::string text;
  for (int i = 0; i < trail_len_; ++i) {
    if (i) text += " -> ";
    text += names.name(trail_[i]);
  }
  if (trail_dropped_) text += " -> (+" + std::to_string(trail_dropped_) + " hops)";
  return text.empty() ? std::string("(not sent)") : text;
}

void NumaAttr::reset_for_reuse() {
  // Every field back to its default but the pool slot; the route and trail arrays are read only up to
  // their lengths, so emptying them is enough (no 72-byte clear per request).
  id = 0;
  origin_socket = origin_sm = origin_warp = home_socket = 0;
  kernel_id = 0;
  issue_cycle = 0;
  op = MemOp::kRead;
  issuer = Issuer::kSm;
  completed = false;
  sectors = 0;
  sector_depth_ = 0;
  arrival_port = 0;
  route_depth_ = trail_len_ = trail_dropped_ = 0;
  counterpart = nullptr;
}

tlm::tlm_extension_base* NumaAttr::clone() const {
  auto* copy = new NumaAttr(*this);
  copy->pooled = nullptr;  // a copy belongs to no pool's payload
  copy->counterpart = nullptr;
  return copy;
}

void NumaAttr::copy_from(const tlm::tlm_extension_base& other) {
  // The pool's bookkeeping stays this attribute's own: copying another's would make this payload pass for
  // a pooled one it is not (is_pooled), or lose its slot.
  auto* const pooled_gp = pooled;
  auto* const counter = counterpart;
  const std::uint32_t slot = pool_slot;
  *this = static_cast<const NumaAttr&>(other);
  pooled = pooled_gp;
  counterpart = counter;
  pool_slot = slot;
}

bool complete_once(tlm::tlm_generic_payload& gp, const char* who, RunHealth& health) {
  NumaAttr& a = attr(gp);
  if (a.completed) {
    health.report(RunHealth::Kind::kAudit,
                  std::string(who) + ": transaction " + std::to_string(a.id) + " completed twice");
    return false;
  }
  a.completed = true;
  return true;
}

std::uint16_t ComponentNames::add(const std::string& name) {
  if (names_.size() >= 0xffff) throw std::logic_error("ComponentNames: too many components");
  names_.push_back(name);
  return static_cast<std::uint16_t>(names_.size() - 1);
}

const std::string& ComponentNames::name(std::uint16_t id) const {
  static const std::string unknown = "?";
  return id < names_.size() ? names_[id] : unknown;
}

// The payload and its attributes side by side: the two are read together at every hop. The attributes are
// attached as the payload's extension too, and detached before the payload is destroyed (a payload deletes
// the extensions it still holds).
struct TxnPool::Entry {
  PooledPayload gp;
  NumaAttr ext;
  bool live = false;
};

TxnPool::TxnPool() = default;

TxnPool::Entry& TxnPool::entry(std::uint32_t slot) const {
  return chunks_[slot / kChunk][slot % kChunk];
}

TxnPool::~TxnPool() {
  for (std::size_t slot = 0; slot < size_; ++slot) {
    Entry& e = entry(static_cast<std::uint32_t>(slot));
    e.gp.clear_extension(&e.ext);
  }
}

tlm::tlm_generic_payload& TxnPool::allocate(MemOp op, std::uint64_t address, unsigned length) {
  if (length == 0 || length > kLineBytes) throw std::logic_error("TxnPool: access length out of range");
  Entry* e;
  if (free_list_.empty()) {
    if (size_ % kChunk == 0) {
      chunks_.push_back(std::make_unique<Entry[]>(kChunk));
      data_chunks_.push_back(std::unique_ptr<unsigned char[]>(
          new unsigned char[kChunk * kLineBytes]));  // not zeroed: never read
    }
    const auto slot = static_cast<std::uint32_t>(size_++);
    e = &entry(slot);
    e->gp.set_mm(this);
    e->ext.pool_slot = slot;
    e->gp.set_extension(&e->ext);
    e->gp.numa = &e->ext;
    e->ext.pooled = &e->gp;
    e->gp.set_data_ptr(data_chunks_.back().get() + (slot % kChunk) * kLineBytes);
  } else {
    e = free_list_.back();
    free_list_.pop_back();
    e->ext.reset_for_reuse();
  }
  e->live = true;
  ++live_;
  auto& gp = e->gp;
  gp.set_command(op == MemOp::kWrite ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  gp.set_address(address);
  gp.set_data_length(length);
  gp.set_streaming_width(length);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_byte_enable_length(0);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  gp.acquire();
  e->ext.id = next_id_++;
  e->ext.op = op;
  return gp;
}

bool TxnPool::owns(const tlm::tlm_generic_payload& gp) const {
  const std::uint32_t slot = attr(gp).pool_slot;
  return slot < size_ && &entry(slot).gp == &gp;
}

void TxnPool::free(tlm::tlm_generic_payload* gp) {
  Entry& e = entry(attr(*gp).pool_slot);
  e.live = false;
  free_list_.push_back(&e);
  if (--live_ == 0 && on_empty) on_empty();
}

void TxnPool::for_each_live(const std::function<void(const tlm::tlm_generic_payload&)>& fn) const {
  for (std::size_t slot = 0; slot < size_; ++slot) {
    const Entry& e = entry(static_cast<std::uint32_t>(slot));
    if (e.live) fn(e.gp);
  }
}

}  // namespace numagpu
