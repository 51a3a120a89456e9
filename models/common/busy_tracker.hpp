// When a resource that serializes work (a link direction, a DRAM channel) is occupied, kept exactly in
// picoseconds. Plain C++: components book their transfers here and ask two questions of it.
//
// - Utilization: the busy time up to a moment (`busy_ps_until`), for the per-window time series.
// - Busy in a cycle, for the policies stepped once per cycle (link balancer, partition controller): a
//   resource is busy in cycle c when it is occupied for the WHOLE of [c, c+1). This is the one definition
//   every policy input uses. It is strict on purpose: the policies ask "is this resource saturated?", and
//   a resource that had any idle moment in a cycle could have taken more work in it. Under a backlog,
//   transfers are booked back to back and every cycle counts; a lightly used resource does not look busy
//   because each of its cycles is touched (a 16 B request every cycle on a 64 B/cycle link is 25 % busy,
//   and counts 0 busy cycles, not 100 %).
//
// Transfers are booked in order by a resource that serves in order (start = max(now, when it is free));
// `busy_in_cycle` is asked for non-decreasing cycles (lazy per-cycle stepping) and forgets what lies before.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>

namespace numagpu {

class BusyTracker {
 public:
  // `keep_history`: someone steps busy_in_cycle() over these intervals (else only utilization is asked and
  // intervals in the past can be dropped at once).
  explicit BusyTracker(bool keep_history = false) : keep_history_(keep_history) {}
  void keep_history() { keep_history_ = true; }

  // The resource is occupied during [start_ps, end_ps).
  void book(std::uint64_t start_ps, std::uint64_t end_ps) {
    if (end_ps <= start_ps) return;
    total_ps_ += end_ps - start_ps;
    if (!intervals_.empty() && intervals_.back().end >= start_ps) {
      intervals_.back().end = end_ps;  // back to back: one interval
      return;
    }
    // A resource that serves in order starts a transfer after a gap only when it is idle now: every earlier
    // interval lies in the past, and only a stepping policy still needs it.
    if (!keep_history_) intervals_.clear();
    intervals_.push_back(Interval{start_ps, end_ps});
  }

  // Busy time booked in [0, now_ps): everything booked, less what lies beyond now.
  std::uint64_t busy_ps_until(std::uint64_t now_ps) const {
    std::uint64_t future = 0;
    for (auto it = intervals_.rbegin(); it != intervals_.rend() && it->end > now_ps; ++it)
      future += it->end - (it->start > now_ps ? it->start : now_ps);
    return total_ps_ - future;
  }

  // Occupied for the whole cycle [begin_ps, begin_ps + period_ps). Cycles must be asked in order.
  bool busy_in_cycle(std::uint64_t begin_ps, std::uint64_t period_ps) {
    while (!intervals_.empty() && intervals_.front().end <= begin_ps)
      intervals_.pop_front();
    return !intervals_.empty() && intervals_.front().start <= begin_ps &&
           intervals_.front().end >= begin_ps + period_ps;
  }

  // The first cycle from `from` on (before `limit`) that busy_in_cycle() would call busy, or `limit`.
  // Changes nothing: a driver uses it to know how long its policy's inputs stay quiet. `cycles` maps cycles
  // and picoseconds (GpuClock, whose periods may have changed during the run): cycle_start_ps(c) and
  // first_cycle_from_ps(ps).
  template <class Cycles>
  std::uint64_t first_busy_cycle(std::uint64_t from, std::uint64_t limit, const Cycles& cycles) const {
    for (const Interval& i : intervals_) {
      if (i.end < cycles.cycle_start_ps(from + 1)) continue;  // ends before covering any whole cycle
      const std::uint64_t first = std::max<std::uint64_t>(from, cycles.first_cycle_from_ps(i.start));
      if (first >= limit) return limit;
      if (cycles.cycle_start_ps(first + 1) <= i.end) return first;
    }
    return limit;
  }

  std::uint64_t total_ps() const { return total_ps_; }

 private:
  struct Interval {
    std::uint64_t start, end;
  };
  std::deque<Interval> intervals_;
  std::uint64_t total_ps_ = 0;
  bool keep_history_;
};

}  // namespace numagpu
