// One cache (an SM's L1, or one bank of a socket's L2): a tag array, one tag access per cycle, a hit latency,
// a bounded number of requests in process (misses included), write-through or write-back.
//
// Read misses to a line already being fetched merge (MSHRs); atomics are performed at the L2 (the L1 forwards
// them). Sectored (CacheSpec::sectors > 1): each line keeps a valid and a dirty sector mask, a read hits only
// when every sector it asks for is valid, and a miss asks the next level for the missing sectors only
// (docs/memory-system.md, "Sectors"). See docs/architecture.md.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "cache/cache_spec.hpp"
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

// Which bank of an interleaved cache this is: the low `index_bits` bits of a line's interleave index
// (MachineFacts::interleave) select the bank, and this bank holds the lines whose bits equal `index`. A tag
// line is the line without its low `index_bits` bits (not used again for the set): with the bank's number
// they give the line back (LineInterleave::line_of).
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
  // A unified L1 whose other ways hold shared memory for the kernel (sm.shared_carveouts): keeps `ways` of
  // its ways; returns the lines dropped (none at a kernel boundary, where the L1 is already invalid).
  std::uint64_t set_usable_ways(unsigned ways) { return tags_.set_usable_ways(ways); }
  // Software coherence at a kernel boundary: drops every remote line, writing dirty ones back to their home
  // first; `done` runs when the last write-back is acknowledged (at once if there is none). Returns the
  // number of lines dropped. `invalidate` false: the paper's ideal coherence (Figure 9), the dirty remote
  // lines are written back and every remote line stays valid (none dropped).
  std::uint64_t flush_remote(std::function<void()> done, bool invalidate = true);
  std::uint64_t lines(TagArray::LineClass cls) const { return tags_.count(cls); }
  // numa_aware: the driver that owns this bank's way split (brought up to date before each allocation).
  void set_partition(PartitionDriver* driver) { partition_ = driver; }
  void set_quotas(unsigned local_ways, unsigned remote_ways) {
    spec_.local_quota = local_ways;
    spec_.remote_quota = remote_ways;
  }
  // runtime.crb: whether requests from other sockets allocate here (twice) or not (once), from the next
  // request on (lines already cached stay).
  void set_insert_remote_requests(bool twice) { spec_.insert_remote_requests = twice; }
  std::size_t in_process() const { return in_process_[0] + in_process_[1]; }
  void report_queues(std::ostream& os) const override;

  // The counters other parts of the model read (the run summary, the activity recorder), by reference: a
  // statistic renamed or removed then breaks the build, not a run. The per-class ones are indexed by
  // TrafficClass. The registered names are in cache.cpp.
  struct Counters {
    std::array<const stats::Counter*, 3> read_hits;
    std::array<const stats::Counter*, 3> read_misses;
    std::array<const stats::Counter*, 3> writes;
    const stats::Counter& atomics;  // received: performed here (caches_atomics) or forwarded
    const stats::Counter& fills;
    const stats::Counter& evictions;
    const stats::Counter& writebacks;
    const stats::Counter& coherence_writebacks;
    const stats::Counter& mshr_merges;
    const stats::Counter& bank_conflicts;
    // Sectored caches only (null otherwise): per 32 B sector of each request, as Nsight Compute's
    // l1tex__t_sectors_*_lookup_{hit,miss} and lts__t_sectors_*_lookup_{hit,miss} count them.
    const stats::Counter* read_sector_hits;
    const stats::Counter* read_sector_misses;
    const stats::Counter* write_sector_hits;
    const stats::Counter* write_sector_misses;
  };
  Counters counters() const;

 private:
  bool try_accept(unsigned port, Payload& gp) override;
  // Each input binding has its own slots (try_accept).
  unsigned wait_key(unsigned port, const Payload&) const override { return port; }
  void on_request(unsigned port, Payload& gp) override;
  void on_response(unsigned port, Payload& gp) override;

  std::uint64_t line_of(const Payload& gp) const { return line_size_.quotient(gp.get_address()); }
  std::uint64_t tag_line(std::uint64_t line) const { return line >> bank_.index_bits; }
  // Reserves the next free tag-access cycle; returns the delay to the hit latency's end, in ps.
  std::uint64_t tag_access_done_ps();
  TagArray::LineClass class_of(std::uint16_t home) const {
    return home == socket_ ? TagArray::LineClass::kLocal : TagArray::LineClass::kRemote;
  }
  unsigned output_for(std::uint16_t home) const { return spec_.gpu_side && home != socket_ ? 1 : 0; }
  // `sectors`: when the machine is sectored, the 32 B sectors the request asks the next level for (the ones
  // it carried are kept on its sector stack until the response); -1: those it carries.
  void forward(Payload& gp, std::uint64_t delay_ps, int sectors = -1);
  void fill(std::uint64_t line, bool dirty, TagArray::LineClass cls, std::uint32_t sectors = ~0u);
  void write_back_line(std::uint64_t line, Issuer issuer, std::uint32_t dirty_sectors = ~0u);
  // Sectors: a request's 32 B sectors (NumaAttr::sectors, 0 = all) as this cache's sectors (1 when
  // unsectored), and back (0 = the whole line when unsectored).
  std::uint32_t sectors_of(std::uint8_t granules) const;
  std::uint8_t granules_of(std::uint32_t sectors) const;
  // Counts a request's 32 B sectors found valid and not (sectored caches only).
  // `pending`: sectors (granules) of the line already asked for; a lookup finding them counts as a hit, as
  // the hardware's lookup counters do (the tag is there, the data follows).
  void count_sectors(std::uint8_t granules, std::uint32_t valid, stats::Counter* hits, stats::Counter* misses,
                     std::uint8_t pending = 0);
  // Sectored caches: per line with a read miss outstanding, the granules asked for: those it fetches and
  // those the reads waiting on it have missed and will fetch next (for the counters only).
  std::unordered_map<std::uint64_t, std::uint8_t> pending_sectors_;
  // A read merged with a miss that has now been answered with `fetched`: finished if its sectors are valid,
  // else sent on for the rest (sectored caches).
  void retry_merged(Payload& gp, std::uint32_t fetched);
  void finish(Payload& gp, std::uint64_t delay_ps);

  const GpuClock& clock_;
  CacheSpec spec_;
  MachineFacts facts_;
  Divider line_size_;             // facts_.line_bytes
  bool sectored_;                 // this cache keeps sectors (spec_.sectors > 1)
  unsigned granules_per_sector_;  // 32 B units per sector
  std::uint8_t all_granules_;     // the line's 32 B sectors
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
  stats::Counter* read_sector_hits_ = nullptr;  // sectored only
  stats::Counter* read_sector_misses_ = nullptr;
  stats::Counter* write_sector_hits_ = nullptr;
  stats::Counter* write_sector_misses_ = nullptr;
};

}  // namespace numagpu
