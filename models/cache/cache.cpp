#include "cache/cache.hpp"

#include <stdexcept>

#include "common/txn.hpp"

namespace numagpu {

using sc_core::sc_time;

Cache::Cache(const sc_core::sc_module_name& name, const CacheSpec& spec, std::uint16_t socket, TxnPool& pool,
             stats::Registry& stats)
    : sc_module(name),
      in((std::string(basename()) + "_in").c_str(), *this, ComponentNames::add(this->name())),
      out((std::string(basename()) + "_out").c_str(), *this),
      spec_(spec),
      socket_(socket),
      pool_(pool),
      tags_(spec.size_bytes / (std::uint64_t(spec.line_bytes) * spec.ways), spec.ways),
      atomics_(
          stats.counter(std::string(this->name()) + ".atomics", "requests", "Atomic operations received")),
      writebacks_(stats.counter(std::string(this->name()) + ".writebacks", "lines",
                                "Dirty lines written back to the next level")),
      fills_(stats.counter(std::string(this->name()) + ".fills", "lines", "Lines allocated after a miss")),
      evictions_(stats.counter(std::string(this->name()) + ".evictions", "lines", "Valid lines displaced")) {
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
  switch (a.op) {
    case MemOp::kRead:
      if (tags_.access(tag_line(line))) {
        counters.read_hits->add();
        finish(gp, done);
      } else {
        counters.read_misses->add();
        out.send(0, gp, done);
      }
      return;
    case MemOp::kWrite:
      counters.writes->add();
      if (!spec_.write_back) {
        tags_.access(tag_line(line));  // keeps a present copy current; no write-allocate
        out.send(0, gp, done);
        return;
      }
      // Write-back: whole-line writes allocate without fetching.
      if (!tags_.mark_dirty(tag_line(line))) fill(line, true);
      tags_.access(tag_line(line));
      finish(gp, done);
      return;
    case MemOp::kAtomic:
      atomics_.add();
      if (!spec_.caches_atomics) {
        out.send(0, gp, done);
        return;
      }
      if (tags_.access(tag_line(line))) {
        tags_.mark_dirty(tag_line(line));
        counters.read_hits->add();
        finish(gp, done);
      } else {
        counters.read_misses->add();
        out.send(0, gp, done);
      }
      return;
  }
}

void Cache::on_response(unsigned, Payload& gp) {
  NumaAttr& a = attr(gp);
  if (a.issuer == Issuer::kCacheWriteback) {  // our own write-back came back: it is done
    a.completed = true;
    gp.release();
    return;
  }
  const std::uint64_t line = line_of(gp);
  if (a.op == MemOp::kRead || (a.op == MemOp::kAtomic && spec_.caches_atomics)) {
    if (!tags_.contains(tag_line(line))) fill(line, a.op == MemOp::kAtomic);
  }
  finish(gp, sc_core::SC_ZERO_TIME);
}

void Cache::fill(std::uint64_t line, bool dirty) {
  fills_.add();
  const auto victim = tags_.insert(tag_line(line), dirty);
  if (!victim) return;
  evictions_.add();
  if (victim->dirty) {
    // Rebuild the victim's full line number from its tag line and this bank's index bits.
    const std::uint64_t low_mask = (std::uint64_t(1) << spec_.set_index_shift) - 1;
    write_back_line((victim->line << spec_.set_index_shift) | (line & low_mask));
  }
}

void Cache::write_back_line(std::uint64_t line) {
  writebacks_.add();
  Payload& wb = pool_.allocate(MemOp::kWrite, line * spec_.line_bytes, spec_.line_bytes);
  NumaAttr& a = attr(wb);
  a.issuer = Issuer::kCacheWriteback;
  a.origin_socket = socket_;
  a.home_socket = socket_;  // a memory-side L2 holds only lines homed at its own socket
  a.issue_cycle = GpuClock::now();
  out.send(0, wb, sc_core::SC_ZERO_TIME);
}

void Cache::report_queues(std::ostream& os) const {
  if (in_process_ == 0 && in.held_requests() == 0 && out.queued_total() == 0) return;
  os << "  " << name() << ": in_process " << in_process_ << "/" << spec_.max_in_process << ", held "
     << in.held_requests() << ", responses queued " << in.queued_responses() << ", downstream queued "
     << out.queued_total() << "\n";
}

}  // namespace numagpu
