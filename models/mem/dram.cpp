#include "mem/dram.hpp"

#include <algorithm>

#include "common/txn.hpp"

namespace numagpu {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

Dram::Dram(const sc_core::sc_module_name& name, SimContext& ctx, const DramSpec& spec,
           const MachineFacts& facts, stats::Registry& stats)
    : sc_module(name),
      in("in", ctx, *this, ctx.names.add(this->name())),
      clock_(ctx.clock),
      spec_(spec),
      facts_(facts),
      line_size_(facts.line_bytes),
      channel_count_(spec.channels),
      reads_(stats.counter(std::string(this->name()) + ".reads", "requests",
                           "Line reads served (atomics count here)")),
      writes_(stats.counter(std::string(this->name()) + ".writes", "requests", "Line writes served")),
      read_bytes_(stats.counter(std::string(this->name()) + ".read_bytes", "bytes", "Bytes read")),
      write_bytes_(stats.counter(std::string(this->name()) + ".write_bytes", "bytes", "Bytes written")) {
  if (facts.sectored) {
    read_sectors_ = &stats.counter(std::string(this->name()) + ".read_sectors", "sectors",
                                   "32 B sectors read (atomics count here)");
    write_sectors_ =
        &stats.counter(std::string(this->name()) + ".write_sectors", "sectors", "32 B sectors written");
  }
  if (facts.sample_cycles) {
    utilization_ = &stats.series(std::string(this->name()) + ".utilization", "percent",
                                 "Share of peak bandwidth used in each sample window", facts.sample_cycles);
  }
  for (unsigned c = 0; c < spec.channels; ++c) {
    // Per channel: num / (den * channels) bytes per cycle.
    channels_.push_back(std::make_unique<BandwidthPipe>(clock_, spec.bandwidth_bytes_num,
                                                        spec.bandwidth_den * spec.channels));
  }
  busy_.resize(spec.channels);
  if (spec.refresh_interval_ps) {
    refresh_due_ps_.assign(spec.channels, spec.refresh_interval_ps);
    refreshes_ = &stats.counter(std::string(this->name()) + ".refreshes", "refreshes",
                                "All-bank refreshes, summed over the channels");
  }
  if (spec.hbm.banks) {
    hbm_.assign(spec.channels, HbmChannel(spec.hbm));
    hbm_next_.assign(spec.channels, HbmChannel::kIdle);
    hbm_reserved_.assign(spec.channels, 0);
    hbm_counted_.assign(spec.channels, HbmChannel::Counts{});
    const std::string n = this->name();
    row_hits_ = &stats.counter(n + ".row_hits", "requests", "Requests whose bank had their row open");
    row_empty_ = &stats.counter(n + ".row_empty", "requests", "Requests whose bank had no row open");
    row_conflicts_ =
        &stats.counter(n + ".row_conflicts", "requests", "Requests whose bank had another row open");
  }
  // One line on one channel, rounded up to the picosecond.
  const std::uint64_t line_num = facts.line_bytes * spec.bandwidth_den * spec.channels;
  const std::uint64_t line_time_ps =
      (line_num * clock_.period_ps() + spec.bandwidth_bytes_num - 1) / spec.bandwidth_bytes_num;
  backlog_limit_ps_ = line_time_ps * spec.queue_depth;
  SC_HAS_PROCESS(Dram);
  SC_METHOD(unblock);
  sensitive << unblock_event_.event();
  dont_initialize();
  if (spec.hbm.banks) {
    SC_METHOD(hbm_wake);
    sensitive << hbm_event_.event();
    dont_initialize();
  }
}

unsigned Dram::channel_of(const Payload& gp) const {
  return static_cast<unsigned>(
      channel_count_.remainder(facts_.interleave.index(line_size_.quotient(gp.get_address()))));
}

// A refresh due while the channel is moving data waits for that transfer to end (the controller does not cut
// a burst) and then holds the channel for refresh_ps; one due while it is idle holds it from when it is due.
// Refreshes in a stretch the channel sat idle only matter through the last of them (each ends before the next
// is due, refresh_ps < refresh_interval_ps), so they are counted and skipped.
void Dram::refresh_until(unsigned ch, std::uint64_t at_ps) {
  if (refresh_due_ps_.empty()) return;
  std::uint64_t& due = refresh_due_ps_[ch];
  BandwidthPipe& channel = *channels_[ch];
  for (;;) {
    const std::uint64_t until = std::max(at_ps, channel.free_at_ps());
    if (due > until) return;
    if (channel.free_at_ps() <= due) {  // idle when due: skip to the last refresh due by `until`
      const std::uint64_t skipped = (until - due) / spec_.refresh_interval_ps;
      refreshes_->add(skipped);
      due += skipped * spec_.refresh_interval_ps;
    }
    channel.hold(due, spec_.refresh_ps);
    refreshes_->add();
    due += spec_.refresh_interval_ps;
  }
}

bool Dram::try_accept(unsigned, Payload& gp) {
  if (spec_.inject_stuck && in_service_ >= spec_.queue_depth) return false;
  if (!hbm_.empty()) {
    // Room in the channel's scheduler queue for the request's column commands, counting those accepted and
    // not yet arrived. A full queue frees room when a bank takes a request, at a wake-up (hbm_wake retries).
    const unsigned ch = channel_of(gp);
    hbm_advance(ch, hbm_cycle_at(clock_.now_ps()) + 1);
    const unsigned bursts = static_cast<unsigned>((facts_.data_bytes(attr(gp)) + spec_.hbm.burst_bytes - 1) /
                                                  spec_.hbm.burst_bytes);
    if (!hbm_[ch].has_room(hbm_reserved_[ch] + bursts)) {
      hbm_event_.notify_at_ps(std::max(hbm_ps_of(hbm_[ch].next_event()), clock_.now_ps()));
      return false;
    }
    hbm_reserved_[ch] += bursts;
    return true;
  }
  // In picoseconds: asked for every request, where sc_time conversions are out-of-line calls.
  const std::uint64_t free_ps = channels_[channel_of(gp)]->free_at_ps();
  const std::uint64_t now_ps = clock_.now_ps();
  if (free_ps <= now_ps || free_ps - now_ps <= backlog_limit_ps_) return true;
  // Full: look again when this channel's backlog has drained to the limit.
  unblock_event_.notify_at_ps(free_ps - backlog_limit_ps_);
  return false;
}

void Dram::on_request(unsigned port, Payload& gp) {
  const NumaAttr& a = attr(gp);
  const bool write = a.op == MemOp::kWrite;
  (write ? writes_ : reads_).add();
  const std::uint64_t bytes = facts_.data_bytes(a);  // the line, or its sectors
  (write ? write_bytes_ : read_bytes_).add(bytes);
  if (facts_.sectored) (write ? write_sectors_ : read_sectors_)->add(bytes / MachineFacts::kSectorBytes);
  if (spec_.inject_stuck) {
    ++in_service_;
    return;
  }
  if (spec_.inject_drop_response && !dropped_one_ && a.issuer == Issuer::kSm) {
    dropped_one_ = true;
    return;
  }
  const unsigned ch = channel_of(gp);
  if (!hbm_.empty()) {
    // A command cycle is decided as it begins: a request arriving in it takes part from the next one.
    const HbmChannel::Request r = hbm_request(gp, bytes, write, port, false);
    hbm_reserved_[ch] -= r.bursts;
    hbm_advance(ch, hbm_cycle_at(clock_.now_ps()) + 1);
    hbm_[ch].enqueue(r);
    hbm_schedule_wake(ch);
    return;
  }
  BandwidthPipe& channel = *channels_[ch];
  const std::uint64_t now_ps = clock_.now_ps();
  refresh_until(ch, now_ps);
  const std::uint64_t start_ps = std::max<std::uint64_t>(now_ps, channel.free_at_ps());
  const std::uint64_t delay_ps = channel.reserve_delay_ps(now_ps, bytes, latency_ps_);
  busy_[ch].book(start_ps, channel.free_at_ps());
  in.respond_ps(port, gp, delay_ps);
}

bool Dram::serve_blocking(Payload& gp, sc_time& delay) {
  // The bytes moved as on_request: the line, or (sectored) the 32 B sectors touched. A payload from numagpu's
  // pool says which in its attributes; any other is judged by its byte range.
  std::uint64_t bytes = facts_.line_bytes;
  bool write = gp.is_write();
  if (is_pooled(gp)) {
    write = attr(gp).op == MemOp::kWrite;
    bytes = facts_.data_bytes(attr(gp));
  } else if (facts_.sectored) {
    const std::uint64_t first = gp.get_address() / MachineFacts::kSectorBytes;
    const std::uint64_t last = (gp.get_address() + gp.get_data_length() - 1) / MachineFacts::kSectorBytes;
    bytes = (last - first + 1) * MachineFacts::kSectorBytes;
  }
  (write ? writes_ : reads_).add();
  (write ? write_bytes_ : read_bytes_).add(bytes);
  if (facts_.sectored) (write ? write_sectors_ : read_sectors_)->add(bytes / MachineFacts::kSectorBytes);
  const unsigned ch = channel_of(gp);
  const sc_time at = sim_now() + delay;
  if (!hbm_.empty()) {
    // Queued at the caller's time (beyond the queue's bound: a blocking caller cannot be held), then the
    // channel decided ahead until its last data.
    const HbmChannel::Request r = hbm_request(gp, bytes, write, 0, true);
    hbm_advance(ch, hbm_cycle_at(clock_.ps_of(at)) + 1);
    hbm_[ch].enqueue(r);
    HbmSlot& slot = hbm_slots_[r.tag];
    while (!slot.done_ps)
      hbm_advance(ch, hbm_[ch].next_event() + 1);
    const std::uint64_t done_ps = slot.done_ps;
    slot = HbmSlot{};
    hbm_free_slots_.push_back(static_cast<std::uint32_t>(r.tag));
    hbm_schedule_wake(ch);
    delay = clock_.ps_time(done_ps) - sim_now() + latency_;
    return true;
  }
  refresh_until(ch, clock_.ps_of(at));
  const std::uint64_t start_ps = std::max<std::uint64_t>(clock_.ps_of(at), channels_[ch]->free_at_ps());
  channels_[ch]->reserve(at, bytes);
  const std::uint64_t done_ps = channels_[ch]->free_at_ps();
  const sc_time done = clock_.ps_time(done_ps);
  busy_[ch].book(start_ps, done_ps);
  delay = done - sim_now() + latency_;
  return true;
}

// ---- the bank model ----

// The channel-local address (the line's number within its channel, then the byte in the line) read through
// the address map: the bank number's bits, and the row's.
HbmChannel::Request Dram::hbm_request(const Payload& gp, std::uint64_t bytes, bool write, unsigned port,
                                      bool blocking) {
  const HbmSpec& h = spec_.hbm;
  const std::uint64_t address = gp.get_address();
  const std::uint64_t local = channel_count_.quotient(line_size_.quotient(address)) * facts_.line_bytes +
                              line_size_.remainder(address);
  HbmChannel::Request r;
  for (unsigned i = 0; i < h.bank_bits.size(); ++i)
    r.bank |= static_cast<unsigned>((local >> h.bank_bits[i]) & 1) << i;
  for (unsigned i = 0; i < h.row_bits.size(); ++i)
    r.row |= ((local >> h.row_bits[i]) & 1) << i;
  r.row |= (local >> h.map_bits) << h.row_bits.size();
  r.bursts = static_cast<unsigned>((bytes + h.burst_bytes - 1) / h.burst_bytes);
  r.write = write;
  if (hbm_free_slots_.empty()) {
    hbm_free_slots_.push_back(static_cast<std::uint32_t>(hbm_slots_.size()));
    hbm_slots_.emplace_back();
  }
  r.tag = hbm_free_slots_.back();
  hbm_free_slots_.pop_back();
  hbm_slots_[r.tag] = HbmSlot{port, const_cast<Payload*>(&gp), blocking, 0};
  return r;
}

// Books a channel's bursts on its busy tracker and answers what completes: a response `latency` after the
// request's last data (never before now, which hbm_wake_ps keeps from happening).
class Dram::HbmSink final : public HbmChannel::Sink {
 public:
  HbmSink(Dram& dram, unsigned ch) : dram_(dram), ch_(ch) {}
  void burst(HbmChannel::Cycle start, HbmChannel::Cycle end) override {
    dram_.busy_[ch_].book(dram_.hbm_ps_of(start), dram_.hbm_ps_of(end));
  }
  void done(std::uint64_t tag, HbmChannel::Cycle data_end) override {
    HbmSlot& slot = dram_.hbm_slots_[tag];
    const std::uint64_t end_ps = dram_.hbm_ps_of(data_end);
    if (slot.blocking) {
      slot.done_ps = end_ps;
      return;
    }
    const std::uint64_t now_ps = dram_.clock_.now_ps();
    dram_.in.respond_ps(slot.port, *slot.gp, std::max(end_ps + dram_.latency_ps_, now_ps) - now_ps);
    slot = HbmSlot{};
    dram_.hbm_free_slots_.push_back(static_cast<std::uint32_t>(tag));
  }

