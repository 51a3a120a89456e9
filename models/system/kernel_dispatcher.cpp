#include "system/kernel_dispatcher.hpp"

namespace numagpu {

KernelDispatcher::KernelDispatcher(const sc_core::sc_module_name& name, SimContext& ctx,
                                   std::vector<std::unique_ptr<KernelProgram>> kernels,
                                   const runtime::Machine& machine,
                                   const runtime::CtaScheduleParams& schedule, Cycles launch_cycles,
                                   stats::Registry& stats)
    : sc_module(name),
      clock_(ctx.clock),
      kernels_(std::move(kernels)),
      sockets_(static_cast<unsigned>(machine.sockets())),
      machine_(machine),
      schedule_params_(schedule),
      launch_cycles_(launch_cycles),
      l1_invalidations_(stats.counter(std::string(this->name()) + ".l1_lines_invalidated", "lines",
                                      "Valid L1 lines dropped at kernel boundaries")),
      coherence_cycles_(stats.counter(std::string(this->name()) + ".coherence_cycles", "cycles",
                                      "Cycles spent on coherence actions at kernel boundaries")),
      ctas_dispatched_(
          stats.counter(std::string(this->name()) + ".ctas_dispatched", "ctas", "CTAs handed to SMs")) {
  for (std::size_t k = 0; k < kernels_.size(); ++k) {
    kernel_cycles_.push_back(
        &stats.scalar(std::string(this->name()) + ".kernel" + std::to_string(k) + ".cycles", "cycles",
                      "Cycles from a kernel's launch to its last completion"));
  }
  SC_HAS_PROCESS(KernelDispatcher);
  SC_METHOD(launch);
  sensitive << launch_event_;
  dont_initialize();
}

void KernelDispatcher::attach(std::vector<std::vector<Sm*>> sms_by_socket,
                              std::function<std::uint64_t()> invalidate_l1s) {
  sms_ = std::move(sms_by_socket);
  invalidate_l1s_ = std::move(invalidate_l1s);
}

void KernelDispatcher::start() {
  if (kernels_.empty()) {
    finished_ = true;
    if (on_finish) on_finish();
    return;
  }
  launch_event_.notify(sc_core::SC_ZERO_TIME);
}

void KernelDispatcher::launch() {
  const KernelProgram& k = *kernels_[current_];
  schedule_ = std::make_unique<runtime::CtaSchedule>(k.grid(), machine_, schedule_params_);
  next_cta_.assign(sockets_, 0);
  kernel_start_ = clock_.now();
  if (on_launch) on_launch();
  busy_sms_ = 0;
  for (const auto& socket : sms_)
    busy_sms_ += socket.size();
  for (auto& socket : sms_) {
    for (Sm* sm : socket)
      sm->start_kernel(k, current_);
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
  kernel_cycles_[current_]->set(double(clock_.now() - kernel_start_));
  ++kernels_done_;
  if (invalidate_l1s_) l1_invalidations_.add(invalidate_l1s_());
  // Coherence actions of the memory system (write-back and invalidation of remote L2 lines) come next; the
  // following kernel, or the end of the run, waits for them.
  const Cycles boundary_start = clock_.now();
  auto proceed = [this, boundary_start] {
    coherence_cycles_.add(clock_.now() - boundary_start);
    if (++current_ >= kernels_.size()) {
      finished_ = true;
      if (on_finish) on_finish();
      return;
    }
    launch_event_.notify(clock_.cycles(launch_cycles_));
  };
  if (on_boundary) {
    on_boundary(proceed);
  } else {
    proceed();
  }
}

}  // namespace numagpu
