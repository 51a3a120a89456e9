// A socket's DRAM: channels selected by line address, each moving bandwidth/channels bytes per cycle, plus a
// fixed access latency. A request moves its line, or in a sectored machine only its sectors. A channel whose
// backlog exceeds `queue_depth` line transfers back-pressures its inputs until it drains. With refresh set,
// every refresh interval each channel stops for the refresh time once the transfer under way is done.
// Utilization per sample window (the channels' transfer time in it) is a time series. With banks
// (spec.hbm.banks > 0) a channel is instead an HBM channel's banks, rows and FR-FCFS scheduler
// (mem/hbm_channel.hpp), and a response leaves `latency` after its last data.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "common/bandwidth_pipe.hpp"
#include "common/busy_tracker.hpp"
#include "common/divider.hpp"
#include "common/machine_facts.hpp"
#include "common/ports.hpp"
#include "common/sim_context.hpp"
#include "common/timed_event.hpp"
#include "common/watchdog.hpp"
#include "mem/dram_spec.hpp"
#include "mem/hbm_channel.hpp"
#include "stats/registry.hpp"

namespace numagpu {

class Dram : public sc_core::sc_module, public InputOwner, public QueueReporter, public HostActivitySource {
 public:
  Dram(const sc_core::sc_module_name& name, SimContext& ctx, const DramSpec& spec, const MachineFacts& facts,
       stats::Registry& stats);

  RequestInputs in;  // one binding per L2 bank

  void report_queues(std::ostream& os) const override;
  void add_host_activity(HostActivity& total) const override { total.activations += activations_; }
  // The partition controller steps busy_in_cycle() over the cycles, in order: keep what it needs.
  void keep_busy_history();
  // Busy in `cycle` (common/busy_tracker.hpp): every channel occupied for the whole cycle, so the DRAM could
  // take no more in it. Consumes the history before `cycle`: ask for cycles in order.
  bool busy_in_cycle(Cycles cycle);
  // No cycle in [from, first_busy_cycle(from, limit)) is busy (a lower bound of the first busy cycle, or
  // `limit`); changes nothing.
  Cycles first_busy_cycle(Cycles from, Cycles limit) const;
  // Transfer time of all channels in [0, now_ps), and the channel count (activity.json, models/power).
  std::uint64_t busy_ps_until(std::uint64_t now_ps) const {
    std::uint64_t sum = 0;
    for (const BusyTracker& b : busy_)
      sum += b.busy_ps_until(now_ps);
    return sum;
  }
  unsigned channels() const { return spec_.channels; }
  // The end of a statistics window (common/window_sampler.hpp): pushes the window's utilization.
  void sample_window(Cycles window);  // the window that ended, in cycles

  // The counters other parts of the model read (the run summary, the activity recorder), by reference: a
  // statistic renamed or removed then breaks the build, not a run. The registered names are in dram.cpp.
  struct Counters {
    const stats::Counter& reads;
    const stats::Counter& writes;
    const stats::Counter& read_bytes;
    const stats::Counter& write_bytes;
    // Sectored machines only (null otherwise): 32 B sectors moved, as Nsight Compute's
    // dram__sectors_read / dram__sectors_write.
    const stats::Counter* read_sectors;
    const stats::Counter* write_sectors;
  };
  Counters counters() const {
    return {reads_, writes_, read_bytes_, write_bytes_, read_sectors_, write_sectors_};
  }

 private:
  bool try_accept(unsigned port, Payload& gp) override;
  void on_request(unsigned port, Payload& gp) override;
  // b_transport (any base-protocol payload, checked by the port group): the channel is booked from the
  // caller's time (now + delay) and delay grows by the wait for the channel, the transfer and the latency.
  bool serve_blocking(Payload& gp, sc_core::sc_time& delay) override;
  unsigned channel_of(const Payload& gp) const;
  // Books on channel `ch` the refreshes due by the time a transfer asked for at `at_ps` could start.
  void refresh_until(unsigned ch, std::uint64_t at_ps);
  std::vector<std::uint64_t> refresh_due_ps_;  // per channel: when its next refresh is due
  void unblock() {
    const auto resumed = unblock_event_.resume();
    ++activations_;
    in.retry_blocked();
  }
  std::uint64_t activations_ = 0;

