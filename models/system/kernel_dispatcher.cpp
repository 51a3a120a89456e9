#include "system/kernel_dispatcher.hpp"

#include <algorithm>

namespace numagpu {

KernelDispatcher::KernelDispatcher(const sc_core::sc_module_name& name, SimContext& ctx,
                                   std::vector<std::unique_ptr<KernelSequence>> items,
                                   const runtime::Machine& machine,
                                   const runtime::CtaScheduleParams& schedule, Cycles launch_cycles,
                                   Cycles overhead_cycles, stats::Registry& stats)
    : sc_module(name),
      clock_(ctx.clock),
      items_(std::move(items)),
      stats_(stats),
      sockets_(static_cast<unsigned>(machine.sockets())),
      machine_(machine),
      schedule_params_(schedule),
      launch_cycles_(launch_cycles),
      overhead_cycles_(overhead_cycles),
      l1_invalidations_(stats.counter(std::string(this->name()) + ".l1_lines_invalidated", "lines",
                                      "Valid L1 lines dropped at kernel boundaries")),
      coherence_cycles_(stats.counter(std::string(this->name()) + ".coherence_cycles", "cycles",
                                      "Cycles spent on coherence actions at kernel boundaries")),
      ctas_dispatched_(
          stats.counter(std::string(this->name()) + ".ctas_dispatched", "ctas", "CTAs handed to SMs")) {
  for (std::size_t k = 0; k < items_.size(); ++k)
    register_item_stats(k);
  SC_HAS_PROCESS(KernelDispatcher);
  SC_METHOD(on_launch_event);
  sensitive << launch_event_.event();
  dont_initialize();
  SC_METHOD(on_dispatch_event);
  sensitive << dispatch_event_.event();
  dont_initialize();
}

void KernelDispatcher::register_item_stats(std::size_t k) {
  if (items_[k]->is_application()) {
    kernel_cycles_.push_back(&stats_.scalar(std::string(name()) + ".app" + std::to_string(k) + ".cycles",
                                            "cycles",
                                            "Cycles from an application's first kernel launch to its last "
                                            "kernel's completion"));
  } else {
    kernel_cycles_.push_back(&stats_.scalar(std::string(name()) + ".kernel" + std::to_string(k) + ".cycles",
                                            "cycles",
                                            "Cycles from a kernel's launch to its last completion"));
  }
}

std::size_t KernelDispatcher::append(std::unique_ptr<KernelSequence> item) {
  items_.push_back(std::move(item));
  const std::size_t k = items_.size() - 1;
  register_item_stats(k);
  if (started_ && finished_) {  // idle: the new item starts now
    finished_ = false;
    kernel_ = next_kernel();
    if (kernel_) launch_event_.notify_in_ps(0);
  }
  return k;
}

void KernelDispatcher::abort() {
  if (!started_ || finished_) return;
  abort_before_ = items_.size();
  // The current kernel's CTAs not yet handed out stay where they are (dispatch() and launch() look too).
  if (schedule_) {
    for (std::uint16_t s = 0; s < next_cta_.size(); ++s)
      next_cta_[s] = schedule_->ctas_of(s).size();
  }
}

const KernelProgram* KernelDispatcher::skip_aborted() {
  for (std::size_t k = item_; k < abort_before_; ++k) {
    if (on_item_end) on_item_end(k, true);
  }
  item_ = abort_before_;
  abort_before_ = 0;
  item_start_ = kNoStart;
  return next_kernel();
}

void KernelDispatcher::attach(std::vector<std::vector<Sm*>> sms_by_socket,
                              std::function<std::uint64_t()> invalidate_l1s) {
  sms_ = std::move(sms_by_socket);
  invalidate_l1s_ = std::move(invalidate_l1s);
}

const KernelProgram* KernelDispatcher::next_kernel() {
  while (item_ < items_.size()) {
    if (const KernelProgram* k = items_[item_]->next()) return k;
    cut_short_ = items_[item_]->cut_short();
    if (!cut_short_.empty()) return nullptr;  // the workload ends here
    ++item_;
  }
  return nullptr;
}

KernelDispatcher::AppKernelStats& KernelDispatcher::app_stats(const std::string& kernel) {
  const auto key = std::make_pair(item_, kernel);
  auto it = app_stats_.find(key);
  if (it != app_stats_.end()) return it->second;
  const std::string base = std::string(name()) + ".app" + std::to_string(item_) + "." + kernel;
  AppKernelStats s{&stats_.counter(base + ".launches", "kernels", "Launches of an application's kernel"),
                   &stats_.counter(base + ".cycles", "cycles",
                                   "Cycles of an application's kernel, its launches summed (launch to last "
                                   "completion)"),
                   static_cast<std::uint32_t>(app_stats_.size())};
  return app_stats_.emplace(key, s).first->second;
}

void KernelDispatcher::record_carveout(std::uint64_t bytes) {
  const bool app = items_[item_]->is_application();
  const auto key = std::make_pair(item_, app ? items_[item_]->launch_name() : std::string());
  stats::Scalar*& stat = carveout_stats_[key];
  if (!stat) {
    const std::string base = std::string(name()) + (app ? ".app" : ".kernel") + std::to_string(item_) +
                             (app ? "." + key.second : std::string());
    stat = &stats_.scalar(base + ".shared_carveout_bytes", "B",
                          "Shared memory the SMs set aside for the kernel (sm.shared_carveouts: the "
                          "smallest carveout that does not limit its occupancy); the L1 has the rest");
  }
  stat->set(double(bytes));
}

std::vector<KernelDispatcher::AppLaunches> KernelDispatcher::app_launches() const {
  std::vector<AppLaunches> r(app_stats_.size());
  for (const auto& [key, s] : app_stats_)
    r[s.order] = {items_[key.first]->name(), key.second, s.launches->value(), s.cycles->value()};
  return r;
}

void KernelDispatcher::start() {
  started_ = true;
  kernel_ = next_kernel();
  if (!kernel_) {
    finished_ = true;
    if (on_finish) on_finish();
    return;
  }
  launch_event_.notify_in_ps(0);
}

void KernelDispatcher::launch() {
  if (item_ < abort_before_) {  // aborted between the last kernel's end and this launch
    kernel_ = skip_aborted();
    if (!kernel_) {
      finished_ = true;
      if (on_finish) on_finish();
    } else {
      launch_event_.notify_in_ps(0);
    }
    return;
  }
  const KernelProgram& k = *kernel_;
  if (on_kernel_start) on_kernel_start(k);
  schedule_ = std::make_unique<runtime::CtaSchedule>(k.grid(), machine_,
                                                     schedule_for ? schedule_for(k) : schedule_params_);
  next_cta_.assign(sockets_, 0);
  kernel_start_ = clock_.now();
  if (items_[item_]->is_application()) {
    if (item_start_ == kNoStart) item_start_ = kernel_start_;
    app_stats(items_[item_]->launch_name()).launches->add();
  }
  if (on_launch) on_launch();
  if (shared_carveout) record_carveout(shared_carveout(k));
  kernel_id_ = launches_++;
  if (overhead_cycles_ == 0) {
    dispatch();
  } else {
    dispatch_event_.notify_in_ps(clock_.cycles_ps(overhead_cycles_));
  }
}

void KernelDispatcher::dispatch() {
  const KernelProgram& k = *kernel_;
  const std::uint32_t id = kernel_id_;
  if (item_ < abort_before_) abort();  // aborted during the launch overhead: no CTA is placed
  busy_sms_ = 0;
  for (const auto& socket : sms_)
    busy_sms_ += socket.size();
  // Breadth-first, as the hardware's block scheduler spreads a grid: every SM of the socket gets its first
  // CTA before any gets a second. Filling one SM's slots before the next would put a small grid on a
  // fraction of the SMs and leave the rest idle for the whole kernel.
  for (std::uint16_t socket = 0; socket < sms_.size(); ++socket) {
    std::uint32_t rounds = 0;
    for (Sm* sm : sms_[socket])
      rounds = std::max(rounds, sm->prepare_kernel(k, id));
    const std::size_t ctas = schedule_->ctas_of(socket).size();
    for (std::uint32_t slot = 0; slot < rounds && next_cta_[socket] < ctas; ++slot) {
      for (Sm* sm : sms_[socket]) {
        if (next_cta_[socket] >= ctas) break;
        sm->fill_slot(slot);
      }
    }
  }
  for (auto& socket : sms_) {
    for (Sm* sm : socket)
      sm->begin_kernel();
  }
}

bool KernelDispatcher::next_cta(std::uint16_t socket, std::uint32_t& cta) {
  const std::vector<runtime::CtaId>& mine = schedule_->ctas_of(socket);
  std::size_t& next = next_cta_[socket];
  if (next >= mine.size()) return false;
  cta = mine[next++];
  ctas_dispatched_.add();
  return true;
}

void KernelDispatcher::sm_idle(std::uint16_t, std::uint16_t) {
  if (--busy_sms_ > 0) return;
  const KernelSequence& item = *items_[item_];
  if (item.is_application()) {
    kernel_cycles_[item_]->set(double(clock_.now() - item_start_));
    app_stats(item.launch_name()).cycles->add(clock_.now() - kernel_start_);
  } else {
    kernel_cycles_[item_]->set(double(clock_.now() - kernel_start_));
  }
  ++kernels_done_;
  if (on_kernel_end) on_kernel_end(*kernel_);
  if (invalidate_l1s_) l1_invalidations_.add(invalidate_l1s_());
  // Coherence actions of the memory system (write-back and invalidation of remote L2 lines) come next; the
  // following kernel, or the end of the run, waits for them.
  const Cycles boundary_start = clock_.now();
  auto proceed = [this, boundary_start] {
    coherence_cycles_.add(clock_.now() - boundary_start);
    // The next kernel is asked for only now: an application's host program decides on the data its
    // kernels computed (every CTA of this one has executed).
    const std::size_t item = item_;
    if (item_ < abort_before_) {
      kernel_ = skip_aborted();
    } else {
      kernel_ = next_kernel();
      if (item_ != item) item_start_ = kNoStart;
      if ((item_ != item || !kernel_) && on_item_end) on_item_end(item, false);
    }
    if (!kernel_) {
      finished_ = true;
      if (on_finish) on_finish();
      return;
    }
    launch_event_.notify_in_ps(clock_.cycles_ps(launch_cycles_));
  };
  if (on_boundary) {
    on_boundary(proceed);
  } else {
    proceed();
  }
}

}  // namespace numagpu
