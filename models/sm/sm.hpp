// A streaming multiprocessor at foundation detail: resident CTAs up to the warp limit, processing blocks that
// each issue from their own warps (greedy-then-oldest or loose round-robin) through their own slots and
// pipes, loads that block their warp, stores that do not, and a limit on outstanding memory requests.
// Event-driven: when no warp is ready the SM schedules nothing and wakes on the next response or compute
// completion.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include <systemc>

#include "common/host_activity.hpp"
#include "common/machine_facts.hpp"
#include "common/ports.hpp"
#include "common/sim_context.hpp"
#include "common/watchdog.hpp"
#include "sm/issue_pipes.hpp"
#include "sm/sm_spec.hpp"
#include "sm/warp_schedule.hpp"
#include "stats/registry.hpp"
#include "workload/program.hpp"

namespace numagpu {

class TxnPool;
class HomeMap;

// The socket-level CTA dispatcher the SM pulls work from.
class CtaSource {
 public:
  virtual ~CtaSource() = default;
  virtual bool next_cta(std::uint16_t socket, std::uint32_t& cta) = 0;
  virtual void sm_idle(std::uint16_t socket, std::uint16_t sm) = 0;  // no CTA left to run, nothing in flight
};

class Sm : public sc_core::sc_module,
           public OutputOwner,
           public QueueReporter,
           public HostActivitySource,
           private Deliverable {
 public:
  Sm(const sc_core::sc_module_name& name, SimContext& ctx, const SmSpec& spec, const MachineFacts& facts,
     std::uint16_t socket, std::uint16_t index, TxnPool& pool, HomeMap& homes, CtaSource& source,
     stats::Registry& stats);

  RequestOutputs out;  // to this SM's L1

  // A kernel starts in three steps so that the dispatcher can spread its first CTAs breadth-first, one per
  // SM in turn, as the GPU's block scheduler does: prepare (returns the CTA slots the kernel's resources
  // allow), fill slots, begin (an SM that got no CTA reports itself idle). Later CTAs are pulled by the SM
  // itself whenever one of its CTAs finishes.
  std::uint32_t prepare_kernel(const KernelProgram& program, std::uint32_t kernel_id);
  bool fill_slot(std::uint32_t slot);  // false: the socket has no CTA left for this kernel
  void begin_kernel();
  std::uint32_t outstanding() const { return outstanding_; }
  // Cycles in which the SM issued, before the current one (activity; exact whatever runs first at a cycle).
  std::uint64_t issue_cycles_before_now() const {
    return issue_cycles_.value() - (last_issue_cycle_ == clock_.now() ? 1 : 0);
  }
  // Cycles in which at least one CTA was resident, before `now` (an SM without one draws only its static
  // power: the energy model's idle SM).
  std::uint64_t resident_cycles_before(Cycles now) const {
    return resident_cycles_ + (resident_open_ ? now - resident_since_ : 0);
  }
  void report_queues(std::ostream& os) const override;
  void add_host_activity(HostActivity& total) const override { total.activations += activations_; }

  // The counters other parts of the model read (the run summary, the activity recorder), by reference: a
  // statistic renamed or removed then breaks the build, not a run. The registered names are in sm.cpp.
  struct Counters {
    const stats::Counter& instructions;
    const stats::Counter& loads;
    const stats::Counter& stores;
    const stats::Counter& atomics;
    // Warp instructions by class (InstrClass order), adding up to `instructions`.
    std::array<const stats::Counter*, kInstrClasses> by_class;
    const stats::Counter& thread_instructions;  // active threads summed over the instructions
  };
  Counters counters() const {
    std::array<const stats::Counter*, kInstrClasses> by_class{};
    for (unsigned c = 0; c < kInstrClasses; ++c)
      by_class[c] = class_instructions_[c];
    return {instructions_, loads_, stores_, atomics_, by_class, thread_instructions_};
  }

 private:
  static constexpr Cycles kNever = std::numeric_limits<Cycles>::max();
  struct Warp {
    std::uint32_t cta = 0;
    std::uint32_t index = 0;  // warp index within its CTA
    std::uint32_t slot = 0;   // CTA slot on this SM
    std::uint32_t next_step = 0;
    std::uint32_t loads_waiting = 0;
    Cycles ready_at = kNever;
    std::uint64_t age = 0;    // launch order, for "oldest"
    bool active = false;      // resident and not finished
    bool issued_all = false;  // its program has no more steps
    bool at_barrier = false;
  };

  enum class Stall { kMemory, kBarrier, kCompute, kOutstandingLimit, kNoWarp };
  static constexpr int kStallKinds = 5;
  // What a resident warp is doing, for why_idle (bits, counted over the active warps).
  enum : unsigned { kWaitsMemory = 1, kAtBarrier = 2, kComputing = 4 };
  static constexpr int kStateBits = 3;
  static bool eligible(const Warp& w) { return w.active && !w.issued_all && !w.at_barrier; }
  static bool ready(const Warp& w, Cycles now) { return eligible(w) && w.ready_at <= now; }
  static unsigned state_of(const Warp& w) {
    if (!w.active) return 0;
    return (w.loads_waiting > 0 ? kWaitsMemory : 0u) | (w.at_barrier ? kAtBarrier : 0u) |
           (!w.issued_all && w.ready_at != kNever ? kComputing : 0u);
  }
  // Every change to a warp's state goes between state_of() before and settle() after, which keeps the
  // per-state counts and the schedule current.
  void settle(Warp& w, unsigned before, Cycles now);
  void issue();
  enum class BlockStop { kSlotsRanOut, kNoWarpReady, kOutstandingLimit };
  [[gnu::always_inline]] BlockStop issue_block(unsigned block, Cycles now);  // hot: one call per block
  Stall why_idle() const;
  void on_response(unsigned port, Payload& gp) override;
  bool launch_cta(std::uint32_t slot);
  void execute(Warp& w, const Step& step, Cycles issued_by);
  void count_classes(const Step& step);
  void arrive_at_barrier(Warp& w);
  void release_barrier(std::uint32_t slot);
  void retire_if_done(Warp& w);
  void wake_at(Cycles cycle);
  void deliver(Payload* wake_up) override;  // a wake-up from the delivery scheduler
  // The warp processing block `block` issues next: greedy-then-oldest keeps the warp that issued last while
  // it is ready (inline: the common case), else pick_not_greedy.
  Warp* pick_ready(Cycles now, unsigned block) {
    Warp* greedy = greedy_[block];
    if (spec_.scheduler != WarpScheduler::kLrr && greedy && ready(*greedy, now)) return greedy;
    return pick_not_greedy(block);
  }
  Warp* pick_not_greedy(unsigned block);
  unsigned index_of(const Warp& w) const { return static_cast<unsigned>(&w - warps_.data()); }

  const GpuClock& clock_;
  RunHealth& health_;
  SmSpec spec_;
  MachineFacts facts_;
  std::uint16_t socket_;
  std::uint16_t index_;
  TxnPool& pool_;
  HomeMap& homes_;
  CtaSource& source_;

  const KernelProgram* program_ = nullptr;
  std::uint32_t kernel_id_ = 0;
  std::uint32_t warps_per_cta_ = 1;
  std::vector<Warp> warps_;
  WarpSchedule schedule_;                             // ready warps by age, future ready cycles
  std::array<std::uint32_t, kStateBits> in_state_{};  // active warps with each state bit
  std::vector<std::uint32_t> warps_left_in_slot_;     // warps of the slot's CTA not finished
  std::vector<std::uint32_t> at_barrier_in_slot_;     // of those, waiting at a barrier
  Step step_;                                         // scratch for the next instruction
  std::uint32_t resident_ctas_ = 0;
  std::uint32_t outstanding_ = 0;
  std::uint64_t next_age_ = 0;
  std::array<Warp*, IssuePipes::kMaxBlocks> greedy_{};  // per processing block: the warp that issued last
  std::array<unsigned, IssuePipes::kMaxBlocks> last_issued_{};  // the same by index, for round-robin
  bool idle_reported_ = true;
  Cycles wake_cycle_ = kNever;
  Cycles last_issue_cycle_ = kNever;
  Cycles stalls_charged_until_ = 0;        // stall cycles before this one are counted
  IssuePipes pipes_;                       // issue slots and execution pipes
  Cycles issue_counted_through_ = kNever;  // issue_cycles counted up to this cycle
  Stall stall_reason_ = Stall::kNoWarp;
  std::array<stats::Counter*, kStallKinds> stalls_{};
  DeliveryScheduler& scheduler_;   // the machine's (SimContext): this SM's wake-ups
  std::uint64_t activations_ = 0;  // issue() calls (host activity)

  stats::Counter& instructions_;
  stats::Counter& loads_;
  stats::Counter& stores_;
  stats::Counter& atomics_;
  stats::Counter& ctas_;
  stats::Counter& mem_stall_events_;
  stats::Counter& barriers_;
  stats::Counter& first_touch_cycles_;
  stats::Average& load_latency_;
  stats::Counter& issue_cycles_;
  stats::Counter& thread_instructions_;
  stats::Counter& constant_cache_passes_;
  stats::Counter& fp64_second_passes_;
  stats::Counter& block_active_cycles_;
  std::array<stats::Counter*, kInstrClasses> class_instructions_{};
  bool resident_open_ = false;  // a CTA is resident since resident_since_
  Cycles resident_since_ = 0;
  std::uint64_t resident_cycles_ = 0;  // closed spans with a resident CTA
  // Processing blocks as counted for Nsight's smsp__cycles_active (a block with a resident warp): warp slot i
  // belongs to block i mod sm.processing_blocks, as Volta binds a warp to one block's scheduler (the blocks
  // the issue model has: IssuePipes), or with one processing block i mod issue_width, one per issue slot.
  unsigned block_of(const Warp& w) const { return index_of(w) % static_cast<unsigned>(block_warps_.size()); }
  void warp_joins_block(const Warp& w, Cycles now);
  void warp_leaves_block(const Warp& w, Cycles now);
  std::vector<std::uint32_t> block_warps_;  // resident, unfinished warps per block
  std::vector<Cycles> block_since_;         // when each block's current span of activity began
};

}  // namespace numagpu
