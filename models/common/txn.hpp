// The memory transaction: a pooled tlm_generic_payload carrying a NumaAttr extension.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <tlm>

#include "common/mem_op.hpp"
#include "common/time.hpp"

namespace numagpu {

class ComponentNames;
class RunHealth;

// Where a request stands relative to the socket observing it (the paper's traffic classes).
enum class TrafficClass : std::uint8_t { kLocalLocal, kLocalRemote, kRemoteLocal };
const char* to_string(TrafficClass c);

// Who created the transaction: SMs create demand requests; caches create write-backs of dirty victims and,
// at kernel boundaries, of dirty remote lines (software coherence).
enum class Issuer : std::uint8_t { kSm, kCacheWriteback, kCoherenceFlush };

// NUMA attributes of a request, defined once and carried on every hop (docs/architecture.md, "TLM-2.0
// usage").
class NumaAttr : public tlm::tlm_extension<NumaAttr> {
 public:
  static constexpr int kMaxRoute = 12;  // return-port stack depth: routers push, responses pop
  static constexpr int kMaxTrail = 24;  // component ids visited, for the audit's report

  std::uint64_t id = 0;  // unique per run, in issue order
  std::uint16_t origin_socket = 0;
  std::uint16_t origin_sm = 0;
  std::uint16_t origin_warp = 0;  // the issuing SM's warp slot, to wake the warp on the response
  std::uint16_t home_socket = 0;
  std::uint32_t kernel_id = 0;
  Cycles issue_cycle = 0;
  MemOp op = MemOp::kRead;
  Issuer issuer = Issuer::kSm;
  bool completed = false;  // set once by the issuer when the response arrives (audit)
  // Sectored caches (docs/memory-system.md, "Sectors"): the 32 B sectors of the line this request asks for
  // or carries (bit i: bytes [32 i, 32 i + 32) of the line); 0: the whole line (every unsectored request).
  std::uint8_t sectors = 0;
  std::uint32_t pool_slot = 0;  // the payload's slot in its TxnPool; survives reset_for_reuse

  // Scratch written by a port group when it queues an arriving phase, read back in the same component's
  // callback: a transaction sits in exactly one event queue at a time.
  std::uint16_t arrival_port = 0;
  // Scratch written by a port group that sends a phase through a socket (not a direct binding): the phase's
  // exact time in picoseconds, which the annotated delay, in ticks, may have rounded up (common/ports.cpp,
  // "Exact times through a socket").
  std::uint64_t phase_at_ps = 0;

  // Inline: every hop of every request pushes, pops and records (docs/performance.md). A route deeper than
  // the stack, or a pop of an empty one, is a topology bug, not a workload property: it fails loudly.
  void push_return_port(std::uint16_t port) {
    if (route_depth_ >= kMaxRoute) route_stack_broken("overflow");
    route_[route_depth_++] = port;
  }
  std::uint16_t pop_return_port() {
    if (route_depth_ == 0) route_stack_broken("underflow");
    return route_[--route_depth_];
  }
  // A sectored cache that forwards a request for fewer sectors keeps the ones it was asked for here, and
  // takes them back when the response returns (one entry per cache on the way).
  void push_sectors(std::uint8_t s) {
    if (sector_depth_ < kMaxSectorStack) sector_stack_[sector_depth_] = s;
    ++sector_depth_;
  }
  std::uint8_t pop_sectors() {
    --sector_depth_;
    return sector_depth_ < kMaxSectorStack ? sector_stack_[sector_depth_] : 0;
  }
  void record_hop(std::uint16_t component_id) {
    if (trail_len_ < kMaxTrail) {
      trail_[trail_len_++] = component_id;
    } else if (trail_dropped_ < 255) {
      ++trail_dropped_;
    }
  }
  // The components visited, by name.
  std::string trail_text(const ComponentNames& names) const;

  TrafficClass traffic_class(std::uint16_t observer_socket) const {
    if (origin_socket != observer_socket) return TrafficClass::kRemoteLocal;
    return home_socket == observer_socket ? TrafficClass::kLocalLocal : TrafficClass::kLocalRemote;
  }

  void reset_for_reuse();

  tlm::tlm_extension_base* clone() const override;
  void copy_from(const tlm::tlm_extension_base& other) override;

