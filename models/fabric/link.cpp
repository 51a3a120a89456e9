#include "fabric/link.hpp"

#include <algorithm>

#include "common/txn.hpp"

namespace numagpu {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

LaneSplit LaneSplit::of(const policy::LinkBalancer::Outputs& o) {
  LaneSplit s;
  s.lanes[0] = o.lanes_a;
  s.lanes[1] = o.lanes_b;
  s.quiescing = o.lane_quiesce != 0;
  s.switching = o.lane_switch != 0;
  if (s.quiescing || s.switching) s.from = ((o.lane_dir >> o.lanes_a) & 1) != 0 ? 0 : 1;
  return s;
}

Link::Link(const sc_core::sc_module_name& name, SimContext& ctx, const LinkSpec& spec,
           const MachineFacts& facts, std::unique_ptr<Balancer> balancer, stats::Registry& stats)
    : sc_module(name),
      in("in", ctx, *this, ctx.names.add(this->name())),
      out("out", ctx, *this),
      clock_(ctx.clock),
      spec_(spec),
      facts_(facts),
      deliveries_(ctx.deliveries),
      turnarounds_(stats.counter(std::string(this->name()) + ".turnarounds", "lanes", "Lanes turned around")),
      turn_cycles_(stats.counter(std::string(this->name()) + ".turnaround_cycles", "cycles",
                                 "Lane-cycles lost to turnarounds (quiesce + switch), summed over turns")) {
  for (int d = 0; d < 2; ++d) {
    dirs_[d].wake.link = this;
    dirs_[d].wake.dir = d;
    if (balancer) dirs_[d].busy.keep_history();  // the balancer steps through them
    const std::string base = std::string(this->name()) + "." + spec.dir_names[d];
    dirs_[d].bytes = &stats.counter(base + ".bytes", "bytes", "Bytes sent in this direction");
    dirs_[d].packets = &stats.counter(base + ".packets", "packets", "Packets sent in this direction");
    if (facts.sample_cycles) {
      dirs_[d].utilization =
          &stats.series(base + ".utilization", "percent",
                        "Share of each sample window the direction's lanes were busy", facts.sample_cycles);
      dirs_[d].lanes =
          &stats.series(base + ".lanes", "lanes", "Active lanes at the end of each sample window",
                        facts.sample_cycles, stats::TimeSeries::Merge::kLast);
    }
  }
  if (balancer) {
    split_ = LaneSplit::of(balancer->outputs());
    control_.emplace(std::move(balancer));
    register_decisions(stats);
  } else {
    split_.lanes[0] = spec.lanes / 2;
    split_.lanes[1] = spec.lanes - spec.lanes / 2;
  }
  changes_.push_back(LaneChange{0, {split_.lanes[0], split_.lanes[1]}, split_.quiescing, split_.switching});
}

// ------------------------------------------------------------------------------------------- traffic

bool Link::try_accept(unsigned port, Payload&) {
  unsigned& r = reserved_[1 - port];  // a request from side s leaves on side 1 - s
  if (r >= spec_.queue_depth) return false;
  ++r;
  return true;
}

void Link::on_request(unsigned port, Payload& gp) {
  enqueue(static_cast<int>(port), kRequests, gp);  // a request from side s crosses in direction s
}

void Link::on_request_accepted(unsigned port, Payload&) {
  --reserved_[port];
  in.retry_blocked(port);
}

void Link::on_response(unsigned port, Payload& gp) {
  // The response of a request that left on side `port` travels back towards side 1 - port.
  enqueue(static_cast<int>(port), kResponses, gp);
}

void Link::enqueue(int dir, Channel channel, Payload& gp) {
  dirs_[dir].waiting[channel].push_back(&gp);
  serve(dir);
}

void Link::on_lanes_free(int dir) {
  dirs_[dir].wake_pending = false;
  serve(dir);
}

void Link::serve(int dir) {
  Direction& d = dirs_[dir];
  const std::uint64_t now_ps = clock_.now_ps();
  while (d.free_ps <= now_ps) {
    const bool requests = !d.waiting[kRequests].empty(), responses = !d.waiting[kResponses].empty();
    if (!requests && !responses) return;
    const Channel c = !responses || (requests && d.last_served == kResponses) ? kRequests : kResponses;
    Payload& gp = *d.waiting[c].front();
    d.waiting[c].pop_front();
    d.last_served = c;
    // Either way the packet arrives on side 1 - dir: a request at that side's target, a response back to the
    // initiator there whose request came in on input 1 - dir.
    const unsigned side = static_cast<unsigned>(1 - dir);
    if (c == kRequests) {
      out.send_ps(side, gp, transmit_ps(dir, facts_.request_bytes(attr(gp))) + latency_ps_);
    } else {
      in.respond_ps(side, gp, transmit_ps(dir, facts_.response_bytes(attr(gp))) + latency_ps_);
    }
  }
  if (!d.wake_pending && waiting(dir) != 0) {
    d.wake_pending = true;
    deliveries_.schedule(d.free_ps, d.wake, nullptr);
  }
}

std::uint64_t Link::transmit_ps(int dir, std::uint64_t bytes) {
  const std::uint64_t period = clock_.period_ps();
  const std::uint64_t now_ps = clock_.now_ps();
  catch_up(clock_.now());
  Direction& d = dirs_[dir];
  const std::uint64_t lanes = split_.lanes[dir];
  // time = bytes / (lanes * num / den) cycles = bytes * den * period / (lanes * num) ps
  const std::uint64_t rate = lanes * spec_.lane_rate_num;
  const std::uint64_t occupancy_ps = (bytes * spec_.lane_rate_den * period + rate - 1) / rate;
  d.free_ps = now_ps + occupancy_ps;  // serve() starts a packet only on free lanes
  d.busy.book(now_ps, d.free_ps);
  d.bytes->add(bytes);
  d.packets->add();
  return occupancy_ps;
}

Link::~Link() = default;

// -------------------------------------------------------------------------------------- lane control

void Link::kernel_launch() {
  if (control_) control_->kernel_launch(clock_.now(), *this);
}

void Link::catch_up(Cycles until) {
  if (control_) control_->catch_up(until, *this);
}

Cycles Link::quiet_until(Cycles c, Cycles until) const {
  // Everything up to `until` is booked, so the first busy cycle of either direction is known.
  return std::min(dirs_[0].busy.first_busy_cycle(c, until, clock_),
                  dirs_[1].busy.first_busy_cycle(c, until, clock_));
}

policy::LinkBalancer::Inputs Link::inputs_of(Cycles c) {
  // In the period of that cycle (a clock change, GpuClock::retime).
  const std::uint64_t start = clock_.cycle_start_ps(c), length = clock_.cycle_length_ps(c);
  policy::LinkBalancer::Inputs in;
  in.busy_a = dirs_[0].busy.busy_in_cycle(start, length);
  in.busy_b = dirs_[1].busy.busy_in_cycle(start, length);
  in.drained = split_.quiescing && drain_at_ps_ <= start;
  return in;
}

void Link::register_decisions(stats::Registry& stats) {
  // Named after the directions: the balancer's A is direction 0, its B direction 1. A "trigger" of the
  // paper's rule is a window with one direction saturated alone (turn_* or, at the last lane, blocked_*).
  using D = policy::LinkBalancer::Decision;
  const std::string base = std::string(name()) + ".decisions.";
  const auto add = [&](D d, const std::string& kind, const char* what) {
    decision_counts_[static_cast<std::size_t>(d)] = &stats.counter(base + kind, "windows", what);
  };
  const std::string& a = spec_.dir_names[0];
  const std::string& b = spec_.dir_names[1];
  add(D::kTurnToA, "turn_" + a, "Windows with this direction saturated alone: a lane turned toward it");
  add(D::kTurnToB, "turn_" + b, "Windows with this direction saturated alone: a lane turned toward it");
  add(D::kBlockedToA, "blocked_" + a,
      "Windows with this direction saturated alone and the other at its last lane: nothing turned");
  add(D::kBlockedToB, "blocked_" + b,
      "Windows with this direction saturated alone and the other at its last lane: nothing turned");
  add(D::kRebalanceToA, "rebalance_" + a,
      "Windows with both directions saturated, the other holding more lanes: a lane turned back toward this "
      "one");
  add(D::kRebalanceToB, "rebalance_" + b,
      "Windows with both directions saturated, the other holding more lanes: a lane turned back toward this "
      "one");
  add(D::kBalanced, "balanced", "Windows with both directions saturated and the lanes already symmetric");
  add(D::kBusyTurning, "busy_turning", "Windows that ended while a lane was still turning: no decision");
  windows_decided_ = &stats.counter(base + "windows", "windows",
                                    "Balancer windows decided since the start (quiet ones too)");
}

void Link::take_outputs(Cycles c, const policy::LinkBalancer::Outputs& out) {
  if (out.decision_valid) {
    if (stats::Counter* n = decision_counts_[static_cast<std::size_t>(out.decision)]) n->add();
  }
  const LaneSplit before = split_;
  split_ = LaneSplit::of(out);
  if (split_ != before) record_change(c + 1, before, split_);
}

void Link::record_change(Cycles cycle, const LaneSplit& before, const LaneSplit& after) {
  const bool turning_before = before.quiescing || before.switching;
  const bool turning_after = after.quiescing || after.switching;
  if (after.quiescing && !before.quiescing) {
    // The lane carried its share of every packet already booked on its old direction.
    drain_at_ps_ = dirs_[after.from].free_ps;
    turnarounds_.add();
    turn_started_ = cycle;
  }
  if (turning_before && !turning_after) turn_cycles_.add(cycle - turn_started_);
  changes_.push_back(LaneChange{cycle, {after.lanes[0], after.lanes[1]}, after.quiescing, after.switching});
}

// -------------------------------------------------------------------------------------- statistics

void Link::sample_window(Cycles window) {
  if (!dirs_[0].utilization) return;
  const std::uint64_t now_ps = clock_.now_ps();
  const Cycles end = clock_.now();
  catch_up(end);
  // The window's own length: its cycles may have had another period (a clock change, GpuClock::retime).
  const std::uint64_t window_ps =
      clock_.cycle_start_ps(end) - clock_.cycle_start_ps(end - std::min(end, window));
  for (int i = 0; i < 2; ++i) {
    Direction& d = dirs_[i];
    const std::uint64_t busy_until_now = d.busy.busy_ps_until(now_ps);
    d.utilization->push(100.0 * double(busy_until_now - d.busy_ps_at_sample) / double(window_ps));
    d.busy_ps_at_sample = busy_until_now;
    d.lanes->push(split_.lanes[i]);
  }
}

void Link::finish() {
  catch_up(clock_.now());
  // Set, not added: finish may run twice (the watchdog's and the workload's end).
  if (windows_decided_) windows_decided_->add(control_->impl().decisions() - windows_decided_->value());
}

void Link::report_queues(std::ostream& os) const {
  if (reserved_[0] + reserved_[1] == 0 && in.held_requests() == 0 && in.queued_responses() == 0 &&
      waiting(0) + waiting(1) == 0)
    return;
  os << "  " << name() << ": queued to side 0 " << reserved_[0] << ", to side 1 " << reserved_[1] << ", held "
     << in.held_requests() << ", responses queued " << in.queued_responses() << ", waiting for lanes "
     << waiting(0) << "/" << waiting(1) << ", lanes " << lanes(0) << "/" << lanes(1) << "\n";
}

}  // namespace numagpu
