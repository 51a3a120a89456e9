// Kernel sequencing and CTA dispatch: the workload's items (a kernel, or an application launching kernels
// from its host program) run one after another, and so do their kernels; a kernel's CTAs are split across
// sockets by the configured schedule (runtime/cta_schedule.hpp) and handed to a socket's SMs in that order as
// CTA slots free up, `overhead_cycles` after the kernel's launch (the GPU's own start and end of a grid,
// which a profiler's elapsed cycles include). A kernel ends when every SM is idle with nothing in flight;
// the next starts `launch_cycles` later, after the L1s are invalidated (software coherence at kernel
// boundaries).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "common/host_activity.hpp"
#include "common/sim_context.hpp"
#include "common/timed_event.hpp"
#include "sm/sm.hpp"
#include "stats/registry.hpp"
#include "workload/program.hpp"

namespace numagpu {

class KernelDispatcher : public sc_core::sc_module, public CtaSource, public HostActivitySource {
 public:
  KernelDispatcher(const sc_core::sc_module_name& name, SimContext& ctx,
                   std::vector<std::unique_ptr<KernelSequence>> items, const runtime::Machine& machine,
                   const runtime::CtaScheduleParams& schedule, Cycles launch_cycles, Cycles overhead_cycles,
                   stats::Registry& stats);

  void attach(std::vector<std::vector<Sm*>> sms_by_socket, std::function<std::uint64_t()> invalidate_l1s);
  // Called once, at time zero.
  void start();
  bool finished() const { return finished_; }
  bool started() const { return started_; }
  // A workload item added while the simulation runs (a host's command queue, docs/embedding.md): it runs
  // after the items before it; a dispatcher that had finished starts again with it, at once. Returns its
  // index (on_item_end's argument).
  std::size_t append(std::unique_ptr<KernelSequence> item);
  // Reset: no more CTAs are handed out (those resident on the SMs run to their end: an issued transaction
  // cannot be taken back) and every item not yet finished ends, reported aborted.
  void abort();
  // Why the workload finished before its end (an application at its launch bound, KernelSequence::cut_short),
  // or "".
  const std::string& cut_short() const { return cut_short_; }
  std::uint32_t kernels_done() const { return kernels_done_; }
  // Workload items: kernels and applications (0: a passive System, docs/embedding.md).
  std::uint32_t items_total() const { return static_cast<std::uint32_t>(items_.size()); }
  // Kernels launched so far (with applications, the total is known only at the end).
  std::uint32_t kernels_launched() const { return launches_; }
  struct AppLaunches {
    std::string app, kernel;  // the item's name, the kernel's name in the host program
    std::uint64_t launches, cycles;
  };
  // Each application kernel's launches and cycles so far, in the order of their first launch.
  std::vector<AppLaunches> app_launches() const;
  std::function<void()> on_finish;  // called at the end of the last kernel
  std::function<void()> on_launch;  // called as each kernel launches (links return to symmetric)
  // Called when an item has ended (its last kernel, the boundary's coherence actions done), or was aborted.
  std::function<void(std::size_t item, bool aborted)> on_item_end;
  // Called at each kernel's launch before any of its CTAs runs, and at its end (every CTA executed): where
  // the System moves the kernel's data in and out of the functional store (memory.functional).
  std::function<void(const KernelProgram&)> on_kernel_start;
  std::function<void(const KernelProgram&)> on_kernel_end;
  // Per-kernel shared-memory carveouts (sm.shared_carveouts; null without): called as each kernel launches,
  // before its CTAs are placed, to give the L1s the kernel's carveout; returns it (bytes), which is recorded
  // as the kernel's `shared_carveout_bytes`.
  std::function<std::uint64_t(const KernelProgram&)> shared_carveout;
  // Per-kernel CTA schedules (runtime.cta_schedule lasp, hcoda; null: the configured schedule for every
  // kernel): called as each kernel launches, before its CTAs are assigned.
  std::function<runtime::CtaScheduleParams(const KernelProgram&)> schedule_for;
  // Called at each kernel's end; must call its argument once the memory system's coherence actions are done.
  std::function<void(std::function<void()>)> on_boundary;

  bool next_cta(std::uint16_t socket, std::uint32_t& cta) override;
  void sm_idle(std::uint16_t socket, std::uint16_t sm) override;
  void add_host_activity(HostActivity& total) const override {
    for (const auto& item : items_)
      total.kernel_generation_seconds += item->generation_seconds();
  }

 private:
  // The kernel's launch: its elapsed time starts, the policies see it (on_launch), it is counted and its
  // carveout set.
  void launch();
  // Its first CTAs go to the SMs, overhead_cycles_ later: the policies' first window after a launch and the
  // kernel's cycles include the overhead, with every SM idle.
  void dispatch();
  // The two events' processes: at the event's exact time (common/timed_event.hpp), then as above.
  void on_launch_event() {
    const auto resumed = launch_event_.resume();
    launch();
  }
  void on_dispatch_event() {
    const auto resumed = dispatch_event_.resume();
    dispatch();
  }
  // The next kernel of the workload (moving on to the next item when one has no more); null at the end.
  const KernelProgram* next_kernel();
  // After abort(): the items up to abort_before_ end, reported aborted; the next kernel is the first after.
  const KernelProgram* skip_aborted();
  void register_item_stats(std::size_t k);
  // Per application item and kernel name: launches and cycles (registered at the first launch).
  struct AppKernelStats {
    stats::Counter* launches;
    stats::Counter* cycles;
    std::uint32_t order;
  };
  AppKernelStats& app_stats(const std::string& kernel);
  void record_carveout(std::uint64_t bytes);  // as the current kernel's shared_carveout_bytes

  const GpuClock& clock_;
  std::vector<std::unique_ptr<KernelSequence>> items_;
  stats::Registry& stats_;
  std::size_t item_ = 0;                   // the current item
  const KernelProgram* kernel_ = nullptr;  // the current (or next) kernel
  std::uint32_t launches_ = 0;
  std::uint32_t kernel_id_ = 0;  // the current kernel's launch number, from its launch to its dispatch
  static constexpr Cycles kNoStart = ~Cycles(0);
  Cycles item_start_ = kNoStart;  // the current application's first launch
  std::map<std::pair<std::size_t, std::string>, AppKernelStats> app_stats_;
  // Per item and kernel name (the name empty for a single kernel): the carveout it was given.
  std::map<std::pair<std::size_t, std::string>, stats::Scalar*> carveout_stats_;
  unsigned sockets_;
  runtime::Machine machine_;
  runtime::CtaScheduleParams schedule_params_;
  Cycles launch_cycles_;
  Cycles overhead_cycles_;
  std::vector<std::vector<Sm*>> sms_;
  std::function<std::uint64_t()> invalidate_l1s_;
  std::unique_ptr<runtime::CtaSchedule> schedule_;  // the current kernel's CTA to socket assignment
  std::vector<std::size_t> next_cta_;               // per socket: position in its CTA list
  std::size_t busy_sms_ = 0;
  std::uint32_t kernels_done_ = 0;
  Cycles kernel_start_ = 0;
  bool finished_ = false;
  bool started_ = false;
  std::size_t abort_before_ = 0;  // abort(): items before this index end without running further
  std::string cut_short_;
  TimedEvent launch_event_{clock_};
  TimedEvent dispatch_event_{clock_};
  stats::Counter& l1_invalidations_;
  stats::Counter& coherence_cycles_;
  stats::Counter& ctas_dispatched_;
  std::vector<stats::Scalar*>
      kernel_cycles_;  // per item: a kernel's cycles, an application's (first launch to end)
};

}  // namespace numagpu
