#include "cuda/program_launches.hpp"

#include <sysc/kernel/sc_simcontext.h>

#include <chrono>
#include <utility>

namespace numagpu::cuda {

ProgramLaunches::ProgramLaunches(std::string name, HostLaunchContext context)
    : name_(std::move(name)), context_(std::move(context)) {}

bool ProgramLaunches::launch(const std::string& name, std::unique_ptr<kernels::Kernel> kernel) {
  // Built on the program's thread (cheap: the launch's shape; the CTAs execute on the simulation's).
  auto program = std::make_unique<kernels::CppKernelProgram>(name_ + "/" + name, std::move(kernel),
                                                             context_.line_bytes, context_.latencies);
  program->bound_by(context_.bounds);
  std::unique_lock<std::mutex> lock(mutex_);
  if (ended_) return false;
  handed_ = std::move(program);
  handed_name_ = name;
  cv_.notify_all();
  // The kernel has run when the dispatcher took it and then asked for the next one.
  cv_.wait(lock, [this] { return ended_ || (!handed_ && !handed_out_); });
  return !handed_ && !handed_out_;
}

void ProgramLaunches::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  finished_ = true;
  cv_.notify_all();
}

void ProgramLaunches::simulation_ended() {
  std::lock_guard<std::mutex> lock(mutex_);
  ended_ = true;
  cv_.notify_all();
}

double ProgramLaunches::seconds_at_last_end() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return seconds_at_end_;
}

const KernelProgram* ProgramLaunches::next() {
  if (previous_) retired_seconds_ += previous_->generation_seconds();
  previous_ = std::move(current_);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    seconds_at_end_ = sc_core::sc_time_stamp().to_seconds();
    handed_out_ = false;  // the kernel handed out last has run: its launch returns
    cv_.notify_all();
    const auto begin = std::chrono::steady_clock::now();
    cv_.wait(lock, [this] { return handed_ || finished_; });
    waited_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (!handed_) return nullptr;
    current_ = std::move(handed_);
    launch_name_ = handed_name_;
    handed_out_ = true;
  }
  if (context_.check) context_.check(*current_);
  return current_.get();
}

double ProgramLaunches::waited_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waited_;
}

double ProgramLaunches::generation_seconds() const {
  return retired_seconds_ + (previous_ ? previous_->generation_seconds() : 0.0) +
         (current_ ? current_->generation_seconds() : 0.0);
}

}  // namespace numagpu::cuda
