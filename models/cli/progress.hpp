// The progress line on a terminal: simulated cycle, kernels done, requests completed, host requests per
// second. It samples every `every` simulated cycles (cheap) and redraws at most four times a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>

#include <systemc>

#include "common/sim_context.hpp"

namespace numagpu {

class ProgressLine : public sc_core::sc_module {
 public:
  struct Probes {
    std::function<std::uint64_t()> requests_completed;
    std::function<std::uint32_t()> kernels_done;
    std::function<bool()> finished;
    std::uint32_t kernels_total = 0;  // 0: not known in advance (applications launch as they run)
  };
  ProgressLine(const sc_core::sc_module_name& name, SimContext& ctx, Probes probes, std::ostream& os,
               Cycles every = 20000);
  void start();
  void halt();    // stops sampling (the workload is done); the line stays until finish()
  void finish();  // clears the line

 private:
  void tick();
  void draw(bool final_line);

  const GpuClock& clock_;
  Probes probes_;
  std::ostream& os_;
  Cycles every_;
  sc_core::sc_event tick_event_;
  std::chrono::steady_clock::time_point started_, last_draw_;
  bool drawn_ = false;
};

}  // namespace numagpu