 private:
  [[noreturn]] [[gnu::cold]] static void route_stack_broken(const char* what);
  // The route stack is read at every hop, the trail only written there (and read by the audit's report):
  // the route and the counts come first, next to the fields above, in the payload's cache lines.
  std::uint8_t route_depth_ = 0;
  std::uint8_t trail_len_ = 0;
  std::uint8_t trail_dropped_ = 0;
  static constexpr int kMaxSectorStack = 6;
  std::uint8_t sector_depth_ = 0;
  std::array<std::uint8_t, kMaxSectorStack> sector_stack_{};
  std::array<std::uint16_t, kMaxRoute> route_{};
  std::array<std::uint16_t, kMaxTrail> trail_{};

 public:
  // The TLM edge (common/tlm_edge.hpp), read only where a payload crosses it, never on an inner hop.
  // `pooled`: the payload this attribute lives beside, set by its TxnPool (a copy attached to another payload
  // does not match it: is_pooled()). `counterpart`: a pooled payload standing inside the model for a foreign
  // one (a host's payload) points at it, and the foreign payload's attribute points back at its stand-in.
  tlm::tlm_generic_payload* pooled = nullptr;
  tlm::tlm_generic_payload* counterpart = nullptr;
};

// Every payload inside numagpu comes from a TxnPool and is a PooledPayload, whose attributes are reachable
// without tlm_generic_payload::get_extension (an out-of-line library call that cost 9 % of run time). The
// same NumaAttr is also attached as a regular extension, for tools that only know the TLM API.
class PooledPayload : public tlm::tlm_generic_payload {
 public:
  NumaAttr* numa = nullptr;
};

// Whether `gp` came from a TxnPool (a PooledPayload whose attr() is valid), for payloads arriving through a
// socket from anywhere (a host's initiator may send any tlm_generic_payload): an extension lookup.
inline bool is_pooled(const tlm::tlm_generic_payload& gp) {
  const NumaAttr* a = gp.get_extension<NumaAttr>();
  return a && a->pooled == &gp;
}

inline NumaAttr& attr(tlm::tlm_generic_payload& gp) {
  return *static_cast<PooledPayload&>(gp).numa;
}
inline const NumaAttr& attr(const tlm::tlm_generic_payload& gp) {
  return *static_cast<const PooledPayload&>(gp).numa;
}

// The issuer's side of the transaction audit: marks `gp` completed, or reports a second completion (to
// `health`, naming `who`) and returns false. Every issuer calls it when a response arrives.
bool complete_once(tlm::tlm_generic_payload& gp, const char* who, RunHealth& health);

// Names of one machine's components for trails: a component registers once and stores its 16-bit id, which
// is what a transaction records at each hop (a name per hop would not fit in the payload).
class ComponentNames {
 public:
  std::uint16_t add(const std::string& name);
  const std::string& name(std::uint16_t id) const;

 private:
  std::vector<std::string> names_;
};

// Pool of payloads with their extension and data buffer attached: no allocation per request
// (docs/architecture.md, "TLM-2.0 usage"). Payloads return to the pool when their reference count drops to
// zero.
class TxnPool : public tlm::tlm_mm_interface {
 public:
  static constexpr unsigned kLineBytes = 128;  // largest access the model moves in one payload

  TxnPool();
  TxnPool(const TxnPool&) = delete;
  TxnPool& operator=(const TxnPool&) = delete;
  ~TxnPool() override;

  // A fresh transaction with reference count 1 held by the caller, a new id, and fields reset.
  tlm::tlm_generic_payload& allocate(MemOp op, std::uint64_t address, unsigned length);
  void free(tlm::tlm_generic_payload* gp) override;

  // Whether pooled `gp` (is_pooled) came from this pool.
  bool owns(const tlm::tlm_generic_payload& gp) const;
  std::uint64_t live() const { return live_; }
  // Called when the last transaction out of the pool returns (a hosted System's drain: system/system.hpp).
  std::function<void()> on_empty;
  std::uint64_t allocated_total() const { return next_id_; }
  std::size_t capacity() const { return size_; }
  // Visits every transaction currently out of the pool (for the end-of-run audit).
  void for_each_live(const std::function<void(const tlm::tlm_generic_payload&)>& fn) const;

 private:
  struct Entry;
  static constexpr std::size_t kChunk = 256;  // entries allocated together, contiguous
  Entry& entry(std::uint32_t slot) const;
  std::vector<std::unique_ptr<Entry[]>> chunks_;
  // Data buffers apart from the payloads: the model never reads them, so they stay out of the cache lines
  // every hop touches (the payload and its attributes).
  std::vector<std::unique_ptr<unsigned char[]>> data_chunks_;
  std::size_t size_ = 0;  // entries constructed
  std::vector<Entry*> free_list_;
  std::uint64_t next_id_ = 0;
  std::uint64_t live_ = 0;
};

}  // namespace numagpu