 private:
  Dram& dram_;
  unsigned ch_;
};

void Dram::hbm_advance(unsigned ch, HbmChannel::Cycle end) {
  HbmChannel& channel = hbm_[ch];
  if (channel.decided_until() >= end) return;
  HbmSink sink(*this, ch);
  channel.advance(end, sink);
  const HbmChannel::Counts& now = channel.counts();
  HbmChannel::Counts& counted = hbm_counted_[ch];
  row_hits_->add(now.row_hits - counted.row_hits);
  row_empty_->add(now.row_empty - counted.row_empty);
  row_conflicts_->add(now.row_conflicts - counted.row_conflicts);
  if (refreshes_) refreshes_->add(now.refreshes - counted.refreshes);
  counted = now;
}

void Dram::hbm_schedule_wake(unsigned ch) {
  hbm_next_[ch] = hbm_[ch].next_event();
  if (hbm_next_[ch] != HbmChannel::kIdle) hbm_event_.notify_at_ps(hbm_wake_ps(hbm_next_[ch]));
}

// When to decide a channel whose next command may issue in cycle `next`. Deciding later changes no decision:
// an arrival first decides its channel up to its own cycle, so every decision sees the requests that had
// arrived by then, whenever it is made. What must not be late is a response (no earlier than now): a command
// in cycle `next` or after has its data CL (WL for a write) + burst later and its response `latency` after
// that, so the channel is decided by then. Exactly at `next` when that matters sooner: a held request waits
// for room the channel's next step may free, and a partition controller steps the busy history per cycle.
std::uint64_t Dram::hbm_wake_ps(HbmChannel::Cycle next) const {
  const HbmTiming& t = spec_.hbm.t;
  const std::uint64_t now_ps = clock_.now_ps();
  std::uint64_t at_ps = hbm_ps_of(next);
  if (!hbm_exact_wake_ && in.held_requests() == 0)
    at_ps = hbm_ps_of(next + std::min(t.cl, t.wl) + t.burst) + latency_ps_;
  return std::max(at_ps, now_ps);
}

void Dram::hbm_wake() {
  const auto resumed = hbm_event_.resume();
  ++activations_;
  const HbmChannel::Cycle now = hbm_cycle_at(clock_.now_ps());
  HbmChannel::Cycle next = HbmChannel::kIdle;
  for (unsigned ch = 0; ch < hbm_.size(); ++ch) {
    if (hbm_next_[ch] <= now) {
      hbm_advance(ch, now + 1);
      hbm_next_[ch] = hbm_[ch].next_event();
    }
    next = std::min(next, hbm_next_[ch]);
  }
  if (in.held_requests()) in.retry_blocked();
  if (next != HbmChannel::kIdle) hbm_event_.notify_at_ps(hbm_wake_ps(next));
}

void Dram::keep_busy_history() {
  hbm_exact_wake_ = true;
  for (BusyTracker& b : busy_)
    b.keep_history();
}

bool Dram::busy_in_cycle(Cycles cycle) {
  // In the period of that cycle (a clock change, GpuClock::retime).
  const std::uint64_t start = clock_.cycle_start_ps(cycle), length = clock_.cycle_length_ps(cycle);
  bool all = true;
  for (BusyTracker& b : busy_)
    all = b.busy_in_cycle(start, length) && all;  // every channel consumes its past
  return all;
}

Cycles Dram::first_busy_cycle(Cycles from, Cycles limit) const {
  // No cycle before any channel's first busy one can have every channel busy: a safe (early) answer.
  Cycles first = limit;
  for (const BusyTracker& b : busy_)
    first = std::min<Cycles>(first, b.first_busy_cycle(from, limit, clock_));
  return first;
}

// Utilization of a window: the channels' transfer time inside it over channels x window (exact: transfers
// booked beyond now are left out until their window comes).
void Dram::sample_window(Cycles window) {
  if (!utilization_) return;
  const std::uint64_t now_ps = clock_.now_ps();
  for (unsigned ch = 0; ch < hbm_.size(); ++ch)  // the bursts decided up to now booked (hbm_wake_ps)
    hbm_advance(ch, hbm_cycle_at(now_ps) + 1);
  std::uint64_t busy_until_now = 0;
  for (BusyTracker& b : busy_)
    busy_until_now += b.busy_ps_until(now_ps);
  // The window's own length: its cycles may have had another period (a clock change, GpuClock::retime).
  const Cycles end = clock_.now();
  const double window_ps =
      double(clock_.cycle_start_ps(end) - clock_.cycle_start_ps(end - std::min(end, window))) *
      double(channels_.size());
  utilization_->push(100.0 * double(busy_until_now - busy_ps_at_sample_) / window_ps);
  busy_ps_at_sample_ = busy_until_now;
}

void Dram::report_queues(std::ostream& os) const {
  const sc_time now = sc_time_stamp();
  std::size_t busy = 0;
  for (const auto& c : channels_)
    busy += c->free_at() > now ? 1 : 0;
  std::size_t scheduled = 0;
  for (const HbmChannel& c : hbm_) {
    busy += c.idle() ? 0 : 1;
    scheduled += c.queued();
  }
  if (busy == 0 && in.held_requests() == 0 && in_service_ == 0) return;
  os << "  " << name() << ": busy channels " << busy << "/" << channels_.size() << ", held "
     << in.held_requests() << ", stuck in service " << in_service_ << ", responses queued "
     << in.queued_responses();
  if (!hbm_.empty()) os << ", queued in the schedulers " << scheduled;
  os << "\n";
}

}  // namespace numagpu