  const GpuClock& clock_;
  DramSpec spec_;
  MachineFacts facts_;
  Divider line_size_;      // facts_.line_bytes
  Divider channel_count_;  // spec_.channels
  std::vector<std::unique_ptr<BandwidthPipe>> channels_;
  // The backlog a channel may hold before requests wait: queue_depth line transfers on one channel.
  std::uint64_t backlog_limit_ps_ = 0;
  const sc_core::sc_time latency_ =
      clock_.cycles(spec_.latency);  // the access latency, made once (a hop's cost)
  const std::uint64_t latency_ps_ = clock_.cycles_ps(spec_.latency);
  TimedEvent unblock_event_{clock_};
  std::uint64_t in_service_ = 0;
  bool dropped_one_ = false;
  std::vector<BusyTracker> busy_;        // per channel: when it transferred
  std::uint64_t busy_ps_at_sample_ = 0;  // transfer time of all channels up to the previous sample

  stats::Counter& reads_;
  stats::Counter& writes_;
  stats::Counter& read_bytes_;
  stats::Counter& write_bytes_;
  stats::Counter* read_sectors_ = nullptr;  // sectored machines only
  stats::Counter* write_sectors_ = nullptr;
  stats::Counter* refreshes_ = nullptr;       // only with refresh
  stats::TimeSeries* utilization_ = nullptr;  // only when sampling is enabled

  // ---- the bank model (spec_.hbm.banks > 0) ----
  // A request in a channel's scheduler: where its response goes (a blocking one waits for done_ps).
  struct HbmSlot {
    unsigned port = 0;
    Payload* gp = nullptr;
    bool blocking = false;
    std::uint64_t done_ps = 0;  // when its last data left the bus (blocking only)
  };
  class HbmSink;
  HbmChannel::Request hbm_request(const Payload& gp, std::uint64_t bytes, bool write, unsigned port,
                                  bool blocking);
  // Decides channel `ch`'s cycles before `end` (DRAM command-clock cycles), answering what completes.
  void hbm_advance(unsigned ch, HbmChannel::Cycle end);
  void hbm_schedule_wake(unsigned ch);  // after channel `ch` changed: the wake-up at the first next event
  void hbm_wake();                      // the wake-up: decides every channel's due cycles
  std::uint64_t hbm_wake_ps(HbmChannel::Cycle next) const;
  bool hbm_exact_wake_ = false;  // wake at each command cycle (a partition controller steps busy_in_cycle)
  std::uint64_t hbm_ps_of(HbmChannel::Cycle c) const {  // a command-clock cycle's start, rounded up
    return (c * 1000000 + spec_.hbm.clock_mhz - 1) / spec_.hbm.clock_mhz;
  }
  HbmChannel::Cycle hbm_cycle_at(std::uint64_t ps) const { return ps * spec_.hbm.clock_mhz / 1000000; }
  std::vector<HbmChannel> hbm_;
  std::vector<HbmChannel::Cycle> hbm_next_;  // per channel: its next_event()
  std::vector<unsigned> hbm_reserved_;       // per channel: bursts accepted, not yet arrived
  std::vector<HbmChannel::Counts> hbm_counted_;
  std::vector<HbmSlot> hbm_slots_;
  std::vector<std::uint32_t> hbm_free_slots_;
  TimedEvent hbm_event_{clock_};
  stats::Counter* row_hits_ = nullptr;
  stats::Counter* row_empty_ = nullptr;
  stats::Counter* row_conflicts_ = nullptr;
};

}  // namespace numagpu
