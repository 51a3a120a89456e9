// A CUDA program's launches as the dispatcher takes them (a KernelSequence): the program's own thread (its
// main()) and the simulation's thread take turns, exactly one of them running at any time, as an
// application's host program and the simulation do (kernels/application.hpp); here the program owns the
// process's main thread and the simulation runs on a thread the runtime started.
//
// A launch blocks the program until the kernel has run in the simulation (every CTA executed, the kernel
// boundary's coherence actions done): the dispatcher asking for the next kernel is that moment. So host code
// between two launches takes no simulated time, and what a kernel wrote is there for the host to read.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "kernels/cpp_program.hpp"
#include "system/workload_builder.hpp"

namespace numagpu::cuda {

class ProgramLaunches : public KernelSequence {
 public:
  ProgramLaunches(std::string name, HostLaunchContext context);

  // ---- the program's thread
  // Hands `kernel` to the simulation and waits until it has run (true), or until the simulation ended
  // without running it (false: the run failed or was interrupted).
  bool launch(const std::string& name, std::unique_ptr<kernels::Kernel> kernel);
  // The program launches nothing more: the simulation finishes the workload.
  void finish();
  // The simulation's thread says it has ended (the run returned, however it went): a waiting launch returns.
  void simulation_ended();
  // Simulated seconds when the last kernel ended (what events read; 0 before any).
  double seconds_at_last_end() const;
  // Host seconds the simulation waited while the program ran (its host code between launches).
  double waited_seconds() const;

  // ---- the simulation's thread (the dispatcher)
  const KernelProgram* next() override;
  double generation_seconds() const override;
  bool is_application() const override { return true; }
  const std::string& name() const override { return name_; }
  const std::string& launch_name() const override { return launch_name_; }

 private:
  std::string name_;
  HostLaunchContext context_;
  std::unique_ptr<kernels::CppKernelProgram> current_, previous_;
  std::string launch_name_;
  double retired_seconds_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::unique_ptr<kernels::CppKernelProgram> handed_;  // a launch waiting for the dispatcher
  std::string handed_name_;
  bool handed_out_ = false;  // the dispatcher took the handed launch and has not asked again
  bool finished_ = false;    // the program launches nothing more
  bool ended_ = false;       // the simulation has ended
  double seconds_at_end_ = 0;
  double waited_ = 0;
};

}  // namespace numagpu::cuda
