#include "mem/hbm_channel.hpp"

#include <algorithm>

namespace numagpu {

HbmChannel::HbmChannel(const HbmSpec& spec)
    : spec_(spec), banks_(spec.banks), group_next_col_(spec.bank_groups, 0) {
  if (spec.t.refresh_interval) refresh_due_ = spec.t.refresh_interval;
  for (unsigned i = 0; i < banks_.size(); ++i)
    banks_[i].group = i % spec.bank_groups;
}

void HbmChannel::enqueue(const Request& r) {
  queue_.push_back({r, next_order_++});
  queued_bursts_ += r.bursts;
  Bank& b = banks_[r.bank];
  if (!b.busy && b.waiting == 0) ++free_waiting_;
  ++b.waiting;
}

HbmChannel::Cycle HbmChannel::ready_cycle(const Bank& b, Cycle from) const {
  if (needs_row_command(b)) {
    if (b.open) return std::max(from, b.next_pre);   // precharge
    return std::max({from, b.next_act, next_act_});  // activate
  }
  const Cycle turnaround = b.cur.r.write ? next_write_ : next_read_;
  return std::max({from, b.next_col, next_col_, group_next_col_[b.group], turnaround});
}

HbmChannel::Cycle HbmChannel::next_event() const {
  if (idle()) return kIdle;
  if (free_waiting_) return cursor_;  // a free bank takes a request now
  Cycle next = kIdle;
  for (const Bank& b : banks_) {
    if (b.busy) next = std::min(next, ready_cycle(b, cursor_));
  }
  return std::max(cursor_, std::min(next, refresh_due_));
}

// Per bank, in one pass over the queue (oldest first): the oldest request for the bank's open row, else the
// oldest for the bank.
void HbmChannel::assign_free_banks() {
  if (!free_waiting_) return;
  constexpr std::size_t kNone = ~std::size_t(0);
  std::vector<std::size_t>& pick = pick_;
  std::vector<char>& hit = hit_;
  pick.assign(banks_.size(), kNone);
  hit.assign(banks_.size(), 0);
  for (std::size_t q = 0; q < queue_.size(); ++q) {
    const Request& r = queue_[q].r;
    const Bank& b = banks_[r.bank];
    if (b.busy || hit[r.bank]) continue;
    if (b.open && b.row == r.row) {
      pick[r.bank] = q;
      hit[r.bank] = 1;
    } else if (pick[r.bank] == kNone) {
      pick[r.bank] = q;
    }
  }
  std::vector<std::size_t>& taken = taken_;
  taken.clear();
  for (unsigned i = 0; i < banks_.size(); ++i) {
    if (pick[i] == kNone) continue;
    Bank& b = banks_[i];
    b.cur = queue_[pick[i]];
    b.busy = true;
    --b.waiting;
    --free_waiting_;
    ++busy_banks_;
    queued_bursts_ -= b.cur.r.bursts;
    if (!b.open)
      ++counts_.row_empty;
    else if (b.row == b.cur.r.row)
      ++counts_.row_hits;
    else
      ++counts_.row_conflicts;
    taken.push_back(pick[i]);
  }
  std::sort(taken.begin(), taken.end());
  for (auto it = taken.rbegin(); it != taken.rend(); ++it)
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(*it));
}

// Refreshes due by `c`. A stretch with nothing to do is skipped to its last refresh (each ends before the
// next is due, as derive_spec checks); rows were closed by them.
void HbmChannel::refresh_due_by(Cycle c) {
  const HbmTiming& t = spec_.t;
  if (refresh_due_ > c) return;
  if (refresh_due_ + t.refresh_interval <= c) {
    const std::uint64_t skipped = (c - refresh_due_) / t.refresh_interval;
    counts_.refreshes += skipped;
    refresh_due_ += skipped * t.refresh_interval;
    for (Bank& b : banks_)
      b.open = false;
  }
  // Precharge every bank once it may be, then refresh.
  Cycle start = refresh_due_;
  bool any_open = false;
  for (const Bank& b : banks_) {
    if (!b.open) continue;
    any_open = true;
    start = std::max(start, b.next_pre);
  }
  const Cycle end = start + (any_open ? t.rp : 0) + t.refresh;
  for (Bank& b : banks_) {
    b.open = false;
    b.next_act = std::max(b.next_act, end);
  }
  ++counts_.refreshes;
  refresh_due_ += t.refresh_interval;
}

void HbmChannel::step(Cycle c, Sink& sink) {
  const HbmTiming& t = spec_.t;
  refresh_due_by(c);
  assign_free_banks();
  // One column command: the oldest request whose bank has its row open and whose timing allows it.
  Bank* col = nullptr;
  Bank* row = nullptr;
  for (Bank& b : banks_) {
    if (!b.busy || ready_cycle(b, c) != c) continue;
    if (needs_row_command(b)) {
      if (!row || b.cur.order < row->cur.order) row = &b;
    } else if (!col || b.cur.order < col->cur.order) {
      col = &b;
    }
  }
  if (col) {
    const bool write = col->cur.r.write;
    const Cycle data = c + (write ? t.wl : t.cl);
    sink.burst(data, data + t.burst);
    next_col_ = c + std::max(t.ccd, t.burst);
    Cycle& group = group_next_col_[col->group];
    group = c + std::max(t.ccdl, t.burst);
    if (write) {
      next_read_ = std::max(next_read_, c + t.wl + t.burst + t.cdlr);
      col->next_pre = std::max(col->next_pre, c + t.wl + t.burst + t.wr);
    } else {
      // Read to write: CL + burst + 2 - WL (the write's data after the read's, two bus cycles apart).
      if (t.cl + t.burst + 2 > t.wl) next_write_ = std::max(next_write_, c + t.cl + t.burst + 2 - t.wl);
      col->next_pre = std::max(col->next_pre, c + t.rtp);
    }
    if (--col->cur.r.bursts == 0) {
      col->busy = false;
      --busy_banks_;
      if (col->waiting) ++free_waiting_;
      sink.done(col->cur.r.tag, data + t.burst);
    }
  }
  // One row command: the oldest request whose bank needs a precharge or an activate and may have it.
  if (row) {
    if (row->open) {
      row->open = false;
      row->next_act = std::max(row->next_act, c + t.rp);
    } else {
      row->open = true;
      row->row = row->cur.r.row;
      row->next_col = c + t.rcd;
      row->next_pre = std::max(row->next_pre, c + t.ras);
      row->next_act = std::max(row->next_act, c + t.rc);
      next_act_ = c + t.rrd;
    }
  }
}

void HbmChannel::advance(Cycle end, Sink& sink) {
  for (;;) {
    const Cycle next = next_event();
    if (next == kIdle || next >= end) break;
    step(next, sink);
    cursor_ = next + 1;
  }
  cursor_ = std::max(cursor_, end);
}

}  // namespace numagpu
