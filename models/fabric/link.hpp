// A link of bi-directional lanes between two fabric nodes (a socket's crossbar and the switch, in the
// paper's system). Direction 0 carries packets from side 0 to side 1, direction 1 the other way. The split of
// the lanes between them is half and half (static links), or the link balancer's (dynamic links: its C++
// reference or its Verilated RTL, behind one interface), decided cycle by cycle so both ends always agree.
//
// Serialization: a packet occupies the lanes of its direction for exactly bytes / (lanes x lane rate), kept
// to the picosecond: packets are packed back to back as flits are on a real link, so a direction carries its
// full bit rate (8 lanes x 8 B = 64 B/cycle move 64 B of packets every cycle, whatever the packet sizes) and
// a 25 GB/s link delivers 25 GB/s. A traversal then takes `latency` cycles.
//
// Virtual channels: each direction keeps requests and responses in two channels, and when the lanes come free
// the next packet is taken from them in turn (round-robin by packet, skipping an empty channel), so a request
// waits for at most one response per request ahead of it, never for a whole response backlog (a read's
// response is 9x its request). Requests are bounded (queue_depth, back-pressured upstream); responses are not
// back-pressured, as everywhere in the model (common/ports.hpp: whoever sent a request can always sink its
// answer, which keeps the request/response network deadlock-free). A packet takes the lanes its direction has
// when it starts, not when it arrived.
//
// Busy, for the lane control and the statistics: a direction is busy in cycle c when its lanes are occupied
// for the whole of [c, c+1) (one definition for every tracked resource: common/busy_tracker.hpp).
//
// Turnaround: when the control turns a lane, the lane stops taking new packets at once (its direction loses
// it), drains the packet already on it (packets still waiting in the channels take the remaining lanes),
// carries nothing for the switch time, then serves the other direction. The link feeds the balancer each
// cycle's busy flags and the drained flag (direction 0 is the balancer's A, direction 1 its B).
//
// Ports, numbered by binding order: input s takes requests arriving from side s, output s hands packets to
// side s. A request from side s crosses in direction s; its response crosses back in direction 1 - s.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "common/busy_tracker.hpp"
#include "common/delivery_scheduler.hpp"
#include "common/machine_facts.hpp"
#include "common/ports.hpp"
#include "common/ring_queue.hpp"
#include "common/sim_context.hpp"
#include "common/watchdog.hpp"
#include "fabric/link_spec.hpp"
#include "policy/link_balancer.hpp"
#include "policy/policy_impl.hpp"
#include "policy/policy_stepper.hpp"
#include "stats/registry.hpp"

namespace numagpu {

// How a link's lanes are split in a cycle, as the link needs it.
struct LaneSplit {
  unsigned lanes[2] = {0, 0};  // active lanes per direction
  bool quiescing = false;      // a lane has left direction `from` and is draining
  bool switching = false;      // a drained lane is turning around (carries nothing)
  int from = 0;                // direction the turning lane left (0 when no lane is turning)

