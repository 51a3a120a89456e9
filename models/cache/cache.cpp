#include "cache/cache.hpp"

#include <stdexcept>
#include <vector>

#include "cache/partition_driver.hpp"
#include "common/txn.hpp"
#include "mem/placement.hpp"

namespace numagpu {

using sc_core::sc_time;

Cache::Cache(const sc_core::sc_module_name& name, const CacheSpec& spec, std::uint16_t socket, TxnPool& pool,
             stats::Registry& stats, const Placement* placement)
    : sc_module(name),
      in((std::string(basename()) + "_in").c_str(), *this, ComponentNames::add(this->name())),
      out((std::string(basename()) + "_out").c_str(), *this),
      spec_(spec),
      socket_(socket),
      pool_(pool),
      placement_(placement),
      tags_(spec.size_bytes / (std::uint64_t(spec.line_bytes) * spec.ways), spec.ways),
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
  if (spec.gpu_side && !placement) throw std::logic_error("a GPU-side cache needs the placement");
  const std::string base = this->name();
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

bool Cache::try_accept(unsigned, Payload&) {
  if (in_process_ >= spec_.max_in_process) return false;
  ++in_process_;
  return true;
}

sc_time Cache::tag_access_done() {
  // One tag access per cycle: a request that finds the port busy waits for the next free cycle.
  const Cycles start = std::max(GpuClock::now(), next_tag_cycle_);
  if (start > GpuClock::now()) bank_conflicts_.add();  // the tag port was taken this cycle: wait
  next_tag_cycle_ = start + 1;
  return GpuClock::cycles(start + spec_.hit_latency) - sc_core::sc_time_stamp();
}

void Cache::finish(Payload& gp, const sc_time& delay) {
  in.respond(0, gp, delay);
  --in_process_;
  in.retry_blocked();
}

void Cache::on_request(unsigned, Payload& gp) {
  NumaAttr& a = attr(gp);
  auto& counters = by_class_[static_cast<int>(a.traffic_class(socket_))];
  const std::uint64_t line = line_of(gp);
  const sc_time done = tag_access_done();
  const TagArray::LineClass cls = class_of(a.home_socket);
  // remote_insert: once — a request from another socket is served here without allocating.
  const bool allocate = spec_.insert_remote_requests || a.origin_socket == socket_;
  switch (a.op) {
    case MemOp::kRead:
      if (tags_.access(tag_line(line))) {
        counters.read_hits->add();
        finish(gp, done);
        return;
      }
      counters.read_misses->add();
      if (auto it = mshrs_.find(line); it != mshrs_.end()) {
        // A miss to this line is already on its way: wait for its data instead of asking again.
        merges_.add();
        it->second.merged.push_back(&gp);
        if (it->second.remote) {  // like its primary, it keeps no slot while the fabric serves it
          --in_process_;
          in.retry_blocked();
        }
        return;
      }
      mshrs_.emplace(line, Mshr{output_for(a.home_socket) == 1, {}});
      forward(gp, done);
      return;
    case MemOp::kWrite:
      counters.writes->add();
      if (!spec_.write_back || !allocate) {
        tags_.access(tag_line(line));  // keeps a present copy current; no write-allocate
        forward(gp, done);
        return;
      }
      // Write-back: whole-line writes allocate without fetching.
      if (!tags_.mark_dirty(tag_line(line))) fill(line, true, cls);
      tags_.access(tag_line(line));
      finish(gp, done);
      return;
    case MemOp::kAtomic:
      atomics_.add();
      if (!spec_.caches_atomics) {
        forward(gp, done);
        return;
      }
      if (tags_.access(tag_line(line))) {
        tags_.mark_dirty(tag_line(line));
        counters.read_hits->add();
        finish(gp, done);
      } else {
        counters.read_misses->add();
        forward(gp, done);
      }
      return;
  }
}

// A miss (or a write passing through) goes on towards memory. A GPU-side L2 sends remote data into the fabric
// without keeping its slot: a slot held while waiting on the fabric could wait on this very bank's
// neighbours at the home socket, whose requests travel the same queues (a protocol deadlock; hardware
// separates them with virtual channels). The SMs' outstanding-request limits bound what it lets through.
void Cache::forward(Payload& gp, const sc_time& delay) {
  const unsigned port = output_for(attr(gp).home_socket);
  out.send(port, gp, delay);
  if (port == 1) {
    --in_process_;
    in.retry_blocked();
  }
}

void Cache::on_response(unsigned port, Payload& gp) {
  NumaAttr& a = attr(gp);
  if (a.issuer != Issuer::kSm) {  // our own write-back came back: it is done
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
  if (allocate && (a.op == MemOp::kRead || (a.op == MemOp::kAtomic && spec_.caches_atomics))) {
    if (!tags_.contains(tag_line(line))) fill(line, a.op == MemOp::kAtomic, class_of(a.home_socket));
  }
  auto answer = [this, port](Payload& p) {
    if (port == 1) {
      in.respond(0, p, sc_core::SC_ZERO_TIME);  // its slot was released when it left (forward())
    } else {
      finish(p, sc_core::SC_ZERO_TIME);
    }
  };
  answer(gp);
  if (a.op == MemOp::kRead) {
    if (auto it = mshrs_.find(line); it != mshrs_.end()) {
      const std::vector<Payload*> merged = std::move(it->second.merged);
      mshrs_.erase(it);
      for (Payload* m : merged)
        answer(*m);
    }
  }
}

void Cache::fill(std::uint64_t line, bool dirty, TagArray::LineClass cls) {
  fills_.add();
  if (partition_) partition_->catch_up();  // the split in force now
  const unsigned quota = cls == TagArray::LineClass::kRemote ? spec_.remote_quota : spec_.local_quota;
  const auto victim = tags_.insert(tag_line(line), dirty, cls, quota);
  if (!victim) return;
  evictions_.add();
  if (victim->dirty) {
    // Rebuild the victim's full line number from its tag line and this bank's index bits.
    const std::uint64_t low_mask = (std::uint64_t(1) << spec_.set_index_shift) - 1;
    writebacks_.add();
    write_back_line((victim->line << spec_.set_index_shift) | (line & low_mask), Issuer::kCacheWriteback);
  }
}

void Cache::write_back_line(std::uint64_t line, Issuer issuer) {
  const std::uint64_t address = line * spec_.line_bytes;
  Payload& wb = pool_.allocate(MemOp::kWrite, address, spec_.line_bytes);
  NumaAttr& a = attr(wb);
  a.issuer = issuer;
  a.origin_socket = socket_;
  // A memory-side cache holds only lines homed at its own socket; a GPU-side one asks the placement.
  a.home_socket = placement_ ? placement_->home(address) : socket_;
  a.issue_cycle = GpuClock::now();
  out.send(output_for(a.home_socket), wb, sc_core::SC_ZERO_TIME);
}

std::uint64_t Cache::flush_remote(std::function<void()> done) {
  std::vector<std::uint64_t> dirty;
  const std::uint64_t dropped = tags_.invalidate_class(TagArray::LineClass::kRemote, dirty);
  coherence_invalidations_.add(dropped);
  coherence_writebacks_.add(dirty.size());
  coherence_bytes_.add(dirty.size() * spec_.line_bytes);
  if (dirty.empty()) {
    done();
    return dropped;
  }
  flush_pending_ += dirty.size();
  flush_done_ = std::move(done);
  // Tag lines of this bank carry the bank bits shifted out; put them back (all lines here share them).
  const std::uint64_t bank_bits = spec_.bank_index;
  for (std::uint64_t tag : dirty) {
    write_back_line((tag << spec_.set_index_shift) | bank_bits, Issuer::kCoherenceFlush);
  }
  return dropped;
}

void Cache::report_queues(std::ostream& os) const {
  if (in_process_ == 0 && in.held_requests() == 0 && out.queued_total() == 0) return;
  os << "  " << name() << ": in_process " << in_process_ << "/" << spec_.max_in_process << ", held "
     << in.held_requests() << ", responses queued " << in.queued_responses() << ", downstream queued "
     << out.queued_total() << "\n";
}

}  // namespace numagpu
