// One cache (an SM's L1, or one bank of a socket's L2): a tag array with a replacement policy (LRU or SRRIP),
// one tag access per cycle, a hit latency, a bounded number of requests in process (misses included),
// write-through or write-back.
//
// A read that misses while a read miss to the same line is outstanding is merged into it (MshrTable: no
// second request goes down; it is answered when the first one's data returns). Writes and atomics that go
// down are forwarded one by one, writes move whole lines, and atomics are performed at the L2 (the L1
// forwards them). See docs/memory-system.md.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "cache/mshr_table.hpp"
#include "cache/tag_array.hpp"
#include "common/divider.hpp"
#include "common/machine_facts.hpp"
#include "common/ports.hpp"
#include "common/sim_context.hpp"
#include "common/txn.hpp"
#include "common/watchdog.hpp"
#include "stats/registry.hpp"

namespace numagpu {

class TxnPool;
class HomeMap;
class PartitionDriver;

struct CacheSpec {
  std::uint64_t size_bytes = 0;
  unsigned ways = 0;
  ReplacementKind replacement = ReplacementKind::kLru;  // which line of a full set to evict
  Cycles hit_latency = 1;
  unsigned max_in_process = 64;  // requests accepted and not yet answered, per input binding
  bool write_back = false;       // false: write-through, no write-allocate
  bool caches_atomics = false;   // true at the L2, where atomics are performed
  // GPU-side L2 (organizations static and shared): data homed at other sockets is cached here too; misses
  // for it, and write-backs of it, leave on output 1 (to the crossbar and the fabric) instead of output 0.
  bool gpu_side = false;
  unsigned local_quota = ~0u;          // ways per set local lines may hold (~0: no partitioning)
  unsigned remote_quota = ~0u;         // ways per set remote lines may hold
  bool insert_remote_requests = true;  // false (remote_insert: once): other sockets' requests do not allocate
};

// Which bank of an interleaved cache this is: the low `index_bits` bits of a line number select the bank
// (they are not used again for the set), and this bank holds the lines whose bits equal `index`.
struct CacheBank {
  unsigned index_bits = 0;
  std::uint64_t index = 0;
};

class Cache : public sc_core::sc_module, public InputOwner, public OutputOwner, public QueueReporter {
 public:
  // `placement` gives the home of write-back victims (needed by a GPU-side L2; may be null otherwise).
  Cache(const sc_core::sc_module_name& name, SimContext& ctx, const CacheSpec& spec,
        const MachineFacts& facts, std::uint16_t socket, TxnPool& pool, stats::Registry& stats,
        CacheBank bank = {}, const HomeMap* homes = nullptr);

  RequestInputs in;    // from the SM (L1) or the crossbar (L2 bank)
  RequestOutputs out;  // towards memory

  std::uint64_t invalidate_all() { return tags_.invalidate_all(); }
  // Software coherence at a kernel boundary: drops every remote line, writing dirty ones back to their home
  // first; `done` runs when the last write-back is acknowledged (at once if there is none). Returns the
  // number of lines dropped.
  std::uint64_t flush_remote(std::function<void()> done);
  std::uint64_t lines(TagArray::LineClass cls) const { return tags_.count(cls); }
  // numa_aware: the driver that owns this bank's way split (brought up to date before each allocation).
  void set_partition(PartitionDriver* driver) { partition_ = driver; }
  void set_quotas(unsigned local_ways, unsigned remote_ways) {
    spec_.local_quota = local_ways;
    spec_.remote_quota = remote_ways;
  }
  std::size_t in_process() const { return in_process_[0] + in_process_[1]; }
  void report_queues(std::ostream& os) const override;

 private:
  bool try_accept(unsigned port, Payload& gp) override;
  // Each input binding has its own slots (try_accept).
  unsigned wait_key(unsigned port, const Payload&) const override { return port; }
  void on_request(unsigned port, Payload& gp) override;
  void on_response(unsigned port, Payload& gp) override;

  std::uint64_t line_of(const Payload& gp) const { return line_size_.quotient(gp.get_address()); }
  std::uint64_t tag_line(std::uint64_t line) const { return line >> bank_.index_bits; }
  sc_core::sc_time tag_access_done();  // reserves the next free tag-access cycle, returns hit-latency end
  TagArray::LineClass class_of(std::uint16_t home) const {
    return home == socket_ ? TagArray::LineClass::kLocal : TagArray::LineClass::kRemote;
  }
  unsigned output_for(std::uint16_t home) const { return spec_.gpu_side && home != socket_ ? 1 : 0; }
  void forward(Payload& gp, const sc_core::sc_time& delay);
  void fill(std::uint64_t line, bool dirty, TagArray::LineClass cls);
  void write_back_line(std::uint64_t line, Issuer issuer);
  void finish(Payload& gp, const sc_core::sc_time& delay);

  const GpuClock& clock_;
  CacheSpec spec_;
  MachineFacts facts_;
  Divider line_size_;  // facts_.line_bytes
  CacheBank bank_;
  std::uint16_t socket_;
  TxnPool& pool_;
  const HomeMap* homes_;
  PartitionDriver* partition_ = nullptr;
  // Outstanding read misses by line, with the reads that arrived for the same line meanwhile (merged). Each
  // occupies a request slot, so two bindings' worth of slots bound both.
  MshrTable<Payload> mshrs_;
  std::uint64_t flush_pending_ = 0;
  std::function<void()> flush_done_;
  TagArray tags_;
  std::size_t in_process_[2] = {0, 0};  // per input binding (request network)
  Cycles next_tag_cycle_ = 0;

  struct ClassCounters {
    stats::Counter* read_hits;
    stats::Counter* read_misses;
    stats::Counter* writes;
  };
  std::array<ClassCounters, 3> by_class_{};
  stats::Counter& atomics_;
  stats::Counter& writebacks_;
  stats::Counter& fills_;
  stats::Counter& evictions_;
  stats::Counter& merges_;
  stats::Counter& bank_conflicts_;
  stats::Counter& coherence_invalidations_;
  stats::Counter& coherence_writebacks_;
  stats::Counter& coherence_bytes_;
};

}  // namespace numagpu