  // The link's view of the balancer's outputs: the turning lane sits at index lanes_a, and its direction
  // bit says where it goes (1: B), so it left A.
  static LaneSplit of(const policy::LinkBalancer::Outputs& o);
  friend bool operator==(const LaneSplit& a, const LaneSplit& b) {
    return a.lanes[0] == b.lanes[0] && a.lanes[1] == b.lanes[1] && a.quiescing == b.quiescing &&
           a.switching == b.switching && a.from == b.from;
  }
  friend bool operator!=(const LaneSplit& a, const LaneSplit& b) { return !(a == b); }
};

// One change of a link's lane split, for the lane VCD.
struct LaneChange {
  Cycles cycle;
  unsigned lanes[2];
  bool quiescing;
  bool switching;
};

class Link : public sc_core::sc_module,
             public InputOwner,
             public OutputOwner,
             public QueueReporter,
             public HostActivitySource {
 public:
  using Balancer = policy::PolicyImpl<policy::LinkBalancer>;
  // `balancer` null: a static link, half its lanes each way for ever (it then never steps anything).
  Link(const sc_core::sc_module_name& name, SimContext& ctx, const LinkSpec& spec, const MachineFacts& facts,
       std::unique_ptr<Balancer> balancer, stats::Registry& stats);
  ~Link() override;

  RequestInputs in;
  RequestOutputs out;

  void kernel_launch();  // the runtime calls this at each kernel launch
  // The end of a statistics window (common/window_sampler.hpp): utilization and lanes of both directions.
  void sample_window(Cycles window);  // the window that ended, in cycles
  void finish();  // end of run: steps the lane control up to now and closes the time series
  // Never skip quiet windows (debug.step_idle_windows): for checking that skipping changes nothing.
  void step_every_idle_cycle() {
    if (control_) control_->step_every_cycle();
  }
  void add_host_activity(HostActivity& total) const override {
    if (!control_) return;
    total.quiet_windows_skipped += control_->quiet_windows_skipped();
    total.quiet_cycles_skipped += control_->quiet_cycles_skipped();
  }
  unsigned lanes(int dir) const { return split_.lanes[dir]; }
  std::uint64_t bytes(int dir) const { return dirs_[dir].bytes->value(); }
  const std::vector<LaneChange>& lane_changes() const { return changes_; }
  // Activity (models/power): a direction's busy time in [0, now_ps) (its BusyTracker), the lane control's
  // decisions, and stepping the lane control up to now so that its counters are current.
  std::uint64_t busy_ps_until(int dir, std::uint64_t now_ps) const {
    return dirs_[dir].busy.busy_ps_until(now_ps);
  }
  std::uint64_t decisions() const { return control_ ? control_->impl().decisions() : 0; }
  void sync() { catch_up(clock_.now()); }
  void report_queues(std::ostream& os) const override;
  // Packets waiting in direction `dir`'s channels for the lanes.
  std::size_t waiting(int dir) const {
    return dirs_[dir].waiting[kRequests].size() + dirs_[dir].waiting[kResponses].size();
  }

  // The counters other parts of the model read (the activity recorder), by reference: a statistic renamed
  // or removed then breaks the build, not a run. `dir` is indexed by direction (0: side 0 to side 1), whose
  // statistics are named after LinkSpec::dir_names. The registered names are in link.cpp.
  struct DirectionCounters {
    const stats::Counter& bytes;
    const stats::Counter& packets;
  };
  struct Counters {
    DirectionCounters dir[2];
    const stats::Counter& turnarounds;        // lanes turned
    const stats::Counter& turnaround_cycles;  // quiesce and switch time, summed over turns
  };
  Counters counters() const {
    return {{{*dirs_[0].bytes, *dirs_[0].packets}, {*dirs_[1].bytes, *dirs_[1].packets}},
            turnarounds_,
            turn_cycles_};
  }

 private:
  enum Channel { kRequests = 0, kResponses = 1 };
  // Wakes a direction when its lanes come free and packets wait (a wake-up of the machine's scheduler).
  struct Wake final : Deliverable {
    Link* link = nullptr;
    int dir = 0;
    void deliver(Payload*) override { link->on_lanes_free(dir); }
  };
  struct Direction {
    std::uint64_t free_ps = 0;       // when the packet on the lanes has left
    RingQueue<Payload*> waiting[2];  // by Channel, in arrival order
    int last_served = kResponses;    // requests go first when both wait at the start
    bool wake_pending = false;
    Wake wake;
    BusyTracker busy;  // when the lanes were occupied
    std::uint64_t busy_ps_at_sample = 0;
    stats::Counter* bytes = nullptr;
    stats::Counter* packets = nullptr;
    stats::TimeSeries* utilization = nullptr;
    stats::TimeSeries* lanes = nullptr;
  };

  bool try_accept(unsigned port, Payload& gp) override;
  // A request from side s waits for room on the queue towards side 1 - s.
  unsigned wait_key(unsigned port, const Payload&) const override { return 1 - port; }
  void on_request(unsigned port, Payload& gp) override;
  void on_response(unsigned port, Payload& gp) override;
  void on_request_accepted(unsigned port, Payload& gp) override;

  // Puts a packet in its channel of direction `dir` and starts what the free lanes can.
  void enqueue(int dir, Channel channel, Payload& gp);
  // Starts waiting packets while the lanes of `dir` are free (one, then they are busy), and asks to be woken
  // when they come free again if more wait.
  void serve(int dir);
  void on_lanes_free(int dir);
  // Books a packet on direction `dir` starting now; returns the delay until it has fully left.
  std::uint64_t transmit_ps(int dir, std::uint64_t bytes);
  // Steps the lane control through every cycle before `until`.
  void catch_up(Cycles until);
  // What the lane control sees and what it changes (policy/policy_stepper.hpp).
  friend class policy::PolicyStepper<policy::LinkBalancer>;
  Cycles quiet_until(Cycles c, Cycles until) const;
  policy::LinkBalancer::Inputs inputs_of(Cycles c);
  void take_outputs(Cycles c, const policy::LinkBalancer::Outputs& out);
  void record_change(Cycles cycle, const LaneSplit& before, const LaneSplit& after);
  // A dynamic link's decision statistics (`.decisions.*`), counted from the outputs' decision pulse, which
  // both implementations of the balancer show alike.
  void register_decisions(stats::Registry& stats);

  const GpuClock& clock_;
  LinkSpec spec_;
  MachineFacts facts_;
  const std::uint64_t latency_ps_ = clock_.cycles_ps(spec_.latency);  // a traversal, made once per link
  // The lane control of a dynamic link (none on a static link): the balancer and its stepping.
  std::optional<policy::PolicyStepper<policy::LinkBalancer>> control_;
  LaneSplit split_;  // in force this cycle
  Direction dirs_[2];
  unsigned reserved_[2] = {0, 0};
  DeliveryScheduler& deliveries_;
  std::uint64_t drain_at_ps_ = 0;  // when the quiescing lane's last packet leaves
  Cycles turn_started_ = 0;
  std::vector<LaneChange> changes_;
  stats::Counter& turnarounds_;
  stats::Counter& turn_cycles_;
  // Per decision kind (null for kNone and on static links); windows_decided_: every window, quiet ones too.
  stats::Counter* decision_counts_[policy::LinkBalancer::kNumDecisions] = {};
  stats::Counter* windows_decided_ = nullptr;
};

}  // namespace numagpu
