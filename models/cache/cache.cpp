#include "cache/cache.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "cache/partition_driver.hpp"
#include "common/txn.hpp"
#include "mem/home_map.hpp"

namespace numagpu {

using sc_core::sc_time;

Cache::Cache(const sc_core::sc_module_name& name, SimContext& ctx, const CacheSpec& spec,
             const MachineFacts& facts, std::uint16_t socket, TxnPool& pool, stats::Registry& stats,
             CacheBank bank, const HomeMap* homes)
    : sc_module(name),
      in((std::string(basename()) + "_in").c_str(), ctx, *this, ctx.names.add(this->name())),
      out((std::string(basename()) + "_out").c_str(), ctx, *this),
      clock_(ctx.clock),
      spec_(spec),
      facts_(facts),
      line_size_(facts.line_bytes),
      sectored_(spec.sectors > 1),
      granules_per_sector_(facts.line_bytes / MachineFacts::kSectorBytes / std::max(1u, spec.sectors)),
      all_granules_(static_cast<std::uint8_t>((1u << (facts.line_bytes / MachineFacts::kSectorBytes)) - 1)),
      bank_(bank),
      socket_(socket),
      pool_(pool),
      homes_(homes),
      mshrs_(2 * spec.max_in_process),
      tags_(spec.size_bytes / (std::uint64_t(facts.line_bytes) * spec.ways), spec.ways, spec.replacement,
            spec.sectors, spec.hashed_sets),
      atomics_(
          stats.counter(std::string(this->name()) + ".atomics", "requests", "Atomic operations received")),
      writebacks_(stats.counter(std::string(this->name()) + ".writebacks", "lines",
                                "Dirty lines written back to the next level")),
      fills_(stats.counter(std::string(this->name()) + ".fills", "lines", "Lines allocated after a miss")),
      evictions_(stats.counter(std::string(this->name()) + ".evictions", "lines", "Valid lines displaced")),
      merges_(stats.counter(std::string(this->name()) + ".mshr_merges", "requests",
                            "Read misses merged with an outstanding miss to the same line (no new request)")),
      bank_conflicts_(stats.counter(std::string(this->name()) + ".bank_conflicts", "requests",
                                    "Requests that waited for the tag port (one access per cycle)")),
      coherence_invalidations_(
          stats.counter(std::string(this->name()) + ".coherence_invalidations", "lines",
                        "Remote lines dropped at kernel boundaries (software coherence)")),
      coherence_writebacks_(
          stats.counter(std::string(this->name()) + ".coherence_writebacks", "lines",
                        "Dirty remote lines written back to their home at kernel boundaries")),
      coherence_bytes_(stats.counter(std::string(this->name()) + ".coherence_writeback_bytes", "bytes",
                                     "Bytes of dirty remote lines written back at kernel boundaries")) {
  if (spec.gpu_side && !homes) throw std::logic_error("a GPU-side cache needs the home map");
  const std::string base = this->name();
  if (sectored_) {
    if (!facts.sectored || granules_per_sector_ == 0 || facts.line_bytes > 8 * MachineFacts::kSectorBytes)
      throw std::logic_error("a sectored cache needs sectored machine facts and 32 B to 1/8-line sectors");
    auto sector_counter = [&](const char* leaf, const char* desc) {
      return &stats.counter(base + "." + leaf, "sectors", desc);
    };
    read_sector_hits_ = sector_counter("read_sector_hits", "32 B sectors of reads found valid");
    read_sector_misses_ = sector_counter("read_sector_misses", "32 B sectors of reads not valid (fetched)");
    write_sector_hits_ = sector_counter("write_sector_hits", "32 B sectors of writes found valid");
    write_sector_misses_ = sector_counter("write_sector_misses", "32 B sectors of writes not valid");
  }
  for (int c = 0; c < 3; ++c) {
    const std::string cls = to_string(static_cast<TrafficClass>(c));
    by_class_[c].read_hits =
        &stats.counter(base + ".read_hits." + cls, "requests", "Read hits, by traffic class");
    by_class_[c].read_misses =
        &stats.counter(base + ".read_misses." + cls, "requests", "Read misses, by traffic class");
    by_class_[c].writes =
        &stats.counter(base + ".writes." + cls, "requests", "Writes received, by traffic class");
  }
}

Cache::Counters Cache::counters() const {
  Counters c{{},
             {},
             {},
             atomics_,
             fills_,
             evictions_,
             writebacks_,
             coherence_writebacks_,
             merges_,
             bank_conflicts_,
             read_sector_hits_,
             read_sector_misses_,
             write_sector_hits_,
             write_sector_misses_};
  for (std::size_t k = 0; k < by_class_.size(); ++k) {
    c.read_hits[k] = by_class_[k].read_hits;
    c.read_misses[k] = by_class_[k].read_misses;
    c.writes[k] = by_class_[k].writes;
  }
  return c;
}

// Each input binding has its own slots: an L2 bank's second binding carries the requests that arrive from
// the fabric (request network 1), so they never wait behind this socket's own requests, whose remote misses
// may in turn wait on other sockets' banks (docs/architecture.md, "Request networks").
bool Cache::try_accept(unsigned port, Payload&) {
  std::size_t& n = in_process_[port];
  if (n >= spec_.max_in_process) return false;
  ++n;
  return true;
}

std::uint64_t Cache::tag_access_done_ps() {
  // One tag access per cycle: a request that finds the port busy waits for the next free cycle.
  const Cycles now = clock_.now();
  const Cycles start = std::max(now, next_tag_cycle_);
  if (start > now) bank_conflicts_.add();  // the tag port was taken this cycle: wait
  next_tag_cycle_ = start + 1;
  return clock_.cycle_start_ps(start + spec_.hit_latency) - clock_.now_ps();
}

void Cache::finish(Payload& gp, std::uint64_t delay_ps) {
  const unsigned port = attr(gp).pop_return_port();
  in.respond_ps(port, gp, delay_ps);
  --in_process_[port];
  in.retry_blocked(port);
}

std::uint32_t Cache::sectors_of(std::uint8_t granules) const {
  if (!sectored_) return 1;
  const std::uint8_t g = granules ? granules : all_granules_;
  const std::uint32_t per = (1u << granules_per_sector_) - 1;
  std::uint32_t out = 0;
  for (unsigned sct = 0; sct < spec_.sectors; ++sct) {
    if (g & (per << (sct * granules_per_sector_))) out |= 1u << sct;
  }
  return out;
}

std::uint8_t Cache::granules_of(std::uint32_t sectors) const {
  if (!sectored_) return 0;
  const std::uint32_t per = (1u << granules_per_sector_) - 1;
  std::uint32_t out = 0;
  for (unsigned sct = 0; sct < spec_.sectors; ++sct) {
    if (sectors & (1u << sct)) out |= per << (sct * granules_per_sector_);
  }
  return static_cast<std::uint8_t>(out);
}

void Cache::count_sectors(std::uint8_t granules, std::uint32_t valid, stats::Counter* hits,
                          stats::Counter* misses, std::uint8_t pending) {
  const std::uint8_t want = granules ? granules : all_granules_;
  const std::uint8_t have = static_cast<std::uint8_t>(granules_of(valid) | pending);
  hits->add(static_cast<std::uint64_t>(__builtin_popcount(want & have)));
  misses->add(static_cast<std::uint64_t>(__builtin_popcount(want & ~have & 0xff)));
}

void Cache::on_request(unsigned port, Payload& gp) {
  NumaAttr& a = attr(gp);
  a.push_return_port(static_cast<std::uint16_t>(port));
  auto& counters = by_class_[static_cast<int>(a.traffic_class(socket_))];
  const std::uint64_t line = line_of(gp);
  const std::uint64_t tl = tag_line(line);
  const std::uint64_t done = tag_access_done_ps();
  const TagArray::LineClass cls = class_of(a.home_socket);
  // remote_insert: once — a request from another socket is served here without allocating.
  const bool allocate = spec_.insert_remote_requests || a.origin_socket == socket_;
  // The sectors asked for (unsectored: 1, the line) and those present (0: the line is absent).
  const std::uint32_t want = sectors_of(a.sectors);
  switch (a.op) {
    case MemOp::kRead: {
      const std::uint32_t valid = tags_.access_sectors(tl);
      if (sectored_) {
        const auto p = pending_sectors_.find(line);
        count_sectors(a.sectors, valid, read_sector_hits_, read_sector_misses_,
                      p == pending_sectors_.end() ? 0 : p->second);
      }
      if ((want & ~valid) == 0) {
        counters.read_hits->add();
        finish(gp, done);
        return;
      }
      counters.read_misses->add();
      // Its missing sectors count as asked for from now on, so a later read finds them on their way (a
      // sector hit), whether this read goes down for them now or waits for the line's outstanding miss
      // first: each sector is counted a miss once, as the hardware, which asks at once, counts it.
      if (sectored_) pending_sectors_[line] |= static_cast<std::uint8_t>(granules_of(want & ~valid));
      if (mshrs_.merge_or_open(line, &gp)) {
        // A miss to this line is already on its way: wait for its data instead of asking again.
        merges_.add();
        return;
      }
      forward(gp, done, granules_of(want & ~valid));  // only the missing sectors
      return;
    }
    case MemOp::kWrite:
      counters.writes->add();
      if (sectored_)
        count_sectors(a.sectors, tags_.valid_sectors(tl), write_sector_hits_, write_sector_misses_);
      if (!spec_.write_back || !allocate) {
        tags_.access(tl);  // keeps a present copy current; no write-allocate
        forward(gp, done);
        return;
      }
      // Write-back: writes allocate without fetching (sectored: the written sectors become valid and dirty).
      if (sectored_) {
        if (!tags_.add_sectors(tl, want, want)) fill(line, true, cls, want);
      } else if (!tags_.mark_dirty(tl)) {
        fill(line, true, cls);
      }
      tags_.access(tl);
      finish(gp, done);
      return;
    case MemOp::kAtomic: {
      atomics_.add();
      // Atomics are performed where the line is homed (the point of coherence): an L1, or a GPU-side L2
      // holding a copy of another socket's line, passes them on; a copy here could not make them atomic
      // with the other sockets' updates.
      if (!spec_.caches_atomics || a.home_socket != socket_) {
        forward(gp, done);
        return;
      }
      const std::uint32_t valid = tags_.access_sectors(tl);
      if ((want & ~valid) == 0) {
        if (sectored_) {
          tags_.add_sectors(tl, 0, want);
        } else {
          tags_.mark_dirty(tl);
        }
        counters.read_hits->add();
        finish(gp, done);
      } else {
        counters.read_misses->add();
        forward(gp, done, granules_of(want & ~valid));
      }
      return;
    }
  }
}

// A miss (or a write passing through) goes on towards memory, keeping its slot until the answer comes back,
// as an MSHR does. For a GPU-side L2 that may be across the fabric: the home bank takes it on its own request
// network, whose slots never wait on the fabric, so holding this slot cannot close a cycle of waits.
void Cache::forward(Payload& gp, std::uint64_t delay_ps, int sectors) {
  NumaAttr& a = attr(gp);
  if (facts_.sectored) {
    a.push_sectors(a.sectors);
    if (sectors >= 0) a.sectors = static_cast<std::uint8_t>(sectors);
  }
  out.send_ps(output_for(a.home_socket), gp, delay_ps);
}

void Cache::on_response(unsigned, Payload& gp) {
  NumaAttr& a = attr(gp);
  // Our own write-back came back: it is done. (Another socket's write-back passing through this bank on its
  // way to DRAM is answered like any request.)
  if (a.issuer != Issuer::kSm && a.origin_socket == socket_) {
    const bool flush = a.issuer == Issuer::kCoherenceFlush;
    a.completed = true;
    gp.release();
    if (flush && --flush_pending_ == 0 && flush_done_) {
      auto done = std::move(flush_done_);
      flush_done_ = nullptr;
      done();
    }
    return;
  }
  const std::uint64_t line = line_of(gp);
  const bool allocate = spec_.insert_remote_requests || a.origin_socket == socket_;
  const bool performed_here = a.op == MemOp::kAtomic && spec_.caches_atomics && a.home_socket == socket_;
  // Sectored machine: the response brings the sectors this cache asked for; the request goes back with the
  // ones it was asked for.
  std::uint32_t fetched = 1;
  if (facts_.sectored) {
    fetched = sectors_of(a.sectors);
    a.sectors = a.pop_sectors();
  }
  if (allocate && (a.op == MemOp::kRead || performed_here)) {
    if (sectored_) {
      const std::uint32_t dirty = performed_here ? sectors_of(a.sectors) : 0;
      if (!tags_.add_sectors(tag_line(line), fetched, dirty))
        fill(line, performed_here, class_of(a.home_socket), fetched | dirty);
    } else if (!tags_.contains(tag_line(line))) {
      fill(line, a.op == MemOp::kAtomic, class_of(a.home_socket));
    }
  }
  finish(gp, 0);
  if (a.op != MemOp::kRead) return;
  if (sectored_) {
    pending_sectors_.erase(line);  // a merged read that still misses sectors opens the next miss
    mshrs_.close(line, [this, fetched](Payload* m) { retry_merged(*m, fetched); });
  } else {
    mshrs_.close(line, [this](Payload* m) { finish(*m, 0); });
  }
}

// The answered miss may not have fetched every sector a merged read wants (it asked for others): those
// reads are finished if their sectors are now valid (or were just fetched, for a request that does not
// allocate), else they become a miss of their own for the rest. Their sectors were counted on arrival.
void Cache::retry_merged(Payload& gp, std::uint32_t fetched) {
  const std::uint64_t line = line_of(gp);
  const std::uint32_t need = sectors_of(attr(gp).sectors) & ~(tags_.valid_sectors(tag_line(line)) | fetched);
  if (need == 0) {
    finish(gp, 0);
    return;
  }
  // Its sectors count as asked for from now on, whether it goes for them or waits again (as on arrival).
  pending_sectors_[line] |= static_cast<std::uint8_t>(granules_of(need));
  if (mshrs_.merge_or_open(line, &gp)) return;  // another merged read already went for its sectors
  forward(gp, 0, granules_of(need));
}

void Cache::fill(std::uint64_t line, bool dirty, TagArray::LineClass cls, std::uint32_t sectors) {
  fills_.add();
  if (partition_) partition_->catch_up();  // the split in force now
  const unsigned quota = cls == TagArray::LineClass::kRemote ? spec_.remote_quota : spec_.local_quota;
  const auto victim = tags_.insert(tag_line(line), dirty, cls, quota, sectors);
  if (!victim) return;
  evictions_.add();
  if (victim->dirty) {
    // Rebuild the victim's full line number from its tag line and this bank's number.
    writebacks_.add();
    write_back_line(facts_.interleave.line_of(victim->line, bank_.index, bank_.index_bits),
                    Issuer::kCacheWriteback, victim->dirty_sectors);
  }
}

void Cache::write_back_line(std::uint64_t line, Issuer issuer, std::uint32_t dirty_sectors) {
  const std::uint64_t address = line * facts_.line_bytes;
  Payload& wb = pool_.allocate(MemOp::kWrite, address, facts_.line_bytes);
  NumaAttr& a = attr(wb);
  if (facts_.sectored) a.sectors = granules_of(dirty_sectors);  // only the dirty sectors go
  a.issuer = issuer;
  a.origin_socket = socket_;
  // A memory-side cache holds only lines homed at its own socket; a GPU-side one asks the home map.
  a.home_socket = homes_ ? homes_->decided_home(address) : socket_;
  a.issue_cycle = clock_.now();
  out.send(output_for(a.home_socket), wb, sc_core::SC_ZERO_TIME);
}

std::uint64_t Cache::flush_remote(std::function<void()> done, bool invalidate) {
  std::vector<std::uint64_t> dirty;
  std::vector<std::uint32_t> dirty_sectors;
  std::uint64_t dropped = 0;
  if (invalidate) {
    dropped = tags_.invalidate_class(TagArray::LineClass::kRemote, dirty, &dirty_sectors);
  } else {
    tags_.clean_class(TagArray::LineClass::kRemote, dirty, &dirty_sectors);
  }
  coherence_invalidations_.add(dropped);
  coherence_writebacks_.add(dirty.size());
  if (sectored_) {
    for (std::uint32_t d : dirty_sectors)
      coherence_bytes_.add(std::uint64_t(__builtin_popcount(granules_of(d))) * MachineFacts::kSectorBytes);
  } else {
    coherence_bytes_.add(dirty.size() * facts_.line_bytes);
  }
  if (dirty.empty()) {
    done();
    return dropped;
  }
  flush_pending_ += dirty.size();
  flush_done_ = std::move(done);
  // Tag lines of this bank carry the bank bits shifted out; put them back from the bank's number.
  for (std::size_t k = 0; k < dirty.size(); ++k) {
    write_back_line(facts_.interleave.line_of(dirty[k], bank_.index, bank_.index_bits),
                    Issuer::kCoherenceFlush, dirty_sectors[k]);
  }
  return dropped;
}

void Cache::report_queues(std::ostream& os) const {
  if (in_process_[0] + in_process_[1] == 0 && in.held_requests() == 0 && out.queued_total() == 0) return;
  os << "  " << name() << ": in_process " << in_process_[0] << "+" << in_process_[1] << " (of "
     << spec_.max_in_process << " per network), held " << in.held_requests() << ", responses queued "
     << in.queued_responses() << ", downstream queued " << out.queued_total() << "\n";
}

}  // namespace numagpu
