#include "sm/sm.hpp"

#include <algorithm>

#include "common/txn.hpp"
#include "mem/home_map.hpp"

namespace numagpu {

namespace {
std::string stat(const sc_core::sc_module& m, const char* leaf) {
  return std::string(m.name()) + "." + leaf;
}

std::array<std::uint32_t, kInstrClasses> pipe_lanes(const SmSpec& spec) {
  std::array<std::uint32_t, kInstrClasses> lanes{};
  lanes[static_cast<unsigned>(InstrClass::kFp32)] = spec.fp32_lanes;
  lanes[static_cast<unsigned>(InstrClass::kFp64)] = spec.fp64_lanes;
  lanes[static_cast<unsigned>(InstrClass::kInt)] = spec.int_lanes;
  lanes[static_cast<unsigned>(InstrClass::kSfu)] = spec.sfu_lanes;
  lanes[static_cast<unsigned>(InstrClass::kTensor)] = spec.tensor_lanes;
  lanes[static_cast<unsigned>(InstrClass::kShared)] = spec.shared_lanes;
  return lanes;
}

unsigned issue_blocks(const SmSpec& spec) {
  return std::clamp(spec.processing_blocks, 1u, IssuePipes::kMaxBlocks);
}
// The blocks block_active_cycles counts: the processing blocks, or (one block, the SM-wide issue model) one
// per issue slot, as Nsight's sub-partitions of an SM that issues issue_width a cycle.
unsigned counted_blocks(const SmSpec& spec) {
  return spec.processing_blocks > 1 ? spec.processing_blocks : std::max(1u, spec.issue_width);
}
}  // namespace

Sm::Sm(const sc_core::sc_module_name& name, SimContext& ctx, const SmSpec& spec, const MachineFacts& facts,
       std::uint16_t socket, std::uint16_t index, TxnPool& pool, HomeMap& homes, CtaSource& source,
       stats::Registry& stats)
    : sc_module(name),
      out((std::string(basename()) + "_out").c_str(), ctx, *this),
      clock_(ctx.clock),
      health_(ctx.health),
      spec_(spec),
      facts_(facts),
      socket_(socket),
      index_(index),
      pool_(pool),
      homes_(homes),
      source_(source),
      pipes_(spec.issue_width, pipe_lanes(spec), spec.constant_cache_ports, issue_blocks(spec),
             spec.register_bank_conflict_cycles, spec.shared_bandwidth_fraction),
      scheduler_(ctx.deliveries),
      instructions_(stats.counter(stat(*this, "instructions"), "instructions", "Warp instructions issued")),
      loads_(stats.counter(stat(*this, "loads"), "requests", "Global load line requests issued")),
      stores_(stats.counter(stat(*this, "stores"), "requests", "Global store line requests issued")),
      atomics_(stats.counter(stat(*this, "atomics"), "requests", "Global atomic line requests issued")),
      ctas_(stats.counter(stat(*this, "ctas"), "ctas", "CTAs completed")),
      mem_stall_events_(
          stats.counter(stat(*this, "outstanding_limit_stalls"), "events",
                        "Times issue stopped because the outstanding-request limit was reached")),
      barriers_(stats.counter(stat(*this, "barriers"), "events", "Warp arrivals at CTA barriers")),
      first_touch_cycles_(stats.counter(stat(*this, "first_touch_cycles"), "cycles",
                                        "Cycles this SM's requests waited for first-touch page migration")),
      load_latency_(stats.average(stat(*this, "load_latency"), "cycles", "Issue-to-data latency of loads")),
      issue_cycles_(stats.counter(stat(*this, "issue_cycles"), "cycles", "Cycles in which the SM issued")),
      thread_instructions_(stats.counter(stat(*this, "thread_instructions"), "instructions",
                                         "Active threads summed over the warp instructions issued (32 per "
                                         "instruction where the workload does not say: synthetic patterns)")),
      constant_cache_passes_(stats.counter(stat(*this, "constant_cache_passes"), "passes",
                                           "Passes of the SM's constant cache: one per distinct address of "
                                           "a warp's __constant__ read (C++ library kernels with dependent "
                                           "latencies)")),
      fp64_second_passes_(stats.counter(stat(*this, "fp64_second_passes"), "passes",
                                        "Second passes of the FP64 pipe: a conversion between float and "
                                        "double takes two (C++ library kernels with dependent latencies)")),
      block_active_cycles_(stats.counter(stat(*this, "block_active_cycles"), "cycles",
                                         "Cycles summed over the SM's processing blocks in which the block "
                                         "had a resident, unfinished warp; warp slot i belongs to block i "
                                         "mod sm.processing_blocks (with one block: i mod sm.issue_width, a "
                                         "block per issue slot) (Nsight's smsp__cycles_active; a run stopped "
                                         "early leaves the warps still resident uncounted)")),
      block_warps_(counted_blocks(spec), 0),
      block_since_(counted_blocks(spec), 0) {
  for (unsigned c = 0; c < kInstrClasses; ++c) {
    class_instructions_[c] =
        &stats.counter(stat(*this, "instructions_") + to_string(static_cast<InstrClass>(c)), "instructions",
                       "Warp instructions issued by class: fp32, fp64, int, sfu, tensor, branch (and "
                       "barriers), shared (shared-memory accesses), memory (global loads, stores, atomics), "
                       "other (unclassified compute: synthetic patterns, traces)");
  }
  const char* kinds[kStallKinds] = {"memory", "barrier", "compute", "outstanding_limit", "no_warp"};
  for (int k = 0; k < kStallKinds; ++k) {
    stalls_[k] =
        &stats.counter(stat(*this, "stall_cycles.") + kinds[k], "cycles",
                       "Cycles with nothing issued, by why the SM stopped: a warp waiting on memory, at "
                       "a barrier, computing, the outstanding-request limit, or no resident warp");
  }
}

std::uint32_t Sm::prepare_kernel(const KernelProgram& program, std::uint32_t kernel_id) {
  program_ = &program;
  kernel_id_ = kernel_id;
  warps_per_cta_ = std::max<std::uint32_t>(1, program.warps_per_cta());
  const std::uint32_t slots =
      spec_.cta_slots({warps_per_cta_, program.registers_per_thread(), program.shared_bytes_per_cta()});
  warps_.assign(std::size_t(slots) * warps_per_cta_, Warp{});
  pending_loads_.assign(spec_.nonblocking_loads ? warps_.size() * kPendingLoads : 0, PendingLoad{});
  schedule_.reset(static_cast<unsigned>(warps_.size()), pipes_.blocks(),
                  spec_.scheduler != WarpScheduler::kGto);
  in_state_ = {};
  warps_left_in_slot_.assign(slots, 0);
  at_barrier_in_slot_.assign(slots, 0);
  resident_ctas_ = 0;
  greedy_.fill(nullptr);
  last_issued_.fill(WarpSchedule::kMaxWarps - 1);  // round-robin starts at each block's lowest warp
  idle_reported_ = false;
  return slots;
}

bool Sm::fill_slot(std::uint32_t slot) {
  return slot < warps_left_in_slot_.size() && launch_cta(slot);
}

void Sm::begin_kernel() {
  if (resident_ctas_ == 0) {
    idle_reported_ = true;
    source_.sm_idle(socket_, index_);
    return;
  }
  wake_at(clock_.now());
}

bool Sm::launch_cta(std::uint32_t slot) {
  std::uint32_t cta;
  if (!source_.next_cta(socket_, cta)) return false;
  const Cycles now = clock_.now();
  for (std::uint32_t w = 0; w < warps_per_cta_; ++w) {
    Warp& warp = warps_[std::size_t(slot) * warps_per_cta_ + w];
    const unsigned before = state_of(warp);
    warp = Warp{};
    warp.cta = cta;
    warp.index = w;
    warp.slot = slot;
    warp.ready_at = now;
    warp.age = next_age_++;
    warp.active = true;
    settle(warp, before, now);
    warp_joins_block(warp, now);
  }
  // The slot's warps are now the youngest: oldest-first order puts them last.
  schedule_.relaunched(slot * warps_per_cta_, warps_per_cta_);
  warps_left_in_slot_[slot] = warps_per_cta_;
  at_barrier_in_slot_[slot] = 0;
  ++resident_ctas_;
  if (!resident_open_) {
    resident_open_ = true;
    resident_since_ = now;
  }
  return true;
}

std::uint64_t Sm::resident_ps_before(Cycles now) const {
  return resident_ps_ +
         (resident_open_ ? clock_.cycle_start_ps(now) - clock_.cycle_start_ps(resident_since_) : 0);
}

void Sm::warp_joins_block(const Warp& w, Cycles now) {
  const unsigned b = block_of(w);
  if (block_warps_[b]++ == 0) block_since_[b] = now;
}

void Sm::warp_leaves_block(const Warp& w, Cycles now) {
  const unsigned b = block_of(w);
  if (--block_warps_[b] == 0) block_active_cycles_.add(now - block_since_[b]);
}

void Sm::wake_at(Cycles cycle) {
  if (wake_cycle_ != kNever && wake_cycle_ <= cycle) return;  // an earlier wake-up is already pending
  wake_cycle_ = cycle;
  // The scheduler cannot take back the later wake-up this one replaces: that one finds wake_cycle_ moved
  // and is ignored (deliver()). Waking in the current cycle from an event between cycle edges (a response
  // arriving at a fraction of a cycle) means now.
  const std::uint64_t at = std::max<std::uint64_t>(clock_.cycle_start_ps(cycle), clock_.now_ps());
  scheduler_.schedule(at, *this, nullptr);
}

void Sm::deliver(Payload*) {
  if (wake_cycle_ != clock_.now()) return;  // replaced by an earlier wake-up, which ran
  issue();
}

void Sm::settle(Warp& w, unsigned before, Cycles now) {
  const unsigned after = state_of(w);
  for (unsigned changed = after ^ before; changed != 0; changed &= changed - 1) {  // only the bits that moved
    const unsigned k = static_cast<unsigned>(__builtin_ctz(changed));
    if ((after >> k) & 1u)
      ++in_state_[k];
    else
      --in_state_[k];
  }
  const bool can_issue = eligible(w);
  schedule_.set_ready(index_of(w), can_issue && w.ready_at <= now);
  if (can_issue && w.ready_at != kNever && w.ready_at > now) schedule_.ready_at(index_of(w), w.ready_at);
}

Sm::Warp* Sm::pick_not_greedy(unsigned block) {
  // Loose round-robin, and greedy-then-round-robin once its greedy warp is not ready: the next ready warp of
  // the block after the one that issued last; greedy-then-oldest, once its greedy warp is not ready: the
  // oldest ready warp.
  const int w = spec_.scheduler == WarpScheduler::kGto
                    ? schedule_.oldest_ready(block)
                    : schedule_.next_ready_after(block, last_issued_[block]);
  return w < 0 ? nullptr : &warps_[static_cast<unsigned>(w)];
}

// Issues from processing block `block` while it has a slot this cycle and a ready warp; says why it stopped
// (the outstanding-request limit: a response will wake the SM).
inline Sm::BlockStop Sm::issue_block(unsigned block, Cycles now) {
  while (pipes_.can_issue(now, block)) {
    Warp* w = pick_ready(now, block);
    if (!w) return BlockStop::kNoWarpReady;
    step_.instructions = 1;                        // programs that bundle no instructions leave it so
    step_.thread_instructions = Step::kFullWarps;  // and those that count no threads, this
    step_.shared_replays = step_.constant_passes = step_.fp64_passes = step_.shuffle_passes = 0;  // no passes
    step_.register_bank_conflicts = 0;
    step_.scoreboarded = false;  // and those whose warps wait at every load, this
    step_.texture = false;       // and those without texture fetches, this
    if (!program_->step(w->cta, w->index, w->next_step, step_)) {
      const unsigned before = state_of(*w);
      w->issued_all = true;
      settle(*w, before, now);
      retire_if_done(*w);
      continue;
    }
    if (step_.kind == Step::Kind::kWait) {  // the scoreboard: no instruction, no issue slot
      ++w->next_step;
      if (spec_.nonblocking_loads && w->loads_returned_through < step_.wait_through)
        wait_for_memory(*w, step_.wait_through, now);
      continue;
    }
    const bool is_memory = step_.kind == Step::Kind::kLoad || step_.kind == Step::Kind::kStore ||
                           step_.kind == Step::Kind::kAtomic;
    if (is_memory && outstanding_ + step_.line_count > spec_.max_outstanding && outstanding_ > 0) {
      mem_stall_events_.add();  // a response will wake us
      return BlockStop::kOutstandingLimit;
    }
    step_.scoreboarded = step_.scoreboarded && spec_.nonblocking_loads;
    if (step_.scoreboarded && w->loads_issued - w->loads_returned_through >= kPendingLoads) {
      wait_for_memory(*w, w->loads_issued - kPendingLoads + 1, now);  // its ring is full: the step waits
      continue;
    }
    // A compute bundle takes one issue slot per instruction and its classes' pipes; the warp goes on when
    // the last of them has issued (sm/issue_pipes.hpp). Anything else takes one slot.
    Cycles issued_by = now;
    if (step_.kind == Step::Kind::kCompute)
      issued_by = pipes_.issue_bundle(now, step_.instructions, step_.classes, step_.shared_replays,
                                      step_.constant_passes, step_.fp64_passes, block,
                                      step_.register_bank_conflicts, step_.shuffle_passes);
    else
      pipes_.issue_one(now, block);
    // Issue cycles: every cycle from now through the last one whose slots the block has taken (a cycle in
    // which any block issues counts once: each block's span starts now, after every span counted before).
    const Cycles busy_through = pipes_.last_busy_cycle(block);
    const Cycles count_from =
        issue_counted_through_ == kNever ? now : std::max(now, issue_counted_through_ + 1);
    if (busy_through >= count_from) {
      issue_cycles_.add(busy_through - count_from + 1);
      issue_counted_through_ = busy_through;
    }
    last_issue_cycle_ =
        last_issue_cycle_ == kNever ? busy_through : std::max(last_issue_cycle_, busy_through);
    greedy_[block] = w;
    last_issued_[block] = index_of(*w);
    ++w->next_step;
    execute(*w, step_, issued_by);
  }
  return BlockStop::kSlotsRanOut;
}

void Sm::issue() {
  ++activations_;
  const Cycles now = clock_.now();
  wake_cycle_ = kNever;
  if (last_issue_cycle_ != now) {
    // The cycles since the last issue went unused; charge those not charged yet (an activation that
    // issued nothing charged up to its own cycle) to why the SM stopped at the previous activation.
    if (last_issue_cycle_ != kNever) {
      const Cycles from = std::max(last_issue_cycle_ + 1, stalls_charged_until_);
      if (now > from) stalls_[static_cast<int>(stall_reason_)]->add(now - from);
      stalls_charged_until_ = now;
    }
  }
  const unsigned blocks = pipes_.blocks();
  bool slot_free = false;
  for (unsigned b = 0; b < blocks && !slot_free; ++b)
    slot_free = pipes_.can_issue(now, b);
  if (!slot_free) {  // this cycle's issue slots are taken (by bundles issued earlier, too)
    wake_at(pipes_.next_free_cycle_any(now));
    return;
  }
  // Warps whose program has ended are retired as they are found (they may still wait for loads). A warp
  // that issued is not ready again before the next cycle, so each slot goes to a different warp.
  schedule_.advance(now, [&](unsigned i) {
    if (ready(warps_[i], now)) schedule_.set_ready(i, true);
  });
  bool limited = false;
  // Bit b: block b may still have a warp ready now, because it stopped with no slot left this cycle. A
  // block that stopped for want of a ready warp has none, unless a CTA launched since (a warp that retired
  // made room): its warps are ready at once, in whichever blocks, so then every block is looked at.
  unsigned maybe_ready = 0;
  const std::uint64_t ages_before = next_age_;
  for (unsigned b = 0; b < blocks && !limited; ++b) {
    const BlockStop stop = issue_block(b, now);
    limited = stop == BlockStop::kOutstandingLimit;
    if (stop == BlockStop::kSlotsRanOut) maybe_ready |= 1u << b;
  }
  stall_reason_ = limited ? Stall::kOutstandingLimit : why_idle();
  if (limited) return;
  if (next_age_ != ages_before) maybe_ready = (1u << blocks) - 1;
  // The earliest cycle a warp may issue again: for a block with a warp still ready now, the next cycle with a
  // free slot of its own; else the earliest future ready cycle (waking no earlier than some block has a slot
  // free: if that warp's block has none, that activation waits for it).
  Cycles next = kNever;
  for (unsigned b = 0; maybe_ready != 0; ++b, maybe_ready >>= 1) {
    if ((maybe_ready & 1u) && pick_ready(now, b))
      next = std::min(next, std::max(now + 1, pipes_.next_free_cycle(now, b)));
  }
  const Cycles ready = schedule_.next_ready_cycle(
      [&](unsigned i, Cycles t) { return eligible(warps_[i]) && warps_[i].ready_at == t; });
  if (ready != kNever) next = std::min(next, std::max({ready, now + 1, pipes_.next_free_cycle_any(now)}));
  if (next != kNever) wake_at(next);
}

// Why no warp may issue next cycle, by priority: one waits on memory, one at a barrier, one computing; or
// none is resident.
Sm::Stall Sm::why_idle() const {
  if (in_state_[0] > 0) return Stall::kMemory;   // kWaitsMemory
  if (in_state_[1] > 0) return Stall::kBarrier;  // kAtBarrier
  return in_state_[2] > 0 ? Stall::kCompute : Stall::kNoWarp;
}

void Sm::count_classes(const Step& step) {
  auto add = [this](InstrClass c, std::uint64_t n) { class_instructions_[static_cast<unsigned>(c)]->add(n); };
  switch (step.kind) {
    case Step::Kind::kCompute: {
      std::uint64_t classified = 0;
      for (unsigned c = 0; c < kInstrClasses; ++c) {
        if (step.classes[c] == 0) continue;
        class_instructions_[c]->add(step.classes[c]);
        classified += step.classes[c];
      }
      // What the step does not classify (all of it, for synthetic and traced compute) is kOther.
      if (classified < step.instructions) add(InstrClass::kOther, step.instructions - classified);
      return;
    }
    case Step::Kind::kBarrier:
      add(InstrClass::kBranch, 1);
      return;
    default:
      add(InstrClass::kMemory, 1);
  }
}

void Sm::execute(Warp& w, const Step& step, Cycles issued_by) {
  const Cycles now = clock_.now();
  const std::uint32_t issued = step.kind == Step::Kind::kCompute ? step.instructions : 1;
  instructions_.add(issued);
  thread_instructions_.add(step.thread_instructions == Step::kFullWarps
                               ? std::uint64_t(Step::kWarpThreads) * issued
                               : step.thread_instructions);
  count_classes(step);
  if (step.constant_passes) constant_cache_passes_.add(step.constant_passes);
  if (step.fp64_passes) fp64_second_passes_.add(step.fp64_passes);
  const unsigned before = state_of(w);
  switch (step.kind) {
    case Step::Kind::kCompute:
      w.ready_at = std::max<Cycles>(now + std::max<Cycles>(1, step.cycles), issued_by);
      settle(w, before, now);
      return;
    case Step::Kind::kBarrier:
      w.ready_at = now + 1;
      settle(w, before, now);
      arrive_at_barrier(w);
      return;
    default:
      break;
  }
  const MemOp op = step.kind == Step::Kind::kStore    ? MemOp::kWrite
                   : step.kind == Step::Kind::kAtomic ? MemOp::kAtomic
                                                      : MemOp::kRead;
  // The warp's state changes before the requests go, so that it is consistent even if a response came back
  // from inside send().
  if (op == MemOp::kWrite) {
    stores_.add(step.line_count);
    w.ready_at = now + 1;  // stores do not block their warp
  } else if (step.scoreboarded) {
    // The warp goes on; a kWait step before the value's first reader holds it (sm.nonblocking_loads).
    loads_.add(step.line_count);
    w.loads_waiting += step.line_count;
    pending(w, ++w.loads_issued) = PendingLoad{now, step.line_count};
    if (step.line_count == 0) scoreboard_response(w, now);
    w.ready_at = now + 1;
  } else {
    (op == MemOp::kRead ? loads_ : atomics_).add(step.line_count);
    w.loads_waiting += step.line_count;
    w.waits_memory = true;
    w.wait_through = kEveryLine;
    w.ready_at = kNever;
  }
  settle(w, before, now);
  // A texture fetch's requests first pass the texture pipeline (sm.texture_latency), then go as a load's.
  const Cycles texture_stages = step.texture && op == MemOp::kRead ? spec_.texture_latency : 0;
  for (unsigned i = 0; i < step.line_count; ++i) {
    Payload& gp = pool_.allocate(op, step.lines[i], facts_.line_bytes);
    NumaAttr& a = attr(gp);
    a.origin_socket = socket_;
    a.origin_sm = index_;
    if (facts_.sectored) a.sectors = step.sectors[i];  // the sectors its threads touch (0: all)
    const runtime::PageTouch touch = homes_.decide_for_request(step.lines[i], socket_);
    a.home_socket = touch.home;
    a.kernel_id = kernel_id_;
    a.issue_cycle = now;
    a.origin_warp = static_cast<std::uint16_t>(&w - warps_.data());
    ++outstanding_;
    // A first touch pays the page's fault and migration before the request can go (memory.migration_cycles).
    const Cycles fault = touch.first_touch ? homes_.migration_cycles() : 0;
    if (fault) first_touch_cycles_.add(fault);
    const Cycles delay = fault + texture_stages;
    out.send(0, gp, delay ? clock_.cycles(delay) : sc_core::SC_ZERO_TIME);
  }
}

void Sm::wait_for_memory(Warp& w, std::uint32_t load, Cycles now) {
  const unsigned before = state_of(w);
  w.waits_memory = true;
  w.wait_through = load;
  w.ready_at = kNever;
  settle(w, before, now);
}

void Sm::scoreboard_response(Warp& w, Cycles issued) {
  for (std::uint32_t n = w.loads_returned_through + 1; n <= w.loads_issued; ++n) {
    PendingLoad& p = pending(w, n);
    if (p.issued == issued && p.lines > 0) {
      --p.lines;
      break;
    }
  }
  while (w.loads_returned_through < w.loads_issued && pending(w, w.loads_returned_through + 1).lines == 0)
    ++w.loads_returned_through;
}

// A CTA barrier: the warp waits until every unfinished warp of its CTA has arrived.
void Sm::arrive_at_barrier(Warp& w) {
  barriers_.add();
  const unsigned before = state_of(w);
  w.at_barrier = true;
  settle(w, before, clock_.now());
  if (++at_barrier_in_slot_[w.slot] >= warps_left_in_slot_[w.slot]) release_barrier(w.slot);
}

void Sm::release_barrier(std::uint32_t slot) {
  const Cycles now = clock_.now();
  for (std::uint32_t k = 0; k < warps_per_cta_; ++k) {
    Warp& w = warps_[std::size_t(slot) * warps_per_cta_ + k];
    if (w.active && w.at_barrier) {
      const unsigned before = state_of(w);
      w.at_barrier = false;
      w.ready_at = std::max(w.ready_at, now + 1);
      settle(w, before, now);
    }
  }
  at_barrier_in_slot_[slot] = 0;
}

void Sm::retire_if_done(Warp& w) {
  if (!w.active || !w.issued_all || w.loads_waiting > 0) return;
  const unsigned before = state_of(w);
  w.active = false;
  settle(w, before, clock_.now());
  warp_leaves_block(w, clock_.now());
  if (--warps_left_in_slot_[w.slot] > 0) {
    // A warp that exits no longer counts for a barrier the others wait at.
    if (at_barrier_in_slot_[w.slot] > 0 && at_barrier_in_slot_[w.slot] >= warps_left_in_slot_[w.slot]) {
      release_barrier(w.slot);
    }
    return;
  }
  ctas_.add();
  --resident_ctas_;
  if (launch_cta(w.slot)) return;
  if (resident_ctas_ == 0 && resident_open_) {
    resident_open_ = false;
    resident_cycles_ += clock_.now() - resident_since_;
    resident_ps_ += clock_.cycle_start_ps(clock_.now()) - clock_.cycle_start_ps(resident_since_);
  }
  if (resident_ctas_ == 0 && outstanding_ == 0 && !idle_reported_) {
    idle_reported_ = true;
    source_.sm_idle(socket_, index_);
  }
}

void Sm::on_response(unsigned, Payload& gp) {
  if (!complete_once(gp, name(), health_)) return;
  NumaAttr& a = attr(gp);
  --outstanding_;
  const Cycles now = clock_.now();
  if (a.op != MemOp::kWrite) {
    load_latency_.sample(double(now - a.issue_cycle));
    Warp& w = warps_.at(a.origin_warp);
    const unsigned before = state_of(w);
    --w.loads_waiting;
    if (w.loads_issued != w.loads_returned_through) scoreboard_response(w, a.issue_cycle);
    if (w.waits_memory && wait_over(w)) {
      w.waits_memory = false;
      w.ready_at = now;
      settle(w, before, now);
    } else if (state_of(w) != before) {  // a warp past its last step whose last line came back
      settle(w, before, now);
    }
    retire_if_done(w);
  }
  gp.release();
  if (resident_ctas_ == 0 && outstanding_ == 0 && !idle_reported_) {
    idle_reported_ = true;
    source_.sm_idle(socket_, index_);
    return;
  }
  wake_at(now);
}

void Sm::report_queues(std::ostream& os) const {
  if (outstanding_ == 0 && out.queued_total() == 0) return;
  os << "  " << name() << ": outstanding " << outstanding_ << "/" << spec_.max_outstanding
     << ", to L1 queued " << out.queued_total() << ", resident CTAs " << resident_ctas_ << "\n";
}

}  // namespace numagpu
